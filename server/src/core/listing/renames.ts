// What a catalog change since the language server's baseline (workspace.ts `CatalogBaseline`)
// does to the names one gateway document advertises: the document's tool list under the baseline
// catalog and under the current one (report.ts), compared as `tool-lens catalog diff` compares them
// (compare.ts), and for each backend tool whose advertised name changed or that is no longer
// advertised because of a new clash, why (the backend renamed it, a clash under the priority or
// manual strategy came or went), the place in the gateway document that decides it, and the
// workflow steps and recorded calls of the workspace that write the old name. Typed data only:
// `aggregation/advertised-rename` says it. Without a baseline (the CLI) there is nothing.
import { diffCatalogs } from '../catalog/diff.js';
import { hasNamedNamespace, type CatalogIndex } from '../catalog/index.js';
import { callsOf } from '../calls/calls.js';
import { documentContext, type DocumentContext } from '../context.js';
import { dotForm, gatewayOf, type Gateway, type GatewayTool } from '../gateway/gateway.js';
import { memoKey } from '../memo.js';
import { aggregationOf } from '../model/aggregation.js';
import { workflowsOf, type StepModel } from '../model/workflow.js';
import type { ParsedFile } from '../parse/file.js';
import { getPair, getSeq, getString, isMap, isScalar, type Node } from '../parse/nodes.js';
import type { Span } from '../types.js';
import type { Workspace } from '../workspace.js';
import { backendRenamesOf, compareToolLists } from './compare.js';
import { toolListReport } from './report.js';

export type RenameCause =
  /** The server renamed the tool (`to`: its new backend name). */
  | { kind: 'backend-renamed'; to: string }
  /** priority: another workload now serves the same name and neither is in priorityOrder, so each gets the default prefix. */
  | { kind: 'clash'; others: GatewayTool[] }
  /** The clash that gave it the default prefix is gone (`others`: the tools it shared the name with, from the baseline). */
  | { kind: 'clash-gone'; others: GatewayTool[] }
  /** manual: several workloads now claim the name and no override tells them apart. */
  | { kind: 'conflicted'; others: GatewayTool[] }
  /** It lost its name to `winner` (priority: listed earlier; prefix: the same prefixed name, the first kept). */
  | { kind: 'lost'; winner?: GatewayTool; strategy: 'priority' | 'prefix' }
  | { kind: 'other' };

/** A step or recorded call that writes the old name. */
export interface NameUse {
  file: string;
  span: Span;
  kind: 'step' | 'call';
  /** step: its id (when it has one) and its composite tool's name. */
  stepId?: string;
  composite?: string;
}

export interface AdvertisedRename {
  /** The baseline's `workload.tool`. */
  from: string;
  workload: string;
  /** The advertised name under the baseline catalog. */
  before: string;
  /** The advertised name now; undefined when the tool is no longer advertised. */
  after?: string;
  cause: RenameCause;
  /** Where the gateway document decides the name (see placeOf). */
  span: Span;
  uses: NameUse[];
}

const KEY = memoKey<AdvertisedRename[]>('advertised-renames');

/** The advertised names of this gateway document that changed since the baseline, memoised per document. */
export function advertisedRenamesOf(ctx: DocumentContext): AdvertisedRename[] {
  return ctx.memo.get(KEY, () => computeRenames(ctx));
}

