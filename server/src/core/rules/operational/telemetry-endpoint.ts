// operational/telemetry-endpoint: a CLI file's `telemetry` with an OTLP `endpoint` but neither
// `tracingEnabled` nor `metricsEnabled`. `vmcp serve` builds the telemetry provider when it starts
// (pkg/vmcp/cli/serve.go, telemetry.NewProvider), and validateOtelConfig in
// pkg/telemetry/config.go refuses that combination; `thv vmcp validate` does not look at telemetry.
import { getBoolean, getMap, getPair, getString } from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import { refusedAtStart } from '../../wording/refusalMoments.js';
import { defineRule } from '../rule.js';
import type { DocumentKind } from '../../types.js';

export const rule = defineRule({
  id: 'operational/telemetry-endpoint',
  defaultSeverity: 'error',
  summary: 'Telemetry with an OTLP `endpoint` but neither tracing nor metrics enabled.',
  kinds: ['vmcp-config'],
  messages: {
    noSignal: ({ kind }: { kind: DocumentKind | null }) =>
      'This telemetry `endpoint` would receive nothing: enable tracing or metrics, or remove it. ' +
      'Set `tracingEnabled: true` or `metricsEnabled: true`, or remove the endpoint. ' +
      `ToolHive refuses an OTLP endpoint with tracing and metrics both off when it builds the telemetry provider (validateOtelConfig): ${refusedAtStart(kind)}.`,
  },
  check(ctx) {
    const telemetry = getMap(workflowsOf(ctx).config, 'telemetry');
    const endpoint = getString(telemetry, 'endpoint');
    if (!telemetry || !endpoint) return;
    if (getBoolean(telemetry, 'tracingEnabled') === true || getBoolean(telemetry, 'metricsEnabled') === true) return;
    ctx.report({
      messageId: 'noSignal',
      data: { kind: ctx.doc.kind },
      span: getPair(telemetry, 'endpoint')!.key.span,
    });
  },
});
