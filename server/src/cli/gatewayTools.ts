// `tool-lens gateway tools [PATH...]`: the tool list each gateway configuration will advertise
// (core/listing/report.ts), as a table for people or JSON for scripts: every advertised tool
// with the name clients see and its annotations, then what the gateway withholds and why, then
// what Tool Lens cannot know (workloads without a catalog, definitions kept in the cluster).
import { counted } from '../core/text/words.js';
import { resolve } from 'node:path';
import { documentContext } from '../core/context.js';
import { checkFile } from '../core/engine.js';
import { serverNote } from '../core/gateway/words.js';
import { annotationWords, toolListReport, type ToolListReport } from '../core/listing/report.js';
import type { ParsedDocument } from '../core/parse/file.js';
import { SourceText } from '../core/text/source.js';
import type { Span } from '../core/types.js';
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

interface PlaceJson {
  path: string;
  line: number;
  column: number;
}

type GatewayReport = { path: string } & ToolListReport<PlaceJson> & {
    /** Errors `tool-lens check` reports in this document: some keep the gateway from loading at all. */
    errors: number;
  };

export function gatewayReports(options: GatewayToolsOptions): GatewayReport[] {
  const loaded = loadWorkspace({
    paths: options.paths,
    cwd: options.cwd,
    configPath: options.configPath,
    catalogGlobs: options.catalogGlobs,
    log: options.log,
  });
  if (loaded.configProblems.length > 0) {
    throw new UsageError(`the configuration ${loaded.configPath ?? ''} has problems; \`tool-lens check\` lists them`);
  }
  // Each file was parsed once by the load (catalogs included): its parse gives the positions.
  const places = new Places((path) => loaded.parse(resolve(options.cwd, path))?.source);
  const reports: GatewayReport[] = [];
  for (const file of loaded.files) {
    const gateways = file.documents.filter(isGateway);
    if (gateways.length === 0) continue;
    const findings = checkFile(file, loaded.workspace).findings;
    for (const doc of gateways) {
      const errors = findings.filter(
        (f) => f.severity === 'error' && f.span.start >= doc.span.start && f.span.start < doc.span.end,
      ).length;
      const ctx = documentContext(file, doc, loaded.workspace);
      reports.push({ path: file.path, ...toolListReport(ctx, (path, span) => places.at(path, span)), errors });
    }
  }
  return reports;
}

function isGateway(doc: ParsedDocument): boolean {
  return (doc.kind === 'vmcp-config' || doc.kind === 'vmcp-server') && !doc.partial;
}

/** Paths and 1-based positions for the places a report names: a catalog's source is the run's own parse of it. */
class Places {
  private readonly sources = new Map<string, SourceText | undefined>();

  constructor(private readonly sourceOf: (path: string) => SourceText | undefined) {}

  at(path: string, span: Span): PlaceJson {
    if (!this.sources.has(path)) this.sources.set(path, this.sourceOf(path));
    const source = this.sources.get(path);
    const location: Location = source ? toLocation(source, span.start) : { line: 1, column: 1 };
    return { path, ...location };
  }
}

export function formatGatewayToolsJson(reports: readonly GatewayReport[]): string {
  return JSON.stringify({ version: 1, gateways: reports }, null, 2) + '\n';
}

export function formatGatewayToolsTable(reports: readonly GatewayReport[], colors: Palette): string {
  if (reports.length === 0) return '';
  const out: string[] = [];
  for (const gateway of reports) {
    const title = `${gateway.path}:${gateway.location.line}: ${gateway.kind === 'vmcp-server' ? 'VirtualMCPServer' : 'gateway'}${gateway.name ? ` "${gateway.name}"` : ''}, ${gateway.strategy} strategy`;
    out.push(colors.bold(title));
    if (gateway.errors > 0) {
      out.push(
        colors.red(
          `  tool-lens check reports ${counted(gateway.errors, 'error')} in this document: run it to see whether any keeps the gateway from loading`,
        ),
      );
    }
    if (gateway.workloadsFrom === 'catalog') {
      out.push(
        colors.dim(
          "  no backends list: the workloads are the catalogued servers (ToolHive finds the group's workloads when it starts)",
        ),
      );
    }
    out.push(`  advertised (${gateway.advertised.length})`);
    out.push(
      ...table(
        gateway.advertised.map((t) => [
          t.name,
          t.kind === 'backend' ? t.from! : 'composite',
          annotationWords(t.annotations) + (t.certain ? '' : ' (if the uncatalogued steps resolve)'),
        ]),
        '    ',
      ),
    );
    if (gateway.withheld.length > 0) {
      out.push(`  withheld (${gateway.withheld.length})`);
      out.push(
        ...table(
          gateway.withheld.map((t) => [
            t.name,
            t.status,
            `${t.kind === 'backend' ? `${t.from}: ` : ''}${t.reason}${t.certain ? '' : ' (assuming the uncatalogued steps resolve)'}`,
          ]),
          '    ',
        ),
      );
    }
    if (gateway.unknown.length > 0 || gateway.externalDefinitions.length > 0) {
      out.push(`  not known`);
      for (const unknown of gateway.unknown)
        out.push(
          `    workload "${unknown.workload}"${serverNote({ name: unknown.workload, serverName: unknown.server })}: ${unknown.reason}`,
        );
      for (const name of gateway.externalDefinitions)
        out.push(
          `    compositeToolRefs "${name}": the definition is not in this file; the operator reads it from the cluster`,
        );
    }
    out.push('');
  }
  return out.join('\n');
}

function table(rows: string[][], indent: string): string[] {
  if (rows.length === 0) return [`${indent}(none)`];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (i < r.length - 1 ? r[i]!.length : 0))));
  return rows.map(
    (row) => indent + row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  '),
  );
}
