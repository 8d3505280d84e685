// operational/durations: the checks of an operational block's health checks, circuit breaker and
// timeouts that ToolHive's validator makes (validateOperational and validateFailureHandling in
// pkg/vmcp/config/validator.go) and that the document's own schema cannot make, on the values
// ToolHive compares:
//
// - a CLI file, at load: the zero values are filled first (EnsureOperationalDefaults in
//   pkg/vmcp/config/defaults.go: interval 30s, no health-check timeout); a positive
//   healthCheckTimeout must be below the interval, and an enabled circuit breaker's timeout must be
//   at least 1s. Negative and zero values are the schema's (schema/invalid-value,
//   schemas/vmcp-config.schema.json).
// - a VirtualMCPServer, when the vMCP pod starts (it runs the same validator on the configuration
//   the operator renders from spec.config): the CRD fills in `healthCheckTimeout: 10s` whenever a
//   `failureHandling` block is written without one (its kubebuilder default), so an interval of 10s
//   or less with no timeout written never starts; a negative `unhealthyThreshold` (the CRD has no
//   minimum; zero is filled with 3) and a zero `perWorkload` timeout (EnsureOperationalDefaults
//   does not fill map entries; the CRD's pattern refuses negative ones) are refused too. The
//   circuit breaker's bounds are the CRD's there (schema/invalid-value, at admission).
import { getBoolean, getMap, getPair, getScalar, isScalar, type MapNode, type ScalarNode } from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import { parseGoDuration } from '../../text/durations.js';
import { refusedAtLoad, refusedAtStart } from '../../wording/refusalMoments.js';
import { defineRule, type RuleContext } from '../rule.js';

const SECOND_NS = 1e9;
/** config/defaults.go defaultHealthCheckInterval. */
const DEFAULT_HEALTH_CHECK_INTERVAL_NS = 30 * SECOND_NS;
/** The CRD's default for failureHandling.healthCheckTimeout (+kubebuilder:default="10s" in config.go). */
const CRD_HEALTH_CHECK_TIMEOUT_NS = 10 * SECOND_NS;

const messages = {
  /** `timeout` and `interval` as written (`interval` may say it is the default); `moment`: when ToolHive refuses it. */
  timeoutNotBelowInterval: ({ timeout, interval, moment }: { timeout: string; interval: string; moment: string }) =>
    `\`healthCheckTimeout\` ${timeout} is not below the interval: make it shorter, or 0 for none. ` +
    `The \`healthCheckInterval\` is ${interval}; a timeout of 0 means no timeout. ` +
    `ToolHive refuses a health check that may outlast the time between two checks (validateFailureHandling): ${moment}.`,
  /** `interval`: as written; `moment`: when ToolHive refuses it. */
  defaultTimeoutNotBelowInterval: ({ interval, moment }: { interval: string; moment: string }) =>
    `\`healthCheckInterval\` ${interval} is not above the default 10s timeout: set \`healthCheckTimeout\` below it. ` +
    'The CRD fills in `healthCheckTimeout: 10s` when a `failureHandling` block has none, and ToolHive refuses a ' +
    `health check that may outlast the time between two checks (validateFailureHandling): ${moment}. ` +
    'Write a shorter `healthCheckTimeout`, or `0s` for none.',
  breakerTimeout: ({ timeout, moment }: { timeout: string; moment: string }) =>
    `The circuit breaker \`timeout\` ${timeout} is under 1s: use 1s or more, or leave it out. ` +
    'Left out, it is the default 60s. ' +
    `ToolHive refuses a shorter wait before an open circuit is tried again, which would make it flap (validateFailureHandling): ${moment}.`,
  /** `moment`: when ToolHive refuses it. */
  thresholdNegative: ({ moment }: { moment: string }) =>
    'The `unhealthyThreshold` is negative: write 1 or more, or leave it out (the default is 3). ' +
    'The CRD lets it through, but ToolHive wants at least one failed check before a backend counts as unhealthy ' +
    `(validateFailureHandling): ${moment}.`,
  /** `workload`: the entry's key; `moment`: when ToolHive refuses it. */
  perWorkloadZero: ({ workload, moment }: { workload: string; moment: string }) =>
    `The \`perWorkload\` timeout of "${workload}" is zero: write a positive duration, or remove the entry. ` +
    'The operator fills a zero `timeouts.default`, but not the entries of `perWorkload`, and ToolHive refuses a timeout ' +
    `that is not positive (validateOperational): ${moment}.`,
};

export const rule = defineRule({
  id: 'operational/durations',
  defaultSeverity: 'error',
  summary:
    'Health check, circuit breaker or per-workload timeout settings ToolHive refuses (a timeout not below the interval, ...).',
  kinds: ['vmcp-config', 'vmcp-server'],
  messages,
  check(ctx) {
    const operational = getMap(workflowsOf(ctx).config, 'operational');
    if (!operational) return;
    const server = ctx.doc.kind === 'vmcp-server';
    const moment = server ? refusedAtStart(ctx.doc.kind) : refusedAtLoad(ctx.doc.kind);
    const failureHandling = getMap(operational, 'failureHandling');
    if (failureHandling) checkFailureHandling(ctx, failureHandling, server, moment);
    if (server) checkPerWorkload(ctx, getMap(getMap(operational, 'timeouts'), 'perWorkload'), moment);
  },
});

function checkFailureHandling(
  ctx: RuleContext<typeof messages>,
  failureHandling: MapNode,
  server: boolean,
  moment: string,
): void {
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
  const timeoutPair = getPair(failureHandling, 'healthCheckTimeout');
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
  } else if (
    server &&
    !timeoutPair &&
    intervalNode &&
    interval !== undefined &&
    interval > 0 &&
    interval <= CRD_HEALTH_CHECK_TIMEOUT_NS
  ) {
    ctx.report({
      messageId: 'defaultTimeoutNotBelowInterval',
      data: { interval: String(intervalNode.value), moment },
      span: intervalNode.span,
    });
  }

  if (server) {
    const threshold = getScalar(failureHandling, 'unhealthyThreshold');
    if (threshold && typeof threshold.value === 'number' && Number.isInteger(threshold.value) && threshold.value < 0) {
      ctx.report({ messageId: 'thresholdNegative', data: { moment }, span: threshold.span });
    }
    return; // the circuit breaker's bounds are the CRD's in a VirtualMCPServer
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
}

function checkPerWorkload(ctx: RuleContext<typeof messages>, perWorkload: MapNode | undefined, moment: string): void {
  for (const pair of perWorkload?.pairs ?? []) {
    if (isScalar(pair.value) && durationOf(pair.value) === 0) {
      ctx.report({
        messageId: 'perWorkloadZero',
        data: { workload: String(pair.key.value), moment },
        span: pair.value.span,
      });
    }
  }
}

/** A written duration in nanoseconds; undefined when absent, not a string, or not a Go duration. */
function durationOf(node: ScalarNode | undefined): number | undefined {
  return typeof node?.value === 'string' ? parseGoDuration(node.value) : undefined;
}
