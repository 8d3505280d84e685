import { renameSegmentEdit, templatesOf } from '../../model/templates.js';
import { suggestionBudgetOf } from '../../context.js';
import { isTemplateRoot, TEMPLATE_ROOTS } from '../../templates/index.js';
import { closest } from '../../text/suggest.js';
import type { Fix } from '../../types.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

/** Names people reach for when they want the time: the run's start is `.workflow.start_time`. */
const TIME_WORDS = new Set(['timestamp', 'time', 'now', 'date', 'datetime', 'start_time', 'started_at', 'ts']);

/**
 * `.X` where X is none of the keys ToolHive's template data has (TEMPLATE_ROOTS, from
 * expandStringInternal in composer/template_expander.go). Nothing checks it before the step runs,
 * and then the missing key renders as `<no value>`.
 */
export const rule = defineRule({
  id: 'template/unknown-root',
  defaultSeverity: 'warning',
  summary: "A template reads a root that ToolHive's template data does not have (`.timestamp`).",
  kinds: WORKFLOW_KINDS,
  messages: {
    /** `advice`: what to read instead, as a sentence. */
    unknownRoot: ({ name, advice }: { name: string; advice: string }) =>
      `Templates have no \`.${name}\`: ${advice.charAt(0).toLowerCase()}${advice.slice(1)} ` +
      `At run time this prints \`<no value>\` without an error: ToolHive's template data ` +
      `holds only \`.params\`, \`.steps\`, \`.vars\` and \`.workflow\` (and \`.forEach\` in a forEach's inner step).`,
  },
  check(ctx) {
    const source = ctx.file.source.text;
    for (const template of templatesOf(ctx).strings) {
      for (const reference of template.references) {
        const head = reference.segments[0];
        if (!head || isTemplateRoot(head.name)) continue;
        const name = head.name;
        const sameButCase = TEMPLATE_ROOTS.find((root) => root.toLowerCase() === name.toLowerCase());
        const guess = sameButCase ?? closest(name, TEMPLATE_ROOTS, { budget: suggestionBudgetOf(ctx) });
        const fixes: Fix[] = [];
        const edit = guess !== undefined ? renameSegmentEdit(source, template, reference, 0, guess) : undefined;
        if (edit) fixes.push({ title: `Change to .${guess}`, safe: sameButCase !== undefined, edits: [edit] });
        const advice =
          guess !== undefined
            ? `Did you mean \`.${guess}\`?`
            : TIME_WORDS.has(name.toLowerCase())
              ? 'For the time the run started, use `.workflow.start_time`.'
              : 'Read the value from `.params` or from an earlier step under `.steps`.';
        ctx.report({
          messageId: 'unknownRoot',
          data: { name, advice },
          span: head.span,
          fixes,
        });
      }
    }
  },
});
