// The advertised tool list of one gateway document said in words, once for the CLI
// (`tool-lens gateway tools`) and the editor's "Advertised tools" view: each tool with the name
// clients see and its annotations, each withheld one with its reason, and what cannot be known.
// Places stay abstract (`place(file, span)`), so each front end converts them to its positions.
import { byCount } from '../text/words.js';
import type { DocumentContext } from '../context.js';
import { dotForm, type GatewayTool } from '../gateway/gateway.js';
import { hiddenByText } from '../gateway/words.js';
import { getMap, getString } from '../parse/nodes.js';
import { HINT_NAMES, type HintName, type Span, type ToolAnnotations } from '../types.js';
import { toolListOf, type ListedBackendTool, type ListedComposite, type ToolList } from './toolList.js';

/** One advertised tool, as a client lists it. */
export interface AdvertisedEntry<P> {
  name: string;
  kind: 'backend' | 'composite';
  /** backend: `workload.tool`, the strategy-independent reference. */
  from?: string;
  annotations: ToolAnnotations | null;
  /** composite: false when a step's workload has no catalog (the entry may change once one is added). */
  certain: boolean;
  location: P;
}

export type WithheldStatus = 'hidden' | 'dropped' | 'conflicted' | 'left-out' | 'name-conflict' | 'contradiction';

/** A tool the gateway serves but does not list, or does not serve at all. */
export interface WithheldEntry<P> {
  name: string;
  kind: 'backend' | 'composite';
  from?: string;
  status: WithheldStatus;
  reason: string;
  certain: boolean;
  location: P;
}

export interface UnknownEntry {
  workload: string;
  server: string;
  reason: string;
}

export interface ToolListReport<P> {
  /** The gateway's name: `name` of a CLI config, `metadata.name` of a VirtualMCPServer. */
  name: string | null;
  kind: 'vmcp-config' | 'vmcp-server';
  location: P;
  strategy: string;
  /** backends: the document lists its backends; catalog: it does not, so the catalogued servers stand in for the group's workloads. */
  workloadsFrom: 'backends' | 'catalog';
  advertised: AdvertisedEntry<P>[];
  withheld: WithheldEntry<P>[];
  unknown: UnknownEntry[];
  /** compositeToolRefs whose definitions are not in the file: the operator reads them from the cluster. */
  externalDefinitions: string[];
}

export type PlaceOf<P> = (file: string, span: Span) => P;

/** The report of a gateway document (kind vmcp-config or vmcp-server). */
export function toolListReport<P>(ctx: DocumentContext, place: PlaceOf<P>): ToolListReport<P> {
  const list = toolListOf(ctx);
  const doc = ctx.doc;
  const name =
    doc.kind === 'vmcp-server' ? getString(getMap(doc.root, 'metadata'), 'name') : getString(doc.root, 'name');
  const aggregation = list.gateway.aggregation;
  const toolPlace = (tool: GatewayTool) => place(tool.tool.origin.file, tool.tool.origin.span);
  const compositePlace = (c: ListedComposite) => place(c.doc.file.path, c.workflow.name?.span ?? c.workflow.node.span);
  return {
    name: name ?? null,
    kind: doc.kind === 'vmcp-server' ? 'vmcp-server' : 'vmcp-config',
    location: place(ctx.file.path, doc.span),
    strategy: aggregation.strategy === 'prefix' ? `prefix (${aggregation.prefixFormat})` : aggregation.strategy,
    workloadsFrom: list.gateway.backendsListed ? 'backends' : 'catalog',
    advertised: [
      ...list.backend.filter((b) => b.status === 'advertised').map((b) => backendEntry(b.tool, toolPlace(b.tool))),
      ...list.composites.filter((c) => c.status === 'advertised').map((c) => compositeEntry(c, compositePlace(c))),
    ],
    withheld: [
      ...list.backend.filter((b) => b.status !== 'advertised').map((b) => withheldBackend(b, toolPlace(b.tool))),
      ...list.composites
        .filter((c) => c.status !== 'advertised')
        .map((c) => withheldComposite(c, list, compositePlace(c))),
    ],
    unknown: list.unlisted.map((w) => ({
      workload: w.name,
      server: w.serverName,
      reason:
        w.reason === 'no-catalog'
          ? `no catalog for server "${w.serverName}": its tools, and any clash with them, are unknown`
          : 'its filter and overrides come from an MCPToolConfig, which Tool Lens cannot read',
    })),
    externalDefinitions: list.external.map((e) => e.name),
  };
}

