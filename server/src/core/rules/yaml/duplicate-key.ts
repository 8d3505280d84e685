import type { Rule } from '../rule.js';

export const rule: Rule = {
  id: 'yaml/duplicate-key',
  defaultSeverity: 'error',
  summary: 'The same key appears twice in one mapping.',
  kinds: '*',
  check(ctx) {
    for (const problem of ctx.doc.problems) {
      if (problem.rule !== 'yaml/duplicate-key') continue;
      ctx.report({
        message: problem.message,
        span: problem.span,
        related: problem.related?.map((r) => ({ span: r.span, message: r.message })),
      });
    }
  },
};
