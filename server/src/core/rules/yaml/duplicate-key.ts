// yaml/duplicate-key: the same key twice in one mapping (the parsers find it). The headline says
// to keep one; what readers do with the two values follows.
import { defineRule } from '../rule.js';
import { duplicateKeyLoss } from '../../wording/parserWords.js';

export const rule = defineRule({
  id: 'yaml/duplicate-key',
  defaultSeverity: 'error',
  summary: 'The same key appears twice in one mapping.',
  kinds: '*',
  messages: {
    /** `json`: in a JSON object, whose readers keep the last value. */
    duplicate: ({ key, json }: { key: string; json: boolean }) => {
      const loss = duplicateKeyLoss(json);
      return `The key "${key}" appears twice in this ${json ? 'object' : 'mapping'}: keep one. ${loss.charAt(0).toUpperCase()}${loss.slice(1)}.`;
    },
  },
  check(ctx) {
    for (const problem of ctx.doc.problems) {
      if (problem.code !== 'duplicateKey') continue;
      ctx.report({
        messageId: 'duplicate',
        data: problem.data,
        span: problem.span,
        related: problem.related?.map((r) => ({ span: r.span, message: 'first occurrence' })),
      });
    }
  },
});
