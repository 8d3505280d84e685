import { workflowsOf } from '../../model/workflow.js';
import { editContextOf, replaceScalarText } from '../../edit/mappingEdits.js';
import { closest } from '../../text/suggest.js';
import type { Fix } from '../../types.js';
import type { Rule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

export const rule: Rule = {
  id: 'workflow/unknown-dependency',
  defaultSeverity: 'error',
  summary: '`dependsOn` names a step that does not exist.',
  kinds: WORKFLOW_KINDS,
  check(ctx) {
    const target = editContextOf(ctx.file);
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const step of workflow.steps) {
        for (const entry of step.dependsOn) {
          if (entry.value === null) continue;
          const name = String(entry.value);
          if (workflow.byId.has(name)) continue;
          const candidates = [...workflow.byId.keys()].filter((id) => id !== step.idText);
          const guess = closest(name, candidates);
          const fixes: Fix[] = [];
          const edit = guess !== undefined ? replaceScalarText(target, entry, guess) : undefined;
          if (guess !== undefined && edit) fixes.push({ title: `Change to "${guess}"`, safe: false, edits: [edit] });
          ctx.report({
            message:
              `No step has the id "${name}", so this step would wait for something that never runs: ToolHive refuses to load the workflow. ` +
              (guess !== undefined ? `Did you mean "${guess}"?` : `The step ids are: ${candidates.map((c) => `"${c}"`).join(', ') || 'none'}.`),
            span: entry.span,
            fixes,
          });
        }
      }
    }
  },
};
