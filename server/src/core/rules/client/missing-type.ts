// client/missing-type: a remote entry without the `type` its client needs. Claude Code reads an
// entry with no `type` as a local one, so a `url` without `type` fails its validation (its
// changelog: a clearer error for a config with `url` but no `type`, suggesting `"type": "http"`),
// and the entry is dropped while the others load. Only for the clients known to need it: VS Code
// and Gemini CLI take the transport from the URL (sanitizeServer; createUrlTransport), and Roo
// Code reads such an entry as SSE (its schema's first remote shape), so none of them is reported.
import { editContextOf, insertPairs } from '../../edit/mappingEdits.js';
import { clientViewOf } from '../../model/clients.js';
import { getNode, getPair } from '../../parse/nodes.js';
import type { ClientId } from '../../parse/clients.js';
import { defineRule } from '../rule.js';

const NEEDS_TYPE: Partial<Record<ClientId, string>> = { 'claude-code': 'http' };

export const rule = defineRule({
  id: 'client/missing-type',
  defaultSeverity: 'error',
  summary: 'A remote entry without the `type` its client needs (Claude Code: `"type": "http"`).',
  kinds: ['mcp-servers'],
  messages: {
    missingType: (d: { client: string; type: string }) =>
      `${d.client} needs a type for a url entry: add "type": "${d.type}". Without it the entry fails validation and is skipped.`,
  },
  check(ctx) {
    const view = clientViewOf(ctx);
    const type = view.client ? NEEDS_TYPE[view.client.id] : undefined;
    if (!view.client || type === undefined) return;
    const edit = editContextOf(ctx.file);
    for (const server of view.servers) {
      const entry = server.entry;
      if (!entry || getPair(entry, 'type') || getNode(entry, 'command') !== undefined) continue;
      const url = getPair(entry, 'url');
      if (!url) continue;
      const insert = insertPairs(edit, entry, [{ key: 'type', value: { inline: JSON.stringify(type) } }], undefined);
      ctx.report({
        messageId: 'missingType',
        data: { client: view.client.label, type },
        span: server.pair.key.span,
        ...(insert ? { fixes: [{ title: `Add "type": "${type}"`, safe: true, edits: [insert] }] } : {}),
      });
    }
  },
});
