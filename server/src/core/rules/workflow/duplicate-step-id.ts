import { workflowsOf } from '../../model/workflow.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

export const rule = defineRule({
  id: 'workflow/duplicate-step-id',
  defaultSeverity: 'error',
  summary: 'Two steps of one workflow share an id.',
  kinds: WORKFLOW_KINDS,
  messages: {
    duplicate: ({ id }: { id: string }) =>
      `Another step already has the id "${id}". ToolHive refuses to load a workflow with duplicate step ids, ` +
      `and \`dependsOn\` and \`.steps.${id}\` could not tell the two apart anyway. Give this step its own id.`,
  },
  check(ctx) {
    for (const workflow of workflowsOf(ctx).workflows) {
      // byId keeps the first step of each id; every later one is the duplicate.
      for (const step of workflow.steps) {
        if (!step.id || step.idText === undefined || step.idText === '') continue;
        const first = workflow.byId.get(step.idText);
        if (!first || first === step || !first.id) continue;
        ctx.report({
          messageId: 'duplicate',
          data: { id: step.idText },
          span: step.id.span,
          related: [{ span: first.id.span, message: `first step with the id "${step.idText}"` }],
        });
      }
    }
  },
});
