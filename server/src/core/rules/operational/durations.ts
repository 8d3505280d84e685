// operational/durations: the two comparisons of durations in a CLI file's operational settings
// that ToolHive's validator makes (validateFailureHandling in pkg/vmcp/config/validator.go), on the
// values left after EnsureOperationalDefaults (pkg/vmcp/config/defaults.go) fills the zero ones:
// a positive healthCheckTimeout must be below healthCheckInterval (30s when not written), and an
// enabled circuit breaker's timeout must be at least 1s. Negative values are the schema's
// (schema/invalid-value, schemas/vmcp-config.schema.json), so they are left alone here.
import { getBoolean, getMap, getScalar, type ScalarNode } from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import { parseGoDuration } from '../../text/durations.js';
import { refusedAtLoad } from '../../wording/refusalMoments.js';
import { defineRule } from '../rule.js';

const SECOND_NS = 1e9;
/** config/defaults.go defaultHealthCheckInterval. */
const DEFAULT_HEALTH_CHECK_INTERVAL_NS = 30 * SECOND_NS;

export const rule = defineRule({
  id: 'operational/durations',
  defaultSeverity: 'error',
  summary: 'A `healthCheckTimeout` not below the health check interval, or a circuit breaker `timeout` under 1s.',
  kinds: ['vmcp-config'],
  messages: {
    /** `timeout` and `interval` as written (`interval` may say it is the default); `moment`: when ToolHive refuses it. */
    timeoutNotBelowInterval: ({ timeout, interval, moment }: { timeout: string; interval: string; moment: string }) =>
      `\`healthCheckTimeout\` ${timeout} is not below the interval: make it shorter, or 0 for none. ` +
      `The \`healthCheckInterval\` is ${interval}; a timeout of 0 means no timeout. ` +
      `ToolHive refuses a health check that may outlast the time between two checks (validateFailureHandling): ${moment}.`,
    breakerTimeout: ({ timeout, moment }: { timeout: string; moment: string }) =>
      `The circuit breaker \`timeout\` ${timeout} is under 1s: use 1s or more, or leave it out. ` +
      'Left out, it is the default 60s. ' +
      `ToolHive refuses a shorter wait before an open circuit is tried again, which would make it flap (validateFailureHandling): ${moment}.`,
  },
  check(ctx) {
    const failureHandling = getMap(getMap(workflowsOf(ctx).config, 'operational'), 'failureHandling');
    if (!failureHandling) return;
    const moment = refusedAtLoad(ctx.doc.kind);

    const intervalNode = getScalar(failureHandling, 'healthCheckInterval');
    let interval: number | undefined = DEFAULT_HEALTH_CHECK_INTERVAL_NS;
    let intervalText = '30s, the default';
    if (intervalNode && intervalNode.value !== null) {
      const written = durationOf(intervalNode);
      if (written !== 0) {
        interval = written;
        intervalText = String(intervalNode.value);
      }
    }
    const timeoutNode = getScalar(failureHandling, 'healthCheckTimeout');
    const timeout = durationOf(timeoutNode);
    if (
      timeoutNode &&
      timeout !== undefined &&
      timeout > 0 &&
      interval !== undefined &&
      interval > 0 &&
      timeout >= interval
    ) {
      ctx.report({
        messageId: 'timeoutNotBelowInterval',
        data: { timeout: String(timeoutNode.value), interval: intervalText, moment },
        span: timeoutNode.span,
      });
    }

    const breaker = getMap(failureHandling, 'circuitBreaker');
    if (breaker && getBoolean(breaker, 'enabled') === true) {
      const node = getScalar(breaker, 'timeout');
      const value = durationOf(node);
      if (node && value !== undefined && value > 0 && value < SECOND_NS) {
        ctx.report({
          messageId: 'breakerTimeout',
          data: { timeout: String(node.value), moment },
          span: node.span,
        });
      }
    }
  },
});

/** A written duration in nanoseconds; undefined when absent, not a string, or not a Go duration. */
function durationOf(node: ScalarNode | undefined): number | undefined {
  return typeof node?.value === 'string' ? parseGoDuration(node.value) : undefined;
}
