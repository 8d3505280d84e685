// The gateway's view of its backends for one document, built from its settings
// (model/aggregation.ts) and the catalog the way ToolHive aggregates them (docs/toolhive.md#building-the-tool-list): per workload, overrides first (rename, description, annotation patches);
// then conflict resolution (prefix, priority or manual); then the advertising filter. The routing
// table holds every backend tool, hidden ones too, keyed by its resolved name; `resolveToolRef`
// answers a step's `tool` as ToolHive's router does, and says why when it cannot. A workload whose
// server has dynamic namespaces also serves call_dynamic_tool and get_dynamic_tools, listed in its
// snapshot or not: references to those resolve either way.
import { hasNamedNamespace, listedToolOf, type CatalogIndex } from '../catalog/index.js';
import { suggestionBudgetOf, type DocumentContext } from '../context.js';
import { memoKey } from '../memo.js';
import {
  aggregationOf,
  DEFAULT_PREFIX_FORMAT,
  type AggregationConfig,
  type GatewaySettings,
  type ToolOverrideConfig,
  type WorkloadToolConfig,
} from '../model/aggregation.js';
import { closestN, type SuggestionBudget } from '../text/suggest.js';
import type { ToolAnnotations } from '../types.js';
import {
  CALL_DYNAMIC_TOOL,
  META_TOOLS,
  type CatalogServer,
  type CatalogTool,
  type DynamicNamespace,
} from '../catalog/model.js';

const WORKLOAD_PLACEHOLDER = '{workload}';

/** Why a backend tool is routable but not advertised to clients. */
type HiddenBy = 'excludeAllTools' | 'excludeAll' | 'filter' | 'defaultToolVisibility';

interface GatewayWorkload {
  name: string;
  /** The catalog server behind it (the `workloads:` mapping of `.toollens.yaml` may rename). */
  serverName: string;
  /** Undefined: no catalog, so nothing about this workload's tools can be known. */
  server?: CatalogServer;
  config?: WorkloadToolConfig;
  /** Set when its names after overrides cannot be known although it has a catalog. */
  opaque?: string;
}

export interface GatewayTool {
  workload: string;
  /** The backend's own name (what the dot form `workload.tool` matches). */
  originalName: string;
  /** After an override's rename (what the filter matches, and what prefixes are put before). */
  overriddenName: string;
  /** After conflict resolution: the routing key and the advertised name. */
  resolvedName: string;
  /** The catalog tool with the override's description and patched annotations. */
  tool: CatalogTool;
  advertised: boolean;
  hiddenBy?: HiddenBy;
  override?: ToolOverrideConfig;
  /** Manual strategy: several workloads claim this name and no override tells them apart. */
  conflicted?: boolean;
}

interface GatewayConflict {
  /** The name the candidates share (after overrides; for prefix duplicates, after the prefix). */
  name: string;
  candidates: GatewayTool[];
  /** priority: the winner keeps the name, the others are dropped; prefixed: nobody is listed, all get `{workload}_`; first-wins: identical names after prefixing; unresolved: manual without overrides. */
  outcome: 'priority' | 'prefixed' | 'first-wins' | 'unresolved';
  winner?: GatewayTool;
}

export interface Gateway {
  aggregation: AggregationConfig;
  /** Workloads in order: the `backends` list, or the catalogued ones plus those the aggregation names. */
  workloads: Map<string, GatewayWorkload>;
  /** True when the document lists its backends, so no other workload can exist. */
  backendsListed: boolean;
  /** Resolved name → tool: every routable backend tool, hidden ones included. */
  routing: Map<string, GatewayTool>;
  /** Every routable backend tool (manual conflicts included, which have no unique routing key). */
  tools: GatewayTool[];
  /** Tools that lost a name conflict: not routable at all. */
  dropped: GatewayTool[];
  conflicts: GatewayConflict[];
  /** What clients see: routable tools that pass the advertising filter. */
  advertised: GatewayTool[];
  catalog: CatalogIndex;
  /** Catalogued servers a dot reference named outside the workload set (see adoptWorkload). */
  adopted: Map<string, { workload: GatewayWorkload; tools: GatewayTool[] }>;
  /** What the document's "did you mean" searches may still compare. */
  budget: SuggestionBudget;
  /** Lookups by name, built on first use (see lookupsOf). */
  lookups?: GatewayLookups;
}

/**
 * The gateway's tools by the names references use, built once per gateway: resolving a reference
 * looks names up here rather than walking every tool (which made a workflow of thousands of steps
 * against a catalog of thousands of tools cost their product).
 */
