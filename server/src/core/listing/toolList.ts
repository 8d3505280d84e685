// The tool list a gateway advertises to its clients, computed in ToolHive's order
// (docs/toolhive.md#what-a-session-lists): the backend tools after overrides, conflict resolution
// and the advertising filter (gateway/), then the composite tools that survive the session's three
// gates: every tool step routable (`FilterWorkflowDefsForSession`), no composite named like an
// advertised backend tool (`ValidateNoToolConflicts`, which leaves out every composite), and
// explicit annotations that do not contradict the floor (`FilterWorkflowDefsByAnnotations`). Typed
// data only: `tool-lens gateway tools` and the editor's view say it in words.
import { documentContext, type DocumentContext } from '../context.js';
import { floorOf, type WorkflowFloor } from '../floor/workflowFloor.js';
import type { Contradiction } from '../floor/floor.js';
import { advertisedNamed, gatewayOf, type Gateway, type GatewayTool } from '../gateway/gateway.js';
import type { ResolvedStep } from '../gateway/steps.js';
import { memoKey } from '../memo.js';
import { compositeDefinitionsIn, workflowsOf, type WorkflowModel } from '../model/workflow.js';
import { getMap, getSeq, getString, isMap, isScalar } from '../parse/nodes.js';
import type { Span, ToolAnnotations } from '../types.js';

/** One backend tool of a workload, as the gateway treats it. */
export interface ListedBackendTool {
  tool: GatewayTool;
  /**
   * advertised: clients see it under `tool.resolvedName`; hidden: routable for composite steps,
   * not listed (`tool.hiddenBy`); dropped: it lost a name conflict and is not routable at all;
   * conflicted: manual strategy, several workloads claim the name and no override tells them
   * apart, so the configuration is refused at load.
   */
  status: 'advertised' | 'hidden' | 'dropped' | 'conflicted';
  /** For a dropped tool: the tool that kept the name, when one did. */
  winner?: GatewayTool;
}

/** A workload whose tools cannot be listed. */
export interface UnlistedWorkload {
  name: string;
  serverName: string;
  /** no-catalog: no snapshot names its server; opaque: its filter and overrides live in an MCPToolConfig. */
  reason: 'no-catalog' | 'opaque';
}

export type CompositeStatus =
  /** Listed, with `annotations` (the floor merged with the explicit hints). */
  | 'advertised'
  /** A tool step does not resolve: ToolHive leaves the composite out of the session. */
  | 'left-out'
  /** Some composite is named like an advertised backend tool: every composite is left out. */
  | 'name-conflict'
  /** Its explicit annotations promise more safety than its floor: dropped. */
  | 'contradiction';

export interface ListedComposite {
  name: string;
  workflow: WorkflowModel;
  /** Where the composite is written: its own document (for a referenced definition) or the gateway's. */
  doc: DocumentContext;
  status: CompositeStatus;
  /**
   * False when a step reaches a workload Tool Lens has no catalog for: the status is what follows
   * if those steps resolve and their tools declare nothing, which may change once a catalog is added.
   */
  certain: boolean;
  /** What clients see for an advertised composite (also computed for the others, for the record). */
  annotations: ToolAnnotations | undefined;
  /** left-out: the steps that do not resolve. */
  unroutable: ResolvedStep[];
  /** contradiction: each hint that promises too much. */
  contradictions: Contradiction[];
  /** The advertised backend tool this composite's name clashes with, if any. */
  clash?: GatewayTool;
  /** Steps whose workload has no catalog. */
  unknownSteps: ResolvedStep[];
}

/** A `compositeToolRefs` entry whose definition is not in this file: the operator reads it from the cluster. */
export interface ExternalReference {
  name: string;
  span: Span;
}

export interface ToolList {
  gateway: Gateway;
  backend: ListedBackendTool[];
  unlisted: UnlistedWorkload[];
  composites: ListedComposite[];
  external: ExternalReference[];
  /** True when a composite clashes with an advertised backend tool, so none of them is listed. */
  compositesOmitted: boolean;
}

const KEY = memoKey<ToolList>('tool-list');

/** The gateway document's advertised tool list, memoised per document. */
export function toolListOf(ctx: DocumentContext): ToolList {
  return ctx.memo.get(KEY, () => buildToolList(ctx));
}

