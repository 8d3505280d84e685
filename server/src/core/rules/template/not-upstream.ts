import { outerStep, templatesOf, type SourceSegment } from '../../model/templates.js';
import { waitsForEach, type StepModel, type WaitQuestion, type WorkflowModel } from '../../model/workflow.js';
import { getPair } from '../../parse/nodes.js';
import { appendItems, editContextOf, insertPairs, plainEntry } from '../../edit/mappingEdits.js';
import type { Fix, TextEdit } from '../../types.js';
import { defineRule, type RuleContext } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';
import { LIMITS } from '../../limits.js';
import { listOf } from '../../text/words.js';

/**
 * `.steps.X` read by a step that does not (transitively) depend on X: steps without a
 * dependency path run in parallel, so X may not have run yet. Output values are exempt: the
 * output is built after every step has finished.
 */
const messages = {
  /** `read`: the step read; `step`: the step whose template reads it. */
  runsAfter: ({ read, step }: { read: string; step: string }) =>
    `Step "${read}" runs after this one: read \`.steps.${read}\` in a later step or in \`output\`. ` +
    `It waits for "${step}" (through \`dependsOn\`), so it always runs after this template is ` +
    `rendered: \`.steps.${read}\` is never filled in here and renders \`<no value>\`.`,
  notWaiting: ({ read, step }: { read: string; step: string }) =>
    `Step "${step}" reads \`.steps.${read}\` without waiting for it: add "${read}" to \`dependsOn\`. ` +
    `It does not depend on "${read}", directly or through other steps. ` +
    'Steps without a dependency path run in parallel, so it may not have run yet: a race that renders `<no value>` when it ' +
    'loses.',
};

export const rule = defineRule({
  id: 'template/not-upstream',
  defaultSeverity: 'warning',
  summary: '`.steps.X` is not reachable through `dependsOn`.',
  kinds: WORKFLOW_KINDS,
  messages,
  check(ctx) {
    const index = templatesOf(ctx);
    // Every `.steps.X` read by a step, then the graph questions about all of them at once
    // (model/workflow.ts): one walk per read was steps x reads on a long chain.
    const reads: {
      workflow: WorkflowModel;
      step: StepModel & { idText: string };
      target: StepModel;
      segment: SourceSegment;
    }[] = [];
    for (const template of index.strings) {
      const step = outerStep(template);
      if (!step || step.idText === undefined || step.idText === '') continue;
      const { workflow } = template;
      for (const reference of template.references) {
        if (reference.root !== 'steps') continue;
        const segment = reference.segments[1];
        if (!segment) continue;
        const target = workflow.byId.get(segment.name);
        if (!target || target === step) continue; // template/unknown-step
        reads.push({ workflow, step: step as StepModel & { idText: string }, target, segment });
      }
    }
    // Does the reader wait for X? For those that do not: does X wait for the reader (then adding
    // the dependency would make a cycle)? Asked in two rounds, each of one kind of question, so
    // that many steps reading one step stays one pass over the graph.
    const upstream = answersFor(reads.map((r) => ({ workflow: r.workflow, question: [r.step, r.target] })));
    const races = reads.filter((_, i) => !upstream[i]);
    const downstream = answersFor(
      races.map((r) => ({ workflow: r.workflow, question: [r.target, r.workflow.byId.get(r.step.idText)!] })),
    );
    // Per step: the ids to add and the places that read them, so one fix adds them all.
    const missing = new Map<
      StepModel,
      {
        workflow: WorkflowModel;
        ids: Set<string>;
        reads: { id: string; segment: SourceSegment; downstream: boolean }[];
      }
    >();
    races.forEach(({ workflow, step, segment }, i) => {
      const cycle = downstream[i]!;
      let entry = missing.get(step);
      if (!entry) missing.set(step, (entry = { workflow, ids: new Set(), reads: [] }));
      if (!cycle) entry.ids.add(segment.name);
      entry.reads.push({ id: segment.name, segment, downstream: cycle });
    });
    for (const [step, entry] of missing) {
      const fix = dependsOnFix(ctx, step, [...entry.ids]);
      for (const read of entry.reads) {
        if (read.downstream) {
          ctx.report({
            messageId: 'runsAfter',
            data: { read: read.id, step: String(step.idText) },
            span: read.segment.span,
          });
          continue;
        }
        ctx.report({
          messageId: 'notWaiting',
          data: { read: read.id, step: String(step.idText) },
          span: read.segment.span,
          fixes: fix ? [fix] : [],
        });
      }
    }
  },
});

/** The answers to questions about several workflows, in the order asked: one batch per workflow. */
function answersFor(asked: readonly { workflow: WorkflowModel; question: WaitQuestion }[]): boolean[] {
  const byWorkflow = new Map<WorkflowModel, number[]>();
  asked.forEach(({ workflow }, i) => {
    const list = byWorkflow.get(workflow);
    if (list) list.push(i);
    else byWorkflow.set(workflow, [i]);
  });
  const answers = new Array<boolean>(asked.length).fill(false);
  for (const [workflow, indexes] of byWorkflow) {
    const batch = waitsForEach(
      workflow,
      indexes.map((i) => asked[i]!.question),
    );
    indexes.forEach((i, k) => (answers[i] = batch[k]!));
  }
  return answers;
}

function dependsOnFix(ctx: RuleContext<typeof messages>, step: StepModel, ids: string[]): Fix | undefined {
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
  return {
    title: `Add ${listOf(
      ids.slice(0, LIMITS.messageItems).map((id) => `"${id}"`),
      LIMITS.messageItems,
      ids.length,
    )} to dependsOn`,
    safe: true,
    edits,
  };
}
