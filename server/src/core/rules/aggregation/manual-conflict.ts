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
import { getMap, getString, type MapNode } from '../../parse/nodes.js';
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
    /** `workloads`: the MCPServer names, in words; `image`: the image they share; `group`: the MCPGroup. */
    sameImage: ({ workloads, image, group }: { workloads: string; image: string; group: string }) =>
      `Workloads ${workloads} run one image, so their tools clash: rename them in all but one. ` +
      'One image serves the same tools, and each needs an override `name` in all but one workload. ' +
      `Inferred from the MCPServer resources of this file: they are in group "${group}" and run ${image}, and none of ` +
      "their `tools` entries renames a tool. Under the manual strategy every tool they share then clashes, and ToolHive's " +
      'manual resolver refuses the clash (ResolveToolConflicts) whenever the gateway gathers its tools, so every tool ' +
      'listing and tool call fails. A catalog for each workload would let Tool Lens name the tools.',
  },
  check(ctx) {
    const agg = aggregationOf(ctx).aggregation;
    const strategy = agg.written.strategy;
    if (agg.strategy !== 'manual' || !strategy) return;
    if (!agg.written.tools || agg.written.tools.items.length === 0) return; // aggregation/strategy-settings
    const gateway = gatewayOf(ctx);
    const servers = ctx.doc.kind === 'vmcp-server' ? groupServers(ctx) : undefined;
    // Where the file declares the group's MCPServers and lists no backends, a catalogued workload
    // that is none of them is not known to be in the group: only clashes among members count.
    const members = servers && servers.workloads.size > 0 && !gateway.backendsListed ? servers.workloads : undefined;
    const conflicts = gateway.conflicts.filter(
      (c) =>
        c.outcome === 'unresolved' &&
        (!members || new Set(c.candidates.map((t) => t.workload).filter((w) => members.has(w))).size > 1),
    );
    if (servers) {
      // Workloads of one image serve the same tools: inferred where the catalogs cannot tell.
      const reported = new Set(conflicts.flatMap((c) => c.candidates.map((t) => t.workload)));
      for (const set of servers.sameImage) {
        const unrenamed = set.workloads.filter(
          (w) => !reported.has(w) && !gateway.workloads.get(w)?.server && !renamesAny(agg.tools.get(w)?.overrides),
        );
        if (unrenamed.length < 2) continue;
        ctx.report({
          messageId: 'sameImage',
          data: { workloads: listOf(unrenamed.map((w) => `"${w}"`)), image: set.image, group: set.group },
          span: strategy.span,
          severity: 'warning',
        });
      }
    }
    if (conflicts.length === 0) return;
    const named = conflicts
      .slice(0, SHOWN)
      .map(
        (c) =>
          `"${c.name}" by ${listOf([...new Set(c.candidates.filter((t) => !members || members.has(t.workload)).map((t) => `"${t.workload}"`))], SHOWN)}`,
      );
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

/** Does any override of a `tools` entry give a tool another name? */
function renamesAny(overrides: ReadonlyMap<string, { name?: string; refused?: boolean }> | undefined): boolean {
  for (const override of overrides?.values() ?? []) if (!override.refused && override.name) return true;
  return false;
}

/**
 * The MCPServer resources of this file in the VirtualMCPServer's group (spec.groupRef.name, same
 * namespace): their names, and those that share an image, by image.
 */
function groupServers(ctx: Parameters<typeof gatewayOf>[0]): {
  workloads: Set<string>;
  sameImage: { image: string; group: string; workloads: string[] }[];
} {
  const root = ctx.doc.root;
  const group = getString(getMap(getMap(root, 'spec'), 'groupRef'), 'name');
  if (!group) return { workloads: new Set(), sameImage: [] };
  const namespace = getString(getMap(root, 'metadata'), 'namespace');
  const byImage = new Map<string, string[]>();
  for (const doc of ctx.file.documents) {
    const other = doc.root;
    if (!other || other.type !== 'map' || getString(other, 'kind') !== 'MCPServer') continue;
    if (!(getString(other, 'apiVersion') ?? '').startsWith('toolhive.stacklok.dev/')) continue;
    const spec: MapNode | undefined = getMap(other, 'spec');
    const metadata = getMap(other, 'metadata');
    const name = getString(metadata, 'name');
    const image = getString(spec, 'image');
    const ns = getString(metadata, 'namespace');
    if (!name || !image || getString(getMap(spec, 'groupRef'), 'name') !== group) continue;
    if (namespace !== undefined && ns !== undefined && ns !== namespace) continue;
    const names = byImage.get(image) ?? [];
    if (!names.includes(name)) names.push(name);
    byImage.set(image, names);
  }
  return {
    workloads: new Set([...byImage.values()].flat()),
    sameImage: [...byImage]
      .filter(([, workloads]) => workloads.length > 1)
      .map(([image, workloads]) => ({ image, group, workloads })),
  };
}