function computeRenames(ctx: DocumentContext): AdvertisedRename[] {
  const baseline = ctx.workspace.baseline;
  if (!baseline || (ctx.doc.kind !== 'vmcp-config' && ctx.doc.kind !== 'vmcp-server') || ctx.doc.partial) return [];
  const catalog = ctx.workspace.catalog;
  // Names come from each server's tool names alone: when none differs, nothing can be renamed.
  if (baseline.names() === advertisableNames(catalog)) return [];
  const oldCatalog = baseline.workspace().catalog;
  const oldCtx = baselineContext(ctx, baseline.workspace());
  if (!oldCtx) return [];
  const place = () => null;
  const change = compareToolLists(
    toolListReport(oldCtx, place),
    toolListReport(ctx, place),
    backendRenames(oldCatalog, catalog),
  );
  const oldGateway = gatewayOf(oldCtx);
  const gateway = gatewayOf(ctx);
  const found: Omit<AdvertisedRename, 'uses'>[] = [];
  for (const rename of change.renamed) {
    const tool = toolOfDot(gateway, rename.to ?? rename.from);
    const old = toolOfDot(oldGateway, rename.from);
    if (!tool || !old) continue;
    const cause: RenameCause =
      rename.to !== undefined
        ? { kind: 'backend-renamed', to: tool.originalName }
        : renameCause(gateway, tool, oldGateway, old);
    found.push({
      from: rename.from,
      workload: old.workload,
      before: rename.before,
      after: rename.after,
      cause,
      span: placeOf(ctx, cause, tool.workload),
    });
  }
  for (const entry of change.removed) {
    const old = entry.from === undefined ? undefined : toolOfDot(oldGateway, entry.from);
    const tool = entry.from === undefined ? undefined : toolOfDot(gateway, entry.from);
    if (!old || !tool) continue; // the tool itself is gone: tool/unknown speaks for its callers
    const cause = lostCause(gateway, tool);
    if (!cause) continue;
    found.push({
      from: entry.from!,
      workload: old.workload,
      before: entry.name,
      cause,
      span: placeOf(ctx, cause, tool.workload),
    });
  }
  if (found.length === 0) return [];
  const files = baseline.files();
  const steps = stepUsesOf(ctx, files, new Set(found.map((f) => f.before)));
  // Recorded calls go to a server by its own tool names: only a rename on the backend reaches them.
  const backendRenamed = found.filter((f) => f.cause.kind === 'backend-renamed');
  const calls = backendRenamed.length
    ? callUsesOf(ctx, baseline.files(), new Set(backendRenamed.map((f) => oldBackendKey(oldGateway, f.from))))
    : new Map<string, NameUse[]>();
  return found.map((f) => ({
    ...f,
    uses: [
      ...(steps.get(f.before) ?? []),
      ...(f.cause.kind === 'backend-renamed' ? (calls.get(oldBackendKey(oldGateway, f.from)) ?? []) : []),
    ],
  }));
}

/** `server\0tool`: the server and backend tool name a `workload.tool` reference stands for in a gateway. */
function oldBackendKey(gateway: Gateway, dot: string): string {
  const tool = toolOfDot(gateway, dot);
  const server = tool ? (gateway.workloads.get(tool.workload)?.serverName ?? tool.workload) : '';
  return `${server}\0${tool?.originalName ?? ''}`;
}

/** The tool a `workload.tool` reference names in a gateway, routable or dropped. */
function toolOfDot(gateway: Gateway, dot: string): GatewayTool | undefined {
  return gateway.tools.find((t) => dotForm(t) === dot) ?? gateway.dropped.find((t) => dotForm(t) === dot);
}

function conflictOf(gateway: Gateway, tool: GatewayTool) {
  return gateway.conflicts.find((c) => c.candidates.includes(tool));
}

function renameCause(gateway: Gateway, tool: GatewayTool, oldGateway: Gateway, old: GatewayTool): RenameCause {
  const now = conflictOf(gateway, tool);
  if (now?.outcome === 'prefixed') return { kind: 'clash', others: now.candidates.filter((t) => t !== tool) };
  const before = conflictOf(oldGateway, old);
  if (before?.outcome === 'prefixed') return { kind: 'clash-gone', others: before.candidates.filter((t) => t !== old) };
  return { kind: 'other' };
}

