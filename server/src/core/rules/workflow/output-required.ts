import { getMap, getSeq, isMap, isScalar } from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import { editContextOf, replaceScalarText } from '../../edit/mappingEdits.js';
import { suggestionBudgetOf } from '../../context.js';
import { closest } from '../../text/suggest.js';
import { listOf } from '../../text/words.js';
import { LIMITS } from '../../limits.js';
import { refusedAtStart } from '../../wording/refusalMoments.js';
import type { Fix } from '../../types.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS, type DocumentKind } from '../../types.js';

/**
 * `output.required` names a property `output.properties` does not define. ToolHive checks this
 * only when the server starts (ValidateOutputConfig, composer/output_validator.go, called from
 * ValidateWorkflow), so the load-time validator and the operator let it pass.
 */
export const rule = defineRule({
  id: 'workflow/output-required',
  defaultSeverity: 'error',
  summary: '`output.required` names a property that `output.properties` does not define.',
  kinds: WORKFLOW_KINDS,
  messages: {
    /** `guess`: the property probably meant; else `defined` lists the properties. */
    notAProperty: ({
      name,
      guess,
      defined,
      kind,
    }: {
      name: string;
      guess: string | undefined;
      defined: readonly string[];
      kind: DocumentKind | null;
    }) =>
      `\`output.required\` names "${name}", which is not a property: ` +
      (guess !== undefined ? `did you mean "${guess}"? ` : 'define it, or remove it here. ') +
      `\`output.properties\` does not define it: ${refusedAtStart(kind)}.` +
      (guess !== undefined
        ? ''
        : ` Define "${name}" under \`output.properties\` or remove it here (the properties are ${listOf(
            defined.slice(0, LIMITS.messageItems).map((property) => `"${property}"`),
            LIMITS.messageItems,
            defined.length,
          )}).`),
  },
  check(ctx) {
    const target = editContextOf(ctx.file);
    for (const workflow of workflowsOf(ctx).workflows) {
      const required = getSeq(workflow.output, 'required');
      const properties = getMap(workflow.output, 'properties');
      // No properties, or none at all: the schema's findings say so, and then every name is unknown.
      if (!required || !isMap(properties) || properties.pairs.length === 0) continue;
      const defined = properties.pairs.map((p) => String(p.key.value));
      for (const item of required.items) {
        if (!isScalar(item) || typeof item.value !== 'string' || defined.includes(item.value)) continue;
        const guess = closest(item.value, defined, { budget: suggestionBudgetOf(ctx) });
        const fixes: Fix[] = [];
        const edit = guess !== undefined ? replaceScalarText(target, item, guess) : undefined;
        if (edit) fixes.push({ title: `Change to "${guess}"`, safe: false, edits: [edit] });
        ctx.report({
          messageId: 'notAProperty',
          data: { name: item.value, guess, defined, kind: ctx.doc.kind },
          span: item.span,
          fixes,
        });
      }
    }
  },
});
