import { outerStep, templatesOf, type SourceSegment } from '../../model/templates.js';
import type { StepModel, WorkflowModel } from '../../model/workflow.js';
import { getPair } from '../../parse/nodes.js';
import { appendItems, editContextOf, insertPairs, plainEntry } from '../../edit/mappingEdits.js';
import type { Fix, TextEdit } from '../../types.js';
import type { Rule, RuleContext } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

/**
 * `.steps.X` read by a step that does not (transitively) depend on X: steps without a
 * dependency path run in parallel, so X may not have run yet. Output values are exempt: the
 * output is built after every step has finished.
 */
export const rule: Rule = {
  id: 'template/not-upstream',
  defaultSeverity: 'warning',
  summary: '`.steps.X` is not reachable through `dependsOn`.',
  kinds: WORKFLOW_KINDS,
  check(ctx) {
    const index = templatesOf(ctx);
    // Per step: the ids to add and the places that read them, so one fix adds them all.
    const missing = new Map<StepModel, { workflow: WorkflowModel; ids: string[]; reads: { id: string; segment: SourceSegment; downstream: boolean }[] }>();
    for (const template of index.strings) {
      const step = outerStep(template);
      if (!step || !step.idText) continue;
      const { workflow } = template;
      for (const reference of template.references) {
        if (reference.root !== 'steps') continue;
        const segment = reference.segments[1];
        if (!segment) continue;
        const target = workflow.byId.get(segment.name);
        if (!target || target === step) continue; // template/unknown-step
        if (waitsFor(workflow, step, segment.name)) continue;
        // If X already waits for this step, adding the dependency would make a cycle.
        const downstream = waitsFor(workflow, target, step.idText);
        let entry = missing.get(step);
        if (!entry) missing.set(step, (entry = { workflow, ids: [], reads: [] }));
        if (!downstream && !entry.ids.includes(segment.name)) entry.ids.push(segment.name);
        entry.reads.push({ id: segment.name, segment, downstream });
      }
    }
    for (const [step, entry] of missing) {
      const fix = dependsOnFix(ctx, step, entry.ids);
      for (const read of entry.reads) {
        if (read.downstream) {
          ctx.report({
            message:
              `Step "${read.id}" waits for "${step.idText}" (through \`dependsOn\`), so it always runs after this template is ` +
              `rendered: \`.steps.${read.id}\` is never filled in here and renders \`<no value>\`. Read it in a later step or in \`output\`.`,
            span: read.segment.span,
          });
          continue;
        }
        ctx.report({
          message:
            `Step "${step.idText}" reads \`.steps.${read.id}\` but does not depend on "${read.id}", directly or through other steps. ` +
            'Steps without a dependency path run in parallel, so it may not have run yet: a race that renders `<no value>` when it ' +
            `loses. Add "${read.id}" to \`dependsOn\`.`,
          span: read.segment.span,
          fixes: fix ? [fix] : [],
        });
      }
    }
  },
};

function dependsOnFix(ctx: RuleContext, step: StepModel, ids: string[]): Fix | undefined {
  if (!ids.length) return undefined;
  const target = editContextOf(ctx.file);
  const pair = getPair(step.node, 'dependsOn');
  let edits: TextEdit[] | undefined;
  if (!pair) {
    // Next to the step's identity, where people look for it.
    const anchor = ['tool', 'type', 'id'].map((k) => getPair(step.node, k)).find((p) => p !== undefined);
    const edit = insertPairs(target, step.node, [plainEntry(target, 'dependsOn', ids)], anchor);
    edits = edit ? [edit] : undefined;
  } else if (step.dependsOnNode) {
    const edit = appendItems(target, step.dependsOnNode, ids);
    edits = edit ? [edit] : undefined;
  }
  if (!edits) return undefined;
  return { title: `Add ${ids.map((id) => `"${id}"`).join(', ')} to dependsOn`, safe: true, edits };
}

/**
 * Whether `from` waits for step `id` through dependsOn, breadth first so that the usual case (a
 * direct dependency) is answered at once even in a workflow of thousands of steps.
 */
function waitsFor(workflow: WorkflowModel, from: StepModel, id: string): boolean {
  const queue = from.dependsOn.map((d) => String(d.value));
  const seen = new Set<string>();
  for (let i = 0; i < queue.length; i++) {
    const current = queue[i]!;
    if (current === id) return true;
    if (seen.has(current)) continue;
    seen.add(current);
    const dep = workflow.byId.get(current);
    if (dep) for (const next of dep.dependsOn) queue.push(String(next.value));
  }
  return false;
}
