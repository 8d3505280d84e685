import { outerStep, renameSegmentEdit, templatesOf } from '../../model/templates.js';
import { closest } from '../../text/suggest.js';
import type { Fix } from '../../types.js';
import type { Rule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

export const rule: Rule = {
  id: 'template/unknown-step',
  defaultSeverity: 'error',
  summary: '`.steps.X` names no step, or the step itself.',
  kinds: WORKFLOW_KINDS,
  check(ctx) {
    const source = ctx.file.source.text;
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
            message:
              `A step cannot read its own results: while "${segment.name}" renders this template it has not finished, so ` +
              `\`.steps.${segment.name}\` holds nothing useful yet (a missing field renders \`<no value>\`). ` +
              'Read the data from the step that produces it, or move this to a later step or to `output`.',
            span: segment.span,
          });
          continue;
        }
        const candidates = [...workflow.byId.keys()].filter((id) => id !== self?.idText);
        const guess = closest(segment.name, candidates);
        const fixes: Fix[] = [];
        const edit = guess !== undefined ? renameSegmentEdit(source, template, reference, 1, guess) : undefined;
        if (edit) fixes.push({ title: `Change to .steps.${guess}`, safe: false, edits: [edit] });
        const inner = workflow.steps.find((s) => s.inner?.idText === segment.name);
        ctx.report({
          message:
            `No step has the id "${segment.name}": ToolHive does not check this, and at run time the template renders the text ` +
            '`<no value>` silently. ' +
            (inner
              ? `"${segment.name}" is the inner step of forEach "${inner.idText ?? '?'}"; its results are under \`.steps.${inner.idText ?? '?'}.output.iterations\`.`
              : guess !== undefined
                ? `Did you mean "${guess}"?`
                : `The step ids are ${candidates.map((c) => `"${c}"`).join(', ') || 'none'}.`),
          span: segment.span,
          fixes,
        });
      }
    }
  },
};
