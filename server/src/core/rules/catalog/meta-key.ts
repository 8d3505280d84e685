// The keys of a tool's `_meta` (MCP basic/index "_meta", the MetaObject of the schema, since
// 2025-06-18): an optional prefix of dot-separated labels and a slash, then a name. Labels start
// with a letter and end with a letter or digit; a name, unless empty, starts and ends with a
// letter or digit. Prefixes are reserved for MCP by their labels: from 2025-11-25 on, any prefix
// whose second label is `modelcontextprotocol` or `mcp`; in 2025-06-18, one where either word is
// followed by another label. No client refuses a tool for its `_meta`, so this is a warning.
// `io.modelcontextprotocol/` itself is left alone: official extensions define keys under it
// (`io.modelcontextprotocol/ui`, `.../tasks`), and Tool Lens cannot list every one.
import { getPair, isMap } from '../../parse/nodes.js';
import { defineRule } from '../rule.js';
import {
  catalogDeclarationsOf,
  describeTool,
  revisionAtLeast,
  type ToolDecl,
} from '../../model/catalogDeclarations.js';

const LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const NAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$/;
const MCP_WORDS = new Set(['modelcontextprotocol', 'mcp']);
/** The prefix official extensions put their keys under. */
const EXTENSIONS_PREFIX = 'io.modelcontextprotocol';

export const rule = defineRule({
  id: 'catalog/meta-key',
  defaultSeverity: 'warning',
  summary: "A key of a tool's `_meta` that breaks MCP's key grammar, or uses a prefix MCP reserves.",
  kinds: ['tool-catalog'],
  messages: {
    /** `label`: the first label of the prefix that breaks the grammar ('' for an empty one). */
    badPrefix: ({ key, label, tool }: { key: string; label: string; tool: ToolDecl }) =>
      `The prefix of _meta key "${key}" breaks MCP's grammar: use reverse DNS, like \`com.example/\`. ` +
      `Its label ${label === '' ? 'between two dots (or before the slash) is empty' : `"${label}" does not start with a letter and end with a letter or digit`}. ` +
      `MCP requires each dot-separated label of a prefix to start with a letter, end with a letter or digit, and hold only ` +
      `letters, digits and hyphens. It is in ${describeTool(tool)}.`,
    badName: ({ key, name, tool }: { key: string; name: string; tool: ToolDecl }) =>
      `The name of _meta key "${key}" breaks MCP's grammar: ${/^[A-Za-z0-9._-]*$/.test(name) ? 'make it start and end alphanumeric' : 'use letters, digits, `-`, `_`, `.`'}. ` +
      `Its name part is "${name}": MCP requires a name to start and end with a letter or digit, with only letters, digits, ` +
      `\`-\`, \`_\` and \`.\` between (and no \`/\`). It is in ${describeTool(tool)}.`,
    /** `prefix`: the prefix with its slash. */
    reserved: ({ key, prefix, tool }: { key: string; prefix: string; tool: ToolDecl }) =>
      `The _meta key "${key}" is in a prefix MCP reserves: use a prefix of your own. ` +
      `MCP reserves prefixes named after itself (here \`${prefix}\`) for its own keys and those of its official ` +
      `extensions; a server that puts its own data there may collide with a future MCP key. It is in ${describeTool(tool)}.`,
  },
  check(ctx) {
    for (const tool of catalogDeclarationsOf(ctx).tools) {
      const meta = getPair(tool.node, '_meta')?.value;
      // `_meta` that is no mapping is schema/wrong-type's. Before 2025-06-18 there was no grammar.
      if (!isMap(meta) || revisionAtLeast(tool.server, '2025-06-18') === false) continue;
      const newer = revisionAtLeast(tool.server, '2025-11-25') !== false;
      for (const pair of meta.pairs) {
        const key = String(pair.key.value);
        const slash = key.indexOf('/');
        const prefix = slash < 0 ? undefined : key.slice(0, slash);
        const name = slash < 0 ? key : key.slice(slash + 1);
        const labels = prefix?.split('.') ?? [];
        const badLabel = labels.find((label) => !LABEL.test(label));
        if (prefix !== undefined && badLabel !== undefined) {
          ctx.report({ messageId: 'badPrefix', data: { key, label: badLabel, tool }, span: pair.key.span });
          continue;
        }
        if (!NAME.test(name)) {
          ctx.report({ messageId: 'badName', data: { key, name, tool }, span: pair.key.span });
          continue;
        }
        if (prefix === undefined || prefix === EXTENSIONS_PREFIX) continue;
        const lower = labels.map((l) => l.toLowerCase());
        const reserved = newer
          ? lower.length >= 2 && MCP_WORDS.has(lower[1]!)
          : lower.slice(0, -1).some((l) => MCP_WORDS.has(l));
        if (reserved)
          ctx.report({ messageId: 'reserved', data: { key, prefix: `${prefix}/`, tool }, span: pair.key.span });
      }
    }
  },
});
