import { getPair, getScalar, type ScalarNode } from '../../parse/nodes.js';
import { allSteps, workflowsOf, type StepModel } from '../../model/workflow.js';
import { defineRule, type RuleContext } from '../rule.js';
import { WORKFLOW_KINDS, type DocumentKind } from '../../types.js';
import { refusedAtLoad, refusedAtStart } from '../../wording/refusalMoments.js';
import { parseGoDuration } from '../../text/durations.js';

const MAX_STEPS = 100;
const MAX_RETRY_COUNT = 10;
const MAX_PARALLEL = 50;
const MAX_ITERATIONS = 1000;
const MAX_ELICITATION_TIMEOUT_NS = 10 * 60 * 1e9;

/**
 * Values over ToolHive's limits. Where ToolHive refuses them the finding is an error: `maxParallel`
 * and `maxIterations` at load (validateForEachLimits, config/composite_validation.go), more than
 * 100 steps when the server starts (ValidateWorkflow, composer/workflow_engine.go). Where it only
 * caps them at run time with a log line (retries in getRetryConfig, the elicitation
 * timeout in elicitation_handler.go) the finding is a warning, as the rule's page says.
 */
const messages = {
  tooManySteps: ({ steps, kind }: { steps: number; kind: DocumentKind | null }) =>
    `This workflow has ${steps} steps, over ToolHive's limit of ${MAX_STEPS}: split it into several composite tools. ` +
    `${capitalised(refusedAtStart(kind))}.`,
  retryCount: ({ value }: { value: number }) =>
    `\`retryCount\` ${value} is over ToolHive's cap of ${MAX_RETRY_COUNT}: set it to ${MAX_RETRY_COUNT} or less. ` +
    `ToolHive makes at most ${MAX_RETRY_COUNT} retries and logs a warning; the file should say what happens.`,
  maxParallel: ({ value, kind }: { value: number; kind: DocumentKind | null }) =>
    `\`maxParallel\` ${value} is over ToolHive's limit of ${MAX_PARALLEL}: use ${MAX_PARALLEL} or less. ${capitalised(refusedAtLoad(kind))}.`,
  maxIterations: ({ value, kind }: { value: number; kind: DocumentKind | null }) =>
    `\`maxIterations\` ${value} is over ToolHive's limit of ${MAX_ITERATIONS}: use ${MAX_ITERATIONS} or less, or split the collection. ` +
    `${capitalised(refusedAtLoad(kind))}.`,
  /** `timeout`: as written. */
  elicitationTimeout: ({ timeout }: { timeout: string }) =>
    `An elicitation \`timeout\` of ${timeout} is over ToolHive's 10m: use 10m or less. ` +
    `ToolHive waits at most 10m for an answer to an elicitation: a \`timeout\` of ${timeout} is cut to 10m at run time ` +
    '(with a warning in the log), and then the step is handled as cancelled.',
};

export const rule = defineRule({
  id: 'workflow/limit',
  defaultSeverity: 'error',
  summary: 'A value over a limit ToolHive refuses (error) or caps at run time (warning).',
  kinds: WORKFLOW_KINDS,
  messages,
  check(ctx) {
    for (const workflow of workflowsOf(ctx).workflows) {
      const stepsNode = workflow.stepsNode;
      if (stepsNode && stepsNode.items.length > MAX_STEPS) {
        ctx.report({
          messageId: 'tooManySteps',
          data: { steps: stepsNode.items.length, kind: ctx.doc.kind },
          span: getPair(workflow.node, 'steps')!.key.span,
        });
      }
      for (const step of allSteps(workflow)) checkStep(ctx, step);
    }
  },
});

function checkStep(ctx: RuleContext<typeof messages>, step: StepModel): void {
  const retryCount = numberAt(getScalar(step.onError, 'retryCount'));
  if (retryCount && retryCount.value > MAX_RETRY_COUNT) {
    ctx.report({
      messageId: 'retryCount',
      data: { value: retryCount.value },
      span: retryCount.node.span,
      severity: 'warning',
    });
  }
  if (step.type === 'forEach') {
    const maxParallel = numberAt(getScalar(step.node, 'maxParallel'));
    if (maxParallel && maxParallel.value > MAX_PARALLEL) {
      ctx.report({
        messageId: 'maxParallel',
        data: { value: maxParallel.value, kind: ctx.doc.kind },
        span: maxParallel.node.span,
      });
    }
    const maxIterations = numberAt(getScalar(step.node, 'maxIterations'));
    if (maxIterations && maxIterations.value > MAX_ITERATIONS) {
      ctx.report({
        messageId: 'maxIterations',
        data: { value: maxIterations.value, kind: ctx.doc.kind },
        span: maxIterations.node.span,
      });
    }
  }
  if (step.type === 'elicitation') {
    const timeout = getScalar(step.node, 'timeout');
    const ns = typeof timeout?.value === 'string' ? parseGoDuration(timeout.value) : undefined;
    if (timeout && ns !== undefined && ns > MAX_ELICITATION_TIMEOUT_NS) {
      ctx.report({
        messageId: 'elicitationTimeout',
        data: { timeout: String(timeout.value) },
        span: timeout.span,
        severity: 'warning',
      });
    }
  }
}

function numberAt(node: ScalarNode | undefined): { node: ScalarNode; value: number } | undefined {
  return node && typeof node.value === 'number' ? { node, value: node.value } : undefined;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
