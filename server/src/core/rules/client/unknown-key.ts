// client/unknown-key: a key of a server entry that the entry's client does not read (a misspelling,
// or another client's name for a setting, like Cline's `autoApprove` in a Roo Code file). The client
// drops it, so whatever it was meant to set stays unset. Only for the clients whose entry keys are
// known from their source (model/clients.ts: VS Code, Roo Code, Gemini CLI, Amazon Q); Tool Lens's own `toolFaces` is never reported.
import { editContextOf, renameKey } from '../../edit/mappingEdits.js';
import { clientViewOf, entryFactsOf, OWN_KEYS } from '../../model/clients.js';
import { isMap, keyText } from '../../parse/nodes.js';
import { quotedList } from '../../text/words.js';
import { suggestionBudgetOf } from '../../context.js';
import { closest } from '../../text/suggest.js';
import { defineRule } from '../rule.js';

/** The keys that say how an entry starts. */
const LAUNCH_KEYS: ReadonlySet<string> = new Set(['command', 'url', 'httpUrl', 'serverUrl']);

/** Other clients' names for a key no edit distance finds. */
const SYNONYMS: Record<string, string> = {
  autoApprove: 'alwaysAllow',
  autoapprove: 'alwaysAllow',
  environment: 'env',
  arguments: 'args',
  workingDirectory: 'cwd',
  serverUrl: 'url',
  headers: 'http_headers',
  transport: 'type',
  enabled: 'disabled',
};

export const rule = defineRule({
  id: 'client/unknown-key',
  defaultSeverity: 'warning',
  summary: 'A server entry key its client does not read (it has no effect), with a "did you mean" fix.',
  kinds: ['mcp-servers'],
  messages: {
    misspelt: (d: { key: string; client: string; suggestion: string }) =>
      `"${d.key}" has no effect in ${d.client}: did you mean "${d.suggestion}"?`,
    unknown: (d: { key: string; client: string }) =>
      `"${d.key}" has no effect in ${d.client}: remove it, or move the setting to a key it reads.`,
    nested: (d: { key: string; client: string; keys: string }) =>
      `"${d.key}" has no effect in ${d.client}: move ${d.keys} up into the entry.`,
  },
  check(ctx) {
    const view = clientViewOf(ctx);
    const facts = entryFactsOf(view);
    // Only where the client's handling of another key is known (Cursor, Windsurf, Claude Desktop: not).
    if (!view.client || !facts?.unknownKey) return;
    const client = view.client.label;
    const known = new Set(facts.keys);
    const edit = editContextOf(ctx.file);
    for (const server of view.servers) {
      for (const pair of server.entry?.pairs ?? []) {
        const key = keyText(pair);
        if (known.has(key) || OWN_KEYS.has(key)) continue;
        // An entry nested one level down (`transport: {command, args}`): renaming the wrapper
        // would not help, its keys belong in the entry.
        const inner = isMap(pair.value) ? pair.value.pairs.map(keyText).filter((k) => known.has(k)) : [];
        const launches = (keys: string[]) => keys.some((k) => LAUNCH_KEYS.has(k));
        if (launches(inner) && !launches(server.entry?.pairs.map(keyText) ?? [])) {
          ctx.report({
            messageId: 'nested',
            data: { key, client, keys: quotedList(inner) },
            span: pair.key.span,
            related: [
              {
                span: server.pair.key.span,
                message: 'Without a command or url of its own, the entry starts no server.',
              },
            ],
          });
          continue;
        }
        // Another client's setting whose counterpart this client lacks (`enabled` where there is no
        // `disabled`) is no misspelling: a longer key containing it (`sandboxEnabled`) means something else.
        const foreign = SYNONYMS[key] !== undefined && !known.has(SYNONYMS[key]);
        const suggestion = foreign
          ? undefined
          : closest(key, facts.keys, { synonyms: SYNONYMS, budget: suggestionBudgetOf(ctx) });
        // A suggestion the entry already has would make a duplicate key: name it, change nothing.
        const taken = suggestion !== undefined && server.entry?.pairs.some((p) => keyText(p) === suggestion);
        if (suggestion === undefined) {
          ctx.report({ messageId: 'unknown', data: { key, client }, span: pair.key.span });
          continue;
        }
        const rename = taken ? undefined : renameKey(edit, pair, suggestion);
        ctx.report({
          messageId: 'misspelt',
          data: { key, client, suggestion },
          span: pair.key.span,
          ...(rename ? { fixes: [{ title: `Rename to "${suggestion}"`, safe: false, edits: [rename] }] } : {}),
        });
      }
    }
  },
});
