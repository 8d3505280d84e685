// Typed views over the composite tools (workflows) of a ToolHive document: where they live in
// each document kind, their steps, and the facts several rules need (skippable, upstream sets).
import { memoKey } from '../memo.js';
import type { ParsedDocument, ParsedFile } from '../parse/file.js';
import {
  getMap,
  getNode,
  getScalar,
  getSeq,
  getString,
  isMap,
  isScalar,
  type MapNode,
  type Node,
  type ScalarNode,
  type SeqNode,
} from '../parse/nodes.js';
import type { DocumentContext } from '../context.js';
import { closestN, type SuggestionBudget } from '../text/suggest.js';

type StepType = 'tool' | 'elicitation' | 'forEach';

export interface StepModel {
  node: MapNode;
  /** Index among the workflow's steps; for an inner step, its forEach parent's index. */
  index: number;
  /** Keys and indexes from the document root, for messages and schema mapping. */
  path: (string | number)[];
  id?: ScalarNode;
  idText?: string;
  /** `type` as written, or the type ToolHive infers: tool when `tool` is set, else tool. */
  type: StepType | 'invalid';
  typeNode?: ScalarNode;
  tool?: ScalarNode;
  toolText?: string;
  arguments?: MapNode;
  argumentsNode?: Node;
  dependsOn: ScalarNode[];
  dependsOnNode?: SeqNode;
  condition?: ScalarNode;
  message?: ScalarNode;
  collection?: ScalarNode;
  itemVar: string;
  onError?: MapNode;
  onErrorAction?: string;
  defaultResults?: MapNode;
  /** A forEach step's inner step. */
  inner?: StepModel;
  /** For an inner step: the forEach step around it. */
  parent?: StepModel;
  /** Skipped when its condition is false or its failure is tolerated: output is then defaultResults. */
  skippable: boolean;
}

export interface WorkflowModel {
  node: MapNode;
  path: (string | number)[];
  name?: ScalarNode;
  nameText?: string;
  parameters?: Node;
  annotations?: MapNode;
  stepsNode?: SeqNode;
  steps: StepModel[];
  output?: MapNode;
  /** Steps by id (first one for duplicates). */
  byId: Map<string, StepModel>;
}

export interface WorkflowDocument {
  workflows: WorkflowModel[];
  /** The `aggregation` block that applies to these workflows, if the document has one. */
  aggregation?: MapNode;
  aggregationPath?: (string | number)[];
  /** The document's config mapping (root, or `spec.config`). */
  config?: MapNode;
}

const KEY = memoKey<WorkflowDocument>('workflows');

export function workflowsOf(ctx: DocumentContext): WorkflowDocument {
  return ctx.memo.get(KEY, () => buildWorkflowDocument(ctx.doc.root, ctx.doc.kind));
}

function buildWorkflowDocument(root: Node | null, kind: string | null): WorkflowDocument {
  if (!isMap(root)) return { workflows: [] };
  if (kind === 'vmcp-composite') {
    const spec = getMap(root, 'spec');
    return { workflows: spec ? [workflowFrom(spec, ['spec'])] : [] };
  }
  let config: MapNode | undefined = root;
  let prefix: (string | number)[] = [];
  if (kind === 'vmcp-server') {
    config = getMap(getMap(root, 'spec'), 'config');
    prefix = ['spec', 'config'];
  }
  if (!config) return { workflows: [] };
  const tools = getSeq(config, 'compositeTools');
  const workflows: WorkflowModel[] = [];
  tools?.items.forEach((item, i) => {
    if (isMap(item)) workflows.push(workflowFrom(item, [...prefix, 'compositeTools', i]));
  });
  const aggregation = getMap(config, 'aggregation');
  return { workflows, aggregation, aggregationPath: aggregation ? [...prefix, 'aggregation'] : undefined, config };
}

function workflowFrom(node: MapNode, path: (string | number)[]): WorkflowModel {
  const name = getScalar(node, 'name');
  const stepsNode = getSeq(node, 'steps');
  const steps: StepModel[] = [];
  stepsNode?.items.forEach((item, i) => {
    if (isMap(item)) steps.push(stepFrom(item, i, [...path, 'steps', i]));
  });
  const byId = new Map<string, StepModel>();
  for (const step of steps) if (step.idText !== undefined && !byId.has(step.idText)) byId.set(step.idText, step);
  return {
    node,
    path,
    name,
    nameText: typeof name?.value === 'string' ? name.value : undefined,
    parameters: getNode(node, 'parameters'),
    annotations: getMap(node, 'annotations'),
    stepsNode,
    steps,
    output: getMap(node, 'output'),
    byId,
  };
}