function backendEntry<P>(tool: GatewayTool, location: P): AdvertisedEntry<P> {
  return {
    name: tool.resolvedName,
    kind: 'backend',
    from: dotForm(tool),
    annotations: tool.tool.annotations ?? null,
    certain: true,
    location,
  };
}

function compositeEntry<P>(composite: ListedComposite, location: P): AdvertisedEntry<P> {
  return {
    name: composite.name,
    kind: 'composite',
    annotations: composite.annotations ?? null,
    certain: composite.certain,
    location,
  };
}

function withheldBackend<P>(listed: ListedBackendTool, location: P): WithheldEntry<P> {
  const tool = listed.tool;
  const base = { name: tool.resolvedName, kind: 'backend' as const, from: dotForm(tool), certain: true, location };
  switch (listed.status) {
    case 'hidden':
      return { ...base, status: 'hidden', reason: `${hiddenByText(tool)}; composite steps can still call it` };
    case 'conflicted':
      return {
        ...base,
        status: 'conflicted',
        reason: `several workloads serve "${tool.overriddenName}" and no override tells them apart: ToolHive fails every tool listing and call (manual strategy)`,
      };
    default:
      return { ...base, name: tool.overriddenName, status: 'dropped', reason: droppedReason(tool, listed.winner) };
  }
}

function droppedReason(tool: GatewayTool, winner: GatewayTool | undefined): string {
  if (!winner)
    return `another tool has the name "${tool.resolvedName}" after conflict resolution; ToolHive keeps the first and drops this one`;
  return `lost the name "${winner.resolvedName}" to ${dotForm(winner)}; not routable at all`;
}

function withheldComposite<P>(composite: ListedComposite, list: ToolList, location: P): WithheldEntry<P> {
  const base = { name: composite.name, kind: 'composite' as const, certain: composite.certain, location };
  switch (composite.status) {
    case 'left-out': {
      const steps = composite.unroutable.map((s) => `"${s.stepId}"${s.toolRef ? ` (${s.toolRef})` : ''}`);
      return {
        ...base,
        status: 'left-out',
        reason: `${byCount(steps.length, 'step', 'steps')} ${steps.join(', ')} ${byCount(steps.length, 'does', 'do')} not resolve, so no session lists it`,
      };
    }
    case 'name-conflict': {
      if (composite.clash) {
        return {
          ...base,
          status: 'name-conflict',
          reason: `named like the advertised backend tool ${dotForm(composite.clash)}, which leaves out every composite tool`,
        };
      }
      const clashing = list.composites.filter((c) => c.status === 'name-conflict' && c.clash).map((c) => `"${c.name}"`);
      return {
        ...base,
        status: 'name-conflict',
        reason: `left out with every composite tool: ${clashing.join(', ')} is named like an advertised backend tool`,
      };
    }
    default: {
      const hints = composite.contradictions.map((c) => `${c.hint}: ${c.explicit} but the steps give ${c.floor}`);
      return {
        ...base,
        status: 'contradiction',
        reason: `its annotations look safer than its steps (${hints.join('; ')}), so ToolHive drops it`,
      };
    }
  }
}

const HINT_WORDS: Record<HintName, [string, string]> = {
  readOnlyHint: ['read-only', 'not read-only'],
  destructiveHint: ['destructive', 'not destructive'],
  idempotentHint: ['idempotent', 'not idempotent'],
  openWorldHint: ['open-world', 'closed-world'],
};

/** Hints as a short phrase ("read-only, open-world"): only what is declared. */
export function annotationWords(annotations: ToolAnnotations | null): string {
  if (!annotations) return '(none declared)';
  const words: string[] = [];
  for (const hint of HINT_NAMES) {
    const value = annotations[hint];
    if (value !== undefined) words.push(HINT_WORDS[hint][value ? 0 : 1]);
  }
  return words.length ? words.join(', ') : '(no hints)';
}
