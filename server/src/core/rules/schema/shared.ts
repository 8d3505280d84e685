// The four schema/* rules share one validation (validate.ts); each reports its own share.
import { DOCUMENT_KINDS } from '../../types.js';
import type { Rule, RuleContext } from '../rule.js';
import { schemaProblemsOf, type SchemaRuleId } from '../../schema/validate.js';

export function schemaRule(id: SchemaRuleId, summary: string): Rule {
  return {
    id,
    defaultSeverity: 'error',
    summary,
    kinds: DOCUMENT_KINDS,
    check(ctx: RuleContext) {
      for (const problem of schemaProblemsOf(ctx)) {
        if (problem.rule !== id) continue;
        ctx.report({ message: problem.message, span: problem.span, ...(problem.fixes ? { fixes: problem.fixes } : {}) });
      }
    },
  };
}
