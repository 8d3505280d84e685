// operational/audit-limits: a CLI file's `audit` with a negative `maxDataSize` or a
// `maxDelegationDepth` under 1. The vMCP server validates its audit settings when it starts
// (pkg/vmcp/server/server.go, audit Config.Validate in pkg/audit/config.go): a zero maxDataSize
// means the default there, a written maxDelegationDepth must be positive. `thv vmcp validate` does
// not look at audit.
import { getMap, getScalar } from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import { refusedAtStart } from '../../wording/refusalMoments.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  id: 'operational/audit-limits',
  defaultSeverity: 'error',
  summary: 'Audit settings with a negative `maxDataSize` or a `maxDelegationDepth` under 1.',
  kinds: ['vmcp-config'],
  messages: {
    /** `moment`: when ToolHive refuses it. */
    negativeDataSize: ({ size, moment }: { size: number; moment: string }) =>
      `\`maxDataSize\` ${size} is negative: write a size in bytes, or 0 (or nothing) for ToolHive's default. ` +
      `ToolHive refuses a negative audit data size when the server sets up audit logging (audit Config.Validate): ${moment}.`,
    delegationDepth: ({ depth, moment }: { depth: number; moment: string }) =>
      `\`maxDelegationDepth\` ${depth} must be 1 or more: write a positive depth, or leave it out. ` +
      "Left out, ToolHive's default applies. " +
      `Unlike \`maxDataSize\`, a written zero is not read as the default (audit Config.Validate): ${moment}.`,
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
    if (depth && typeof depth.value === 'number' && depth.value < 1) {
      ctx.report({
        messageId: 'delegationDepth',
        data: { depth: depth.value, moment },
        span: depth.span,
      });
    }
  },
});
