import type { Rule } from '../rule.js';

export const rule: Rule = {
  id: 'yaml/syntax',
  defaultSeverity: 'error',
  summary: 'The YAML or JSON does not parse.',
  kinds: '*',
  check(ctx) {
    for (const problem of ctx.doc.problems) {
      if (problem.rule === 'yaml/syntax') ctx.report({ message: problem.message, span: problem.span });
    }
  },
};
