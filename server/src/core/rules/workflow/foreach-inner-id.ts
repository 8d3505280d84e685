import { getPair, getScalar } from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import type { Rule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';
import { refusedAtStart } from '../../wording/refusalMoments.js';

export const rule: Rule = {
  id: 'workflow/foreach-inner-id',
  defaultSeverity: 'error',
  summary: 'A forEach inner step without `id`.',
  kinds: WORKFLOW_KINDS,
  check(ctx) {
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const step of workflow.steps) {
        if (step.type !== 'forEach' || !step.inner) continue;
        const id = getScalar(step.inner.node, 'id');
        if (id && id.value !== null && id.value !== '') continue;
        const key = getPair(step.node, 'step')!.key;
        ctx.report({
          message:
            `The inner \`step\` of forEach "${step.idText ?? '?'}" has no \`id\`: give it one. ` +
            `${refusedAtStart(ctx.doc.kind).replace(/^./, (c) => c.toUpperCase())}, since it converts ` +
            'the inner step like any other and every step needs an id.',
          span: (id ?? key).span.end > (id ?? key).span.start ? (id ?? key).span : key.span,
        });
      }
    }
  },
};
