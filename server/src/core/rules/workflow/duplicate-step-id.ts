import { workflowsOf } from '../../model/workflow.js';
import type { Rule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

export const rule: Rule = {
  id: 'workflow/duplicate-step-id',
  defaultSeverity: 'error',
  summary: 'Two steps of one workflow share an id.',
  kinds: WORKFLOW_KINDS,
  check(ctx) {
    for (const workflow of workflowsOf(ctx).workflows) {
      // byId keeps the first step of each id; every later one is the duplicate.
      for (const step of workflow.steps) {
        if (!step.id || step.idText === undefined || step.idText === '') continue;
        const first = workflow.byId.get(step.idText);
        if (!first || first === step || !first.id) continue;
        ctx.report({
          message:
            `Another step already has the id "${step.idText}". ToolHive refuses to load a workflow with duplicate step ids, ` +
            `and \`dependsOn\` and \`.steps.${step.idText}\` could not tell the two apart anyway. Give this step its own id.`,
          span: step.id.span,
          related: [{ span: first.id.span, message: `first step with the id "${step.idText}"` }],
        });
      }
    }
  },
};
