// Typed views over the composite tools (workflows) of a ToolHive document: where they live in
// each document kind, their steps, and the facts several rules need (skippable, upstream sets).
import { memoKey } from '../memo.js';
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

/** Every step in step order, each forEach step followed by its inner step. */
export function allSteps(workflow: WorkflowModel): StepModel[] {
  return workflow.steps.flatMap((step) => (step.inner ? [step, step.inner] : [step]));
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

/** Every step id reachable upstream of `step` through `dependsOn` (transitively). */
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
