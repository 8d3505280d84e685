import { outerStep, templatesOf, type SourceSegment, type TemplateString } from '../../model/templates.js';
import type { StepModel } from '../../model/workflow.js';
import { getPair } from '../../parse/nodes.js';
import { editContextOf, insertPairs, plainEntry } from '../../edit/mappingEdits.js';
import type { Fix, TextEdit } from '../../types.js';
import { defineRule, type RuleContext } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';
import { LIMITS } from '../../limits.js';
import { listOf } from '../../text/words.js';

/**
 * A skippable step (a `condition`, or `onError.action: continue`) has its `defaultResults` as
 * output when it is skipped or fails; a field read from it that `defaultResults` lacks renders
 * `<no value>`. ToolHive checks this itself, but only for `.steps.<id>.output.<field>` chains
 * written with dots in conditions, messages, top-level arguments of top-level steps and output
 * values; we also check nested arguments, collections, forEach inner steps and `index` reads.
 */
const messages = {
  /**
   * `field`: what is read; `step`: the step that may not run; `skippable`: it has a condition (else
   * it may fail and be passed over); `byToolHive`: ToolHive's validator refuses the workflow for it.
   */
  missingDefault: ({
    field,
    step,
    skippable,
    byToolHive,
  }: {
    field: string;
    step: string;
    skippable: boolean;
    byToolHive: boolean;
  }) =>
    `Add "${field}" to the \`defaultResults\` of step "${step}": it may not run. ` +
    `Step "${step}" ${skippable ? 'has a `condition`, so it may be skipped' : 'has `onError.action: continue`, so it may fail and be passed over'}; its output is then its \`defaultResults\`, which has no "${field}". ` +
    (byToolHive
      ? 'ToolHive refuses to load the workflow for this. '
      : 'ToolHive does not catch this one: at run time it renders `<no value>`. ') +
    'Give it the value to use when the step did not run.',
};

export const rule = defineRule({
  id: 'template/missing-default',
  defaultSeverity: 'error',
  summary: "A skippable step's field is read but its `defaultResults` lacks it.",
  kinds: WORKFLOW_KINDS,
  messages,
  check(ctx) {
    const reads: { target: StepModel; field: SourceSegment; template: TemplateString; byToolHive: boolean }[] = [];
    const missingByStep = new Map<StepModel, string[]>();
    for (const template of templatesOf(ctx).strings) {
      const self = outerStep(template);
      for (const reference of template.references) {
        if (reference.root !== 'steps') continue;
        const [, stepSegment, output, field] = reference.segments;
        if (!stepSegment || output?.name !== 'output' || !field) continue;
        const target = template.workflow.byId.get(stepSegment.name);
        if (!target || target === self || !target.skippable) continue;
        if (hasDefault(target, field.name)) continue;
        const byToolHive = template.scannedForDefaults && !reference.viaIndex && !reference.viaDollar;
        reads.push({ target, field, template, byToolHive });
        const list = missingByStep.get(target) ?? [];
        if (!list.includes(field.name)) list.push(field.name);
        missingByStep.set(target, list);
      }
    }
    const fixes = new Map<StepModel, Fix | undefined>();
    for (const read of reads) {
      if (!fixes.has(read.target))
        fixes.set(read.target, defaultsFix(ctx, read.target, missingByStep.get(read.target)!));
      const fix = fixes.get(read.target);
      const name = read.target.idText ?? '?';
      const skippable =
        !!read.target.condition &&
        typeof read.target.condition.value === 'string' &&
        read.target.condition.value !== '';
      ctx.report({
        messageId: 'missingDefault',
        data: { field: read.field.name, step: name, skippable, byToolHive: read.byToolHive },
        span: read.field.span,
        fixes: fix ? [fix] : [],
      });
    }
  },
});

function hasDefault(step: StepModel, field: string): boolean {
  return step.defaultResults?.pairs.some((p) => String(p.key.value) === field) ?? false;
}

/** Adds every missing key of the step at once, each with an empty placeholder the user must fill. */
function defaultsFix(ctx: RuleContext<typeof messages>, step: StepModel, fields: string[]): Fix | undefined {
  const target = editContextOf(ctx.file);
  let edit: TextEdit | undefined;
  if (step.defaultResults)
    edit = insertPairs(
      target,
      step.defaultResults,
      fields.map((f) => plainEntry(target, f, '')),
    );
  else if (getPair(step.node, 'defaultResults'))
    return undefined; // present but not a mapping: schema/wrong-type
  else
    edit = insertPairs(target, step.node, [
      plainEntry(target, 'defaultResults', Object.fromEntries(fields.map((f) => [f, '']))),
    ]);
  if (!edit) return undefined;
  return {
    title: `Add ${listOf(
      fields.slice(0, LIMITS.messageItems).map((f) => `"${f}"`),
      LIMITS.messageItems,
      fields.length,
    )} to defaultResults (fill in the value)`,
    safe: false,
    edits: [edit],
  };
}
