// client/invalid-transport: a `type` that is a transport name of some MCP client, but not of the
// client that reads this file (Roo Code's `streamable-http` in a Gemini CLI file, the `http` of
// Claude Code and VS Code in a Roo Code file). What happens depends on the client: Roo Code refuses
// the whole file (McpHub.ts updateProjectMcpServers validates every entry at once), Gemini CLI warns
// and picks the transport from the URL (settings.ts validateSettings, mcp-client.ts). A value no
// client knows is schema/invalid-value's. A client whose file takes local servers only (Claude
// Desktop: remote servers are custom connectors added in the app) lacks every remote transport, so
// an entry with a URL and no command is reported there once, whatever its `type` says. A key of
// the other transport in an entry (`headers` beside a `command`, `args` beside a `url`) is refused
// by Roo Code (its stdio and remote shapes exclude each other's keys: the whole file fails) and by
// Codex (TryFrom<RawMcpServerConfig>: the configuration fails to load), per model/clients.ts
// `transportKeys`.
import { removePair } from '../../edit/mappingEdits.js';
import { editContextOf } from '../../edit/mappingEdits.js';
import { clientViewOf, entryFactsOf, rejectedTransportOf } from '../../model/clients.js';
import { getNode, getPair, isScalar, keyText } from '../../parse/nodes.js';
import { replaceScalarFix } from '../../wording/faceWords.js';
import { quotedAlternatives } from '../../text/words.js';
import { defineRule } from '../rule.js';

/** The keys that make an entry remote, in any client's spelling (schemas/mcp-servers.schema.json). */
const URL_KEYS = ['url', 'serverUrl', 'httpUrl'];

export const rule = defineRule({
  id: 'client/invalid-transport',
  defaultSeverity: 'error',
  summary: "A server's `type` that its client does not accept (Roo Code's `streamable-http` against `http`).",
  kinds: ['mcp-servers'],
  messages: {
    rename: (d: { client: string; value: string; suggestion: string }) =>
      `${d.client} does not accept type "${d.value}": write "${d.suggestion}", its name for this transport.`,
    other: (d: { client: string; value: string; accepted: string }) =>
      `${d.client} does not accept type "${d.value}": use ${d.accepted}.`,
    otherTransport: (d: { client: string; key: string; launch: string; remedy: string }) =>
      `${d.client} cannot load this entry: an entry with a "${d.launch}" takes no "${d.key}"; ${d.remedy}.`,
    runsCommand: (d: { client: string; value: string }) =>
      `${d.client} does not accept type "${d.value}": this entry runs a command, so write "stdio".`,
    localOnly: (d: { client: string; name: string; remedy: string }) =>
      `${d.client} runs only local servers from this file, not "${d.name}": ${d.remedy}.`,
  },
  check(ctx) {
    const view = clientViewOf(ctx);
    const facts = entryFactsOf(view);
    // A client with no `type` key (Codex, Zed) has no transport values: client/unknown-key says a `type` there does nothing.
    if (!view.client || !facts) return;
    const client = view.client.label;
    const { transport, localOnly, transportKeys } = facts;
    const edit = editContextOf(ctx.file);
    for (const server of view.servers) {
      const entry = server.entry;
      // The launch key decides the transport (a `command` first, as both clients read it).
      const launch = getPair(entry, 'command') ? 'command' : getPair(entry, 'url') ? 'url' : undefined;
      if (transportKeys && entry && launch) {
        const refused = launch === 'command' ? transportKeys.stdio : transportKeys.remote;
        for (const pair of entry.pairs) {
          const key = keyText(pair);
          if (!refused.includes(key)) continue;
          // The other launch key is the author's to choose between: no removal offered for it.
          const remove = key === 'url' ? undefined : removePair(edit, entry, pair);
          ctx.report({
            messageId: 'otherTransport',
            data: { client, key, launch, remedy: key === 'url' ? 'keep one of the two' : 'remove it' },
            span: pair.key.span,
            severity: transportKeys.severity,
            related: [{ span: server.pair.key.span, message: `${transportKeys.effect}.` }],
            ...(remove ? { fixes: [{ title: `Remove "${key}"`, safe: false, edits: [remove] }] } : {}),
          });
        }
      }
      if (localOnly) {
        const url = URL_KEYS.map((key) => getPair(server.entry, key)).find((pair) => pair !== undefined);
        if (!url || getNode(server.entry, 'command') !== undefined) continue;
        ctx.report({
          messageId: 'localOnly',
          data: { client, name: server.name, remedy: localOnly.remedy },
          span: url.key.span,
          severity: localOnly.severity,
          related: [{ span: server.pair.key.span, message: `${localOnly.effect}.` }],
        });
        continue;
      }
      if (!transport) continue;
      const severity = transport.severity;
      const node = getPair(server.entry, 'type')?.value;
      const value = rejectedTransportOf(view, server);
      if (!isScalar(node) || value === undefined) continue;
      const suggestion = transport.equivalent[value];
      const related = [{ span: server.pair.key.span, message: `${transport.effect}.` }];
      // A remote transport's name on an entry that runs a command and has no URL: the client's name
      // for that remote transport would leave it with nowhere to connect; what it runs is stdio.
      const runsCommand =
        getNode(server.entry, 'command') !== undefined &&
        URL_KEYS.every((key) => getNode(server.entry, key) === undefined);
      if (runsCommand && value !== 'stdio' && transport.values.includes('stdio')) {
        ctx.report({
          messageId: 'runsCommand',
          data: { client, value },
          span: node.span,
          severity,
          related,
          fixes: replaceScalarFix(edit, node, 'stdio'),
        });
        continue;
      }
      if (suggestion === undefined) {
        ctx.report({
          messageId: 'other',
          data: { client, value, accepted: quotedAlternatives(transport.values) },
          span: node.span,
          severity,
          related,
        });
        continue;
      }
      ctx.report({
        messageId: 'rename',
        data: { client, value, suggestion },
        span: node.span,
        severity,
        related,
        fixes: replaceScalarFix(edit, node, suggestion),
      });
    }
  },
});
