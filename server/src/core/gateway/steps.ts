// Every tool step of a document resolved through its gateway, once per document: what the tool,
// argument and annotation rules, the floor and the editor features all read, so no caller
// resolves a step's `tool` a second time.
import type { DocumentContext } from '../context.js';
import { memoKey } from '../memo.js';
import { toolSteps, workflowsOf, type StepModel, type WorkflowModel } from '../model/workflow.js';
import {
  gatewayOf,
  isValidToolReference,
  resolveToolRef,
  type GatewayTool,
  type ToolRefResolution,
} from './gateway.js';

/**
 * Why a step's annotations cannot be known; undefined when they can. `malformed`: ToolHive refuses
 * the reference's form at load time (schema/invalid-value says so), so it is not resolved at all.
 */
type UnknownCause = 'no-tool' | 'malformed' | 'no-catalog' | 'unresolved' | 'dynamic' | 'hidden' | 'no-annotations';

/** One tool step and what its `tool` reaches. */
export interface ResolvedStep {
  step: StepModel;
  /** The step's id, or `#<n>` (1-based position) when it has none. */
  stepId: string;
  /** The `tool` value as written. */
  toolRef?: string;
  /** What the gateway makes of the reference; absent when there is none, or it is malformed. */
  resolution?: ToolRefResolution;
  /** The resolved backend tool, when the reference resolves (hidden or not). */
  tool?: GatewayTool;
  /** The conflict-resolved name the gateway routes the step to (= tool.resolvedName). */
  resolvedName?: string;
  /** Set when the tool's annotations cannot be known; absent for an advertised tool that declares them. */
  cause?: UnknownCause;
}

/** One tool step of a document, with its workflow. */
export interface DocumentToolStep {
  workflow: WorkflowModel;
  step: ResolvedStep;
}

const KEY = memoKey<Map<WorkflowModel, ResolvedStep[]>>('resolved-steps');

/** The tool steps of one composite tool (forEach inner tool steps in their parent's place), resolved. */
export function resolvedStepsOf(ctx: DocumentContext, workflow: WorkflowModel): ResolvedStep[] {
  const byWorkflow = ctx.memo.get(KEY, () => new Map<WorkflowModel, ResolvedStep[]>());
  let steps = byWorkflow.get(workflow);
  if (!steps) {
    const gateway = gatewayOf(ctx);
    steps = toolSteps(workflow).map((step) => resolveStep(gateway, step));
    byWorkflow.set(workflow, steps);
  }
  return steps;
}

const TOOL_STEPS = memoKey<readonly DocumentToolStep[]>('document-tool-steps');

/** Every tool step of the document's composite tools, in document order, resolved; one list per document, shared by its readers. */
export function toolStepsOf(ctx: DocumentContext): readonly DocumentToolStep[] {
  return ctx.memo.get(TOOL_STEPS, () =>
    workflowsOf(ctx).workflows.flatMap((workflow) =>
      resolvedStepsOf(ctx, workflow).map((step) => ({ workflow, step })),
    ),
  );
}

const BY_STEP = memoKey<Map<StepModel, ResolvedStep>>('resolved-step-by-model');

/** The resolution of one tool step of this document; undefined for a step that calls no tool. */
export function resolvedStepOf(ctx: DocumentContext, step: StepModel): ResolvedStep | undefined {
  return ctx.memo
    .get(BY_STEP, () => new Map(toolStepsOf(ctx).map(({ step: resolved }) => [resolved.step, resolved])))
    .get(step);
}

export function stepIdOf(step: StepModel): string {
  if (step.idText !== undefined && step.idText !== '') return step.idText;
  return `#${step.index + 1}`;
}

function resolveStep(gateway: ReturnType<typeof gatewayOf>, step: StepModel): ResolvedStep {
  const s: ResolvedStep = { step, stepId: stepIdOf(step), toolRef: step.toolText };
  if (step.toolText === undefined || step.toolText === '') {
    s.cause = 'no-tool';
    return s;
  }
  // One root cause, one finding: a reference of a form ToolHive refuses is the validator's error
  // (the schema's pattern), not also an unknown tool, its arguments or its annotations.
  if (!isValidToolReference(step.toolText)) {
    s.cause = 'malformed';
    return s;
  }
  const resolution = resolveToolRef(gateway, step.toolText);
  s.resolution = resolution;
  if (resolution.kind !== 'resolved') {
    s.cause = resolution.kind;
    return s;
  }
  s.tool = resolution.tool;
  s.resolvedName = resolution.tool.resolvedName;
  // ToolHive looks annotations up among the advertised tools only.
  if (!resolution.tool.advertised) s.cause = 'hidden';
  else if (!resolution.tool.tool.annotations) s.cause = 'no-annotations';
  return s;
}
