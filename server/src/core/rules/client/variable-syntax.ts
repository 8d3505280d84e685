// client/variable-syntax: a variable reference written in another client's syntax (`${API_KEY}` in
// a VS Code file, `${env:API_KEY}` in Claude Code's `.mcp.json`). The client does not expand it and
// sends the text as written: as the API key, the header, the argument. The syntax of each client is
// in model/clientVariables.ts, with where it was read.
import { clientViewOf } from '../../model/clients.js';
import { wrongReferencesOf } from '../../model/clientVariables.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  id: 'client/variable-syntax',
  defaultSeverity: 'error',
  summary: "A variable written in another client's syntax: the client sends the text as written.",
  kinds: ['mcp-servers'],
  messages: {
    rewrite: (d: { client: string; written: string; suggestion: string }) =>
      `${d.client} does not expand "${d.written}": write "${d.suggestion}". It sends the text as written.`,
    noForm: (d: { client: string; written: string; form: string }) =>
      `${d.client} does not expand "${d.written}": use ${d.form}. It sends the text as written.`,
  },
  check(ctx) {
    const client = clientViewOf(ctx).client?.label;
    if (!client) return;
    const text = ctx.file.source.text;
    for (const ref of wrongReferencesOf(ctx)) {
      if (ref.suggestion === undefined) {
        ctx.report({ messageId: 'noForm', data: { client, written: ref.written, form: ref.form }, span: ref.span });
        continue;
      }
      // The reference is replaced where the source holds it as written (no escape inside it).
      const exact = text.slice(ref.span.start, ref.span.end) === ref.written;
      ctx.report({
        messageId: 'rewrite',
        data: { client, written: ref.written, suggestion: ref.suggestion },
        span: ref.span,
        ...(exact
          ? {
              fixes: [
                {
                  title: `Write "${ref.suggestion}"`,
                  safe: true,
                  edits: [{ span: ref.span, newText: ref.suggestion }],
                },
              ],
            }
          : {}),
      });
    }
  },
});
