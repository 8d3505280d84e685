// yaml/duplicate-key: the same key twice in one mapping (the parsers find it). The headline says
// to keep one; what readers do with the two values follows.
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
        message: headlineFirst(problem.message),
        span: problem.span,
        related: problem.related?.map((r) => ({ span: r.span, message: r.message })),
      });
    }
  },
};

/** `The key "a" appears twice in this mapping; most readers keep ...` → `... mapping: keep one. Most readers keep ...`. */
function headlineFirst(message: string): string {
  const split = message.indexOf('; ');
  if (split < 0) return message;
  const rest = message.slice(split + 2);
  return `${message.slice(0, split)}: keep one. ${rest.charAt(0).toUpperCase()}${rest.slice(1)}`;
}