const STEP_TYPES: readonly string[] = ['tool', 'elicitation', 'forEach'];

function stepFrom(node: MapNode, index: number, path: (string | number)[], parent?: StepModel): StepModel {
  const id = getScalar(node, 'id');
  const typeNode = getScalar(node, 'type');
  const written = typeNode?.value;
  let type: StepModel['type'];
  if (written === undefined || written === null || written === '') type = 'tool';
  else type = typeof written === 'string' && STEP_TYPES.includes(written) ? (written as StepType) : 'invalid';
  const dependsOnNode = getSeq(node, 'dependsOn');
  const onError = getMap(node, 'onError');
  const onErrorAction = getString(onError, 'action');
  const condition = getScalar(node, 'condition');
  const argumentsNode = getNode(node, 'arguments');
  const tool = getScalar(node, 'tool');
  const step: StepModel = {
    node,
    index,
    path,
    id,
    idText: id && id.value !== null ? String(id.value) : undefined,
    type,
    typeNode,
    tool,
    toolText: typeof tool?.value === 'string' ? tool.value : undefined,
    arguments: isMap(argumentsNode) ? argumentsNode : undefined,
    argumentsNode,
    dependsOn: (dependsOnNode?.items ?? []).filter(isScalar),
    dependsOnNode,
    condition,
    message: getScalar(node, 'message'),
    collection: getScalar(node, 'collection'),
    itemVar: getString(node, 'itemVar') || 'item',
    onError,
    onErrorAction,
    defaultResults: getMap(node, 'defaultResults'),
    parent,
    skippable: (typeof condition?.value === 'string' && condition.value !== '') || onErrorAction === 'continue',
  };
  if (type === 'forEach') {
    const inner = getMap(node, 'step');
    if (inner) step.inner = stepFrom(inner, index, [...path, 'step'], step);
  }
  return step;
}

const idLists = new WeakMap<WorkflowModel, string[]>();

/** The workflow's step ids, each once, in step order (made once per workflow: every "did you mean" over them asks). */
export function stepIdsOf(workflow: WorkflowModel): readonly string[] {
  let ids = idLists.get(workflow);
  if (!ids) idLists.set(workflow, (ids = [...workflow.byId.keys()]));
  return ids;
}

/**
 * The step ids other than `self`, for a message: the first LIMITS.messageItems of them quoted,
 * and how many there are in all (`listOf(shown, max, total)` words them).
 */
export function otherStepIds(
  workflow: WorkflowModel,
  self: string | undefined,
  max: number,
): { shown: string[]; total: number } {
  const ids = stepIdsOf(workflow);
  const shown: string[] = [];
  for (const id of ids) {
    if (shown.length >= max) break;
    if (id !== self) shown.push(`"${id}"`);
  }
  return { shown, total: ids.length - (self !== undefined && workflow.byId.has(self) ? 1 : 0) };
}

/** The best "did you mean" among the step ids other than `self`. */
export function closestStepId(
  workflow: WorkflowModel,
  word: string,
  self: string | undefined,
  budget: SuggestionBudget,
): string | undefined {
  return closestN(word, stepIdsOf(workflow), 2, { budget }).find((id) => id !== self);
}

/** Every step in step order, each forEach step followed by its inner step. */
export function allSteps(workflow: WorkflowModel): StepModel[] {
  // A loop, not flatMap: flatMap made a list per step, and many rules ask for every step.
  const out: StepModel[] = [];
  for (const step of workflow.steps) {
    out.push(step);
    if (step.inner) out.push(step.inner);
  }
  return out;
}

/** Tool steps in step order; a forEach contributes its inner tool step in its own place. */
export function toolSteps(workflow: WorkflowModel): StepModel[] {
  const out: StepModel[] = [];
  for (const step of workflow.steps) {
    if (step.type === 'tool') out.push(step);
    else if (step.type === 'forEach' && step.inner && step.inner.type === 'tool') out.push(step.inner);
  }
  return out;
}

