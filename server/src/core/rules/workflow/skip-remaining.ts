import { getMap, getScalar } from '../../parse/nodes.js';
import { waitsForEach, workflowsOf, type StepModel, type WorkflowModel } from '../../model/workflow.js';
import { templatesOf, type TemplateIndex } from '../../model/templates.js';
import { editContextOf, replaceScalarText } from '../../edit/mappingEdits.js';
import { byCount, listOf } from '../../text/words.js';
import { LIMITS } from '../../limits.js';
import type { Fix } from '../../types.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

const HANDLERS = [
  ['onDecline', 'when the user declines'],
  ['onCancel', 'when the user cancels or does not answer in time'],
] as const;

/**
 * `skip_remaining` on an elicitation handler. ToolHive's validator and the CRD accept it, but the
 * workflow engine does not carry it out (handleElicitationAction, composer/workflow_engine.go):
 * the step is recorded as a success and the steps after it still run, as with `continue`. Silent
 * when every step that waits for the elicitation has a `condition` reading its answer: those
 * steps are skipped by their own conditions, which is what the file means.
 */
export const rule = defineRule({
  id: 'workflow/skip-remaining',
  defaultSeverity: 'warning',
  summary: '`skip_remaining` on an elicitation handler: ToolHive skips nothing and runs the later steps.',
  kinds: WORKFLOW_KINDS,
  messages: {
    /**
     * `id`: the elicitation step; `when`: the answer it handles (`on decline`); `unguarded`: the ids
     * of the steps that wait for it with no condition on the answer.
     */
    skipsNothing: ({ id, when, unguarded }: { id: string; when: string; unguarded: readonly string[] }) => {
      const names = listOf(
        unguarded.slice(0, LIMITS.messageItems).map((s) => `"${s}"`),
        LIMITS.messageItems,
        unguarded.length,
      );
      const output = /^[A-Za-z_][A-Za-z0-9_]*$/.test(id)
        ? `.steps.${id}.output`
        : `(index .steps ${JSON.stringify(id)}).output`;
      return (
        `\`skip_remaining\` skips nothing: use \`abort\`, or a \`condition\` on the answer. ` +
        `ToolHive accepts it, but ${when} it ends step "${id}" as a success and still runs ` +
        `${names}, which ${byCount(unguarded.length, 'waits', 'wait')} for it, as with \`continue\`. Use \`abort\` to stop the ` +
        `workflow, or give ${byCount(unguarded.length, 'that step', 'those steps')} a \`condition\` on the answer, such as ` +
        `\`{{eq ${output}.action "accept"}}\`.`
      );
    },
  },
  check(ctx) {
    const target = editContextOf(ctx.file);
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const step of workflow.steps) {
        if (step.type !== 'elicitation') continue;
        const handlers = HANDLERS.flatMap(([key, when]) => {
          const action = getScalar(getMap(step.node, key), 'action');
          return action?.value === 'skip_remaining' ? [{ action, when }] : [];
        });
        if (handlers.length === 0) continue;
        const unguarded = unguardedAfter(workflow, step, templatesOf(ctx));
        if (unguarded.length === 0) continue;
        const id = step.idText ?? '?';
        for (const { action, when } of handlers) {
          const fixes: Fix[] = [];
          for (const [value, title] of [
            ['continue', 'Change to `continue` (what ToolHive does now)'],
            ['abort', 'Change to `abort` (stop the workflow)'],
          ] as const) {
            const edit = replaceScalarText(target, action, value);
            if (edit) fixes.push({ title, safe: false, edits: [edit] });
          }
          ctx.report({
            messageId: 'skipsNothing',
            data: { id, when, unguarded: unguarded.map((s) => s.idText ?? '?') },
            span: action.span,
            fixes,
          });
        }
      }
    }
  },
});

/** The steps that wait for `asked` through `dependsOn` and have no condition reading its output. */
function unguardedAfter(workflow: WorkflowModel, asked: StepModel, templates: TemplateIndex): StepModel[] {
  const others = workflow.steps.filter((s) => s !== asked);
  const waits = waitsForEach(
    workflow,
    others.map((s) => [s, asked] as const),
  );
  return others.filter((s, i) => waits[i] && !conditionReads(s, asked, templates));
}

function conditionReads(step: StepModel, asked: StepModel, templates: TemplateIndex): boolean {
  return (templates.byStep.get(step) ?? []).some(
    (t) =>
      t.field === 'condition' && t.references.some((r) => r.root === 'steps' && r.segments[1]?.name === asked.idText),
  );
}
