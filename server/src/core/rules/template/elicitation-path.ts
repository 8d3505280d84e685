import { exactSpan, templatesOf } from '../../model/templates.js';
import type { Fix } from '../../types.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

/** `.steps.E.content…` / `.steps.E.action` on an elicitation step E: the answer lives under `.output`. */
export const rule = defineRule({
  id: 'template/elicitation-path',
  defaultSeverity: 'warning',
  summary: '`.steps.E.content` or `.steps.E.action` on an elicitation step (the data is under `.output`).',
  kinds: WORKFLOW_KINDS,
  messages: {
    /** `step`: the elicitation step; `field`: what is read of it, without `output.`. */
    missingOutput: ({ step, field }: { step: string; field: string }) =>
      `"${step}" is an elicitation step: the user's answer is under \`.steps.${step}.output.${field}\`. ` +
      `\`.steps.${step}.${field}\` is not filled in for elicitations, so this renders \`<no value>\` ` +
      (field === 'action' ? '(and a comparison with "accept" is never true).' : 'instead of the answer.') +
      ' Insert `output.` before it.',
  },
  check(ctx) {
    const source = ctx.file.source.text;
    for (const template of templatesOf(ctx).strings) {
      for (const reference of template.references) {
        if (reference.root !== 'steps') continue;
        const [, stepSegment, field] = reference.segments;
        if (!stepSegment || !field || (field.name !== 'content' && field.name !== 'action')) continue;
        const target = template.workflow.byId.get(stepSegment.name);
        if (target?.type !== 'elicitation') continue;
        const fixes: Fix[] = [];
        // Only the dotted form gets the fix: an `index` key would need quotes escaped in the string.
        const at = reference.viaIndex ? undefined : exactSpan(source, template, field.start, field.start, '');
        if (at && template.text[field.start - 1] === '.') {
          fixes.push({
            title: `Read .steps.${stepSegment.name}.output.${field.name}`,
            safe: true,
            edits: [{ span: at, newText: 'output.' }],
          });
        }
        ctx.report({
          messageId: 'missingOutput',
          data: { step: stepSegment.name, field: field.name },
          span: field.span,
          fixes,
        });
      }
    }
  },
});
