// `x-mcp-header` on an input property (2026-07-28; server/tools "x-mcp-header" and the Streamable
// HTTP transport's "Custom Headers from Tool Parameters"): the property's value is mirrored into an
// `Mcp-Param-{name}` HTTP header. The value must be a non-empty RFC 9110 token without control
// characters, unique among the schema's x-mcp-header values ignoring case, on a property of type
// integer, string or boolean (not number), reachable from the root through `properties` alone.
// A client on Streamable HTTP MUST leave a tool that breaks any of this out of its tool list; one
// on stdio may ignore the annotation. Before 2026-07-28 the key means nothing and is not checked;
// where the catalog records no revision, the findings are warnings (the tool's fate depends on a
// revision Tool Lens cannot see).
import { getPair, isMap, isScalar, isSeq, type MapNode, type Node, type ScalarNode } from '../../parse/nodes.js';
import { defineRule, type RuleContext } from '../rule.js';
import {
  catalogDeclarationsOf,
  describeTool,
  REVISION_2026,
  revisionAtLeast,
  type ToolDecl,
} from '../../model/catalogDeclarations.js';

const KEY = 'x-mcp-header';
/** RFC 9110 section 5.6.2: token = 1*tchar. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const ALLOWED_TYPES = new Set(['string', 'integer', 'boolean']);
/** Keywords whose value maps names to schemas: a key there is a name, not a keyword. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is data, not schema. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);

const DROPPED =
  'Clients on the Streamable HTTP transport must leave the tool out of their tool list (clients on stdio may ignore the annotation).';

const messages = {
  empty: ({ tool }: { tool: ToolDecl }) =>
    `This x-mcp-header is empty: name the header, or remove the annotation. MCP requires a non-empty header name. ` +
    `${DROPPED} It is in the inputSchema of ${describeTool(tool)}.`,
  notString: ({ tool }: { tool: ToolDecl }) =>
    `This x-mcp-header is not a string: write the header name as a string. ` +
    `${DROPPED} It is in the inputSchema of ${describeTool(tool)}.`,
  controlChar: ({ tool }: { tool: ToolDecl }) =>
    `This x-mcp-header holds a control character (a line break?): remove it. MCP forbids control characters, CR and LF ` +
    `above all, in a header name, which could otherwise smuggle in headers of its own. ${DROPPED} It is in the inputSchema of ${describeTool(tool)}.`,
  /** `value`: the name; `bad`: its first character outside the token set, described. */
  notToken: ({ value, bad, tool }: { value: string; bad: string; tool: ToolDecl }) =>
    `The x-mcp-header "${value}" is not an HTTP token (${bad}): use letters, digits and \`-\`. ` +
    `MCP requires a header name of RFC 9110 token characters only. ${DROPPED} It is in the inputSchema of ${describeTool(tool)}.`,
  /** `first`: the value it repeats, as written there. */
  duplicate: ({ value, first, tool }: { value: string; first: string; tool: ToolDecl }) =>
    `The x-mcp-header "${value}" repeats "${first}" (case does not count): give each header its own name. ` +
    `MCP requires the x-mcp-header values of one inputSchema to differ ignoring case, as HTTP header names do. ` +
    `${DROPPED} It is in the inputSchema of ${describeTool(tool)}.`,
  numberType: ({ tool }: { tool: ToolDecl }) =>
    `This x-mcp-header is on a property of type number: make it an integer or a string. ` +
    'MCP allows the annotation only on integer, string and boolean properties: a number has no single way to be ' +
    `written in a header. ${DROPPED} It is in the inputSchema of ${describeTool(tool)}.`,
  /** `type`: the type as written. */
  wrongType: ({ type, tool }: { type: string; tool: ToolDecl }) =>
    `This x-mcp-header is on a property of type \`${type}\`: make it integer, string or boolean. ` +
    `MCP allows the annotation only on those primitive types. ${DROPPED} It is in the inputSchema of ${describeTool(tool)}.`,
  /** `via`: the keyword on the way that is not `properties` ('' when the annotation is on the root). */
  unreachable: ({ via, tool }: { via: string; tool: ToolDecl }) =>
    `This x-mcp-header is ${via === '' ? 'on the root, not on a property' : `under \`${via}\`, not reachable through \`properties\` alone`}: move it or remove it. ` +
    'MCP allows the annotation only on a property reached from the root by a chain of `properties` keys, never through ' +
    `\`items\`, \`anyOf\`, \`if\`, \`$ref\` or the like. ${DROPPED} It is in the inputSchema of ${describeTool(tool)}.`,
};

