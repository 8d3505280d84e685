// client/unknown-key: a key of a server entry that the entry's client does not read (a misspelling,
// or another client's name for a setting, like Cline's `autoApprove` in a Roo Code file). The client
// drops it, so whatever it was meant to set stays unset. Only for the clients whose entry keys are
// known from their source (model/clients.ts: VS Code, Roo Code, Gemini CLI, Amazon Q, Codex, Zed,
// Continue); Tool Lens's own `toolFaces` is never reported. Where the key is why the entry has no
// command or url, the finding says what the client does with such an entry (Roo Code refuses
// the whole file, Continue skips the block, Zed cannot read it, or reads it as an extension's
// server), at that severity (model/clients.ts launchGapOf, shared with client/missing-field); a key the
// client reads only to refuse it (Codex's `bearer_token`) is an error with the key to use instead.
import { editContextOf, removePair, renameKey, replaceScalarText } from '../../edit/mappingEdits.js';
import {
  clientViewOf,
  entryFactsOf,
  launchGapOf,
  OWN_KEYS,
  unreadKeysOf,
  type ClientServer,
} from '../../model/clients.js';
import { isScalar, keyText, type Pair } from '../../parse/nodes.js';
import type { Fix } from '../../types.js';
import type { EditContext } from '../../edit/mappingEdits.js';
import { quotedList } from '../../text/words.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  id: 'client/unknown-key',
  defaultSeverity: 'warning',
  summary:
    'A server entry key its client does not read (no effect) or refuses, with what that does to the entry and a "did you mean" fix.',
  kinds: ['mcp-servers'],
  messages: {
    misspelt: (d: { key: string; client: string; suggestion: string }) =>
      `"${d.key}" has no effect in ${d.client}: did you mean "${d.suggestion}"?`,
    unknown: (d: { key: string; client: string }) =>
      `"${d.key}" has no effect in ${d.client}: remove it, or move the setting to a key it reads.`,
    nested: (d: { key: string; client: string; keys: string }) =>
      `"${d.key}" has no effect in ${d.client}: move ${d.keys} up into the entry.`,
    unreadable: (d: { client: string; remedy: string }) => `${d.client} cannot load this entry: ${d.remedy}`,
    readAs: (d: { client: string; readAs: string; remedy: string }) =>
      `${d.client} takes this entry for ${d.readAs}: ${d.remedy}`,
    refusedKey: (d: { key: string; client: string; remedy: string }) =>
      `${d.client} refuses to load a configuration with "${d.key}": ${d.remedy}.`,
  },
  check(ctx) {
    const view = clientViewOf(ctx);
    const facts = entryFactsOf(view);
    // Only where the client's handling of another key is known (Cursor, Windsurf, Claude Desktop: not).
    if (!view.client || !facts?.unknownKey) return;
    const client = view.client.label;
    const refused = facts.refusedKeys ?? {};
    const edit = editContextOf(ctx.file);
    for (const server of view.servers) {
      for (const pair of server.entry?.pairs ?? []) {
        const key = keyText(pair);
        const refusal = Object.hasOwn(refused, key) ? refused[key] : undefined;
        if (!refusal || OWN_KEYS.has(key)) continue;
        const fix = insteadFix(edit, server, pair, refusal.instead);
        ctx.report({
          messageId: 'refusedKey',
          data: { key, client, remedy: refusal.remedy },
          span: pair.key.span,
          severity: refusal.severity,
          related: [{ span: server.pair.key.span, message: `${refusal.effect}.` }],
          ...(fix ? { fixes: [fix] } : {}),
        });
      }
      const unread = unreadKeysOf(ctx, server, facts);
      // What the client makes of this entry when it has no command or url of its own.
      const gap = launchGapOf(server, facts, unread);
      for (const { pair, key, nested, suggestion } of unread) {
        // A suggestion the entry already has would make a duplicate key: name it, change nothing.
        const taken = suggestion !== undefined && server.entry!.pairs.some((p) => keyText(p) === suggestion);
        const rename = suggestion === undefined || taken ? undefined : renameKey(edit, pair, suggestion);
        const fixes = rename ? { fixes: [{ title: `Rename to "${suggestion}"`, safe: false, edits: [rename] }] } : {};
        // This key is why the entry has no command or url: say what the client then does with it.
        if (gap?.culprits.some((c) => c.pair === pair)) {
          const remedy = nested
            ? `move ${quotedList(nested)} out of "${key}".`
            : `did you mean "${suggestion}" for "${key}"?`;
          if (gap.readAs) {
            ctx.report({
              messageId: 'readAs',
              data: { client, readAs: gap.readAs.readAs, remedy },
              span: pair.key.span,
              related: [{ span: server.pair.key.span, message: `${gap.readAs.effect}.` }],
              ...fixes,
            });
            continue;
          }
          ctx.report({
            messageId: 'unreadable',
            data: { client, remedy },
            span: pair.key.span,
            severity: gap.fact.severity,
            related: [{ span: server.pair.key.span, message: `${gap.fact.effect}.` }],
            ...fixes,
          });
          continue;
        }
        if (nested) {
          ctx.report({
            messageId: 'nested',
            data: { key, client, keys: quotedList(nested) },
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
        if (suggestion === undefined) {
          ctx.report({ messageId: 'unknown', data: { key, client }, span: pair.key.span });
          continue;
        }
        ctx.report({ messageId: 'misspelt', data: { key, client, suggestion }, span: pair.key.span, ...fixes });
      }
    }
  },
});

/**
 * Writes the key the client reads instead of a refused one (Codex: `bearer_token` ->
 * `bearer_token_env_var`). The value becomes the name of an environment variable: kept when it
 * already is one, else named after the server (`docs` -> `DOCS_TOKEN`), so the token leaves the file.
 * An entry that has the other key already only loses the refused one.
 */
function insteadFix(edit: EditContext, server: ClientServer, pair: Pair, instead: string): Fix | undefined {
  // The entry already names the variable: the refused key only has to go.
  if (server.entry?.pairs.some((p) => keyText(p) === instead)) {
    const remove = removePair(edit, server.entry, pair);
    return remove
      ? { title: `Remove "${keyText(pair)}" (the entry has "${instead}")`, safe: false, edits: [remove] }
      : undefined;
  }
  const value = pair.value;
  if (!isScalar(value) || typeof value.value !== 'string') return undefined;
  const named = /^[A-Z_][A-Z0-9_]*$/.test(value.value);
  const variable = named ? value.value : `${server.name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_TOKEN`;
  if (!/^[A-Z_][A-Z0-9_]*$/.test(variable)) return undefined;
  const rename = renameKey(edit, pair, instead);
  const replace = named ? undefined : replaceScalarText(edit, value, variable);
  if (!rename || (!named && !replace)) return undefined;
  return {
    title: `Read the token from the ${variable} environment variable`,
    safe: false,
    edits: replace ? [rename, replace] : [rename],
  };
}
