import { getPair } from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import type { Rule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

export const rule: Rule = {
  id: 'workflow/elicitation-needs-schema',
  defaultSeverity: 'error',
  summary: 'An elicitation step without `schema`.',
  kinds: WORKFLOW_KINDS,
  check(ctx) {
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const step of workflow.steps) {
        if (step.type !== 'elicitation' || !step.typeNode) continue;
        // An empty `schema:` is there but not a mapping: schema/wrong-type says so.
        if (getPair(step.node, 'schema')) continue;
        ctx.report({
          message:
            `Elicitation step "${step.idText ?? '?'}" has no \`schema\`. \`thv vmcp validate\` lets it pass, but the server refuses to ` +
            'start: it needs the schema to know what to ask the user. Add a `schema` of `type: object` with a property per answer.',
          span: step.typeNode.span,
        });
      }
    }
  },
};
