import { closestStepId, otherStepIds, workflowsOf } from '../../model/workflow.js';
import { suggestionBudgetOf } from '../../context.js';
import { LIMITS } from '../../limits.js';
import { listOf } from '../../text/words.js';
import { editContextOf, replaceScalarText } from '../../edit/mappingEdits.js';
import type { Fix } from '../../types.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

export const rule = defineRule({
  id: 'workflow/unknown-dependency',
  defaultSeverity: 'error',
  summary: '`dependsOn` names a step that does not exist.',
  kinds: WORKFLOW_KINDS,
  messages: {
    /** `guess`: the id probably meant; else `ids` holds the others (the first few, and how many in all). */
    unknownStep: ({
      name,
      guess,
      ids,
    }: {
      name: string;
      guess: string | undefined;
      ids: { shown: string[]; total: number };
    }) =>
      `No step has the id "${name}": ${guess !== undefined ? `did you mean "${guess}"?` : 'depend on a step of this workflow.'} ` +
      'This step would wait for something that never runs: ToolHive refuses to load the workflow.' +
      (guess !== undefined ? '' : ` The step ids are: ${listOf(ids.shown, LIMITS.messageItems, ids.total) || 'none'}.`),
  },
  check(ctx) {
    const target = editContextOf(ctx.file);
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const step of workflow.steps) {
        for (const entry of step.dependsOn) {
          if (entry.value === null) continue;
          const name = String(entry.value);
          if (workflow.byId.has(name)) continue;
          const guess = closestStepId(workflow, name, step.idText, suggestionBudgetOf(ctx));
          const fixes: Fix[] = [];
          const edit = guess !== undefined ? replaceScalarText(target, entry, guess) : undefined;
          if (guess !== undefined && edit) fixes.push({ title: `Change to "${guess}"`, safe: false, edits: [edit] });
          ctx.report({
            messageId: 'unknownStep',
            data: { name, guess, ids: otherStepIds(workflow, step.idText, LIMITS.messageItems) },
            span: entry.span,
            fixes,
          });
        }
      }
    }
  },
});
