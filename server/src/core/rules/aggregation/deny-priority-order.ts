// aggregation/deny-priority-order: under `defaultToolVisibility: deny` with the priority strategy,
// a `priorityOrder` workload that has no `aggregation.tools` entry. Conflict resolution runs before
// the advertising filter, so such a workload could win a name and then be hidden, and nobody would
// advertise the tool; ToolHive's validator refuses the combination (`validateDenyVisibilityPriorityOrder`
// in pkg/vmcp/config/validator.go): the CLI at load, a VirtualMCPServer when its vMCP pod starts.
import { aggregationOf } from '../../model/aggregation.js';
import { getString, isScalar } from '../../parse/nodes.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  id: 'aggregation/deny-priority-order',
  defaultSeverity: 'error',
  summary: 'Under `defaultToolVisibility: deny`, a priorityOrder workload without a `tools` entry.',
  kinds: ['vmcp-config', 'vmcp-server'],
  messages: {
    /** `moment`: when ToolHive refuses it, in the document's dialect. */
    noToolsEntry: ({ workload, moment }: { workload: string; moment: string }) =>
      `"${workload}" has no \`tools\` entry: add \`{workload: ${workload}}\` to \`tools\` or take it out of \`priorityOrder\`. ` +
      'Under `defaultToolVisibility: deny` every workload in `priorityOrder` needs an `aggregation.tools` entry: ' +
      'names are resolved before tools are hidden, so it could win a name and then be withheld, and no client would see that tool; ' +
      `ToolHive refuses the combination (validateDenyVisibilityPriorityOrder): ${moment}.`,
  },
  check(ctx) {
    const settings = aggregationOf(ctx);
    const agg = settings.aggregation;
    if (agg.strategy !== 'priority' || getString(agg.node, 'defaultToolVisibility') !== 'deny') return;
    const order = agg.written.priorityOrder;
    const listed = new Set(agg.tools.keys());
    const moment =
      settings.dialect === 'kubernetes'
        ? "the operator accepts the resource, but the vMCP pod's validator refuses it and the pod does not start"
        : '`thv vmcp validate` and `vmcp serve` refuse the file';
    const seen = new Set<string>();
    for (const item of order?.items ?? []) {
      if (!isScalar(item) || typeof item.value !== 'string') continue;
      const workload = item.value;
      if (listed.has(workload) || seen.has(workload)) continue;
      seen.add(workload);
      ctx.report({
        messageId: 'noToolsEntry',
        data: { workload, moment },
        span: item.span,
      });
    }
  },
});
