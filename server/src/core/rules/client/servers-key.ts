// client/servers-key: a client file that holds its servers under another client's root key (VS
// Code's `servers` and everyone else's `mcpServers` are the usual swap, pasted from a README). The
// client reads only its own key, so none of the servers in the file starts. Reported where the
// client's reading of its root is known (docs/clients.md). Not VS Code: its config discovery moves
// a root `mcpServers` into `servers` and writes the file back (configMcpDiscovery.ts sync), so the
// servers start. Roo Code's (and Kilo Code's, its fork) zod schema strips other root keys
// (McpHub.ts McpSettingsSchema); Gemini CLI reads `mcpServers` (settingsSchema.ts); Claude Code
// reports the file as a configuration error (its documentation and changelog; its source is closed).
import { renameKey, editContextOf } from '../../edit/mappingEdits.js';
import type { ClientId } from '../../parse/clients.js';
import { clientOfPath } from '../../parse/clients.js';
import { getPair, isMap } from '../../parse/nodes.js';
import { defineRule } from '../rule.js';

const KNOWN: ReadonlySet<ClientId> = new Set(['claude-code', 'roo', 'kilo', 'gemini']);

export const rule = defineRule({
  id: 'client/servers-key',
  defaultSeverity: 'error',
  summary: "Servers under another client's root key (`servers` in `.roo/mcp.json`): none of them starts.",
  kinds: ['mcp-servers'],
  messages: {
    otherKey: (d: { client: string; key: string; own: string }) =>
      `${d.client} reads "${d.own}", not "${d.key}": rename the key. Otherwise none of these servers starts.`,
  },
  check(ctx) {
    const client = clientOfPath(ctx.file.path);
    if (!client || !KNOWN.has(client.id) || !isMap(ctx.doc.root)) return;
    if (getPair(ctx.doc.root, client.serversKey)) return;
    const other = client.serversKey === 'servers' ? 'mcpServers' : 'servers';
    const pair = getPair(ctx.doc.root, other);
    if (!pair || !isMap(pair.value)) return;
    const rename = renameKey(editContextOf(ctx.file), pair, client.serversKey);
    ctx.report({
      messageId: 'otherKey',
      data: { client: client.label, key: other, own: client.serversKey },
      span: pair.key.span,
      ...(rename ? { fixes: [{ title: `Rename to "${client.serversKey}"`, safe: true, edits: [rename] }] } : {}),
    });
  },
});
