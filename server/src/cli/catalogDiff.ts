// `tool-lens catalog diff OLD NEW`: what changed between two catalogs (core/catalog/diff.ts), and
// what the change does to the workspace's gateways: each gateway document is read twice, once with
// OLD and once with NEW in place of the snapshots they stand for, and its advertised tool lists
// (core/listing/compare.ts) are compared, and so are the findings of every file (steps and calls
// that name a tool the change renamed or removed, arguments that no longer fit). Exit 1 when a safety hint loosens, a
// tool claims to be safer than before (a hint tightens), a composite that was advertised no longer
// is, or a gateway gets a new error, and with `--fail-on description` when a text the model reads
// changed; 0 otherwise.
import { counted } from '../core/text/words.js';
import { byteLimitWords, fileSizeWords } from '../core/wording/parserWords.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  diffCatalogs,
  type CatalogDiff,
  type HintChange,
  type TextChange,
  type ToolChange,
} from '../core/catalog/diff.js';
import { wordDiff } from '../core/text/wordDiff.js';
import type { CatalogServer } from '../core/catalog/model.js';
import { documentContext } from '../core/context.js';
import { checkFile } from '../core/engine.js';
import { backendRenamesOf, compareToolLists, type CompositeChange, type NameChange } from '../core/listing/compare.js';
import { annotationWords, toolListReport } from '../core/listing/report.js';
import type { ParsedFile } from '../core/parse/file.js';
import { SEVERITY_ORDER, type Finding, type Severity } from '../core/types.js';
import { Workspace } from '../core/workspace.js';
import { readCatalogSource, type CatalogSource, type NamedBy } from '../node/catalogSource.js';
import { catalogGlobsNamePath } from '../node/discovery.js';
import { loadPlanned, planWorkspace, UsageError } from '../node/loader.js';
import type { Palette } from './colors.js';
import { visible } from './formatters/visible.js';
import { toRange, type Range } from './result.js';

export interface CatalogDiffOptions {
  before: string;
  after: string;
  cwd: string;
  configPath?: string;
  log: (message: string) => void;
}

interface FindingJson {
  rule: string;
  severity: Severity;
  message: string;
  range: Range;
}

interface GatewayImpact {
  path: string;
  name: string | null;
  renamed: NameChange[];
  /** Backend tools advertised only after the change, by name. */
  added: string[];
  removed: string[];
  composites: CompositeChange[];
}

/** Warnings and errors `tool-lens check` would report in a file with NEW and does not with OLD. */
interface FileFindings {
  path: string;
  findings: FindingJson[];
}

interface DiffReport {
  version: 1;
  before: string;
  after: string;
  servers: { name: string; change: string; tools: Omit<ToolChange, 'before' | 'after'>[] }[];
  gateways: GatewayImpact[];
  findings: FileFindings[];
  /**
   * loosened: hints that lost a safe value; tightened: hints by which a tool now claims to be safer;
   * descriptions: tools present on both sides whose texts for the model changed.
   */
  summary: { loosened: number; tightened: number; broken: number; newErrors: number; descriptions: number };
}

/** What fails the gate beyond its default (`--fail-on`). */
export interface DiffGate {
  /** A changed description, title or parameter description fails it too. */
  description?: boolean;
}

/** The values `--fail-on` takes for `catalog diff`, comma-separated. */
export const DIFF_FAIL_ON = ['description'] as const;

