// The gateway settings a ToolHive document writes down: its `aggregation` block (conflict
// resolution, per-workload filters and overrides, the advertising defaults, with ToolHive's
// defaults where a field is left out) and its `backends` list. The gateway (gateway/gateway.ts)
// is built from these and the catalog; nothing here knows about tools.
import type { DocumentContext } from '../context.js';
import { annotationsFrom } from '../catalog/load.js';
import { memoKey } from '../memo.js';
import { getBoolean, getMap, getSeq, getString, isMap, isScalar, keyText, type MapNode, type Pair } from '../parse/nodes.js';
import type { ToolAnnotations } from '../types.js';
import { workflowsOf } from './workflow.js';

type ConflictStrategy = 'prefix' | 'priority' | 'manual';
export const DEFAULT_PREFIX_FORMAT = '{workload}_';

export interface ToolOverrideConfig {
  /** The backend's own tool name the override is keyed by. */
  toolName: string;
  name?: string;
  description?: string;
  annotations?: ToolAnnotations;
  pair: Pair;
}

export interface WorkloadToolConfig {
  workload: string;
  node: MapNode;
  /** Allow-list of names (after overrides, before the prefix); undefined or empty: no filter. */
  filter?: string[];
  excludeAll: boolean;
  overrides: Map<string, ToolOverrideConfig>;
  /** Kubernetes MCPToolConfig that replaces the inline filter and overrides (we cannot read it). */
  toolConfigRef?: string;
}

export interface AggregationConfig {
  strategy: ConflictStrategy;
  /** The configured prefix format (prefix strategy), `{workload}_` by default. */
  prefixFormat: string;
  priorityOrder: string[];
  /** Per-workload settings; the first entry of a workload wins (ToolHive rejects duplicates). */
  tools: Map<string, WorkloadToolConfig>;
  excludeAllTools: boolean;
  defaultToolVisibility: 'allow' | 'deny';
  /** The `aggregation` mapping, when the document has one. */
  node?: MapNode;
}

/** What one document says about its gateway. */
export interface GatewaySettings {
  aggregation: AggregationConfig;
  /** The names of the `backends` list, in order, without repeats; undefined when the document has none. */
  backends?: string[];
}

const KEY = memoKey<GatewaySettings>('gateway-settings');

/** The gateway settings of this document, memoised per document. */
export function aggregationOf(ctx: DocumentContext): GatewaySettings {
  return ctx.memo.get(KEY, () => {
    const doc = workflowsOf(ctx);
    return { aggregation: parseAggregation(doc.aggregation), backends: backendNames(doc.config) };
  });
}

function parseAggregation(node: MapNode | undefined): AggregationConfig {
  const written = getString(node, 'conflictResolution');
  // An invalid value is the schema rules' business; ToolHive's CRD default is prefix.
  const strategy: ConflictStrategy = written === 'priority' || written === 'manual' ? written : 'prefix';
  const resolution = getMap(node, 'conflictResolutionConfig');
  const prefixFormat = getString(resolution, 'prefixFormat') || DEFAULT_PREFIX_FORMAT;
  const priorityOrder = stringsOf(getSeq(resolution, 'priorityOrder'));
  const tools = new Map<string, WorkloadToolConfig>();
  for (const item of getSeq(node, 'tools')?.items ?? []) {
    if (!isMap(item)) continue;
    const workload = getString(item, 'workload');
    if (!workload || tools.has(workload)) continue;
    const filterNode = getSeq(item, 'filter');
    const overrides = new Map<string, ToolOverrideConfig>();
    const overridesNode = getMap(item, 'overrides');
    for (const pair of overridesNode?.pairs ?? []) {
      const toolName = keyText(pair);
      if (overrides.has(toolName) || !isMap(pair.value)) continue;
      overrides.set(toolName, {
        toolName,
        name: getString(pair.value, 'name') || undefined,
        description: getString(pair.value, 'description') || undefined,
        annotations: annotationsFrom(getMap(pair.value, 'annotations')),
        pair,
      });
    }
    const ref = getMap(item, 'toolConfigRef');
    tools.set(workload, {
      workload,
      node: item,
      filter: filterNode ? stringsOf(filterNode) : undefined,
      excludeAll: getBoolean(item, 'excludeAll') === true,
      overrides,
      toolConfigRef: ref ? (getString(ref, 'name') ?? '') : undefined,
    });
  }
  return {
    strategy,
    prefixFormat,
    priorityOrder,
    tools,
    excludeAllTools: getBoolean(node, 'excludeAllTools') === true,
    defaultToolVisibility: getString(node, 'defaultToolVisibility') === 'deny' ? 'deny' : 'allow',
    node,
  };
}

function stringsOf(seq: ReturnType<typeof getSeq>): string[] {
  const out: string[] = [];
  for (const item of seq?.items ?? []) if (isScalar(item) && typeof item.value === 'string') out.push(item.value);
  return out;
}

/** The names the `backends` list gives, in order and without repeats. */
function backendNames(config: MapNode | undefined): string[] | undefined {
  const backends = getSeq(config, 'backends');
  if (!backends) return undefined;
  const names = new Set<string>();
  for (const item of backends.items) {
    const name = getString(item, 'name');
    if (name) names.add(name);
  }
  return [...names];
}
