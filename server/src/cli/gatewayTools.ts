// `tool-lens gateway tools [PATH...]`: the tool list each gateway configuration will advertise
// (core/listing/toolList.ts), as a table for people or JSON for scripts: every advertised tool
// with the name clients see and its annotations, then what the gateway withholds and why, then
// what Tool Lens cannot know (workloads without a catalog, definitions kept in the cluster).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { documentContext } from '../core/context.js';
import { checkFile } from '../core/engine.js';
import { dotForm, type GatewayTool } from '../core/gateway/gateway.js';
import { hiddenByText, serverNote } from '../core/gateway/words.js';
import { toolListOf, type ListedBackendTool, type ListedComposite, type ToolList } from '../core/listing/toolList.js';
import type { ParsedDocument, ParsedFile } from '../core/parse/file.js';
import { getMap, getString } from '../core/parse/nodes.js';
import { SourceText } from '../core/text/source.js';
import { HINT_NAMES, type Span, type ToolAnnotations } from '../core/types.js';
import type { Workspace } from '../core/workspace.js';
import { loadWorkspace, UsageError } from '../node/loader.js';
import type { Palette } from './colors.js';
import { toLocation, type Location } from './result.js';

export interface GatewayToolsOptions {
  paths: string[];
  cwd: string;
  configPath?: string;
  catalogGlobs: string[];
  log: (message: string) => void;
}

/** One advertised tool, as a client lists it. */
interface AdvertisedEntry {
  name: string;
  kind: 'backend' | 'composite';
  /** backend: `workload.tool`, the strategy-independent reference. */
  from?: string;
  annotations: ToolAnnotations | null;
  /** composite: false when a step's workload has no catalog (the entry may change once one is added). */
  certain: boolean;
  location: PlaceJson;
}

/** A tool the gateway serves but does not list, or does not serve at all. */
interface WithheldEntry {
  name: string;
  kind: 'backend' | 'composite';
  from?: string;
  status: 'hidden' | 'dropped' | 'conflicted' | 'left-out' | 'name-conflict' | 'contradiction';
  reason: string;
  certain: boolean;
  location: PlaceJson;
}

interface PlaceJson {
  path: string;
  line: number;
  column: number;
}

interface GatewayReport {
  path: string;
  /** The gateway's name: `name` of a CLI config, `metadata.name` of a VirtualMCPServer. */
  name: string | null;
  kind: 'vmcp-config' | 'vmcp-server';
  location: PlaceJson;
  strategy: string;
  /** backends: the document lists its backends; catalog: it does not, so every catalogued server stands in for the group's workloads. */
  workloadsFrom: 'backends' | 'catalog';
  advertised: AdvertisedEntry[];
  withheld: WithheldEntry[];
  unknown: { workload: string; server: string; reason: string }[];
  /** compositeToolRefs whose definitions are not in the file: the operator reads them from the cluster. */
  externalDefinitions: string[];
  /** Errors `tool-lens check` reports in this document: some keep the gateway from loading at all. */
  errors: number;
}

export function gatewayReports(options: GatewayToolsOptions): GatewayReport[] {
  const loaded = loadWorkspace({ paths: options.paths, cwd: options.cwd, configPath: options.configPath, catalogGlobs: options.catalogGlobs, log: options.log });
  if (loaded.configProblems.length > 0) {
    throw new UsageError(`the configuration ${loaded.configPath ?? ''} has problems; \`tool-lens check\` lists them`);
  }
  const places = new Places(options.cwd, loaded.files);
  const reports: GatewayReport[] = [];
  for (const file of loaded.files) {
    const gateways = file.documents.filter(isGateway);
    if (gateways.length === 0) continue;
    const findings = checkFile(file, loaded.workspace).findings;
    for (const doc of gateways) {
      const errors = findings.filter((f) => f.severity === 'error' && f.span.start >= doc.span.start && f.span.start < doc.span.end).length;
      reports.push(report(file, doc, loaded.workspace, places, errors));
    }
  }
  return reports;
}

function isGateway(doc: ParsedDocument): doc is ParsedDocument & { kind: 'vmcp-config' | 'vmcp-server' } {
  return (doc.kind === 'vmcp-config' || doc.kind === 'vmcp-server') && !doc.partial;
}

