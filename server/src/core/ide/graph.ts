// The data of the workflow graph (client/src/graph.ts draws it): one node per step with the class
// of its tool's annotations, the `dependsOn` edges, and the marks of what is wrong where it
// happens: the steps whose annotations are unknown, the reads of a step that is not upstream
// (template/not-upstream's findings, as the editor shows them, drawn as `reads` edges), and, when
// the composite's explicit hints contradict its floor (the gateway then drops it), that and the
// steps that decide the contradicted hints; or, when a step does not resolve, that the gateway
// leaves the composite out for it. The analyses are core's; this only places them.
import type { DocumentContext } from '../context.js';
import { effectiveAnnotations, type StepEntry } from '../floor/floor.js';
import { floorOf } from '../floor/workflowFloor.js';
import { stepIdOf, type ResolvedStep } from '../gateway/steps.js';
import { upstreamOf, type StepModel, type WorkflowModel } from '../model/workflow.js';
import type { ParsedFile } from '../parse/file.js';
import { joinWords } from '../text/words.js';
import type { Finding } from '../types.js';

const NOT_UPSTREAM = 'template/not-upstream';

/** How safe a step's tool says it is, for the graph's colours. */
export type AnnotationClass = 'read-only' | 'additive' | 'destructive' | 'unknown' | 'no-tool';

export interface WorkflowGraphNode {
  id: string;
  /** The step's tool reference as written (inner tool for a forEach). */
  tool?: string;
  type: string;
  annotationClass: AnnotationClass;
  /** One line saying why the class is what it is. */
  detail: string;
  line: number;
  /** What the graph marks on the step (the diagnostics' findings, shown where they happen). */
  marks?: WorkflowGraphMark[];
}

/**
 * A mark on a step: `unknown`, its tool's annotations are unknown, so the floor assumes the worst;
 * `race`, a template of it reads a step it does not wait for (template/not-upstream); `breaks-claim`,
 * it decides a floor hint that the composite's explicit annotations contradict.
 */
export interface WorkflowGraphMark {
  kind: 'unknown' | 'race' | 'breaks-claim';
  /** One short sentence. */
  text: string;
}

export interface WorkflowGraphEdge {
  /** The step that must finish first (for a `reads` edge: the step read). */
  from: string;
  to: string;
  /**
   * Absent: `to` depends on `from` (`dependsOn`). `reads`: `to` reads `.steps.<from>` without
   * waiting for it, a race the graph draws as a dashed edge of its own.
   */
  kind?: 'reads';
}

/** A composite tool's graph (the language server's command adds the document's URI). */
export interface GraphOfWorkflow {
  workflow: string;
  nodes: WorkflowGraphNode[];
  edges: WorkflowGraphEdge[];
  /** Set when the gateway drops this composite from its tool list: a step does not resolve, or the explicit hints contradict the floor. */
  dropped?: string;
}

/** The graph of one composite tool of `file`; `findings`: the file's current findings (the diagnostics the editor shows). */
export function workflowGraph(
  file: ParsedFile,
  ctx: DocumentContext,
  workflow: WorkflowModel,
  findings: readonly Finding[],
): GraphOfWorkflow {
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
    if (!entry.known)
      markOn(entry.step.step, {
        kind: 'unknown',
        text: `annotations unknown (${entry.reason}): the floor assumes the worst`,
      });
  }

  // Left out for a step that does not resolve before any annotation is read (listing/toolList.ts's
  // first gate), as the lens says; a claim the other steps contradict is said too (its own finding).
  const claims = floor.contradictions.map((c) => `${c.hint}: ${c.explicit}`).join(', ');
  let dropped: string | undefined;
  if (floor.unroutable.length) {
    const ids = floor.unroutable.map((s) => `"${s.stepId}"`);
    const also = claims ? `, and the composite claims ${claims}, which its steps contradict` : '';
    dropped = `Left out by the gateway: ${ids.length === 1 ? 'step' : 'steps'} ${joinWords(ids)} ${ids.length === 1 ? 'does' : 'do'} not resolve${also}.`;
  } else if (claims) {
    dropped = `Dropped by the gateway: the composite claims ${claims}, which its steps contradict.`;
  }
  for (const c of floor.contradictions) {
    const row = floor.table.rows.find((r) => r.hint === c.hint);
    for (const entry of row?.deciding ?? []) {
      if (floor.unroutable.includes(entry.step)) continue;
      markOn(entry.step.step, {
        kind: 'breaks-claim',
        text: `makes the floor's ${c.hint} ${c.floor}, against the claimed ${c.explicit}`,
      });
    }
  }

  // template/not-upstream's findings in this workflow: the step whose text holds one reads the step it names.
  const reads: { from: string; to: string }[] = [];
  const text = file.source.text;
  for (const finding of findings) {
    if (finding.rule !== NOT_UPSTREAM) continue;
    if (finding.span.start < workflow.node.span.start || finding.span.end > workflow.node.span.end) continue;
    const reader = workflow.steps.find(
      (s) => s.node.span.start <= finding.span.start && finding.span.end <= s.node.span.end,
    );
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
  const edges: WorkflowGraphEdge[] = workflow.steps.flatMap((step) =>
    step.dependsOn.map((d) => ({ from: String(d.value), to: stepIdOf(step) })).filter((e) => known.has(e.from)),
  );
  for (const read of reads) if (known.has(read.from)) edges.push({ ...read, kind: 'reads' });
  return {
    workflow: workflow.nameText ?? '(unnamed composite tool)',
    nodes,
    edges,
    ...(dropped ? { dropped } : {}),
  };
}

function classify(
  step: StepModel,
  entry: StepEntry<ResolvedStep> | undefined,
): { annotationClass: AnnotationClass; detail: string } {
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
  if (effective.destructiveHint === false)
    return {
      annotationClass: 'additive',
      detail: 'declares destructiveHint: false (changes things, destroys nothing)',
    };
  return {
    annotationClass: 'destructive',
    detail:
      declared.destructiveHint === true
        ? 'declares destructiveHint: true'
        : 'omits destructiveHint, which counts as destructive',
  };
}