interface GatewayLookups {
  /** Per workload (adopted ones too, once adopted): its tools by backend name and more. */
  workloads: Map<string, WorkloadLookups>;
  /** The routable tools of each workload, in order, and those each one lost. */
  toolsOf: Map<string, GatewayTool[]>;
  droppedOf: Map<string, GatewayTool[]>;
  /** Manual-strategy tools that share a name, by that name. */
  conflicted: Map<string, GatewayTool[]>;
  /** Tools that lost a conflict, by resolved and by overridden name (the first in `dropped` order). */
  dropped: Map<string, GatewayTool>;
  /** The conflict each dropped or conflicting tool took part in. */
  conflictOf: Map<GatewayTool, GatewayConflict>;
  /** Names users write for a tool under another strategy (`otherSpellings`) → those tools; see respeltOf. */
  respelt?: Map<string, GatewayTool[]>;
  /** Unlisted meta tools by their conflict-resolved name. */
  metaByName: Map<string, GatewayTool[]>;
  /** The names that resolve, for "did you mean", and the tool each names (its routing name or its dot form); see validOf. */
  valid?: { names: string[]; toolOf: Map<string, GatewayTool> };
  /** Catalogued workloads, in order. */
  catalogued: string[];
  /** The first advertised tool of each resolved name whose workload's names are known; see advertisedNamed. */
  advertised?: Map<string, GatewayTool>;
  /** Workloads whose servers have dynamic tools, and the workloads without a catalog (or opaque), in order. */
  dynamic: GatewayWorkload[];
  uncatalogued: GatewayWorkload[];
}

interface WorkloadLookups {
  byOriginal: Map<string, GatewayTool>;
  /** By the name an override gives, for tools it renames (the first of each name). */
  renamed: Map<string, GatewayTool>;
  dropped: Map<string, GatewayTool>;
  /** Backend names callable after the dot, unlisted meta tools included. */
  callable: string[];
}

const KEY = memoKey<Gateway>('gateway');

/** The gateway of this document, memoised per document. */
export function gatewayOf(ctx: DocumentContext): Gateway {
  return ctx.memo.get(KEY, () => buildGateway(ctx.workspace.catalog, aggregationOf(ctx), suggestionBudgetOf(ctx)));
}

function buildGateway(catalog: CatalogIndex, input: GatewaySettings, budget: SuggestionBudget): Gateway {
  const { aggregation, backends } = input;
  const { names, listed } = workloadNames(catalog, backends, aggregation);
  const workloads = new Map<string, GatewayWorkload>();
  for (const name of names) {
    const config = aggregation.tools.get(name);
    const workload: GatewayWorkload = {
      name,
      serverName: catalog.serverName(name),
      server: catalog.server(name),
      config,
    };
    if (config?.toolConfigRef !== undefined) {
      workload.opaque = `its filter and overrides come from the MCPToolConfig "${config.toolConfigRef}", which Tool Lens cannot read`;
    }
    workloads.set(name, workload);
  }

  // 1. Overrides, per workload, before anything else reads the tools.
  const candidates: GatewayTool[] = [];
  for (const workload of workloads.values()) candidates.push(...overriddenTools(workload));

  // 2. Conflict resolution.
  const { tools, dropped, conflicts } = resolveConflicts(candidates, aggregation);

  // 3. The advertising filter; hidden tools stay routable.
  for (const tool of tools) {
    const hiddenBy = hiddenReason(tool, aggregation);
    if (hiddenBy) {
      tool.advertised = false;
      tool.hiddenBy = hiddenBy;
    }
  }
  const routing = new Map<string, GatewayTool>();
  for (const tool of tools)
    if (!tool.conflicted && !routing.has(tool.resolvedName)) routing.set(tool.resolvedName, tool);
  const advertised = tools.filter((t) => t.advertised && !t.conflicted);
  return {
    aggregation,
    workloads,
    backendsListed: listed,
    routing,
    tools,
    dropped,
    conflicts,
    advertised,
    catalog,
    adopted: new Map(),
    budget,
  };
}

function overriddenTools(workload: GatewayWorkload): GatewayTool[] {
  return (workload.server?.tools ?? []).map((tool) => overriddenTool(workload, tool));
}