function buildToolList(ctx: DocumentContext): ToolList {
  const gateway = gatewayOf(ctx);
  const backend = backendTools(gateway);
  const unlisted: UnlistedWorkload[] = [];
  for (const workload of gateway.workloads.values()) {
    if (!workload.server) unlisted.push({ name: workload.name, serverName: workload.serverName, reason: 'no-catalog' });
    else if (workload.opaque) unlisted.push({ name: workload.name, serverName: workload.serverName, reason: 'opaque' });
  }

  const { composites: written, external } = compositesOf(ctx);
  const composites = written.map(({ workflow, doc }) => firstGate(ctx, gateway, workflow, doc));

  // ValidateNoToolConflicts looks at the composites the first gate kept, by name only, before
  // any annotation is read: one clash leaves out every composite of the session.
  const kept = composites.filter((c) => c.status === 'advertised');
  const compositesOmitted = kept.some((c) => c.clash !== undefined);
  for (const composite of kept) {
    if (compositesOmitted) composite.status = 'name-conflict';
    else if (composite.contradictions.length > 0) composite.status = 'contradiction';
  }
  return { gateway, backend, unlisted, composites, external, compositesOmitted };
}

function backendTools(gateway: Gateway): ListedBackendTool[] {
  const listed: ListedBackendTool[] = gateway.tools.map((tool) => ({
    tool,
    status: tool.conflicted ? 'conflicted' : tool.advertised ? 'advertised' : 'hidden',
  }));
  // A dropped tool with the tool that kept its name, when its conflict had a winner.
  const winners = new Map<GatewayTool, GatewayTool | undefined>();
  for (const conflict of gateway.conflicts) for (const tool of conflict.candidates) winners.set(tool, conflict.winner);
  for (const tool of gateway.dropped) listed.push({ tool, status: 'dropped', winner: winners.get(tool) });
  return listed;
}

/** The session filter: every tool step must route. Also gathers what the later gates read. */
function firstGate(
  ctx: DocumentContext,
  gateway: Gateway,
  workflow: WorkflowModel,
  doc: DocumentContext,
): ListedComposite {
  const floor: WorkflowFloor = floorOf(ctx, workflow);
  const steps = floor.entries.map((e) => e.step);
  // A reference ToolHive refuses at load, a step without a tool or one the router cannot find: not routable.
  const unroutable = floor.unroutable;
  const unknownSteps = steps.filter((s) => s.cause === 'no-catalog');
  const name = workflow.nameText ?? '';
  return {
    name,
    workflow,
    doc,
    status: unroutable.length > 0 ? 'left-out' : 'advertised',
    certain: unknownSteps.length === 0,
    annotations: floor.table.advertised,
    unroutable,
    contradictions: floor.contradictions,
    clash: name ? advertisedNamed(gateway, name) : undefined,
    unknownSteps,
  };
}

/**
 * The composite tools this gateway document serves: its inline `compositeTools`, and for a
 * VirtualMCPServer the definitions its `compositeToolRefs` name that are written in the same file
 * (the operator resolves them in the cluster; others are returned as external references).
 */
function compositesOf(ctx: DocumentContext): {
  composites: { workflow: WorkflowModel; doc: DocumentContext }[];
  external: ExternalReference[];
} {
  const workflows = workflowsOf(ctx);
  const composites = workflows.workflows.map((workflow) => ({ workflow, doc: ctx }));
  const external: ExternalReference[] = [];
  const refs = ctx.doc.kind === 'vmcp-server' ? getSeq(workflows.config, 'compositeToolRefs') : undefined;
  const namespace = getString(getMap(ctx.doc.root, 'metadata'), 'namespace');
  const seen = new Set<string>();
  for (const item of refs?.items ?? []) {
    const nameNode = isMap(item) ? item.pairs.find((p) => p.key.value === 'name')?.value : undefined;
    if (!isScalar(nameNode) || typeof nameNode.value !== 'string' || nameNode.value === '' || seen.has(nameNode.value))
      continue;
    seen.add(nameNode.value);
    const found = compositeDefinitionsIn(ctx.file, nameNode.value, namespace)[0];
    const definition = found ? documentContext(ctx.file, found, ctx.workspace) : undefined;
    if (definition)
      composites.push(...workflowsOf(definition).workflows.map((workflow) => ({ workflow, doc: definition })));
    else external.push({ name: nameNode.value, span: nameNode.span });
  }
  return { composites, external };
}
