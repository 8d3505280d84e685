// client/unknown-key: a key of a server entry that the entry's client does not read (a misspelling,
// or another client's name for a setting, like Cline's `autoApprove` in a Roo Code file). The client
// drops it, so whatever it was meant to set stays unset. Only for the clients whose entry keys are
// known from their source (model/clients.ts: VS Code, Roo Code, Gemini CLI, Amazon Q, Codex, Zed,
// Continue); Tool Lens's own `toolFaces` is never reported. Where the key is why the entry has no
// command or url, the finding says what the client does with such an entry (Continue skips the
// block, Zed cannot read it, or reads it as an extension's server), at that severity; a key the
// client reads only to refuse it (Codex's `bearer_token`) is an error with the key to use instead.
import { editContextOf, removePair, renameKey, replaceScalarText } from '../../edit/mappingEdits.js';
import { clientViewOf, entryFactsOf, OWN_KEYS, type ClientServer } from '../../model/clients.js';
import { isMap, isScalar, keyText, type Pair } from '../../parse/nodes.js';
import type { Fix } from '../../types.js';
import type { EditContext } from '../../edit/mappingEdits.js';
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
  cmd: 'command',
  headers: 'http_headers',
  transport: 'type',
  enabled: 'disabled',
};

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
    const known = new Set(facts.keys);
    const refused = facts.refusedKeys ?? {};
    const edit = editContextOf(ctx.file);
    const launches = (keys: readonly string[]) => keys.some((k) => LAUNCH_KEYS.has(k));
    for (const server of view.servers) {
      const own = server.entry?.pairs.map(keyText) ?? [];
      // What the client makes of this entry when it has no command or url of its own.
      const without = launches(own) ? undefined : facts.withoutLaunch;
      const other = without?.otherwise && own.includes(without.otherwise.key) ? without.otherwise : undefined;
      // The keys whose absence leaves the entry unloadable: the launch keys, and the one that would
      // make it another kind of server while the entry lacks it (Zed's `settings`).
      const wanted = new Set([...LAUNCH_KEYS, ...(without?.otherwise && !other ? [without.otherwise.key] : [])]);
      for (const pair of server.entry?.pairs ?? []) {
        const key = keyText(pair);
        const refusal = Object.hasOwn(refused, key) ? refused[key] : undefined;
        if (refusal) {
          const fix = insteadFix(edit, server, pair, refusal.instead);
          ctx.report({
            messageId: 'refusedKey',
            data: { key, client, remedy: refusal.remedy },
            span: pair.key.span,
            severity: refusal.severity,
            related: [{ span: server.pair.key.span, message: `${refusal.effect}.` }],
            ...(fix ? { fixes: [fix] } : {}),
          });
          continue;
        }
        if (known.has(key) || OWN_KEYS.has(key)) continue;
        // An entry nested one level down (`transport: {command, args}`): renaming the wrapper
        // would not help, its keys belong in the entry.
        const inner = isMap(pair.value) ? pair.value.pairs.map(keyText).filter((k) => known.has(k)) : [];
        const nested = launches(inner) && !launches(own);
        // Another client's setting whose counterpart this client lacks (`enabled` where there is no
        // `disabled`) is no misspelling: a longer key containing it (`sandboxEnabled`) means something else.
        const foreign = SYNONYMS[key] !== undefined && !known.has(SYNONYMS[key]);
        const suggestion =
          nested || foreign
            ? undefined
            : closest(key, facts.keys, { synonyms: SYNONYMS, budget: suggestionBudgetOf(ctx) });
        // A suggestion the entry already has would make a duplicate key: name it, change nothing.
        const taken = suggestion !== undefined && own.includes(suggestion);
        const rename = suggestion === undefined || taken ? undefined : renameKey(edit, pair, suggestion);
        const fixes = rename ? { fixes: [{ title: `Rename to "${suggestion}"`, safe: false, edits: [rename] }] } : {};
        // This key is why the entry has no command or url: say what the client then does with it.
        if (without && (nested || (suggestion !== undefined && wanted.has(suggestion)))) {
          const remedy = nested
            ? `move ${quotedList(inner)} out of "${key}".`
            : `did you mean "${suggestion}" for "${key}"?`;
          if (other) {
            ctx.report({
              messageId: 'readAs',
              data: { client, readAs: other.readAs, remedy },
              span: pair.key.span,
              related: [{ span: server.pair.key.span, message: `${other.effect}.` }],
              ...fixes,
            });
            continue;
          }
          ctx.report({
            messageId: 'unreadable',
            data: { client, remedy },
            span: pair.key.span,
            severity: without.severity,
            related: [{ span: server.pair.key.span, message: `${without.effect}.` }],
            ...fixes,
          });
          continue;
        }
        if (nested) {
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