function report(file: ParsedFile, doc: ParsedDocument & { kind: 'vmcp-config' | 'vmcp-server' }, workspace: Workspace, places: Places, errors: number): GatewayReport {
  const ctx = documentContext(file, doc, workspace);
  const list = toolListOf(ctx);
  const name = doc.kind === 'vmcp-server' ? getString(getMap(doc.root, 'metadata'), 'name') : getString(doc.root, 'name');
  const aggregation = list.gateway.aggregation;
  return {
    path: file.path,
    name: name ?? null,
    kind: doc.kind,
    location: places.at(file.path, doc.span),
    strategy: aggregation.strategy === 'prefix' ? `prefix (${aggregation.prefixFormat})` : aggregation.strategy,
    workloadsFrom: list.gateway.backendsListed ? 'backends' : 'catalog',
    advertised: [
      ...list.backend.filter((b) => b.status === 'advertised').map((b) => backendEntry(b, places)),
      ...list.composites.filter((c) => c.status === 'advertised').map((c) => compositeEntry(c, places)),
    ],
    withheld: [
      ...list.backend.filter((b) => b.status !== 'advertised').map((b) => withheldBackend(b, places)),
      ...list.composites.filter((c) => c.status !== 'advertised').map((c) => withheldComposite(c, list, places)),
    ],
    unknown: list.unlisted.map((w) => ({
      workload: w.name,
      server: w.serverName,
      reason:
        w.reason === 'no-catalog'
          ? `no catalog for server "${w.serverName}": its tools, and any clash with them, are unknown`
          : `its filter and overrides come from an MCPToolConfig, which Tool Lens cannot read`,
    })),
    externalDefinitions: list.external.map((e) => e.name),
    errors,
  };
}

function backendEntry(listed: ListedBackendTool, places: Places): AdvertisedEntry {
  const tool = listed.tool;
  return { name: tool.resolvedName, kind: 'backend', from: dotForm(tool), annotations: tool.tool.annotations ?? null, certain: true, location: places.ofTool(tool) };
}

function compositeEntry(composite: ListedComposite, places: Places): AdvertisedEntry {
  return {
    name: composite.name,
    kind: 'composite',
    annotations: composite.annotations ?? null,
    certain: composite.certain,
    location: places.at(composite.doc.file.path, composite.workflow.name?.span ?? composite.workflow.node.span),
  };
}

function withheldBackend(listed: ListedBackendTool, places: Places): WithheldEntry {
  const tool = listed.tool;
  const base = { name: tool.resolvedName, kind: 'backend' as const, from: dotForm(tool), certain: true, location: places.ofTool(tool) };
  switch (listed.status) {
    case 'hidden':
      return { ...base, status: 'hidden', reason: `${hiddenByText(tool)}; composite steps can still call it` };
    case 'conflicted':
      return {
        ...base,
        status: 'conflicted',
        reason: `several workloads serve "${tool.overriddenName}" and no override tells them apart: ToolHive refuses the configuration (manual strategy)`,
      };
    default:
      return { ...base, name: tool.overriddenName, status: 'dropped', reason: droppedReason(tool, listed.winner) };
  }
}

function droppedReason(tool: GatewayTool, winner: GatewayTool | undefined): string {
  if (!winner) return `another tool has the name "${tool.resolvedName}" after conflict resolution; ToolHive keeps the first and drops this one`;
  return `lost the name "${winner.resolvedName}" to ${dotForm(winner)}; not routable at all`;
}

function withheldComposite(composite: ListedComposite, list: ToolList, places: Places): WithheldEntry {
  const base = {
    name: composite.name,
    kind: 'composite' as const,
    certain: composite.certain,
    location: places.at(composite.doc.file.path, composite.workflow.name?.span ?? composite.workflow.node.span),
  };
  switch (composite.status) {
    case 'left-out': {
      const steps = composite.unroutable.map((s) => `"${s.stepId}"${s.toolRef ? ` (${s.toolRef})` : ''}`);
      return { ...base, status: 'left-out', reason: `${steps.length === 1 ? 'step' : 'steps'} ${steps.join(', ')} ${steps.length === 1 ? 'does' : 'do'} not resolve, so no session lists it` };
    }
    case 'name-conflict': {
      if (composite.clash) {
        return { ...base, status: 'name-conflict', reason: `named like the advertised backend tool ${dotForm(composite.clash)}, which leaves out every composite tool` };
      }
      const clashing = list.composites.filter((c) => c.status === 'name-conflict' && c.clash).map((c) => `"${c.name}"`);
      return { ...base, status: 'name-conflict', reason: `left out with every composite tool: ${clashing.join(', ')} is named like an advertised backend tool` };
    }
    default: {
      const hints = composite.contradictions.map((c) => `${c.hint}: ${c.explicit} but the steps give ${c.floor}`);
      return { ...base, status: 'contradiction', reason: `its annotations look safer than its steps (${hints.join('; ')}), so ToolHive drops it` };
    }
  }
}