/** Why an advertised tool is no longer advertised, when a new clash is the reason. */
function lostCause(gateway: Gateway, tool: GatewayTool): RenameCause | undefined {
  const conflict = conflictOf(gateway, tool);
  if (!conflict) return undefined;
  if (conflict.outcome === 'unresolved')
    return { kind: 'conflicted', others: conflict.candidates.filter((t) => t !== tool) };
  if (conflict.outcome === 'priority') return { kind: 'lost', winner: conflict.winner, strategy: 'priority' };
  if (conflict.outcome === 'first-wins') return { kind: 'lost', winner: conflict.winner, strategy: 'prefix' };
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The baseline side

/** The gateway file parsed again in the baseline's workspace, by path, while its text is the same (the baseline catalog never changes). */
const baselineParses = new WeakMap<Workspace, Map<string, ParsedFile>>();

function baselineContext(ctx: DocumentContext, workspace: Workspace): DocumentContext | undefined {
  let parses = baselineParses.get(workspace);
  if (!parses) baselineParses.set(workspace, (parses = new Map<string, ParsedFile>()));
  let file = parses.get(ctx.file.path);
  if (!file || file.source.text !== ctx.file.source.text) {
    // Its own parse: a parse's analyses are memoised per document, so the two sides must not share one.
    file = workspace.parse(ctx.file.path, ctx.file.source.text);
    parses.set(ctx.file.path, file);
  }
  const doc = file.documents[ctx.file.documents.indexOf(ctx.doc)];
  return doc && doc.kind === ctx.doc.kind ? documentContext(file, doc, workspace) : undefined;
}

const SIGNATURE = {};

/**
 * Every server's tool names in order (and whether it has named namespaces, which bring meta
 * tools): all that a gateway's advertised names depend on in a catalog, as one string.
 */
export function advertisableNames(catalog: CatalogIndex): string {
  return catalog.derived(SIGNATURE, (c) =>
    JSON.stringify(
      c.serverNames.map((name) => {
        const server = c.server(name)!;
        return [name, hasNamedNamespace(server), server.tools.map((t) => t.name)];
      }),
    ),
  );
}

const RENAMES = {};

/** The backend renames between the baseline and the current catalog, once per pair. */
function backendRenames(oldCatalog: CatalogIndex, catalog: CatalogIndex): (from: string) => string | undefined {
  const byBaseline = catalog.derived(RENAMES, () => new WeakMap<CatalogIndex, (from: string) => string | undefined>());
  let renames = byBaseline.get(oldCatalog);
  if (!renames) {
    const servers = (c: CatalogIndex) => c.serverNames.map((name) => c.server(name)!);
    renames = backendRenamesOf(diffCatalogs(servers(oldCatalog), servers(catalog)), catalog);
    byBaseline.set(oldCatalog, renames);
  }
  return renames;
}

// ---------------------------------------------------------------------------------------------
// Places

/**
 * The place that decides the name: `priorityOrder` for a clash of the priority strategy (where
 * listing a workload settles it), the winner's entry in it for a lost name, the workload's
 * `aggregation.tools` entry for a manual conflict (where an override tells the tools apart), the
 * workload's entry in `backends` for a rename on the backend; each falling back to
 * `conflictResolution`, the `aggregation` key, and the document's first key.
 */
function placeOf(ctx: DocumentContext, cause: RenameCause, workload: string): Span {
  const settings = aggregationOf(ctx);
  const written = settings.aggregation.written;
  const fallback = written.strategy?.span ??
    settings.aggregationPair?.key.span ??
    firstKey(ctx.doc.root) ?? { start: 0, end: 0 };
  const priorityItem = (name: string) =>
    written.priorityOrder?.items.find((i) => isScalar(i) && i.value === name)?.span;
  const toolsEntry = (name: string) => {
    const config = settings.aggregation.tools.get(name);
    return config ? getPair(config.node, 'workload')?.value?.span : undefined;
  };
  switch (cause.kind) {
    case 'clash':
    case 'clash-gone':
      return written.priorityOrder?.span ?? fallback;
    case 'lost':
      return (
        (cause.winner && priorityItem(cause.winner.workload)) ??
        written.priorityOrder?.span ??
        backendEntry(ctx, workload) ??
        fallback
      );
    case 'conflicted':
      return toolsEntry(workload) ?? fallback;
    default:
      return backendEntry(ctx, workload) ?? toolsEntry(workload) ?? fallback;
  }
}

function backendEntry(ctx: DocumentContext, workload: string): Span | undefined {
  const backends = getSeq(workflowsOf(ctx).config, 'backends');
  for (const item of backends?.items ?? []) {
    if (isMap(item) && getString(item, 'name') === workload) return getPair(item, 'name')?.value?.span;
  }
  return undefined;
}

function firstKey(root: Node | null): Span | undefined {
  return isMap(root) ? root.pairs[0]?.key.span : undefined;
}

// ---------------------------------------------------------------------------------------------
// The steps and calls that write an old name

/** Adds to a map of lists. */
function push(map: Map<string, NameUse[]>, key: string, use: NameUse): void {
  const list = map.get(key);
  if (list) list.push(use);
  else map.set(key, [use]);
}

/** This file first, then every other file of the workspace once. */
function* workspaceFiles(ctx: DocumentContext, files: Iterable<ParsedFile>): Iterable<ParsedFile> {
  yield ctx.file;
  for (const file of files) if (file.path !== ctx.file.path) yield file;
}

/**
 * Steps of this gateway document and of every composite-tool definition that write one of
 * `names` as their tool, by name. Another gateway's steps are its own: when its names change, its
 * document gets its own findings.
 */
function stepUsesOf(
  ctx: DocumentContext,
  files: Iterable<ParsedFile>,
  names: ReadonlySet<string>,
): Map<string, NameUse[]> {
  const uses = new Map<string, NameUse[]>();
  const stepsOf = (docCtx: DocumentContext) => {
    for (const workflow of workflowsOf(docCtx).workflows) {
      const steps: StepModel[] = workflow.steps.flatMap((s) => (s.inner ? [s, s.inner] : [s]));
      for (const step of steps) {
        if (step.tool && step.toolText !== undefined && names.has(step.toolText)) {
          push(uses, step.toolText, {
            file: docCtx.file.path,
            span: step.tool.span,
            kind: 'step',
            stepId: step.idText,
            composite: workflow.nameText,
          });
        }
      }
    }
  };
  stepsOf(ctx);
  for (const file of workspaceFiles(ctx, files)) {
    for (const doc of file.documents)
      if (doc.kind === 'vmcp-composite') stepsOf(documentContext(file, doc, ctx.workspace));
  }
  return uses;
}

/** Recorded calls of a backend tool, by `server\0tool` (`keys`): those that name the tool and its server, or no server. */
function callUsesOf(
  ctx: DocumentContext,
  files: Iterable<ParsedFile>,
  keys: ReadonlySet<string>,
): Map<string, NameUse[]> {
  const uses = new Map<string, NameUse[]>();
  const servers = new Map<string, string[]>();
  for (const key of keys) {
    const [server, tool] = key.split('\0') as [string, string];
    servers.set(tool, [...(servers.get(tool) ?? []), server]);
  }
  for (const file of workspaceFiles(ctx, files)) {
    for (const doc of file.documents) {
      if (doc.kind !== 'tool-calls') continue;
      const calls = callsOf(documentContext(file, doc, ctx.workspace));
      for (const call of calls.calls) {
        if (!call.name || call.nameText === undefined) continue;
        for (const server of servers.get(call.nameText) ?? []) {
          if (calls.serverName === undefined || calls.serverName === server)
            push(uses, `${server}\0${call.nameText}`, { file: file.path, span: call.name.span, kind: 'call' });
        }
      }
    }
  }
  return uses;
}
