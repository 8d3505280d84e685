// The data of the workflow graph (client/src/graph.ts draws it): one node per step with the class
// of its tool's annotations, the `dependsOn` edges, and the marks of what is wrong where it
// happens: the steps whose annotations are unknown, the reads of a step that is not upstream
// (template/not-upstream's findings, as the editor shows them, drawn as `reads` edges), and, when
// the composite's explicit hints contradict its floor (the gateway then drops it), that and the
// steps that decide the contradicted hints. The analyses are core's; this only places them.
import type { DocumentContext } from '../core/context.js';
import { effectiveAnnotations, type StepEntry } from '../core/floor/floor.js';
import { floorOf } from '../core/floor/workflowFloor.js';
import { stepIdOf, type ResolvedStep } from '../core/gateway/steps.js';
import { upstreamOf, type StepModel, type WorkflowModel } from '../core/model/workflow.js';
import type { ParsedFile } from '../core/parse/file.js';
import type { Finding } from '../core/types.js';
import type { AnnotationClass, WorkflowGraph, WorkflowGraphMark, WorkflowGraphNode } from './protocol.js';
import type { Session } from './session.js';

const NOT_UPSTREAM = 'template/not-upstream';

export function workflowGraph(session: Session, file: ParsedFile, ctx: DocumentContext, workflow: WorkflowModel, findings: readonly Finding[]): WorkflowGraph {
  const floor = floorOf(ctx, workflow);
  const entries = new Map<StepModel, StepEntry<ResolvedStep>>(floor.entries.map((e) => [e.step.step, e]));
  const marks = new Map<StepModel, WorkflowGraphMark[]>();
  const markOn = (step: StepModel, mark: WorkflowGraphMark): void => {
    const outer = step.parent ?? step;
    const list = marks.get(outer) ?? [];
    if (!list.some((m) => m.kind === mark.kind && m.text === mark.text)) list.push(mark);
    marks.set(outer, list);
  };

  for (const entry of floor.entries) {
    if (!entry.known) markOn(entry.step.step, { kind: 'unknown', text: `annotations unknown (${entry.reason}): the floor assumes the worst` });
  }

  let dropped: string | undefined;
  if (floor.table.contradictions.length) {
    const claims = floor.table.contradictions.map((c) => `${c.hint}: ${c.explicit}`);
    dropped = `Dropped by the gateway: the composite claims ${claims.join(', ')}, which its steps contradict.`;
    for (const c of floor.table.contradictions) {
      const row = floor.table.rows.find((r) => r.hint === c.hint);
      for (const entry of row?.deciding ?? []) {
        markOn(entry.step.step, { kind: 'breaks-claim', text: `makes the floor's ${c.hint} ${c.floor}, against the claimed ${c.explicit}` });
      }
    }
  }

  // template/not-upstream's findings in this workflow: the step whose text holds one reads the step it names.
  const reads: { from: string; to: string }[] = [];
  const text = file.source.text;
  for (const finding of findings) {
    if (finding.rule !== NOT_UPSTREAM) continue;
    if (finding.span.start < workflow.node.span.start || finding.span.end > workflow.node.span.end) continue;
    const reader = workflow.steps.find((s) => s.node.span.start <= finding.span.start && finding.span.end <= s.node.span.end);
    const readId = text.slice(finding.span.start, finding.span.end);
    const read = workflow.byId.get(readId);
    if (!reader || !read || read === reader) continue;
    const readerId = stepIdOf(reader);
    const after = upstreamOf(workflow, read).has(readerId);
    markOn(reader, {
      kind: 'race',
      text: after
        ? `reads .steps.${readId}, which always runs after it: it renders <no value>`
        : `reads .steps.${readId} without waiting for it: a race`,
    });
    if (!reads.some((r) => r.from === readId && r.to === readerId)) reads.push({ from: readId, to: readerId });
  }

  const nodes: WorkflowGraphNode[] = workflow.steps.map((step) => {
    const toolStep = step.type === 'forEach' ? step.inner : step.type === 'tool' ? step : undefined;
    const entry = toolStep ? entries.get(toolStep) : undefined;
    const { annotationClass, detail } = classify(step, entry);
    const stepMarks = marks.get(step);
    return {
      id: stepIdOf(step),
      tool: toolStep?.toolText,
      type: step.type,
      annotationClass,
      detail,
      line: file.source.positionAt(step.node.span.start).line,
      ...(stepMarks ? { marks: stepMarks } : {}),
    };
  });
  const known = new Set(nodes.map((n) => n.id));
  const edges: WorkflowGraph['edges'] = workflow.steps.flatMap((step) =>
    step.dependsOn.map((d) => ({ from: String(d.value), to: stepIdOf(step) })).filter((e) => known.has(e.from)),
  );
  for (const read of reads) if (known.has(read.from)) edges.push({ ...read, kind: 'reads' });
  return {
    workflow: workflow.nameText ?? '(unnamed composite tool)',
    uri: session.uriOf(file.path),
    nodes,
    edges,
    ...(dropped ? { dropped } : {}),
  };
}

function classify(step: StepModel, entry: StepEntry<ResolvedStep> | undefined): { annotationClass: AnnotationClass; detail: string } {
  if (!entry) {
    return step.type === 'elicitation'
      ? { annotationClass: 'no-tool', detail: 'elicitation: asks the user, calls no tool' }
      : { annotationClass: 'no-tool', detail: 'calls no tool' };
  }
  if (!entry.known) return { annotationClass: 'unknown', detail: `unknown: ${entry.reason}` };
  const declared = entry.annotations;
  // The MCP defaults for absent hints are the floor's (effectiveAnnotations), not ours to repeat.
  const effective = effectiveAnnotations(declared);
  if (effective.readOnlyHint) return { annotationClass: 'read-only', detail: 'declares readOnlyHint: true' };
  if (effective.destructiveHint === false) return { annotationClass: 'additive', detail: 'declares destructiveHint: false (changes things, destroys nothing)' };
  return {
    annotationClass: 'destructive',
    detail: declared.destructiveHint === true ? 'declares destructiveHint: true' : 'omits destructiveHint, which counts as destructive',
  };
}