export function catalogDiff(options: CatalogDiffOptions): DiffReport {
  const plan = planWorkspace({ paths: ['.'], cwd: options.cwd, configPath: options.configPath, log: options.log });
  if (plan.configProblems.length > 0)
    throw new UsageError(`the configuration ${plan.configPath ?? ''} has problems; \`tool-lens check\` lists them`);
  // What the catalog globs name joins the catalog whatever its content, in the diff as in `check`.
  const namedFiles = new Set(plan.catalogOnly);
  const named: NamedBy = {
    files: plan.catalogOnly,
    names: (absolute) => namedFiles.has(absolute) || catalogGlobsNamePath(plan.catalogGlobs, absolute),
  };
  const before = readCatalogSource(options.before, options.cwd, named);
  const after = readCatalogSource(options.after, options.cwd, named);
  const loaded = loadPlanned(plan);
  // A file the workspace holds and the diff could not read would leave its part of the answer out.
  if (loaded.unreadable.length > 0)
    throw new UsageError(
      `${counted(loaded.unreadable.length, 'file or folder', 'files or folders')} of the workspace could not be read (named above): the diff would leave them out`,
    );
  const base = loaded.workspace;
  // The workspace's own snapshots, except those OLD and NEW stand for.
  const replaced = new Set([...before.files, ...after.files].map((f) => f.standsFor));
  const others = readOthers(
    base.catalog.files.filter((path) => !replaced.has(resolve(options.cwd, path))),
    options,
  );
  const oldSide = side(base, before, others, named, options);
  const newSide = side(base, after, others, named, options);

  const diff = diffCatalogs(serversOf(oldSide.workspace, before), serversOf(newSide.workspace, after));
  const renames = backendRenamesOf(diff, newSide.workspace.catalog);
  const gateways: GatewayImpact[] = [];
  const findings: FileFindings[] = [];
  for (const file of loaded.files) {
    const oldFile = oldSide.workspace.parse(file.path, file.source.text);
    const newFile = newSide.workspace.parse(file.path, file.source.text);
    const fresh = newFindings(
      checkFile(oldFile, oldSide.workspace).findings,
      checkFile(newFile, newSide.workspace).findings,
    );
    if (fresh.length > 0) findings.push({ path: file.path, findings: fresh.map((f) => findingJson(newFile, f)) });
    newFile.documents.forEach((doc, index) => {
      if ((doc.kind !== 'vmcp-config' && doc.kind !== 'vmcp-server') || doc.partial) return;
      const place = () => null;
      const now = toolListReport(documentContext(newFile, doc, newSide.workspace), place);
      const change = compareToolLists(
        toolListReport(documentContext(oldFile, oldFile.documents[index]!, oldSide.workspace), place),
        now,
        renames,
      );
      if (change.renamed.length + change.added.length + change.removed.length + change.composites.length === 0) return;
      gateways.push({
        path: file.path,
        name: now.name,
        renamed: change.renamed,
        added: change.added.map((e) => e.name),
        removed: change.removed.map((e) => e.name),
        composites: change.composites,
      });
    });
  }
  return {
    version: 1,
    before: options.before,
    after: options.after,
    servers: diff.servers.map((s) => ({ name: s.name, change: s.change, tools: s.tools.map(withoutTools) })),
    gateways,
    findings,
    summary: summaryOf(diff, gateways, findings),
  };
}

/** A tool change without the catalog entries it compares (their places are catalog-internal). */
function withoutTools(change: ToolChange): Omit<ToolChange, 'before' | 'after'> {
  const {
    name,
    change: kind,
    renamedTo,
    requiredAdded,
    argumentsRemoved,
    typeChanged,
    hints,
    otherChanges,
    descriptions,
    changedFields,
  } = change;
  const rest = { requiredAdded, argumentsRemoved, typeChanged, hints, otherChanges, descriptions, changedFields };
  return renamedTo === undefined ? { name, change: kind, ...rest } : { name, change: kind, renamedTo, ...rest };
}

