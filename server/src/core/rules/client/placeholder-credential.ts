// client/placeholder-credential: a placeholder left where a credential goes (`YOUR_API_KEY`,
// `<token>`, `your-key-here`, an empty value under a credential's name). The client starts the
// server with that text as the credential, and its requests fail to authenticate. Never reported
// for a value under a name that is no credential's (`GITHUB_TOOLSETS: ""`).
import { nameOf, secretsOf } from '../../model/clientSecrets.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  id: 'client/placeholder-credential',
  defaultSeverity: 'warning',
  summary: 'A placeholder (`YOUR_API_KEY`, `<token>`, empty) left where a credential goes.',
  kinds: ['mcp-servers'],
  messages: {
    placeholder: (d: { name: string }) =>
      `${d.name} is still a placeholder: reference the real credential. The server gets this text as its credential.`,
    empty: (d: { name: string }) =>
      `${d.name} is empty: reference the real credential, or remove the entry. The server gets an empty credential.`,
  },
  check(ctx) {
    for (const found of secretsOf(ctx)) {
      if (found.kind !== 'placeholder') continue;
      const name = nameOf(found);
      ctx.report({
        messageId: found.looksLike === 'empty' ? 'empty' : 'placeholder',
        data: { name },
        span: found.span,
      });
    }
  },
});
