// aggregation/manual-conflict: under the manual strategy, workloads that serve a tool of one name
// with no override that tells them apart. ToolHive's manual resolver refuses the clash
// (ResolveToolConflicts in pkg/vmcp/aggregator/manual_resolver.go), and the gateway aggregates its
// backends on demand (core_vmcp.go aggregatedView, for every ListTools, CallTool and tool-call
// check): the server starts, but every tool listing and every tool call of every session fails with
// "capability aggregation failed". The clash is known from the workloads' catalogs, as the gateway
// model builds it (gateway/gateway.ts: conflicts with the `unresolved` outcome). Manual without any
// `tools` entry is aggregation/strategy-settings' (refused at load or start).
import { gatewayOf } from '../../gateway/gateway.js';
import { aggregationOf } from '../../model/aggregation.js';
import { listOf } from '../../text/words.js';
import { defineRule } from '../rule.js';

const SHOWN = 5;

export const rule = defineRule({
  id: 'aggregation/manual-conflict',
  defaultSeverity: 'error',
  summary:
    'Under the manual strategy, workloads serve a tool of one name and no override tells them apart: every tool listing fails.',
  kinds: ['vmcp-config', 'vmcp-server'],
  messages: {
    /**
     * `clashes`: each name and its workloads, in words; `count`: how many names clash; `assumed`:
     * the document does not list its backends, so the catalogued workloads are taken for its group.
     */
    unresolved: ({ clashes, count, assumed }: { clashes: string; count: number; assumed: boolean }) =>
      `${count === 1 ? 'A tool name is' : `${count} tool names are`} served by several workloads with no override: rename each in \`tools[].overrides\`. ` +
      `From their catalogs: ${clashes}.${assumed ? " The file lists no backends: this assumes the catalogued workloads are all in the gateway's group." : ''} ` +
      `The manual strategy wants an override for each of them; without, ToolHive's ` +
      'manual resolver refuses the clash (ResolveToolConflicts) whenever the gateway gathers its tools, so the server ' +
      'starts but every tool listing and tool call fails.',
  },
  check(ctx) {
    const agg = aggregationOf(ctx).aggregation;
    const strategy = agg.written.strategy;
    if (agg.strategy !== 'manual' || !strategy) return;
    if (!agg.written.tools || agg.written.tools.items.length === 0) return; // aggregation/strategy-settings
    const gateway = gatewayOf(ctx);
    const conflicts = gateway.conflicts.filter((c) => c.outcome === 'unresolved');
    if (conflicts.length === 0) return;
    const named = conflicts
      .slice(0, SHOWN)
      .map((c) => `"${c.name}" by ${listOf([...new Set(c.candidates.map((t) => `"${t.workload}"`))], SHOWN)}`);
    const more = conflicts.length - named.length;
    const clashes = named.join('; ') + (more > 0 ? `; and ${more} more` : '');
    // Without a `backends` list the group's workloads are inferred from the catalogs: a warning.
    const assumed = !gateway.backendsListed;
    ctx.report({
      messageId: 'unresolved',
      data: { clashes, count: conflicts.length, assumed },
      span: strategy.span,
      ...(assumed ? { severity: 'warning' as const } : {}),
    });
  },
});