/** A backend tool after its workload's override (if any): renamed, described and annotated as the override says. */
function overriddenTool(workload: GatewayWorkload, tool: CatalogTool): GatewayTool {
  const overrides =
    workload.config && workload.config.toolConfigRef === undefined ? workload.config.overrides : undefined;
  // An override ToolHive refuses (no name, no description) does not count: the configuration it is
  // in does not load, so its annotations must not move the floor either.
  const found = overrides?.get(tool.name);
  const override = found && !found.refused ? found : undefined;
  const overriddenName = override?.name || tool.name;
  const patched: CatalogTool = {
    ...tool,
    description: override?.description || tool.description,
    annotations: patchAnnotations(tool.annotations, override?.annotations),
  };
  return {
    workload: workload.name,
    originalName: tool.name,
    overriddenName,
    resolvedName: overriddenName,
    tool: patched,
    advertised: true,
    override,
  };
}

/**
 * A tool that joins no conflict resolution (an adopted workload's, a meta tool the snapshot leaves
 * out): its name under the prefix strategy, and whether the advertising filter hides it.
 */
function outsideTool(gateway: Gateway, tool: GatewayTool): GatewayTool {
  if (gateway.aggregation.strategy === 'prefix')
    tool.resolvedName = applyPrefix(gateway.aggregation.prefixFormat, tool.workload) + tool.overriddenName;
  const hiddenBy = hiddenReason(tool, gateway.aggregation);
  if (hiddenBy) {
    tool.advertised = false;
    tool.hiddenBy = hiddenBy;
  }
  return tool;
}

/**
 * `<workload>.call_dynamic_tool` / `<workload>.get_dynamic_tools` of a workload whose server has
 * (named) namespaces, when its snapshot does not list them: a runtime with namespaces serves both,
 * and snapshots often keep only the namespaced tools. Nothing is known of their schemas or annotations.
 */
function unlistedMetaTool(gateway: Gateway, workload: GatewayWorkload, name: string): GatewayTool | undefined {
  const server = workload.server;
  if (!server || !(META_TOOLS as readonly string[]).includes(name)) return undefined;
  // A listed one is a tool like any other (it may even have lost a name conflict).
  if (listedToolOf(server, name) || !hasNamedNamespace(server)) return undefined;
  let made = unlistedMetas.get(workload);
  if (!made) unlistedMetas.set(workload, (made = new Map<string, GatewayTool>()));
  let tool = made.get(name);
  if (!tool) made.set(name, (tool = makeUnlistedMetaTool(gateway, workload, server, name)));
  return tool;
}

/** The unlisted meta tools made so far, per workload (each workload belongs to one gateway). */
const unlistedMetas = new WeakMap<GatewayWorkload, Map<string, GatewayTool>>();

function makeUnlistedMetaTool(
  gateway: Gateway,
  workload: GatewayWorkload,
  server: CatalogServer,
  name: string,
): GatewayTool {
  const tool: CatalogTool = {
    name,
    server: server.name,
    description: `${name === CALL_DYNAMIC_TOOL ? 'Calls a tool of a dynamic namespace' : 'Lists the dynamic namespaces and their tools'} (not in the snapshot; served by every runtime with namespaces).`,
    origin: server.origin,
  };
  return outsideTool(gateway, overriddenTool(workload, tool));
}

/** An unlisted meta tool called by its name after conflict resolution (`agent_call_dynamic_tool` under prefix), when one workload serves it. */
function unlistedMetaByName(gateway: Gateway, ref: string): GatewayTool | undefined {
  const hits = lookupsOf(gateway).metaByName.get(ref);
  return hits?.length === 1 ? hits[0] : undefined;
}

// The parts most references never need (a reference that resolves by its routing name asks for
// none; a step that resolves after the dot needs the per-workload part only) are built on first use.
function lookupsOf(gateway: Gateway): GatewayLookups {
  if (gateway.lookups) return gateway.lookups;
  const conflicted = new Map<string, GatewayTool[]>();
  for (const tool of gateway.tools) if (tool.conflicted) push(conflicted, tool.resolvedName, tool);
  const dropped = new Map<string, GatewayTool>();
  for (const tool of gateway.dropped) {
    if (!dropped.has(tool.resolvedName)) dropped.set(tool.resolvedName, tool);
    if (!dropped.has(tool.overriddenName)) dropped.set(tool.overriddenName, tool);
  }
  const conflictOf = new Map<GatewayTool, GatewayConflict>();
  for (const conflict of gateway.conflicts)
    for (const tool of conflict.candidates) if (!conflictOf.has(tool)) conflictOf.set(tool, conflict);
  const metaByName = new Map<string, GatewayTool[]>();
  const dynamic: GatewayWorkload[] = [];
  const uncatalogued: GatewayWorkload[] = [];
  const catalogued: string[] = [];
  for (const workload of gateway.workloads.values()) {
    for (const name of META_TOOLS) {
      const tool = unlistedMetaTool(gateway, workload, name);
      if (tool) push(metaByName, tool.resolvedName, tool);
    }
    if (workload.server) catalogued.push(workload.name);
    if (workload.server && workload.server.namespaces.length > 0) dynamic.push(workload);
    if (!workload.server || workload.opaque) uncatalogued.push(workload);
  }
  const workloads = new Map<string, WorkloadLookups>();
  const toolsOf = new Map<string, GatewayTool[]>();
  for (const tool of gateway.tools) push(toolsOf, tool.workload, tool);
  const droppedOf = new Map<string, GatewayTool[]>();
  for (const tool of gateway.dropped) push(droppedOf, tool.workload, tool);
  gateway.lookups = {
    workloads,
    toolsOf,
    droppedOf,
    conflicted,
    dropped,
    conflictOf,
    metaByName,
    catalogued,
    dynamic,
    uncatalogued,
  };
  return gateway.lookups;
}

