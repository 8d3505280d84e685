// client/missing-field: something a client needs to read a server is absent, so it loads no
// server from it. An entry with none of the keys that say how it starts (`command` or `url`; for
// Zed also an extension's `settings`) when no key of it is a misspelling of one (that is
// client/unknown-key's finding, at the key), or whose `command` is not a string (Zed's older
// `"command": {"path": ...}` form); a Continue block without its `name`, `version` or entry `name`. What
// the client then does is per client (model/clients.ts `withoutLaunch`, `fileKeys`): Roo Code
// refuses the whole project file (McpHub.ts McpSettingsSchema), Continue skips the block with a
// non-fatal error (unroll.ts unrollBlocks), Zed matches the entry to no shape (project.rs
// ContextServerSettingsContent). In Roo Code's file this replaces the client-neutral "needs a
// command or a URL" (structure/validate.ts), in the client's words.
import {
  clientViewOf,
  entryFactsOf,
  launchGapOf,
  unreadKeysOf,
  type ClientServer,
  type EntryFacts,
} from '../../model/clients.js';
import { neutralSchemaFits } from '../../parse/clients.js';
import { getPair, getSeq, isMap, isScalar, keyText, type Pair } from '../../parse/nodes.js';
import { quotedAlternatives } from '../../text/words.js';
import { defineRule } from '../rule.js';

/** The remote transport names some client uses (schemas/mcp-servers.schema.json's `type`). */
const REMOTE_TYPES: ReadonlySet<string> = new Set(['http', 'sse', 'streamable-http']);

export const rule = defineRule({
  id: 'client/missing-field',
  defaultSeverity: 'error',
  summary:
    "A server entry or block file without what its client needs to read it (a `command` or `url`, a block's `name`): no server loads from it.",
  kinds: ['mcp-servers'],
  messages: {
    noLaunch: (d: { client: string; name: string; needs: string }) =>
      `${d.client} cannot load "${d.name}": add a ${d.needs}.`,
    notString: (d: { client: string; key: string }) =>
      `${d.client} cannot load this entry: write "${d.key}" as the program's path, with "args" and "env" beside it.`,
    fileKey: (d: { client: string; key: string }) => `${d.client} cannot load this block: add its "${d.key}".`,
    entryName: (d: { client: string }) => `${d.client} cannot load this block: add a "name" to its server entry.`,
  },
  check(ctx) {
    const view = clientViewOf(ctx);
    const facts = entryFactsOf(view);
    if (!view.client || !facts) return;
    const client = view.client.label;
    for (const server of view.servers) {
      const gap = launchGapOf(server, facts, unreadKeysOf(ctx, server, facts));
      if (gap) {
        // A misspelt or nested key is the reason (client/unknown-key), or the entry is another
        // kind of server (Zed's extension server, with `settings`).
        if (gap.readAs || gap.culprits.length > 0) continue;
        ctx.report({
          messageId: 'noLaunch',
          data: { client, name: server.name, needs: needsOf(facts, server) },
          span: server.pair.key.span,
          severity: gap.fact.severity,
          related: [{ span: server.pair.key.span, message: `${gap.fact.effect}.` }],
        });
        continue;
      }
      // Where the client-neutral schema does not run (Zed, Continue), a `command` that is not a
      // string is this rule's too: the entry then has no command the client reads.
      const command = neutralSchemaFits(view.client) ? undefined : notStringCommand(server, facts);
      if (!command || !facts.withoutLaunch) continue;
      ctx.report({
        messageId: 'notString',
        data: { client, key: 'command' },
        span: command.key.span,
        severity: facts.withoutLaunch.severity,
        related: [{ span: server.pair.key.span, message: `${facts.withoutLaunch.effect}.` }],
      });
    }
    const fileKeys = facts.fileKeys;
    const root = ctx.doc.root;
    const servers = isMap(root) ? getPair(root, view.client.serversKey) : undefined;
    if (!fileKeys || !isMap(root) || !servers) return;
    for (const key of fileKeys.keys) {
      if (getPair(root, key)) continue;
      ctx.report({
        messageId: 'fileKey',
        data: { client, key },
        span: servers.key.span,
        severity: fileKeys.severity,
        related: [{ span: servers.key.span, message: `${fileKeys.effect}.` }],
      });
    }
    // A list item without `name` names no server (clientViewOf leaves it out), and fails the block.
    if (!view.client.list) return;
    for (const item of getSeq(root, view.client.serversKey)?.items ?? []) {
      if (!isMap(item) || getPair(item, 'name') || item.pairs.length === 0) continue;
      ctx.report({
        messageId: 'entryName',
        data: { client },
        span: item.pairs[0]!.key.span,
        severity: fileKeys.severity,
        related: [{ span: item.pairs[0]!.key.span, message: `${fileKeys.effect}.` }],
      });
    }
  },
});

/**
 * The keys of which an entry needs one, as the message names them (`"command" or "url"`); with a
 * `type`, the one that type reads (`stdio`: a `command`, a remote type: a `url`).
 */
function needsOf(facts: EntryFacts, server: ClientServer): string {
  const type = getPair(server.entry, 'type')?.value;
  const named = isScalar(type) && typeof type.value === 'string' ? type.value : undefined;
  if (named === 'stdio') return '"command"';
  // A remote type in any client's spelling (Roo Code's refused `http` is client/invalid-transport's).
  if (named !== undefined && REMOTE_TYPES.has(named) && facts.keys.includes('url')) return '"url"';
  const launch = facts.keys.filter((k) => k === 'command' || k === 'url' || k === 'httpUrl' || k === 'serverUrl');
  const other = facts.withoutLaunch?.otherwise?.key;
  return quotedAlternatives(other ? [...launch, other] : launch);
}

/** The `command` that is an entry's only way to start and is not a string (Zed's older `{"path": ...}` object). */
function notStringCommand(server: ClientServer, facts: EntryFacts): Pair | undefined {
  const fact = facts.withoutLaunch;
  const entry = server.entry;
  if (!fact || !entry) return undefined;
  const own = entry.pairs.map(keyText);
  if (own.includes('url') || (fact.otherwise && own.includes(fact.otherwise.key))) return undefined;
  const command = getPair(entry, 'command');
  const value = command?.value;
  return command && !(isScalar(value) && typeof value.value === 'string') ? command : undefined;
}
