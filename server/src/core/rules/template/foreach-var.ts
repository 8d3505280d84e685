import { renameSegmentEdit, templatesOf } from '../../model/templates.js';
import { closest } from '../../text/suggest.js';
import type { Fix } from '../../types.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

/** `.forEach` outside a forEach inner step, or `.forEach.v` with v neither the itemVar nor `index`. */
export const rule = defineRule({
  id: 'template/foreach-var',
  defaultSeverity: 'warning',
  summary: '`.forEach` misuse.',
  kinds: WORKFLOW_KINDS,
  messages: {
    /** `where`: where the string is, as a sentence; `advice`: what to do instead. */
    outsideLoop: ({ where, advice }: { where: string; advice: string }) =>
      `\`.forEach\` only exists in the \`arguments\` of a forEach's inner \`step\`. ${where}, so this renders \`<no value>\`. ${advice}`,
    /** `name`: the variable read; `itemVar`: the loop's name for its item. */
    unknownVariable: ({ name, itemVar }: { name: string; itemVar: string }) =>
      `\`.forEach.${name}\` is not set: use \`.forEach.${itemVar}\` for the item or \`.forEach.index\` for its position. ` +
      `This forEach names its item \`${itemVar}\`${getItemVarNote(itemVar)}, so \`.forEach.${name}\` renders ` +
      `\`<no value>\` for every item.`,
  },
  check(ctx) {
    const source = ctx.file.source.text;
    for (const template of templatesOf(ctx).strings) {
      const forEach = template.step?.parent;
      for (const reference of template.references) {
        if (reference.root !== 'forEach') continue;
        const head = reference.segments[0]!;
        if (!forEach || template.field !== 'arguments') {
          const [where, advice] =
            template.field === 'collection'
              ? [
                  'The collection is rendered once, before any item exists',
                  'Build the collection from parameters or earlier steps.',
                ]
              : template.field === 'output'
                ? [
                    'The output is built after the loop has finished',
                    'Read the loop results from `.steps.<forEach id>.output.iterations`.',
                  ]
                : [
                    'This string is not in the inner step of a forEach',
                    "Use it in the inner `step`'s arguments, or read the loop results from `.steps.<forEach id>.output.iterations` in a later step.",
                  ];
          ctx.report({
            messageId: 'outsideLoop',
            data: { where, advice },
            span: head.span,
          });
          continue;
        }
        const variable = reference.segments[1];
        if (!variable || variable.name === forEach.itemVar || variable.name === 'index') continue;
        // Only two candidates: a looser distance than the usual did-you-mean is still unambiguous.
        const maxDistance = Math.max(2, Math.floor(variable.name.length / 2));
        const guess = closest(variable.name, [forEach.itemVar, 'index'], { maxDistance }) ?? forEach.itemVar;
        const fixes: Fix[] = [];
        const edit = renameSegmentEdit(source, template, reference, 1, guess);
        if (edit) fixes.push({ title: `Change to .forEach.${guess}`, safe: false, edits: [edit] });
        ctx.report({
          messageId: 'unknownVariable',
          data: { name: variable.name, itemVar: forEach.itemVar },
          span: variable.span,
          fixes,
        });
      }
    }
  },
});

function getItemVarNote(itemVar: string): string {
  return itemVar === 'item' ? ' (the default when `itemVar` is not set)' : ' (its `itemVar`)';
}
