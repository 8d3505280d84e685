// aggregation/duplicate-workload: two `aggregation.tools` entries for one workload. ToolHive's
// validator refuses the configuration (`validateToolConfigurations` in
// pkg/vmcp/config/validator.go): the CLI at load; for a VirtualMCPServer the operator copies the
// entries as they are and the vMCP pod's validator refuses them, so the pod does not start.
import { aggregationOf } from '../../model/aggregation.js';
import { getScalar } from '../../parse/nodes.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  id: 'aggregation/duplicate-workload',
  defaultSeverity: 'error',
  summary: 'Two `aggregation.tools` entries for one workload.',
  kinds: ['vmcp-config', 'vmcp-server'],
  messages: {
    /** `moment`: when ToolHive refuses it, in the document's dialect. */
    secondEntry: ({ workload, moment }: { workload: string; moment: string }) =>
      `A second \`tools\` entry for workload "${workload}": merge it into the first one. ` +
      'Its filter and overrides belong in the first entry. ' +
      `ToolHive refuses two entries for one workload (validateToolConfigurations): ${moment}.`,
  },
  check(ctx) {
    const settings = aggregationOf(ctx);
    const moment =
      settings.dialect === 'kubernetes'
        ? "the operator accepts the resource, but the vMCP pod's validator refuses it and the pod does not start"
        : '`thv vmcp validate` and `vmcp serve` refuse the file';
    for (const { workload, node, first } of settings.aggregation.written.duplicates) {
      const here = getScalar(node, 'workload');
      const there = getScalar(first.node, 'workload');
      if (!here) continue;
      ctx.report({
        messageId: 'secondEntry',
        data: { workload, moment },
        span: here.span,
        related: there ? [{ span: there.span, message: `the first entry for "${workload}"` }] : undefined,
      });
    }
  },
});