/** Paths and 1-based positions for the places a report names (catalog files are read once, on first use). */
class Places {
  private readonly sources = new Map<string, SourceText | undefined>();

  constructor(
    private readonly cwd: string,
    files: readonly ParsedFile[],
  ) {
    for (const file of files) this.sources.set(file.path, file.source);
  }

  at(path: string, span: Span): PlaceJson {
    const source = this.source(path);
    const location: Location = source ? toLocation(source, span.start) : { line: 1, column: 1 };
    return { path, ...location };
  }

  ofTool(tool: GatewayTool): PlaceJson {
    return this.at(tool.tool.origin.file, tool.tool.origin.span);
  }

  private source(path: string): SourceText | undefined {
    if (!this.sources.has(path)) {
      let text: string | undefined;
      try {
        text = readFileSync(resolve(this.cwd, path), 'utf8');
      } catch (error) {
        void error; // a catalog that went away since the run read it: its places are given as line 1
      }
      this.sources.set(path, text === undefined ? undefined : new SourceText(text));
    }
    return this.sources.get(path);
  }
}

export function formatGatewayToolsJson(reports: readonly GatewayReport[]): string {
  return JSON.stringify({ version: 1, gateways: reports }, null, 2) + '\n';
}

/** Hints as a short phrase: "read-only, open-world"; only what is declared. */
export function annotationWords(annotations: ToolAnnotations | null): string {
  if (!annotations) return '(none declared)';
  const words: string[] = [];
  for (const hint of HINT_NAMES) {
    const value = annotations[hint];
    if (value === undefined) continue;
    words.push(HINT_WORDS[hint][value ? 0 : 1]);
  }
  return words.length ? words.join(', ') : '(no hints)';
}

const HINT_WORDS: Record<(typeof HINT_NAMES)[number], [string, string]> = {
  readOnlyHint: ['read-only', 'not read-only'],
  destructiveHint: ['destructive', 'not destructive'],
  idempotentHint: ['idempotent', 'not idempotent'],
  openWorldHint: ['open-world', 'closed-world'],
};

export function formatGatewayToolsTable(reports: readonly GatewayReport[], colors: Palette): string {
  if (reports.length === 0) return '';
  const out: string[] = [];
  for (const gateway of reports) {
    const title = `${gateway.path}:${gateway.location.line}: ${gateway.kind === 'vmcp-server' ? 'VirtualMCPServer' : 'gateway'}${gateway.name ? ` "${gateway.name}"` : ''}, ${gateway.strategy} strategy`;
    out.push(colors.bold(title));
    if (gateway.errors > 0) {
      out.push(colors.red(`  tool-lens check reports ${gateway.errors} error${gateway.errors === 1 ? '' : 's'} in this document: run it to see whether any keeps the gateway from loading`));
    }
    if (gateway.workloadsFrom === 'catalog') {
      out.push(colors.dim('  no backends list: the workloads are the catalogued servers (ToolHive finds the group\'s workloads when it starts)'));
    }
    out.push(`  advertised (${gateway.advertised.length})`);
    out.push(...table(gateway.advertised.map((t) => [t.name, t.kind === 'backend' ? t.from! : 'composite', annotationWords(t.annotations) + (t.certain ? '' : ' (if the uncatalogued steps resolve)')]), '    '));
    if (gateway.withheld.length > 0) {
      out.push(`  withheld (${gateway.withheld.length})`);
      out.push(...table(gateway.withheld.map((t) => [t.name, t.status, `${t.kind === 'backend' ? `${t.from}: ` : ''}${t.reason}${t.certain ? '' : ' (assuming the uncatalogued steps resolve)'}`]), '    '));
    }
    if (gateway.unknown.length > 0 || gateway.externalDefinitions.length > 0) {
      out.push(`  not known`);
      for (const unknown of gateway.unknown) out.push(`    workload "${unknown.workload}"${serverNote({ name: unknown.workload, serverName: unknown.server })}: ${unknown.reason}`);
      for (const name of gateway.externalDefinitions) out.push(`    compositeToolRefs "${name}": the definition is not in this file; the operator reads it from the cluster`);
    }
    out.push('');
  }
  return out.join('\n');
}

function table(rows: string[][], indent: string): string[] {
  if (rows.length === 0) return [`${indent}(none)`];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (i < r.length - 1 ? r[i]!.length : 0))));
  return rows.map((row) => indent + row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  '));
}