/** Every step id reachable upstream of `step` through `dependsOn` (transitively): one walk, for one question. */
export function upstreamOf(workflow: WorkflowModel, step: StepModel): Set<string> {
  const seen = new Set<string>();
  const start = step.parent ?? step;
  const stack = start.dependsOn.map((d) => String(d.value));
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const dep = workflow.byId.get(id);
    if (dep) for (const next of dep.dependsOn) stack.push(String(next.value));
  }
  return seen;
}

/** "Does `from` wait for `to`?": an inner step asks as its forEach step. */
export type WaitQuestion = readonly [from: StepModel, to: StepModel];

/**
 * Whether each `from` waits for its `to` through `dependsOn`, directly or through other steps
 * (cycles included: a step in a cycle waits for itself), answered for all the questions at once.
 * Asking one walk per question costs steps x questions: every step of an 8,000-step chain reading
 * the first step's output took 7x a bare parse, and 57x at 40,000 steps. Here the steps' cycles
 * are collapsed once (Tarjan, iteratively), then one pass over the steps and edges gives, as
 * bitsets, which of up to 512 steps each step reaches, or (when fewer steps ask than are asked
 * about) which of up to 512 asking steps reach it. So many steps asking about one, or one asking
 * about many, is one pass; the worst case (thousands of different steps each asking about a
 * different one) is steps x steps / 32 word operations, a fraction of a second at 40,000 steps.
 */
export function waitsForEach(workflow: WorkflowModel, questions: readonly WaitQuestion[]): boolean[] {
  const answers = new Array<boolean>(questions.length).fill(false);
  if (questions.length === 0) return answers;
  const graph = dependencyGraphOf(workflow);
  const pairs: { question: number; from: number; to: number }[] = [];
  const froms = new Set<number>();
  const tos = new Set<number>();
  questions.forEach(([fromStep, toStep], question) => {
    const from = graph.indexOf.get(fromStep.parent ?? fromStep);
    const to = graph.indexOf.get(toStep.parent ?? toStep);
    if (from === undefined || to === undefined) return;
    pairs.push({ question, from, to });
    froms.add(from);
    tos.add(to);
  });
  // Bits for the side with fewer distinct steps; the walk goes the other way for the asking side.
  const forward = tos.size <= froms.size;
  const bitOf = new Map<number, number>();
  for (const step of forward ? tos : froms) bitOf.set(step, bitOf.size);
  const { component, order, componentStart, cyclic, edgeStart, edges } = graph;
  const components = cyclic.length;
  const width = Math.min(CHUNK_WORDS, Math.ceil(bitOf.size / 32));
  const reach = new Uint32Array(components * width);
  const own = new Uint32Array(components * width);
  const bitSteps = [...bitOf.keys()];
  for (let first = 0; first < bitSteps.length; first += width * 32) {
    reach.fill(0);
    own.fill(0);
    const last = Math.min(bitSteps.length, first + width * 32);
    for (let b = first; b < last; b++)
      own[component[bitSteps[b]!]! * width + ((b - first) >>> 5)]! |= 1 << ((b - first) & 31);
    // Tarjan emits a component after every component it reaches. Forward: dependencies first, each
    // component gathers what its dependencies reach. Backward: dependents first, each component
    // passes what reaches it on to its dependencies.
    for (let i = 0; i < components; i++) {
      const c = forward ? i : components - 1 - i;
      const base = c * width;
      if (cyclic[c]) for (let w = 0; w < width; w++) reach[base + w]! |= own[base + w]!;
      for (let k = componentStart[c]!; k < componentStart[c + 1]!; k++) {
        const node = order[k]!;
        for (let e = edgeStart[node]!; e < edgeStart[node + 1]!; e++) {
          const d = component[edges[e]!]!;
          if (d === c) continue;
          const other = d * width;
          if (forward) for (let w = 0; w < width; w++) reach[base + w]! |= reach[other + w]! | own[other + w]!;
          else for (let w = 0; w < width; w++) reach[other + w]! |= reach[base + w]! | own[base + w]!;
        }
      }
    }
    for (const { question, from, to } of pairs) {
      const bit = bitOf.get(forward ? to : from)! - first;
      if (bit < 0 || bit >= last - first) continue;
      const at = component[forward ? from : to]! * width + (bit >>> 5);
      answers[question] = (reach[at]! & (1 << (bit & 31))) !== 0;
    }
  }
  return answers;
}

