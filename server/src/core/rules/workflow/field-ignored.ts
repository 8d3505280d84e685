import { getPair, type Pair } from '../../parse/nodes.js';
import { allSteps, workflowsOf, type StepModel } from '../../model/workflow.js';
import { defineRule, type RuleContext } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';
import { isAmbiguous } from './ambiguous-step.js';

const FOREACH_ONLY = ['collection', 'itemVar', 'maxParallel', 'maxIterations', 'step'];
const ELICITATION_ONLY = ['message', 'schema', 'onDecline', 'onCancel'];

/**
 * A field that this step type never reads (info). One exception is an error, because ToolHive
 * refuses the configuration rather than ignoring the field: `tool` or `message` on a forEach step
 * (they belong on the inner `step`). It is reported here, under this rule, at severity error.
 */
const messages = {
  /** `key`: the field; `why`: what this step type does with it (the rest of the sentence). */
  ignored: ({ key, why }: { key: string; why: string }) => `\`${key}\` ${why}`,
  forEachMessage: () =>
    'ToolHive refuses a forEach step with a `message`: a forEach cannot ask the user anything. Remove it.',
  forEachTool: () =>
    'A forEach step takes no `tool`: move it (and its `arguments`) under `step:`. ' +
    'ToolHive refuses a forEach step with a `tool`: the tool called for each item belongs on the inner `step`.',
  elicitationRetry: () =>
    '`retry` does nothing on an elicitation step: use `continue` or `abort` here. Asking the user again is not how it ' +
    'handles a failure; `onDecline` and `onCancel` take the answers.',
};

export const rule = defineRule({
  id: 'workflow/field-ignored',
  defaultSeverity: 'info',
  summary: 'A field that this step type never reads.',
  kinds: WORKFLOW_KINDS,
  messages,
  check(ctx) {
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const step of allSteps(workflow)) checkStep(ctx, step);
    }
  },
});

function checkStep(ctx: RuleContext<typeof messages>, step: StepModel): void {
  if (step.type === 'invalid' || (!step.parent && isAmbiguous(step.node))) return;
  if (step.parent && step.type !== 'tool') return; // inner steps must be tool steps: schema/invalid-value
  // No `type` and no `tool`: ToolHive refuses it as a tool step without a tool (schema/missing-field,
  // which says to set `type`); what it ignores as a tool step is not yet known.
  if (!step.parent && !step.typeNode && !getPair(step.node, 'tool')) return;
  const where = step.parent ? 'the inner step of a forEach' : `this ${step.type} step`;
  const ignored = (pair: Pair | undefined, why: string) => {
    if (pair) ctx.report({ messageId: 'ignored', data: { key: String(pair.key.value), why }, span: pair.key.span });
  };
  const has = (key: string) => getPair(step.node, key);
  if (step.type !== 'forEach') {
    for (const key of FOREACH_ONLY) {
      ignored(
        has(key),
        step.parent && key === 'step'
          ? 'on an inner step does nothing: forEach steps cannot be nested.'
          : `is only read on forEach steps; on ${where} it does nothing.`,
      );
    }
  }
  if (step.type !== 'elicitation') {
    for (const key of ELICITATION_ONLY) {
      const pair = has(key);
      if (!pair) continue;
      if (step.type === 'forEach' && key === 'message') {
        ctx.report({
          messageId: 'forEachMessage',
          span: pair.key.span,
          severity: 'error',
        });
      } else ignored(pair, `is only read on elicitation steps; on ${where} it does nothing.`);
    }
  }
  if (step.type === 'forEach') {
    const tool = has('tool');
    if (tool) {
      ctx.report({
        messageId: 'forEachTool',
        span: tool.key.span,
        severity: 'error',
      });
    }
    ignored(
      has('arguments'),
      'on a forEach step is never sent: move it under `step:`. The arguments for each item belong on the inner `step`.',
    );
  }
  if (step.type === 'elicitation') {
    ignored(has('tool'), 'is ignored on an elicitation step: it asks the user and calls no tool.');
    ignored(has('arguments'), 'is ignored on an elicitation step: it asks the user and calls no tool.');
  }
  const onError = step.onError;
  if (!onError) return;
  const action = step.onErrorAction ?? 'abort';
  if (step.type === 'elicitation' && action === 'retry') {
    const actionPair = getPair(onError, 'action')!;
    ctx.report({
      messageId: 'elicitationRetry',
      span: (actionPair.value ?? actionPair.key).span,
    });
    return;
  }
  if (!['abort', 'continue', 'retry', ''].includes(action)) return; // not an action: schema/invalid-value
  if (action === 'retry' && step.type !== 'elicitation') return;
  for (const key of ['retryCount', 'retryDelay']) {
    const pair = getPair(onError, key);
    if (!pair) continue;
    ignored(
      pair,
      step.type === 'elicitation'
        ? 'does nothing on an elicitation step: it is never retried.'
        : `is ignored without \`action: retry\`: remove it, or retry. It is only read when \`onError.action\` is \`retry\`; with ${step.onErrorAction ? `\`${action}\`` : 'the default `abort`'} the step is not retried at all.`,
    );
  }
}
