// operational/audit-limits: `audit` settings the vMCP server refuses when it starts. It validates
// its audit settings whenever the configuration has an audit block, enabled or not
// (pkg/vmcp/server/server.go; audit Config.Validate in pkg/audit/config.go): a negative
// maxDataSize (zero means the default), a written maxDelegationDepth under 1, an eventTypes or
// excludeEventTypes entry that is no event type it knows. `thv vmcp validate` does not look at
// audit. In a VirtualMCPServer the operator copies spec.config.audit into the pod's configuration
// whether it is enabled or not (cmd/thv-operator/pkg/vmcpconfig/converter.go Convert starts from a
// copy of spec.config), so the same checks apply at start there; maxDelegationDepth is the CRD's
// (minimum 1, refused when the resource is applied: schema/invalid-value).
import { getMap, getScalar, getSeq, isScalar } from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import { closest } from '../../text/suggest.js';
import { refusedAtStart } from '../../wording/refusalMoments.js';
import { defineRule } from '../rule.js';

/** The event types audit Config.Validate accepts (toolhive-core audit/mcp_events.go). */
const EVENT_TYPES = [
  'mcp_initialize',
  'mcp_tool_call',
  'mcp_tools_list',
  'mcp_resource_read',
  'mcp_resources_list',
  'mcp_prompt_get',
  'mcp_prompts_list',
  'mcp_notification',
  'mcp_ping',
  'mcp_logging',
  'mcp_completion',
  'mcp_roots_list_changed',
  'vmcp_workflow_started',
  'vmcp_workflow_completed',
  'vmcp_workflow_failed',
  'vmcp_workflow_timed_out',
  'vmcp_workflow_step_started',
  'vmcp_workflow_step_completed',
  'vmcp_workflow_step_failed',
  'vmcp_workflow_step_skipped',
  'mcp_request',
  'http_request',
];

export const rule = defineRule({
  id: 'operational/audit-limits',
  defaultSeverity: 'error',
  summary:
    'Audit settings the server refuses at start: a negative `maxDataSize`, a `maxDelegationDepth` under 1, an unknown event type.',
  kinds: ['vmcp-config', 'vmcp-server'],
  messages: {
    /** `moment`: when ToolHive refuses it. */
    negativeDataSize: ({ size, moment }: { size: number; moment: string }) =>
      `\`maxDataSize\` ${size} is negative: write a size in bytes, or 0 (or nothing) for ToolHive's default. ` +
      `ToolHive refuses a negative audit data size when the server sets up audit logging (audit Config.Validate): ${moment}.`,
    delegationDepth: ({ depth, moment }: { depth: number; moment: string }) =>
      `\`maxDelegationDepth\` ${depth} must be 1 or more: write a positive depth, or leave it out. ` +
      "Left out, ToolHive's default applies. " +
      `Unlike \`maxDataSize\`, a written zero is not read as the default (audit Config.Validate): ${moment}.`,
    /** `list`: eventTypes or excludeEventTypes; `suggestion`: the known type it likely means, or empty. */
    unknownEventType: ({
      type,
      list,
      suggestion,
      moment,
    }: {
      type: string;
      list: string;
      suggestion: string;
      moment: string;
    }) =>
      `${JSON.stringify(type)} is no audit event type: ` +
      (suggestion ? `did you mean \`${suggestion}\`?` : 'use one vMCP accepts, such as `mcp_tool_call`.') +
      ` ToolHive checks every \`${list}\` entry when the server sets up audit logging, even with \`enabled: false\` ` +
      `(audit Config.Validate): ${moment}.`,
  },
  check(ctx) {
    const audit = getMap(workflowsOf(ctx).config, 'audit');
    if (!audit) return;
    const moment = refusedAtStart(ctx.doc.kind);
    const size = getScalar(audit, 'maxDataSize');
    if (size && typeof size.value === 'number' && size.value < 0) {
      ctx.report({
        messageId: 'negativeDataSize',
        data: { size: size.value, moment },
        span: size.span,
      });
    }
    const depth = getScalar(audit, 'maxDelegationDepth');
    if (ctx.doc.kind === 'vmcp-config' && depth && typeof depth.value === 'number' && depth.value < 1) {
      ctx.report({
        messageId: 'delegationDepth',
        data: { depth: depth.value, moment },
        span: depth.span,
      });
    }
    for (const list of ['eventTypes', 'excludeEventTypes']) {
      for (const item of getSeq(audit, list)?.items ?? []) {
        if (!isScalar(item) || typeof item.value !== 'string' || EVENT_TYPES.includes(item.value)) continue;
        ctx.report({
          messageId: 'unknownEventType',
          data: { type: item.value, list, suggestion: closest(item.value, EVENT_TYPES) ?? '', moment },
          span: item.span,
        });
      }
    }
  },
});
