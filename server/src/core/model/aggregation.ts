// The gateway settings a ToolHive document writes down: its `aggregation` block (conflict
// resolution, per-workload filters and overrides, the advertising defaults, with ToolHive's
// defaults where a field is left out) and its `backends` list. The gateway (gateway/gateway.ts)
// is built from these and the catalog; nothing here knows about tools.
import type { DocumentContext } from '../context.js';
import { annotationsFrom } from '../catalog/load.js';
import { memoKey } from '../memo.js';
import {
  getBoolean,
  getMap,
  getPair,
  getScalar,
  getSeq,
  getString,
  isMap,
  isScalar,
  keyText,
  type MapNode,
  type Pair,
  type ScalarNode,
  type SeqNode,
} from '../parse/nodes.js';
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
  /**
   * Neither a name nor a description (an empty string counts as none): ToolHive's validator
   * refuses the whole configuration (`validateToolOverrides`), so the override changes nothing,
   * its annotations included.
   */
  refused: boolean;
}

export interface WorkloadToolConfig {
  workload: string;
  node: MapNode;
  /** The `filter` sequence as written. */
  filterNode?: SeqNode;
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
  /** What the document writes, before any default: the nodes the aggregation rules point at. */
  written: {
    /** `conflictResolution` as written (undefined: absent). */
    strategy?: ScalarNode;
    /** `conflictResolutionConfig`, when it is a mapping. */
    resolution?: MapNode;
    /** The `conflictResolutionConfig` pair, whatever its value. */
    resolutionPair?: Pair;
    prefixFormat?: ScalarNode;
    priorityOrder?: SeqNode;
    tools?: SeqNode;
    /** Later `tools` entries for a workload an earlier entry already configures (ToolHive refuses them). */
    duplicates: { workload: string; node: MapNode; first: WorkloadToolConfig }[];
  };
}

/** What one document says about its gateway. */
export interface GatewaySettings {
  aggregation: AggregationConfig;
  /** The names of the `backends` list, in order, without repeats; undefined when the document has none. */
  backends?: string[];
  /** cli: a `vmcp-config` file, read by ToolHive as written; kubernetes: a VirtualMCPServer's `spec.config`, after the CRD's defaults and the operator's conversion. */
  dialect: 'cli' | 'kubernetes';
  /**
   * CLI only: the file has server settings (`name`, `groupRef`, `backends`, `incomingAuth`,
   * `outgoingAuth`), so it is a whole configuration that ToolHive validates as written rather than
   * a fragment of composite tools (schemas/vmcp-config.schema.json makes the same call).
   */
  wholeConfig: boolean;
  /** The `aggregation` pair of the config mapping, when it has one (a mapping or not). */
  aggregationPair?: Pair;
}

const SERVER_SETTINGS = ['name', 'groupRef', 'backends', 'incomingAuth', 'outgoingAuth'];

const KEY = memoKey<GatewaySettings>('gateway-settings');

/** The gateway settings of this document, memoised per document. */
export function aggregationOf(ctx: DocumentContext): GatewaySettings {
  return ctx.memo.get(KEY, () => {
    const doc = workflowsOf(ctx);
    const dialect = ctx.doc.kind === 'vmcp-server' ? 'kubernetes' : 'cli';
    const wholeConfig = dialect === 'cli' && SERVER_SETTINGS.some((key) => getPair(doc.config, key) !== undefined);
    return {
      aggregation: parseAggregation(doc.aggregation),
      backends: backendNames(doc.config),
      dialect,
      wholeConfig,
      aggregationPair: getPair(doc.config, 'aggregation'),
    };
  });
}

function parseAggregation(node: MapNode | undefined): AggregationConfig {
  const strategyNode = getScalar(node, 'conflictResolution');
  const written = getString(node, 'conflictResolution');
  // An invalid value is the schema rules' business; ToolHive's CRD default is prefix.
  const strategy: ConflictStrategy = written === 'priority' || written === 'manual' ? written : 'prefix';
  const resolution = getMap(node, 'conflictResolutionConfig');
  const toolsNode = getSeq(node, 'tools');
  const duplicates: AggregationConfig['written']['duplicates'] = [];
  const prefixFormat = getString(resolution, 'prefixFormat') || DEFAULT_PREFIX_FORMAT;
  const priorityOrder = stringsOf(getSeq(resolution, 'priorityOrder'));
  const tools = new Map<string, WorkloadToolConfig>();
  for (const item of toolsNode?.items ?? []) {
    if (!isMap(item)) continue;
    const workload = getString(item, 'workload');
    if (!workload) continue;
    const first = tools.get(workload);
    if (first) {
      duplicates.push({ workload, node: item, first });
      continue;
    }
    const filterNode = getSeq(item, 'filter');
    const overrides = new Map<string, ToolOverrideConfig>();
    const overridesNode = getMap(item, 'overrides');
    for (const pair of overridesNode?.pairs ?? []) {
      const toolName = keyText(pair);
      if (overrides.has(toolName) || !isMap(pair.value)) continue;
      const name = getString(pair.value, 'name') || undefined;
      const description = getString(pair.value, 'description') || undefined;
      overrides.set(toolName, {
        toolName,
        name,
        description,
        annotations: annotationsFrom(getMap(pair.value, 'annotations')),
        pair,
        refused:
          name === undefined && description === undefined && !hasNonStringValue(pair.value, ['name', 'description']),
      });
    }
    const ref = getMap(item, 'toolConfigRef');
    tools.set(workload, {
      workload,
      node: item,
      filter: filterNode ? stringsOf(filterNode) : undefined,
      filterNode,
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
    written: {
      strategy: strategyNode,
      resolution,
      resolutionPair: getPair(node, 'conflictResolutionConfig'),
      prefixFormat: getScalar(resolution, 'prefixFormat'),
      priorityOrder: getSeq(resolution, 'priorityOrder'),
      tools: toolsNode,
      duplicates,
    },
  };
}

/** A key among `keys` whose value is not a string (a wrong type is the schema rules' finding, not a missing field). */
function hasNonStringValue(map: MapNode, keys: readonly string[]): boolean {
  return keys.some((key) => {
    const value = getPair(map, key)?.value;
    return (
      value !== undefined &&
      value !== null &&
      !(isScalar(value) && (typeof value.value === 'string' || value.value === null))
    );
  });
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
