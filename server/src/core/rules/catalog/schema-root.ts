// The root of a tool's schemas as the clients parse it. For inputSchema every MCP revision says
// `type: object`. For outputSchema the revisions up to 2025-11-25 say so too, and 2026-07-28 allows
// any schema; but the clients of the older revisions (the official TypeScript SDK v1 speaks up to
// 2025-11-25) parse tools/list with a schema that insists on `type: object` and throw away the
// whole list when one tool breaks it. The same parse wants every top-level property schema to be
// an object: `properties: {a: true}` is valid JSON Schema, and it still loses the whole list.
// Severity follows the revision the snapshot records: an error where the spec or the clients of
// that revision refuse it, a warning where only older clients do.
import { getPair, isMap, isScalar, type Pair } from '../../parse/nodes.js';
import { headlineFits } from '../../wording/headlines.js';
import { defineRule, type RuleContext } from '../rule.js';
import {
  catalogDeclarationsOf,
  describeTool,
  REVISION_2026,
  revisionAtLeast,
  type ToolDecl,
} from '../../model/catalogDeclarations.js';

const OLDER_CLIENTS =
  'clients of the older revisions (2025-11-25 and before; the official TypeScript SDK v1 speaks no later one) reject ' +
  "the server's WHOLE tool list because of it, not just this tool";

const WRAP = 'wrap the result in an object';

const messages = {
  /** `what`: what the root has instead (`has no \`type\` at its root`). */
  inputNotObject: ({ tool, what }: { tool: ToolDecl; what: string }) =>
    `${rootHead('inputSchema', tool, what, 'make it `type: object`')}: make it \`type: object\`. MCP requires \`type: object\` ` +
    'there in every revision (arguments are always an object of named values), and clients built on the MCP SDKs ' +
    "reject the server's whole tool list because of this one schema. Put the arguments under `properties`.",
  /** The snapshot does not record the revision its tools were listed under. */
  outputNotObject: ({ tool, what }: { tool: ToolDecl; what: string }) =>
    `${rootHead('outputSchema', tool, what, WRAP)}: ${WRAP}. That is legal in the 2026-07-28 MCP revision, but every ` +
    'client of the older revisions (2025-11-25 and before, which is what the SDK clients negotiate by default) ' +
    "rejects the server's WHOLE tool list because of it, not just this tool. Use `type: object` with the value under a property.",
  /** `revision`: the revision recorded, before 2026-07-28. */
  outputNotObjectInRevision: ({ tool, what, revision }: { tool: ToolDecl; what: string; revision: string }) =>
    `${rootHead('outputSchema', tool, what, WRAP)}: ${WRAP}. MCP ${revision}, the revision its tools were listed under, ` +
    `requires \`type: object\` at the root of an outputSchema, and ${OLDER_CLIENTS}. Use \`type: object\` with the value under a property.`,
  /** `revision`: the revision recorded, 2026-07-28 or later. */
  outputNotObjectLegal: ({ tool, what, revision }: { tool: ToolDecl; what: string; revision: string }) =>
    `${rootHead('outputSchema', tool, what, 'wrap the result for older clients')}: wrap the result for older clients. MCP ${revision}, the ` +
    `revision its tools were listed under, allows any outputSchema; but ${OLDER_CLIENTS}. ` +
    'If the server also answers them, use `type: object` with the value under a property.',
  /** `key`: inputSchema or outputSchema; `property`: the property whose schema is a boolean. */
  booleanProperty: ({ tool, key, property, value }: { tool: ToolDecl; key: string; property: string; value: string }) =>
    `Property "${property}" of this ${key} is the schema \`${value}\`: write it as ${value === 'false' ? '`{not: {}}`' : '`{}`'}. ` +
    `A boolean schema is valid JSON Schema, but the official TypeScript SDK client (v1, 1.32.2 tried) wants every ` +
    `property of a tool's ${key} to be an object and rejects the server's WHOLE tool list because of this one, not just ` +
    `${describeTool(tool)}.`,
};

export const rule = defineRule({
  id: 'catalog/schema-root',
  defaultSeverity: 'error',
  summary: 'An inputSchema or outputSchema whose root the clients refuse: not `type: object`, or a boolean property.',
  kinds: ['tool-catalog'],
  messages,
  check(ctx) {
    for (const tool of catalogDeclarationsOf(ctx).tools) {
      const legal2026 = revisionAtLeast(tool.server, REVISION_2026);
      for (const key of ['inputSchema', 'outputSchema'] as const) {
        const pair = getPair(tool.node, key);
        // A schema that is not a mapping at all is schema/wrong-type's finding.
        if (!pair || !isMap(pair.value)) continue;
        const typePair = getPair(pair.value, 'type');
        if (!(typePair && isScalar(typePair.value) && typePair.value.value === 'object')) {
          reportRoot(ctx, tool, key, pair, typePair, legal2026);
          continue; // the root is the one mistake; its properties wait until it is an object
        }
        const properties = getPair(pair.value, 'properties')?.value;
        if (!isMap(properties)) continue;
        for (const property of properties.pairs) {
          if (!isScalar(property.value) || typeof property.value.value !== 'boolean') continue;
          ctx.report({
            ...(legal2026 ? { severity: 'warning' as const } : {}),
            messageId: 'booleanProperty',
            data: { tool, key, property: String(property.key.value), value: String(property.value.value) },
            span: property.value.span,
          });
        }
      }
    }
  },
});

function reportRoot(
  ctx: RuleContext<typeof messages>,
  tool: ToolDecl,
  key: 'inputSchema' | 'outputSchema',
  pair: Pair,
  typePair: Pair | undefined,
  legal2026: boolean | undefined,
): void {
  const written =
    typePair?.value && typePair.value.span.end > typePair.value.span.start
      ? ctx.file.source.text.slice(typePair.value.span.start, typePair.value.span.end)
      : undefined;
  const what = written !== undefined ? `has \`type: ${oneLine(written)}\` at its root` : 'has no `type` at its root';
  const span = written !== undefined ? typePair!.value!.span : pair.key.span;
  if (key === 'inputSchema') {
    ctx.report({ messageId: 'inputNotObject', data: { tool, what }, span });
    return;
  }
  const revision = tool.server.revision;
  if (legal2026 === undefined || revision === undefined)
    ctx.report({ messageId: 'outputNotObject', data: { tool, what }, span });
  else if (legal2026)
    // Spec-legal: only the clients of older revisions refuse it.
    ctx.report({ severity: 'warning', messageId: 'outputNotObjectLegal', data: { tool, what, revision }, span });
  else ctx.report({ messageId: 'outputNotObjectInRevision', data: { tool, what, revision }, span });
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 40 ? `${flat.slice(0, 37)}...` : flat;
}

/** `The inputSchema of tool "x" of server "y" has ...`, or `This inputSchema has ...` when the tool's name makes it too long for a row. */
function rootHead(key: string, tool: ToolDecl, what: string, action: string): string {
  const named = `The ${key} of ${describeTool(tool)} ${what}`;
  return headlineFits(`${named}: ${action}.`) ? named : `This ${key} ${what}`;
}
