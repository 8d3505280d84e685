// client/invalid-transport: a `type` that is a transport name of some MCP client, but not of the
// client that reads this file (Roo Code's `streamable-http` in a Gemini CLI file, the `http` of
// Claude Code and VS Code in a Roo Code file). What happens depends on the client: Roo Code refuses
// the whole file (McpHub.ts updateProjectMcpServers validates every entry at once), Gemini CLI warns
// and picks the transport from the URL (settings.ts validateSettings, mcp-client.ts). A value no
// client knows is schema/invalid-value's.
import { editContextOf } from '../../edit/mappingEdits.js';
import { clientViewOf, entryFactsOf } from '../../model/clients.js';
import { getPair, isScalar } from '../../parse/nodes.js';
import { replaceScalarFix } from '../../wording/faceWords.js';
import { quotedAlternatives } from '../../text/words.js';
import { defineRule } from '../rule.js';

/** The transport names some client accepts (schemas/mcp-servers.schema.json's `type`). */
const ANY_CLIENT = new Set(['stdio', 'http', 'sse', 'streamable-http']);

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
  },
  check(ctx) {
    const view = clientViewOf(ctx);
    const facts = entryFactsOf(view);
    // A client with no `type` key (Codex) picks the transport by shape: client/unknown-key says a `type` there does nothing.
    if (!view.client || !facts || facts.transports.length === 0) return;
    const client = view.client.label;
    const severity = facts.otherTransport.severity;
    const edit = editContextOf(ctx.file);
    for (const server of view.servers) {
      const node = getPair(server.entry, 'type')?.value;
      if (!isScalar(node) || typeof node.value !== 'string') continue;
      const value = node.value;
      if (!ANY_CLIENT.has(value) || facts.transports.includes(value)) continue;
      const suggestion = facts.otherTransport.equivalent[value];
      const related = [{ span: server.pair.key.span, message: `${facts.otherTransport.effect}.` }];
      if (suggestion === undefined) {
        ctx.report({
          messageId: 'other',
          data: { client, value, accepted: quotedAlternatives(facts.transports) },
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
