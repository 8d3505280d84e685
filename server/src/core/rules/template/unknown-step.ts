import { outerStep, renameSegmentEdit, templatesOf } from '../../model/templates.js';
import { suggestionBudgetOf } from '../../context.js';
import { LIMITS } from '../../limits.js';
import { closestStepId, otherStepIds, type StepModel, type WorkflowModel } from '../../model/workflow.js';
import { listOf } from '../../text/words.js';
import type { Fix } from '../../types.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

function idList(workflow: WorkflowModel, self: string | undefined): string {
  const { shown, total } = otherStepIds(workflow, self, LIMITS.messageItems);
  return listOf(shown, LIMITS.messageItems, total);
}

export const rule = defineRule({
  id: 'template/unknown-step',
  defaultSeverity: 'error',
  summary: '`.steps.X` names no step, or the step itself.',
  kinds: WORKFLOW_KINDS,
  messages: {
    /** `step`: the step whose template reads itself. */
    readsItself: ({ step }: { step: string }) =>
      'A step cannot read its own results: read them in a later step or in `output`. ' +
      `While "${step}" renders this template it has not finished, so ` +
      `\`.steps.${step}\` holds nothing useful yet (a missing field renders \`<no value>\`). ` +
      'Read the data from the step that produces it, or move this to a later step or to `output`.',
    /** `guess`: the id probably meant; else `ids` lists the others. */
    unknownStep: ({ name, guess, ids }: { name: string; guess: string | undefined; ids: string }) =>
      `No step has the id "${name}": ` +
      (guess !== undefined ? `did you mean "${guess}"?` : 'read a step of this workflow.') +
      ' ToolHive does not check this, and at run time the template renders the text `<no value>` silently.' +
      (guess !== undefined ? '' : ` The step ids are ${ids || 'none'}.`),
    /** `name` is the inner step of the forEach `forEach`, whose results are the loop's. */
    innerStep: ({ name, forEach }: { name: string; forEach: string }) =>
      `No step has the id "${name}": read \`.steps.${forEach}.output.iterations\`.` +
      ' ToolHive does not check this, and at run time the template renders the text `<no value>` silently.' +
      ` "${name}" is the inner step of forEach "${forEach}"; its results are under \`.steps.${forEach}.output.iterations\`.`,
  },
  check(ctx) {
    const source = ctx.file.source.text;
    // forEach inner step ids, per workflow: the step each belongs to (the first).
    const innerIds = new Map<WorkflowModel, Map<string, StepModel>>();
    const innerStep = (workflow: WorkflowModel, id: string) => {
      let ids = innerIds.get(workflow);
      if (!ids) {
        ids = new Map();
        for (const s of workflow.steps)
          if (s.inner?.idText !== undefined && !ids.has(s.inner.idText)) ids.set(s.inner.idText, s);
        innerIds.set(workflow, ids);
      }
      return ids.get(id);
    };
    for (const template of templatesOf(ctx).strings) {
      const { workflow } = template;
      const self = outerStep(template);
      for (const reference of template.references) {
        if (reference.root !== 'steps') continue;
        const segment = reference.segments[1];
        if (!segment) continue;
        const target = workflow.byId.get(segment.name);
        if (target && target !== self) continue;
        if (target && self && target === self) {
          ctx.report({
            messageId: 'readsItself',
            data: { step: segment.name },
            span: segment.span,
          });
          continue;
        }
        const guess = closestStepId(workflow, segment.name, self?.idText, suggestionBudgetOf(ctx));
        const fixes: Fix[] = [];
        const edit = guess !== undefined ? renameSegmentEdit(source, template, reference, 1, guess) : undefined;
        if (edit) fixes.push({ title: `Change to .steps.${guess}`, safe: false, edits: [edit] });
        const inner = innerStep(workflow, segment.name);
        if (inner)
          ctx.report({
            messageId: 'innerStep',
            data: { name: segment.name, forEach: inner.idText ?? '?' },
            span: segment.span,
            fixes,
          });
        else {
          const ids = guess !== undefined ? '' : idList(workflow, self?.idText);
          ctx.report({ messageId: 'unknownStep', data: { name: segment.name, guess, ids }, span: segment.span, fixes });
        }
      }
    }
  },
});
