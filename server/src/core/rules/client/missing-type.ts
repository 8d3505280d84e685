// client/missing-type: a remote entry without the `type` its client needs. Claude Code reads an
// entry with no `type` as a local one, so a `url` without `type` fails its validation (its
// changelog: a clearer error for a config with `url` but no `type`, suggesting `"type": "http"`),
// and the entry is dropped while the others load. Only for the clients known to need it: VS Code
// and Gemini CLI take the transport from the URL (sanitizeServer; createUrlTransport), and Roo
// Code reads such an entry as SSE (its schema's first remote shape), so none of them is reported.
// OpenCode needs `type` on every entry, `local` or `remote` (config/mcp.ts Info, a union on it):
// without it the config fails its schema and is not loaded (config/parse.ts schema), unless the
// entry has `enabled`, when the config reads it as a switch for a server defined elsewhere
// (config.ts Info.mcp), so the server it describes never starts.
import { editContextOf, insertPairs } from '../../edit/mappingEdits.js';
import { clientViewOf } from '../../model/clients.js';
import { getNode, getPair } from '../../parse/nodes.js';
import type { ClientId } from '../../parse/clients.js';
import { defineRule } from '../rule.js';

/** The `type` a client needs on a url entry, and on a command entry where it needs one there too. */
const NEEDS_TYPE: Partial<Record<ClientId, { remote: string; local?: string }>> = {
  'claude-code': { remote: 'http' },
  opencode: { remote: 'remote', local: 'local' },
};

export const rule = defineRule({
  id: 'client/missing-type',
  defaultSeverity: 'error',
  summary: 'A remote entry without the `type` its client needs (Claude Code: `"type": "http"`).',
  kinds: ['mcp-servers'],
  messages: {
    missingType: (d: { client: string; type: string }) =>
      `${d.client} needs a type for a url entry: add "type": "${d.type}". Without it the entry fails validation and is skipped.`,
    configRefused: (d: { client: string; type: string }) =>
      `${d.client} needs a type for this entry: add "type": "${d.type}". Without it the config fails its schema and is not loaded.`,
    readAsSwitch: (d: { client: string; type: string }) =>
      `${d.client} needs a type for this entry: add "type": "${d.type}". Without it the entry only switches a server defined elsewhere, and starts nothing.`,
  },
  check(ctx) {
    const view = clientViewOf(ctx);
    const needs = view.client ? NEEDS_TYPE[view.client.id] : undefined;
    if (!view.client || needs === undefined) return;
    const edit = editContextOf(ctx.file);
    for (const server of view.servers) {
      const entry = server.entry;
      if (!entry || getPair(entry, 'type')) continue;
      const command = getNode(entry, 'command') !== undefined;
      const type = command ? needs.local : getPair(entry, 'url') ? needs.remote : undefined;
      if (type === undefined) continue;
      const insert = insertPairs(edit, entry, [{ key: 'type', value: { inline: JSON.stringify(type) } }], undefined);
      ctx.report({
        messageId:
          needs.local === undefined ? 'missingType' : getPair(entry, 'enabled') ? 'readAsSwitch' : 'configRefused',
        data: { client: view.client.label, type },
        span: server.pair.key.span,
        ...(insert ? { fixes: [{ title: `Add "type": "${type}"`, safe: true, edits: [insert] }] } : {}),
      });
    }
  },
});