type Ctx = RuleContext<typeof messages>;

export const rule = defineRule({
  id: 'catalog/mcp-header',
  defaultSeverity: 'error',
  summary: 'An `x-mcp-header` annotation that makes HTTP clients drop the tool (2026-07-28).',
  kinds: ['tool-catalog'],
  messages,
  check(ctx) {
    for (const tool of catalogDeclarationsOf(ctx).tools) {
      const since2026 = revisionAtLeast(tool.server, REVISION_2026);
      if (since2026 === false) continue;
      const schema = getPair(tool.node, 'inputSchema')?.value;
      if (!isMap(schema)) continue;
      const found: Annotation[] = [];
      collect(schema, [], found);
      const report: Ctx['report'] = (finding) =>
        ctx.report({ ...finding, ...(since2026 ? {} : { severity: 'warning' }) });
      const seen = new Map<string, string>();
      for (const annotation of found) checkOne({ ...ctx, report }, tool, annotation, seen);
    }
  },
});

interface Annotation {
  value: Node | null;
  keySpan: ScalarNode['span'];
  /** The schema the annotation sits in. */
  schema: MapNode;
  /** The keys from the inputSchema's root to that schema. */
  path: string[];
}

/** Every x-mcp-header of a schema tree, in document order, with the path to the schema holding it. */
function collect(node: Node, path: string[], out: Annotation[]): void {
  if (isSeq(node)) {
    node.items.forEach((item, index) => collect(item, [...path, String(index)], out));
    return;
  }
  if (!isMap(node)) return;
  const isNameMap = SCHEMA_MAPS.has(path[path.length - 1] ?? '');
  for (const pair of node.pairs) {
    const key = String(pair.key.value);
    if (!isNameMap && key === KEY) {
      out.push({ value: pair.value, keySpan: pair.key.span, schema: node, path });
      continue;
    }
    if (!isNameMap && DATA_KEYWORDS.has(key)) continue;
    if (pair.value) collect(pair.value, [...path, key], out);
  }
}

function checkOne(ctx: Ctx, tool: ToolDecl, annotation: Annotation, seen: Map<string, string>): void {
  const span = annotation.value?.span ?? annotation.keySpan;
  // Reachable: properties, NAME, properties, NAME, ... and nothing else.
  const via = annotation.path.find((key, index) => index % 2 === 0 && key !== 'properties');
  if (annotation.path.length === 0 || via !== undefined) {
    ctx.report({ messageId: 'unreachable', data: { via: via ?? '', tool }, span: annotation.keySpan });
    return;
  }
  const value = annotation.value;
  if (!isScalar(value) || typeof value.value !== 'string') {
    ctx.report({ messageId: 'notString', data: { tool }, span });
    return;
  }
  const name = value.value;
  if (name === '') return void ctx.report({ messageId: 'empty', data: { tool }, span });
  if (CONTROL.test(name)) return void ctx.report({ messageId: 'controlChar', data: { tool }, span });
  if (!TOKEN.test(name)) {
    const bad = [...name].find((ch) => !TOKEN.test(ch))!;
    ctx.report({ messageId: 'notToken', data: { value: name, bad: describeChar(bad), tool }, span });
    return;
  }
  const typeNode = getPair(annotation.schema, 'type')?.value;
  const types = isScalar(typeNode)
    ? [typeNode.value]
    : isSeq(typeNode)
      ? typeNode.items.map((item) => (isScalar(item) ? item.value : undefined))
      : [];
  if (types.includes('number')) {
    ctx.report({ messageId: 'numberType', data: { tool }, span });
    return;
  }
  const wrong = types.find((type) => typeof type !== 'string' || !ALLOWED_TYPES.has(type));
  if (wrong !== undefined || (typeNode && types.length === 0)) {
    const written = typeNode ? ctx.file.source.text.slice(typeNode.span.start, typeNode.span.end) : String(wrong);
    ctx.report({ messageId: 'wrongType', data: { type: written.replace(/\s+/g, ' '), tool }, span });
    return;
  }
  const lower = name.toLowerCase();
  const first = seen.get(lower);
  if (first !== undefined) ctx.report({ messageId: 'duplicate', data: { value: name, first, tool }, span });
  else seen.set(lower, name);
}

function describeChar(ch: string): string {
  if (ch === ' ') return 'a space';
  const code = ch.codePointAt(0)!;
  return code < 0x7f && code > 0x20 ? `\`${ch}\`` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