/** 16 words: 512 steps per pass over the graph. */
const CHUNK_WORDS = 16;

/** The `dependsOn` graph of a workflow's top-level steps with its cycles collapsed (strongly connected components). */
interface DependencyGraph {
  indexOf: Map<StepModel, number>;
  /** Edges of step i: `edges[edgeStart[i]..edgeStart[i+1])`, each a step index (unknown ids are no edge). */
  edgeStart: Int32Array;
  edges: Int32Array;
  /** The component of each step. */
  component: Int32Array;
  /** Steps by component, components in the order Tarjan emits them (a component after all it reaches). */
  order: Int32Array;
  componentStart: Int32Array;
  /** Whether a component is a cycle (several steps, or one that depends on itself). */
  cyclic: Uint8Array;
}

const GRAPHS = new WeakMap<WorkflowModel, DependencyGraph>();

function dependencyGraphOf(workflow: WorkflowModel): DependencyGraph {
  let graph = GRAPHS.get(workflow);
  if (!graph) GRAPHS.set(workflow, (graph = buildDependencyGraph(workflow)));
  return graph;
}

function buildDependencyGraph(workflow: WorkflowModel): DependencyGraph {
  const steps = workflow.steps;
  const n = steps.length;
  const indexOf = new Map<StepModel, number>();
  steps.forEach((step, i) => indexOf.set(step, i));
  const edgeStart = new Int32Array(n + 1);
  const list: number[] = [];
  for (let i = 0; i < n; i++) {
    edgeStart[i] = list.length;
    for (const entry of steps[i]!.dependsOn) {
      const dep = workflow.byId.get(String(entry.value));
      if (dep) list.push(indexOf.get(dep)!);
    }
  }
  edgeStart[n] = list.length;
  const edges = Int32Array.from(list);

  // Tarjan's strongly connected components, with an explicit stack.
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const component = new Int32Array(n);
  const stack: number[] = [];
  const order = new Int32Array(n);
  const starts: number[] = [];
  const cyclicList: number[] = [];
  let counter = 0;
  let emitted = 0;
  const callNode: number[] = [];
  const callEdge: number[] = [];
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    callNode.push(root);
    callEdge.push(edgeStart[root]!);
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (callNode.length) {
      const top = callNode.length - 1;
      const v = callNode[top]!;
      const e = callEdge[top]!;
      if (e < edgeStart[v + 1]!) {
        callEdge[top] = e + 1;
        const w = edges[e]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          callNode.push(w);
          callEdge.push(edgeStart[w]!);
        } else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      callNode.pop();
      callEdge.pop();
      if (callNode.length) {
        const parent = callNode[callNode.length - 1]!;
        low[parent] = Math.min(low[parent]!, low[v]!);
      }
      if (low[v] !== index[v]) continue;
      const c = starts.length;
      starts.push(emitted);
      let size = 0;
      let w: number;
      do {
        w = stack.pop()!;
        onStack[w] = 0;
        component[w] = c;
        order[emitted++] = w;
        size++;
      } while (w !== v);
      let selfLoop = false;
      for (let k = edgeStart[v]!; k < edgeStart[v + 1]! && !selfLoop; k++) selfLoop = edges[k] === v;
      cyclicList.push(size > 1 || selfLoop ? 1 : 0);
    }
  }
  starts.push(emitted);
  return {
    indexOf,
    edgeStart,
    edges,
    component,
    order,
    componentStart: Int32Array.from(starts),
    cyclic: Uint8Array.from(cyclicList),
  };
}

/**
 * The VirtualMCPCompositeToolDefinitions of a file with this metadata.name (and namespace, when
 * both say one), in file order: what a `compositeToolRefs` entry names, as far as one file shows it.
 * An assertion or patch of a definition (in a Chainsaw test) defines nothing.
 */
export function compositeDefinitionsIn(
  file: ParsedFile,
  name: string,
  namespace: string | undefined,
): ParsedDocument[] {
  return file.documents.filter((doc) => {
    if (doc.kind !== 'vmcp-composite' || doc.partial) return false;
    const metadata = getMap(doc.root, 'metadata');
    if (getString(metadata, 'name') !== name) return false;
    const ns = getString(metadata, 'namespace');
    return namespace === undefined || ns === undefined || ns === namespace;
  });
}
