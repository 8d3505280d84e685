// aggregation/filter-original-name: a workload's `filter` lists a tool by its backend name while an
// override of the same entry renames it. ToolHive applies overrides when it queries the backend
// (`processBackendTools`) and matches the filter later, against the renamed tool
// (`shouldAdvertiseTool` in pkg/vmcp/aggregator/default_aggregator.go), so the entry matches
// nothing and the tool is never advertised: nothing fails, clients just do not see it when tools are
// listed. Composite steps can still call it (hidden tools stay routable), but the safety floor
// counts a hidden tool as unknown.
import { editContextOf, replaceScalarText } from '../../edit/mappingEdits.js';
import { gatewayOf } from '../../gateway/gateway.js';
import { aggregationOf } from '../../model/aggregation.js';
import { isScalar } from '../../parse/nodes.js';
import type { Fix } from '../../types.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  id: 'aggregation/filter-original-name',
  defaultSeverity: 'warning',
  summary:
    'A filter names a tool by its backend name although an override renames it, so the tool is never advertised.',
  kinds: ['vmcp-config', 'vmcp-server'],
  messages: {
    /** `listed`: the name the filter lists; `renamed`: what the override renames it to. */
    listsOriginalName: ({ listed, renamed }: { listed: string; renamed: string }) =>
      `The filter lists "${listed}", which the override renames: list "${renamed}" instead. ` +
      `The filter is matched after overrides, and the override renames "${listed}" to "${renamed}". ` +
      `As written no entry matches the tool, so ToolHive never advertises it to clients (shouldAdvertiseTool, when tools are listed); composite steps can still call it, but the safety floor counts it as unknown.`,
  },
  check(ctx) {
    const agg = aggregationOf(ctx).aggregation;
    if (agg.excludeAllTools) return; // nothing is advertised anyway
    const target = editContextOf(ctx.file);
    for (const config of agg.tools.values()) {
      // An MCPToolConfig may add overrides Tool Lens cannot read; excludeAll advertises nothing anyway.
      if (config.toolConfigRef !== undefined || config.excludeAll || !config.filterNode) continue;
      const filter = new Set(config.filter ?? []);
      const givenNames = new Set<string>();
      for (const override of config.overrides.values())
        if (!override.refused && override.name) givenNames.add(override.name);
      const server = gatewayOf(ctx).workloads.get(config.workload)?.server;
      for (const item of config.filterNode.items) {
        if (!isScalar(item) || typeof item.value !== 'string') continue;
        const listed = item.value;
        const override = config.overrides.get(listed);
        const renamed = override && !override.refused ? override.name : undefined;
        if (renamed === undefined || renamed === listed) continue;
        // Another override gives this very name to some tool: the entry matches that one.
        if (givenNames.has(listed)) continue;
        // The renamed name is listed too: the tool is advertised, this entry is only redundant.
        if (filter.has(renamed)) continue;
        // A catalog that knows the backend and has no such tool: the override renames nothing.
        if (server && !server.tools.some((t) => t.name === listed)) continue;
        const edit = replaceScalarText(target, item, renamed);
        const fixes: Fix[] = edit
          ? [{ title: `List "${renamed}", the name after the override`, safe: true, edits: [edit] }]
          : [];
        ctx.report({
          messageId: 'listsOriginalName',
          data: { listed, renamed },
          span: item.span,
          fixes,
          related: [
            { span: override!.pair.key.span, message: `the override that renames "${listed}" to "${renamed}"` },
          ],
        });
      }
    }
  },
});
