import { getPair, getScalar } from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS, type DocumentKind } from '../../types.js';
import { refusedAtStart } from '../../wording/refusalMoments.js';
import { capitalize } from '../../text/words.js';

export const rule = defineRule({
  id: 'workflow/foreach-inner-id',
  defaultSeverity: 'error',
  summary: 'A forEach inner step without `id`.',
  kinds: WORKFLOW_KINDS,
  messages: {
    noInnerId: ({ forEach, kind }: { forEach: string; kind: DocumentKind | null }) =>
      `The inner \`step\` of forEach "${forEach}" has no \`id\`: give it one. ` +
      `${capitalize(refusedAtStart(kind))}, since it converts ` +
      'the inner step like any other and every step needs an id.',
  },
  check(ctx) {
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const step of workflow.steps) {
        if (step.type !== 'forEach' || !step.inner) continue;
        const id = getScalar(step.inner.node, 'id');
        if (id && id.value !== null && id.value !== '') continue;
        const key = getPair(step.node, 'step')!.key;
        ctx.report({
          messageId: 'noInnerId',
          data: { forEach: step.idText ?? '?', kind: ctx.doc.kind },
          span: (id ?? key).span.end > (id ?? key).span.start ? (id ?? key).span : key.span,
        });
      }
    }
  },
});
