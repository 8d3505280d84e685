// The root of a tool's schemas must be `type: object`. For inputSchema every MCP revision says so.
// For outputSchema the 2026-07-28 revision allows any schema, but the clients of the older
// revisions (both SDKs in their default, legacy mode) parse tools/list with a schema that insists
// on `type: object` and throw away the whole list when one tool breaks it.
import { getPair, isMap, isScalar } from '../../parse/nodes.js';
import { headlineFits } from '../../wording/headlines.js';
import { defineRule } from '../rule.js';
import { catalogDeclarationsOf, describeTool, type ToolDecl } from '../../model/catalogDeclarations.js';

export const rule = defineRule({
  id: 'catalog/schema-root',
  defaultSeverity: 'error',
  summary: 'An inputSchema or outputSchema whose root is not `type: object`.',
  kinds: ['tool-catalog'],
  messages: {
    /** `what`: what the root has instead (`has no \`type\` at its root`). */
    inputNotObject: ({ tool, what }: { tool: ToolDecl; what: string }) =>
      `${rootHead('inputSchema', tool, what)}: make it \`type: object\`. MCP requires \`type: object\` there in every revision (arguments ` +
      "are always an object of named values), and clients built on the MCP SDKs reject the server's whole tool list " +
      'because of this one schema. Put the arguments under `properties`.',
    outputNotObject: ({ tool, what }: { tool: ToolDecl; what: string }) =>
      `${rootHead('outputSchema', tool, what)}: wrap the result in an object. That is legal in the 2026-07-28 MCP revision, but every ` +
      'client of the older revisions (2025-11-25 and before, which is what the SDK clients negotiate by default) ' +
      "rejects the server's WHOLE tool list because of it, not just this tool. Use `type: object` with the value under a property.",
  },
  check(ctx) {
    for (const tool of catalogDeclarationsOf(ctx).tools) {
      for (const key of ['inputSchema', 'outputSchema'] as const) {
        const pair = getPair(tool.node, key);
        // A schema that is not a mapping at all is schema/wrong-type's finding.
        if (!pair || !isMap(pair.value)) continue;
        const typePair = getPair(pair.value, 'type');
        if (typePair && isScalar(typePair.value) && typePair.value.value === 'object') continue;
        const written =
          typePair?.value && typePair.value.span.end > typePair.value.span.start
            ? ctx.file.source.text.slice(typePair.value.span.start, typePair.value.span.end)
            : undefined;
        const what =
          written !== undefined ? `has \`type: ${oneLine(written)}\` at its root` : 'has no `type` at its root';
        const span = written !== undefined ? typePair!.value!.span : pair.key.span;
        ctx.report({
          messageId: key === 'inputSchema' ? 'inputNotObject' : 'outputNotObject',
          data: { tool, what },
          span,
        });
      }
    }
  },
});

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 40 ? `${flat.slice(0, 37)}...` : flat;
}

/** `The inputSchema of tool "x" of server "y" has ...`, or `This inputSchema has ...` when the tool's name makes it too long for a row. */
function rootHead(key: string, tool: ToolDecl, what: string): string {
  const named = `The ${key} of ${describeTool(tool)} ${what}`;
  return headlineFits(`${named}: wrap the result in an object.`) ? named : `This ${key} ${what}`;
}
