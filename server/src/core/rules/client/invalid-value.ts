// client/invalid-value: a setting of a server entry whose value the client reads from a closed set,
// set to a value outside it. Codex reads `default_tools_approval_mode` and each
// `tools.<name>.approval_mode` as its AppToolApproval enum (codex-rs/config/src/mcp_types.rs, a serde
// enum with no fallback): another value fails the deserialisation of the whole configuration, and
// `codex` stops with "Error loading config.toml" (codex-rs/exec/src/lib.rs run_main). The sets are
// the client's facts (model/clients.ts `valueSets`), each with where it was read; a value some
// version of the client takes (Codex's newer `writes`) is never reported.
import { clientViewOf, entryFactsOf } from '../../model/clients.js';
import { getPair, isMap, isScalar, keyText, type Node, type Pair } from '../../parse/nodes.js';
import { quotedAlternatives } from '../../text/words.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  id: 'client/invalid-value',
  defaultSeverity: 'error',
  summary: 'A server setting whose value its client refuses (Codex\'s `default_tools_approval_mode = "always"`).',
  kinds: ['mcp-servers'],
  messages: {
    /** `key`: the setting's own name (`approval_mode`); `at`: its whole path in the entry (`tools.search.approval_mode`). */
    refused: (d: { client: string; key: string; at: string; value: string; accepted: string }) =>
      `${d.client} refuses ${d.key} = "${d.value}": use ${d.accepted}. ` +
      `${d.at} takes these values only, in exactly this spelling.`,
  },
  check(ctx) {
    const view = clientViewOf(ctx);
    const sets = entryFactsOf(view)?.valueSets;
    if (!view.client || !sets) return;
    const client = view.client.label;
    for (const server of view.servers) {
      for (const set of sets) {
        for (const { key, pair } of pairsAt(server.entry, set.path)) {
          const node = pair.value;
          if (!isScalar(node) || node.value === null) continue;
          const value = String(node.value);
          if (typeof node.value === 'string' && set.values.includes(value)) continue;
          ctx.report({
            messageId: 'refused',
            data: {
              client,
              key: set.path[set.path.length - 1] ?? key,
              at: key,
              value,
              accepted: quotedAlternatives(set.values),
            },
            span: node.span,
            severity: set.severity,
            related: [{ span: server.pair.key.span, message: `${set.effect}.` }],
          });
        }
      }
    }
  },
});

/** The pairs at a path under an entry (`*`: every key of that map), each with its dotted key. */
function pairsAt(entry: Node | null | undefined, path: readonly string[], prefix = ''): { key: string; pair: Pair }[] {
  const [head, ...rest] = path;
  if (head === undefined || !isMap(entry)) return [];
  const pairs = head === '*' ? entry.pairs : [getPair(entry, head)].filter((p): p is Pair => p !== undefined);
  return pairs.flatMap((pair) => {
    const key = `${prefix}${keyText(pair)}`;
    return rest.length === 0 ? [{ key, pair }] : pairsAt(pair.value, rest, `${key}.`);
  });
}