function respeltOf(gateway: Gateway): Map<string, GatewayTool[]> {
  const lookups = lookupsOf(gateway);
  if (lookups.respelt) return lookups.respelt;
  const respelt = new Map<string, GatewayTool[]>();
  for (const tool of gateway.tools) {
    if (!tool.conflicted)
      for (const spelling of otherSpellings(tool, gateway.aggregation)) push(respelt, spelling, tool);
  }
  return (lookups.respelt = respelt);
}

function validOf(gateway: Gateway): { names: string[]; toolOf: Map<string, GatewayTool> } {
  const lookups = lookupsOf(gateway);
  if (lookups.valid) return lookups.valid;
  const valid = new Set<string>();
  const toolOf = new Map<string, GatewayTool>();
  const addValid = (name: string, tool: GatewayTool) => {
    valid.add(name);
    if (!toolOf.has(name)) toolOf.set(name, tool);
  };
  for (const tool of gateway.tools) {
    if (!tool.conflicted) addValid(tool.resolvedName, tool);
    addValid(dotForm(tool), tool);
  }
  return (lookups.valid = { names: [...valid], toolOf });
}

/** The lookups of one workload's tools (its routable ones, or an adopted workload's own), built on first use. */
function workloadLookups(
  gateway: Gateway,
  workload: GatewayWorkload,
  adopted: GatewayTool[] | undefined,
): WorkloadLookups {
  const lookups = lookupsOf(gateway);
  let found = lookups.workloads.get(workload.name);
  if (found) return found;
  const byOriginal = new Map<string, GatewayTool>();
  const renamed = new Map<string, GatewayTool>();
  for (const tool of adopted ?? lookups.toolsOf.get(workload.name) ?? []) {
    if (!byOriginal.has(tool.originalName)) byOriginal.set(tool.originalName, tool);
    if (tool.overriddenName !== tool.originalName && !renamed.has(tool.overriddenName))
      renamed.set(tool.overriddenName, tool);
  }
  const dropped = new Map<string, GatewayTool>();
  for (const tool of lookups.droppedOf.get(workload.name) ?? [])
    if (!dropped.has(tool.originalName)) dropped.set(tool.originalName, tool);
  const callable = [...byOriginal.keys()];
  for (const meta of META_TOOLS)
    if (!byOriginal.has(meta) && unlistedMetaTool(gateway, workload, meta)) callable.push(meta);
  found = { byOriginal, renamed, dropped, callable };
  lookups.workloads.set(workload.name, found);
  return found;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The advertised tool a composite tool of this name would clash with (tool/name-conflict). */
export function advertisedNamed(gateway: Gateway, name: string): GatewayTool | undefined {
  const lookups = lookupsOf(gateway);
  if (!lookups.advertised) {
    const advertised = new Map<string, GatewayTool>();
    for (const tool of gateway.advertised) {
      if (!advertised.has(tool.resolvedName) && !gateway.workloads.get(tool.workload)?.opaque)
        advertised.set(tool.resolvedName, tool);
    }
    lookups.advertised = advertised;
  }
  return lookups.advertised.get(name);
}

/**
 * Without a backends list, a dot reference may name a catalogued server that the workload set
 * reaches only under another name (the `workloads:` mapping renames it). It is taken in for that
 * reference alone: its tools join no conflict resolution, which would be guesswork.
 */
function adoptWorkload(
  gateway: Gateway,
  name: string,
): { workload: GatewayWorkload; tools: GatewayTool[] } | undefined {
  if (gateway.backendsListed) return undefined;
  const cached = gateway.adopted.get(name);
  if (cached) return cached;
  const server = gateway.catalog.server(name);
  if (!server) return undefined;
  const config = gateway.aggregation.tools.get(name);
  const workload: GatewayWorkload = { name, serverName: gateway.catalog.serverName(name), server, config };
  const tools = overriddenTools(workload).map((tool) => outsideTool(gateway, tool));
  const adopted = { workload, tools };
  gateway.adopted.set(name, adopted);
  return adopted;
}

/** `{workload}` replaced by the workload's name, as ToolHive builds prefixes. */
function applyPrefix(format: string, workload: string): string {
  return format.split(WORKLOAD_PLACEHOLDER).join(workload);
}

/** The strategy-independent reference to a tool: `workload.originalName`. */
export function dotForm(tool: GatewayTool): string {
  return `${tool.workload}.${tool.originalName}`;
}

/**
 * A tool as "did you mean" names it for a reference written as `ref`: one spelling per tool, the one
 * the author chose. A reference with a dot asks for `workload.tool` (unless the routing name has a dot
 * too, as under `{workload}.`); any other asks for the routing name, the name after conflict
 * resolution. A tool whose routing name is claimed by several workloads (manual) has only its dot form.
 */
function spelledLike(ref: string, tool: GatewayTool): string {
  if (tool.conflicted) return dotForm(tool);
  if (ref.includes('.') && !tool.resolvedName.includes('.')) return dotForm(tool);
  return tool.resolvedName;
}

/**
 * ToolHive's `IsValidToolReference` (pkg/vmcp/config/composite_validation.go): a step's `tool` must
 * start with a letter or digit and hold only letters, digits, `.`, `_` and `-`. The validator refuses
 * any other at load time, before anything is resolved, so such a reference is not looked up at all.
 */
const TOOL_REFERENCE = /^[a-zA-Z0-9][a-zA-Z0-9._-]*$/;

export function isValidToolReference(ref: string): boolean {
  return TOOL_REFERENCE.test(ref);
}

/**
 * The workloads behind the gateway: its `backends` list when it has one (a closed set); otherwise
 * every catalogued workload plus those the aggregation block names.
 */
function workloadNames(
  catalog: CatalogIndex,
  backends: readonly string[] | undefined,
  aggregation: AggregationConfig,
): { names: string[]; listed: boolean } {
  if (backends) return { names: [...backends], listed: true };
  const names = new Set<string>(catalog.workloadNames);
  for (const name of aggregation.tools.keys()) names.add(name);
  for (const name of aggregation.priorityOrder) names.add(name);
  return { names: [...names], listed: false };
}

/** An override's hints laid over the declared ones; the floor reads the result. */
function patchAnnotations(
  declared: ToolAnnotations | undefined,
  patch: ToolAnnotations | undefined,
): ToolAnnotations | undefined {
  if (!patch) return declared;
  return { ...(declared ?? {}), ...patch };
}

// ---------------------------------------------------------------------------------------------
// Conflict resolution

function resolveConflicts(
  candidates: GatewayTool[],
  aggregation: AggregationConfig,
): { tools: GatewayTool[]; dropped: GatewayTool[]; conflicts: GatewayConflict[] } {
  const tools: GatewayTool[] = [];
  const dropped: GatewayTool[] = [];
  const conflicts: GatewayConflict[] = [];

  if (aggregation.strategy === 'prefix') {
    // One prefix per workload, not per tool.
    const prefixes = new Map<string, string>();
    for (const tool of candidates) {
      let prefix = prefixes.get(tool.workload);
      if (prefix === undefined)
        prefixes.set(tool.workload, (prefix = applyPrefix(aggregation.prefixFormat, tool.workload)));
      tool.resolvedName = prefix + tool.overriddenName;
    }
    // Identical names after prefixing: ToolHive warns and keeps one; we keep the first in workload order.
    for (const group of groupBy(candidates, (t) => t.resolvedName).values()) {
      tools.push(group[0]!);
      if (group.length > 1) {
        dropped.push(...group.slice(1));
        conflicts.push({ name: group[0]!.resolvedName, candidates: group, outcome: 'first-wins', winner: group[0] });
      }
    }
    return { tools, dropped, conflicts };
  }

  // The first place of each workload in priorityOrder.
  const priority = new Map<string, number>();
  aggregation.priorityOrder.forEach((name, index) => {
    if (!priority.has(name)) priority.set(name, index);
  });
  for (const group of groupBy(candidates, (t) => t.overriddenName).values()) {
    const workloads = new Set(group.map((t) => t.workload));
    if (workloads.size === 1) {
      // One workload: no cross-backend conflict (a duplicate inside one server is a catalog problem).
      tools.push(group[0]!);
      dropped.push(...group.slice(1));
      continue;
    }
    const name = group[0]!.overriddenName;
    if (aggregation.strategy === 'manual') {
      for (const tool of group) tool.conflicted = true;
      tools.push(...group);
      conflicts.push({ name, candidates: group, outcome: 'unresolved' });
      continue;
    }
    // priority: the listed candidate with the lowest index keeps the bare name, the others are dropped.
    let winner: GatewayTool | undefined;
    let best = Infinity;
    for (const tool of group) {
      const index = priority.get(tool.workload) ?? -1;
      if (index >= 0 && index < best) {
        best = index;
        winner = tool;
      }
    }
    if (winner) {
      tools.push(winner);
      dropped.push(...group.filter((t) => t !== winner));
      conflicts.push({ name, candidates: group, outcome: 'priority', winner });
    } else {
      // Nobody listed: every candidate gets the DEFAULT prefix, whatever prefixFormat says.
      for (const tool of group)
        tool.resolvedName = applyPrefix(DEFAULT_PREFIX_FORMAT, tool.workload) + tool.overriddenName;
      tools.push(...group);
      conflicts.push({ name, candidates: group, outcome: 'prefixed' });
    }
  }
  return { tools, dropped, conflicts };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** A filter as a set, made once per filter: a long allow-list is asked once per tool. */
const filterSets = new WeakMap<readonly string[], Set<string>>();
function filterSet(filter: readonly string[]): Set<string> {
  let set = filterSets.get(filter);
  if (!set) filterSets.set(filter, (set = new Set(filter)));
  return set;
}

function hiddenReason(tool: GatewayTool, aggregation: AggregationConfig): HiddenBy | undefined {
  if (aggregation.excludeAllTools) return 'excludeAllTools';
  const config = aggregation.tools.get(tool.workload);
  if (config?.toolConfigRef !== undefined) return undefined; // its filter is not ours to read
  if (config?.excludeAll) return 'excludeAll';
  if (config?.filter && config.filter.length > 0 && !filterSet(config.filter).has(tool.overriddenName)) return 'filter';
  if (!config && aggregation.defaultToolVisibility === 'deny') return 'defaultToolVisibility';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Resolving a step's tool reference

interface UncataloguedWorkload {
  name: string;
  serverName: string;
  /** no-catalog: nothing is known of it; opaque: its catalog is known but not its names after overrides. */
  reason: 'no-catalog' | 'opaque';
}

/** Why a reference reaches no tool, with what the words of the rules and the hover need (gateway/words.ts). */
export type Unresolved =
  /** The name is right but spelt for another strategy (bare `read_file` under prefix). */
  | { problem: 'strategy'; respelt: GatewayTool[]; aggregation: AggregationConfig }
  /** `workload.newName`: after the dot ToolHive matches the backend's own name. */
  | { problem: 'override-name-after-dot'; tool: GatewayTool; givenName: string }
  | { problem: 'no-such-tool'; workload: GatewayWorkload; toolName: string }
  /** `backends`: the gateway's backends, when the document lists them and the name is in none. */
  | { problem: 'no-such-workload'; workloadName: string; backends?: string[] }
  /** The tool lost a name conflict and is not routable at all. */
  | { problem: 'dropped'; lost: GatewayTool; conflict?: GatewayConflict }
  /** Manual strategy: the name is claimed by several workloads. */
  | { problem: 'conflict'; claimants: string[] }
  | { problem: 'not-found' };

export type ToolRefResolution =
  | { kind: 'resolved'; ref: string; tool: GatewayTool; via: 'name' | 'dot' }
  /** The ref may belong to a workload Tool Lens has no catalog for: unknown, not wrong. */
  | { kind: 'no-catalog'; ref: string; workloads: UncataloguedWorkload[]; suggestions: string[] }
  /** Not a listed tool, but a dynamic tool in one of the workload's namespaces. */
  | { kind: 'dynamic'; ref: string; workload: string; toolName: string; namespaces: DynamicNamespace[] }
  | ({ kind: 'unresolved'; ref: string; suggestions: string[] } & Unresolved);

export function resolveToolRef(gateway: Gateway, ref: string): ToolRefResolution {
  // 1. The exact conflict-resolved name.
  const exact = gateway.routing.get(ref);
  if (exact) return { kind: 'resolved', ref, tool: exact, via: 'name' };
  const conflicted = lookupsOf(gateway).conflicted.get(ref) ?? [];
  if (conflicted.length > 0) {
    return {
      kind: 'unresolved',
      ref,
      problem: 'conflict',
      claimants: unique(conflicted.map((t) => t.workload)),
      suggestions: conflicted.map(dotForm),
    };
  }
  // ... or the conflict-resolved name of a meta tool the snapshot leaves out.
  const meta = unlistedMetaByName(gateway, ref);
  if (meta) return { kind: 'resolved', ref, tool: meta, via: 'name' };
  // 2. `workload.tool`, split at the first dot, with the backend's own name.
  const dot = ref.indexOf('.');
  if (dot > 0) {
    const result = resolveDotted(gateway, ref, ref.slice(0, dot), ref.slice(dot + 1));
    if (result) return result;
  }
  return resolveBare(gateway, ref);
}

function resolveDotted(
  gateway: Gateway,
  ref: string,
  workloadName: string,
  toolName: string,
): ToolRefResolution | undefined {
  const adopted = gateway.workloads.has(workloadName) ? undefined : adoptWorkload(gateway, workloadName);
  const workload = gateway.workloads.get(workloadName) ?? adopted?.workload;
  if (workload?.server) {
    const own = workloadLookups(gateway, workload, adopted?.tools);
    const hit = own.byOriginal.get(toolName) ?? unlistedMetaTool(gateway, workload, toolName);
    if (hit) return { kind: 'resolved', ref, tool: hit, via: 'dot' };
    const renamed = own.renamed.get(toolName);
    if (renamed) {
      return {
        kind: 'unresolved',
        ref,
        problem: 'override-name-after-dot',
        tool: renamed,
        givenName: toolName,
        suggestions: [spelledLike(ref, renamed)],
      };
    }
    const lost = own.dropped.get(toolName);
    if (lost) return droppedResult(gateway, ref, lost);
    const namespaces = gateway.catalog.dynamicHomes(workloadName, toolName);
    if (namespaces.length > 0) return { kind: 'dynamic', ref, workload: workloadName, toolName, namespaces };
    const near = closestN(toolName, own.callable, 3, { budget: gateway.budget }).map((n) => `${workloadName}.${n}`);
    return {
      kind: 'unresolved',
      ref,
      problem: 'no-such-tool',
      workload,
      toolName,
      suggestions: near,
    };
  }
  if (workload) return { kind: 'no-catalog', ref, workloads: [uncatalogued(workload)], suggestions: [] };
  // Not a known workload: backend tool names may contain dots themselves, so the name may be a
  // tool's own name spelt for another strategy.
  const bare = resolveBare(gateway, ref);
  if (bare.kind === 'unresolved' && bare.problem === 'strategy') return bare;
  const nearWorkload = closestN(workloadName, lookupsOf(gateway).catalogued, 1, { budget: gateway.budget })[0];
  if (
    nearWorkload &&
    lookupsOf(gateway)
      .toolsOf.get(nearWorkload)
      ?.some((t) => t.originalName === toolName)
  ) {
    return {
      kind: 'unresolved',
      ref,
      problem: 'no-such-workload',
      workloadName,
      suggestions: [`${nearWorkload}.${toolName}`],
    };
  }
  if (gateway.backendsListed) {
    const near = nearNames(gateway, ref);
    return {
      kind: 'unresolved',
      ref,
      problem: 'no-such-workload',
      workloadName,
      backends: [...gateway.workloads.keys()],
      suggestions: near,
    };
  }
  // Without a backends list the gateway may have workloads we know nothing of: unknown, not wrong.
  return {
    kind: 'no-catalog',
    ref,
    workloads: [{ name: workloadName, serverName: gateway.catalog.serverName(workloadName), reason: 'no-catalog' }],
    suggestions: [],
  };
}

function resolveBare(gateway: Gateway, ref: string): ToolRefResolution {
  const { aggregation } = gateway;
  // a. The right tool under another spelling: suggest the active strategy's name and the dot form.
  const lookups = lookupsOf(gateway);
  const respelt = respeltOf(gateway).get(ref) ?? [];
  if (respelt.length > 0) {
    return {
      kind: 'unresolved',
      ref,
      problem: 'strategy',
      respelt,
      aggregation,
      suggestions: unique(respelt.map((t) => spelledLike(ref, t))).slice(0, 6),
    };
  }
  const lost = lookups.dropped.get(ref);
  if (lost && aggregation.strategy === 'prefix') return droppedResult(gateway, ref, lost);

  // b. A dynamic tool behind one of the workloads.
  for (const workload of lookups.dynamic) {
    const toolName = bareToolName(aggregation, workload.name, ref);
    if (toolName === undefined) continue;
    const namespaces = gateway.catalog.dynamicHomes(workload.name, toolName);
    if (namespaces.length > 0) return { kind: 'dynamic', ref, workload: workload.name, toolName, namespaces };
  }

  // c. A workload the gateway names but Tool Lens has no catalog (or no overrides) for could serve it.
  const near = nearNames(gateway, ref);
  const unknown = lookups.uncatalogued.filter((w) => bareToolName(aggregation, w.name, ref) !== undefined);
  if (unknown.length > 0) return { kind: 'no-catalog', ref, workloads: unknown.map(uncatalogued), suggestions: near };

  // d. A near name is more likely a typo than a workload nobody mentions.
  if (near.length > 0) {
    return { kind: 'unresolved', ref, problem: 'not-found', suggestions: near };
  }

  // e. Without a backends list, an unmentioned workload may serve it.
  if (!gateway.backendsListed) {
    if (aggregation.strategy !== 'prefix') return { kind: 'no-catalog', ref, workloads: [], suggestions: [] };
    const guessed = workloadFromPrefixed(aggregation.prefixFormat, ref);
    if (guessed !== undefined && !gateway.workloads.get(guessed)?.server) {
      return {
        kind: 'no-catalog',
        ref,
        workloads: [{ name: guessed, serverName: gateway.catalog.serverName(guessed), reason: 'no-catalog' }],
        suggestions: [],
      };
    }
  }
  if (lost) return droppedResult(gateway, ref, lost);
  return { kind: 'unresolved', ref, problem: 'not-found', suggestions: [] };
}

function droppedResult(gateway: Gateway, ref: string, lost: GatewayTool): ToolRefResolution {
  const conflict = lookupsOf(gateway).conflictOf.get(lost);
  const winner = conflict?.winner;
  return {
    kind: 'unresolved',
    ref,
    problem: 'dropped',
    lost,
    conflict,
    suggestions: winner ? [spelledLike(ref, winner)] : [],
  };
}

/**
 * The backend tool name a bare reference would be under this workload, if the workload could
 * produce it: under prefix the reference must start with the workload's prefix; under priority
 * and manual a bare name can be the workload's own (or the default-prefixed fallback).
 */
function bareToolName(aggregation: AggregationConfig, workload: string, ref: string): string | undefined {
  if (aggregation.strategy === 'prefix') {
    const prefix = applyPrefix(aggregation.prefixFormat, workload);
    return ref.startsWith(prefix) && ref.length > prefix.length ? ref.slice(prefix.length) : undefined;
  }
  return ref;
}

/** What users write for this tool when they have another strategy in mind. */
function otherSpellings(tool: GatewayTool, aggregation: AggregationConfig): string[] {
  const w = tool.workload;
  const names = unique([tool.originalName, tool.overriddenName]);
  const out: string[] = [];
  for (const name of names) {
    out.push(
      name,
      `${w}_${name}`,
      `${w}.${name}`,
      `${w}-${name}`,
      `${w}__${name}`,
      `${w}/${name}`,
      applyPrefix(aggregation.prefixFormat, w) + name,
    );
  }
  const valid = new Set([tool.resolvedName, dotForm(tool)]);
  return unique(out).filter((s) => !valid.has(s));
}

/** Tools that resolve and are close to `ref`, best first, each once, in the spelling `ref` chose. */
function nearNames(gateway: Gateway, ref: string): string[] {
  const { names: valid, toolOf: toolOfValid } = validOf(gateway);
  // Each tool is in `valid` twice (routing name and dot form): ask for twice as many, then keep one each.
  const near = closestN(ref, valid, 6, { budget: gateway.budget });
  return unique(
    near.map((name) => {
      const tool = toolOfValid.get(name);
      return tool ? spelledLike(ref, tool) : name;
    }),
  ).slice(0, 3);
}

/** `{workload}_` applied to `gh_create_issue` → `gh`; undefined when the format cannot tell. */
export function workloadFromPrefixed(format: string, ref: string): string | undefined {
  const at = format.indexOf(WORKLOAD_PLACEHOLDER);
  if (at < 0) return undefined;
  const before = format.slice(0, at);
  const after = format.slice(at + WORKLOAD_PLACEHOLDER.length).split(WORKLOAD_PLACEHOLDER)[0]!;
  if (!after || !ref.startsWith(before)) return undefined;
  const rest = ref.slice(before.length);
  const end = rest.indexOf(after, 1);
  if (end <= 0 || end + after.length >= rest.length) return undefined;
  return rest.slice(0, end);
}

function uncatalogued(workload: GatewayWorkload): UncataloguedWorkload {
  return { name: workload.name, serverName: workload.serverName, reason: workload.server ? 'opaque' : 'no-catalog' };
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}