/** The workspace's other snapshots, read once for both sides; one that cannot be read stops the diff. */
function readOthers(paths: readonly string[], options: CatalogDiffOptions): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const path of paths) {
    try {
      out.push({ path, text: readFileSync(resolve(options.cwd, path), 'utf8') });
    } catch (error) {
      throw new UsageError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return out;
}

/** A workspace like the real one, with the catalog of one side: its files first, so they win. */
function side(
  base: Workspace,
  source: CatalogSource,
  others: readonly { path: string; text: string }[],
  named: NamedBy,
  options: CatalogDiffOptions,
): { workspace: Workspace } {
  const workspace = new Workspace(base.root, options.log);
  workspace.config = base.config;
  // Named files first, as node/discovery.ts's joinCatalog orders them: the first server of a name wins.
  const parsed = source.files
    .map((file) => ({ file: workspace.parse(file.path, file.text), named: named.names(file.standsFor) }))
    .sort((a, b) => Number(b.named) - Number(a.named));
  // A snapshot declined whole (past fileBytes or fileValues) describes no server: comparing without
  // it would report its servers gone, or nothing changed.
  for (const { file, named } of parsed) {
    const first = file.documents[0];
    const whole = first?.problems.find((p) => p.code === 'fileTooLarge' || p.code === 'fileTooManyValues');
    if (whole === undefined || !(named || first?.kind === 'tool-catalog')) continue;
    const why =
      whole.code === 'fileTooLarge'
        ? `it is ${fileSizeWords(Number(whole.data?.bytes))}, more than the ${byteLimitWords(Number(whole.data?.limit))} Tool Lens reads (limits.fileBytes)`
        : `it holds more than the ${Number(whole.data?.limit).toLocaleString('en-US')} values Tool Lens reads in one file (limits.fileValues)`;
    throw new UsageError(`${file.path} cannot be compared: ${why}`);
  }
  if (!parsed.some(({ file, named }) => named || file.documents.some((doc) => doc.kind === 'tool-catalog')))
    throw new UsageError(`${source.spec} holds no tool catalog`);
  for (const { file, named } of parsed) workspace.catalog.addFile(file, { named });
  // Each side parses them itself: a parse's analyses are memoised per document, so the sides must not share one.
  for (const other of others)
    workspace.catalog.addFile(workspace.parse(other.path, other.text), {
      named: named.names(resolve(options.cwd, other.path)),
    });
  return { workspace };
}

/** The servers a source describes, as its side's catalog holds them. */
function serversOf(workspace: Workspace, source: CatalogSource): CatalogServer[] {
  const fromSource = new Set(source.files.map((f) => f.path));
  return workspace.catalog.serverNames
    .map((name) => workspace.catalog.server(name)!)
    .filter((server) => fromSource.has(server.origin.file));
}

/** Findings of NEW that OLD does not have, at the same place for the same rule (warnings and errors). */
function newFindings(before: readonly Finding[], after: readonly Finding[]): Finding[] {
  const key = (f: Finding) => `${f.rule}@${f.span.start}-${f.span.end}`;
  const old = new Set(before.map(key));
  return after.filter((f) => SEVERITY_ORDER[f.severity] >= SEVERITY_ORDER.warning && !old.has(key(f)));
}

function findingJson(file: ParsedFile, finding: Finding): FindingJson {
  return {
    rule: finding.rule,
    severity: finding.severity,
    message: finding.message,
    range: toRange(file.source, finding.span),
  };
}

function summaryOf(
  diff: CatalogDiff,
  gateways: readonly GatewayImpact[],
  findings: readonly FileFindings[],
): DiffReport['summary'] {
  const hints = diff.servers.flatMap((s) => s.tools.flatMap((t) => t.hints));
  return {
    loosened: hints.filter((h) => h.direction === 'loosened').length,
    tightened: hints.filter((h) => h.direction === 'tightened').length,
    broken: gateways.reduce((n, g) => n + g.composites.filter((c) => c.broken).length, 0),
    newErrors: findings.reduce((n, f) => n + f.findings.filter((x) => x.severity === 'error').length, 0),
    descriptions: diff.servers.reduce((n, s) => n + s.tools.filter((t) => t.descriptions.length > 0).length, 0),
  };
}

/**
 * Exit 1: a hint loosened, a tool claims to be safer than before, a composite broke, or a gateway
 * has a new error; with `gate.description`, also a changed text for the model.
 */
export function diffFails(report: DiffReport, gate: DiffGate = {}): boolean {
  const s = report.summary;
  return s.loosened + s.tightened + s.broken + s.newErrors > 0 || (gate.description === true && s.descriptions > 0);
}

export function formatDiffJson(report: DiffReport): string {
  return JSON.stringify(report, null, 2) + '\n';
}

export function formatDiffTable(report: DiffReport, colors: Palette): string {
  const out: string[] = [colors.bold(`Catalog changes (${report.before} → ${report.after})`)];
  if (report.servers.length === 0) out.push('  none');
  for (const server of report.servers) {
    if (server.change !== 'changed') {
      out.push(`  server ${server.name}: ${server.change} (${counted(server.tools.length, 'tool')})`);
      continue;
    }
    out.push(`  server ${server.name}`);
    for (const tool of server.tools) {
      out.push(`    ${toolChangeLine(tool, colors)}`);
      for (const line of textChangeLines(tool.descriptions, colors)) out.push(`      ${line}`);
    }
  }
  out.push(colors.bold('What it does to the gateways'));
  if (report.gateways.length === 0) out.push('  nothing');
  for (const gateway of report.gateways) {
    out.push(`  ${gateway.path}${gateway.name ? ` (${gateway.name})` : ''}`);
    for (const rename of gateway.renamed) {
      const why = rename.to
        ? `the backend renamed ${rename.from} to ${rename.to}`
        : `${rename.from} is named anew by conflict resolution`;
      out.push(
        `    advertised name ${rename.before} → ${rename.after} (${why}): clients and calls that use the old name break`,
      );
    }
    for (const name of gateway.removed) out.push(`    no longer advertised: ${name}`);
    for (const name of gateway.added) out.push(`    newly advertised: ${name}`);
    for (const composite of gateway.composites) out.push(`    ${compositeLine(composite, colors)}`);
  }
  if (report.findings.length > 0) {
    out.push(colors.bold('New findings'));
    for (const file of report.findings) {
      for (const finding of file.findings) {
        out.push(
          `  ${file.path}:${finding.range.start.line}:${finding.range.start.column}: ${colors.severity(finding.severity, finding.severity)} ${finding.message} [${finding.rule}]`,
        );
      }
    }
  }
  const s = report.summary;
  out.push(
    `${counted(s.loosened, 'hint')} loosened, ${s.tightened} tightened (claiming more safety); ${counted(s.broken, 'composite tool')} no longer advertised; ${counted(s.newErrors, 'new error')}; ${counted(s.descriptions, 'tool')} with changed descriptions`,
  );
  return out.join('\n') + '\n';
}

/** One tool's change in words: `add_issue_comment: required argument "labels" added`. */
export function toolChangeLine(tool: Omit<ToolChange, 'before' | 'after'>, colors: Palette): string {
  if (tool.change === 'added') return `${tool.name}: added`;
  if (tool.change === 'removed') return `${tool.name}: removed`;
  const parts: string[] = [];
  if (tool.change === 'renamed') parts.push(`renamed to ${tool.renamedTo}`);
  for (const hint of tool.hints) parts.push(hintWords(hint, colors));
  for (const name of tool.requiredAdded) parts.push(`required argument "${name}" added`);
  for (const change of tool.typeChanged)
    parts.push(`argument "${change.argument}" ${change.before ?? 'untyped'} → ${change.after ?? 'untyped'}`);
  for (const name of tool.argumentsRemoved) parts.push(`argument "${name}" removed`);
  if (tool.otherChanges.length > 0) parts.push(`${tool.otherChanges.join(', ')} changed`);
  return `${tool.name}: ${parts.join('; ')}`;
}

/** What a tool that newly claims a hint's safe value claims, and what a client may then skip. */
const CLAIMS: Record<HintChange['hint'], string> = {
  readOnlyHint: 'now claims to be read-only: clients may run it without asking',
  destructiveHint: 'now claims not to be destructive: clients may skip the confirmation a destructive call gets',
  openWorldHint: 'now claims not to reach outside systems: clients may trust what it returns more',
  idempotentHint: 'now claims calling it again changes nothing more: clients may repeat a call without asking',
};

function hintWords(change: HintChange, colors: Palette): string {
  const value = (v: boolean | undefined) => (v === undefined ? 'not declared' : String(v));
  const values = `${change.hint} ${value(change.before)} → ${value(change.after)}`;
  // Both fail the gate: a loosened hint breaks what composites built on the tool claim; a tighter
  // one is a tool asking to be trusted more than before, which someone should look at first.
  if (change.direction === 'loosened')
    return colors.red(`${change.hint} loosened (${value(change.before)} → ${value(change.after)})`);
  return colors.red(`${CLAIMS[change.hint]} (${values})`);
}

/** Words kept around a change: a long run is cut to its ends (`…` for what is left out). */
function context(text: string, first: boolean, last: boolean): string {
  const SIDE = 40;
  if (text.length <= 2 * SIDE + 3) return text;
  if (first && last) return text;
  if (first) return `…${text.slice(-SIDE)}`;
  if (last) return `${text.slice(0, SIDE)}…`;
  return `${text.slice(0, SIDE)} … ${text.slice(-SIDE)}`;
}

/**
 * Each changed text for the model as one line: its field, then the words removed as `[-...-]` and
 * added as `{+...+}` among the words kept (`git diff --word-diff` marks). Characters a terminal
 * would act on are escaped.
 */
export function textChangeLines(changes: readonly TextChange[], colors: Palette): string[] {
  return changes.map((change) => {
    if (change.before === undefined)
      return `${change.field} added: ${colors.cyan(`{+${visible(change.after ?? '')}+}`)}`;
    if (change.after === undefined) return `${change.field} removed: ${colors.red(`[-${visible(change.before)}-]`)}`;
    const parts = wordDiff(change.before, change.after);
    const text = parts
      .map((part, i) =>
        part.op === '='
          ? visible(context(part.text, i === 0, i === parts.length - 1))
          : part.op === '-'
            ? colors.red(`[-${visible(part.text)}-]`)
            : colors.cyan(`{+${visible(part.text)}+}`),
      )
      .join('');
    return `${change.field}: ${text}`;
  });
}

function compositeLine(change: CompositeChange, colors: Palette): string {
  if (change.before === 'absent' || change.after === 'absent')
    return `composite ${change.name}: ${change.before === 'absent' ? 'newly listed' : 'gone'}`;
  if (change.before !== change.after) {
    const text = `composite ${change.name}: ${change.before} → ${change.after}${change.reason ? `: ${change.reason}` : ''}`;
    return change.broken ? colors.red(text) : text;
  }
  return `composite ${change.name}: advertised annotations ${annotationWords(change.annotationsBefore)} → ${annotationWords(change.annotationsAfter)}`;
}
