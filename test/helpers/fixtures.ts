// Marker fixtures (the format is written down in test/fixtures/README.md): `test/fixtures/<rule-id>/`
// is a small workspace. Every file in it is checked; a line where a finding starts carries
// `# want SEVERITY RULE[:MESSAGE-ID] COL-END` (`// want` in JSON), END being the end column on that
// line or `+N:COL` N lines below, columns 1-based in UTF-16 code units and the end exclusive, as
// the CLI's JSON report gives them. JSONL files, which cannot hold comments, list their wants in
// `<case>.wants` as `LINE SEVERITY RULE[:MESSAGE-ID] COL-END`. A draft want
// (`# want RULE[@COL] ["substring"]`; `LINE[:COL] RULE ["substring"]` in `.wants`) is what the
// update mode (fixtureUpdate.ts) fills in; the runner refuses it. A `<case>.fixed.<ext>` beside a
// case is the text after applying the first fix of each finding of the folder's rule.
//
// A catalog file's baseline (the catalog the language server started from, which
// aggregation/advertised-rename compares with) is `<file>.baseline` beside it: the folder is
// checked with that text in place of the file's in the baseline catalog. A `<file>.baseline`
// without its file is a snapshot since removed; an empty one, a snapshot since added. A folder
// without any has no baseline, as the CLI has none.
//
// The checks run with a logger that records what the engine logs: a rule that throws is logged
// and skipped by the engine, so a runner must fail on any logged line (`failuresLogged`).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkFile, type FileReport } from '../../server/src/core/engine.js';
import { advertisableNames } from '../../server/src/core/listing/renames.js';
import { catalogBaseline, type BaselineFile } from '../../server/src/core/workspace.js';
import type { Rule } from '../../server/src/core/rules/rule.js';
import type { SourceText } from '../../server/src/core/text/source.js';
import type { Finding, Severity } from '../../server/src/core/types.js';
import { loadWorkspace, type LoadedWorkspace, type LoadOptions } from '../../server/src/node/loader.js';

export const FIXTURES_ROOT = join(__dirname, '..', 'fixtures');

/** Where a finding ends: 1-based line and 1-based UTF-16 column, exclusive (as the CLI's JSON `end`). */
export interface WantEnd {
  line: number;
  column: number;
}

/**
 * One expected finding. A full want pins everything a user sees: `severity`, `column`, `end` and the
 * message id (absent when the finding has none). A draft (`# want <rule>[@COL] ["substring"]`, the
 * form a fixture is first written in) names only the rule, at best a column and a substring: the
 * runner refuses it, and the update mode (fixtureUpdate.ts) rewrites it into a full want.
 */
export interface Want {
  line: number; // 1-based
  rule: string;
  draft: boolean;
  /** 1-based column of the finding's start on `line`: always in a full want; any column when a draft has none. */
  column?: number;
  severity?: Severity;
  messageId?: string;
  end?: WantEnd;
  /** Drafts only: a piece of the message. */
  substring?: string;
  /** Where the want's body (after `want `, or the whole `.wants` line) sits in its text, for the update mode. */
  body: { start: number; end: number };
}

const SEVERITIES = ['error', 'warning', 'info', 'hint'] as const;
/** Where a marker may start: a `#` or `//` comment, then `want`. */
const MARKER = /(?:#|\/\/)\s*want\b/g;
const RULE = String.raw`[a-z]+\/[a-z-]+`;
/** `SEVERITY RULE[:ID] COL-END`, END being `ENDCOL` on the same line or `+N:ENDCOL` N lines below. */
const FULL = String.raw`(error|warning|info|hint) (${RULE})(?::([A-Za-z][\w-]*))? (\d+)-(?:\+(\d+):)?(\d+)`;
const DRAFT = String.raw`(${RULE})(?:@(\d+))?(?:\s+"([^"]*)")?`;
/** A whole marker, anchored at a MARKER match: its body ends at a space or the line's end, and no quote may follow. */
const WANT = new RegExp(String.raw`(?:#|\/\/)\s*want\s+(?:${FULL}|${DRAFT})(?!\S)(?!\s+")`, 'y');
/** A line of a `.wants` file: the line, then a marker's body. */
const WANTS_LINE = new RegExp(String.raw`^(\d+) ${FULL}$`);
/** A draft line of a `.wants` file: `LINE[:COL] RULE ["substring"]`. */
const WANTS_DRAFT_LINE = new RegExp(String.raw`^(\d+)(?::(\d+))?\s+(${RULE})(?:\s+"([^"]*)")?$`);

const LINE_BREAK = /\r\n|\r|\n/g; // the line breaks SourceText counts

/** The lines of a text with the offset each starts at. */
function linesOf(text: string): { text: string; offset: number }[] {
  const out: { text: string; offset: number }[] = [];
  let offset = 0;
  for (const brk of text.matchAll(LINE_BREAK)) {
    out.push({ text: text.slice(offset, brk.index), offset });
    offset = brk.index + brk[0].length;
  }
  out.push({ text: text.slice(offset), offset });
  return out;
}

export function parseWants(text: string): Want[] {
  const wants: Want[] = [];
  linesOf(text).forEach(({ text: line, offset }, index) => {
    for (const marker of line.matchAll(MARKER)) {
      WANT.lastIndex = marker.index;
      const match = WANT.exec(line);
      // A marker that does not parse would silently expect nothing: refuse it.
      if (!match) throw new Error(`line ${index + 1}: malformed want marker: ${line.slice(marker.index)}`);
      const bodyStart = marker.index + /^(?:#|\/\/)\s*want\s+/.exec(match[0])![0].length;
      const body = { start: offset + bodyStart, end: offset + marker.index + match[0].length };
      wants.push(wantOf(index + 1, match.slice(1), body));
    }
  });
  return wants;
}

export function parseWantsFile(text: string): Want[] {
  const wants: Want[] = [];
  for (const { text: raw, offset } of linesOf(text)) {
    if (!raw.trim() || raw.startsWith('#')) continue;
    const body = { start: offset, end: offset + raw.length };
    const full = WANTS_LINE.exec(raw);
    if (full) {
      wants.push(wantOf(Number(full[1]), [...full.slice(2), undefined, undefined, undefined], body));
      continue;
    }
    const draft = WANTS_DRAFT_LINE.exec(raw.trim());
    if (!draft) throw new Error(`bad .wants line: ${raw}`);
    wants.push(
      wantOf(
        Number(draft[1]),
        [undefined, undefined, undefined, undefined, undefined, undefined, draft[3], draft[2], draft[4]],
        body,
      ),
    );
  }
  return wants;
}

/** A want from the groups of FULL then DRAFT (severity, rule, id, column, lines down, end column; rule, column, substring). */
function wantOf(line: number, groups: (string | undefined)[], body: Want['body']): Want {
  const [severity, rule, messageId, column, down, endColumn, draftRule, draftColumn, substring] = groups;
  const where = `line ${line}`;
  if (severity === undefined) {
    if (draftColumn !== undefined && Number(draftColumn) < 1)
      throw new Error(`${where}: columns are 1-based, got @${draftColumn}`);
    return {
      line,
      rule: draftRule!,
      draft: true,
      ...(draftColumn !== undefined ? { column: Number(draftColumn) } : {}),
      ...(substring !== undefined ? { substring } : {}),
      body,
    };
  }
  const start = Number(column);
  const end = { line: line + (down === undefined ? 0 : Number(down)), column: Number(endColumn) };
  if (start < 1 || end.column < 1) throw new Error(`${where}: columns are 1-based, got ${column}-${endColumn}`);
  if (down !== undefined && Number(down) < 1)
    throw new Error(`${where}: a range that ends on its own line is written COL-ENDCOL, not +0`);
  if (end.line === line && end.column < start)
    throw new Error(`${where}: the range ${column}-${endColumn} ends before it starts`);
  if (!SEVERITIES.includes(severity as Severity)) throw new Error(`${where}: no severity ${severity}`);
  return {
    line,
    rule: rule!,
    draft: false,
    column: start,
    severity: severity as Severity,
    ...(messageId !== undefined ? { messageId } : {}),
    end,
    body,
  };
}

/** A finding's full marker body, as the update mode writes it: `SEVERITY RULE[:ID] COL-END`. */
export function markerBody(source: SourceText, finding: Finding): string {
  const start = source.positionAt(finding.span.start);
  const end = source.positionAt(finding.span.end);
  const id = messageIdOf(finding);
  const down = end.line > start.line ? `+${end.line - start.line}:` : '';
  return `${finding.severity} ${finding.rule}${id !== undefined ? `:${id}` : ''} ${start.character + 1}-${down}${end.character + 1}`;
}

/** The finding's message id, or undefined when it has none (an empty id: a report of bare text, as a test rule makes). */
export function messageIdOf(finding: Finding): string | undefined {
  return finding.messageId || undefined;
}

export interface FixtureCase {
  ruleId: string;
  dir: string;
  file: string; // absolute
  fixed?: string; // absolute path of the expected fixed text
}

/** Rule folders: those holding files directly (rule ids are `family/name`). The folder must exist. */
export function fixtureFolders(root = FIXTURES_ROOT): { ruleId: string; dir: string }[] {
  if (!existsSync(root)) throw new Error(`no fixture folder ${root}`);
  const out: { ruleId: string; dir: string }[] = [];
  for (const family of readdirSync(root).sort()) {
    const familyDir = join(root, family);
    if (!statSync(familyDir).isDirectory()) continue;
    for (const name of readdirSync(familyDir).sort()) {
      const dir = join(familyDir, name);
      if (statSync(dir).isDirectory()) out.push({ ruleId: `${family}/${name}`, dir });
    }
  }
  if (out.length === 0) throw new Error(`no rule folders under ${root}`);
  return out;
}

export interface CheckedFolder {
  loaded: LoadedWorkspace;
  reports: FileReport[];
  /** Everything the engine and the loader logged (a rule that threw, a file that could not be read). */
  logged: string[];
}

export interface CheckOptions {
  /** The rules to run (default: all). */
  rules?: readonly Rule[];
}

/** A workspace loaded with a logger that records into `logged`. */
export function loadRecording(options: Omit<LoadOptions, 'log'>, logged: string[]): LoadedWorkspace {
  return loadWorkspace({ ...options, log: (message) => logged.push(message) });
}

/** Checks every file of a fixture folder as one workspace. */
export function checkFolder(dir: string, options: CheckOptions = {}): CheckedFolder {
  const logged: string[] = [];
  const loaded = loadRecording({ paths: ['.'], cwd: dir }, logged);
  attachBaseline(dir, loaded);
  const reports = loaded.files
    .filter((f) => !/\.fixed\.[a-z]+$/.test(f.path))
    .map((file) => checkFile(file, loaded.workspace, options.rules));
  return { loaded, reports, logged };
}

/**
 * Gives the loaded workspace the baseline the folder's `*.baseline` files describe (see the top of
 * this file); a folder without any is left without one.
 */
export function attachBaseline(dir: string, loaded: LoadedWorkspace): void {
  const marked = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => name.split(/[\\/]/).join('/'))
    .filter((name) => name.endsWith('.baseline'))
    .sort();
  if (marked.length === 0) return;
  const baselineOf = new Map(
    marked.map((name) => [name.slice(0, -'.baseline'.length), readFileSync(join(dir, name), 'utf8')]),
  );
  const workspace = loaded.workspace;
  const files: BaselineFile[] = [];
  for (const path of workspace.catalog.files) {
    const text =
      baselineOf.get(path) ??
      loaded.files.find((f) => f.path === path)?.source.text ??
      readFileSync(join(dir, path), 'utf8');
    files.push({ path, text });
    baselineOf.delete(path);
  }
  for (const [path, text] of baselineOf) files.push({ path, text });
  workspace.baseline = catalogBaseline(workspace, files, () => loaded.files, advertisableNames);
}

/**
 * The failure message for what was logged during a check, or undefined when nothing was. A rule
 * that throws is only logged (`rule <id> failed on <path>: ...`), so its fixture would read as clean.
 */
export function failuresLogged(logged: readonly string[]): string | undefined {
  if (logged.length === 0) return undefined;
  const rules = logged.filter((m) => m.startsWith('rule '));
  return `${rules.length ? `${rules.length} rule failure(s)` : 'messages'} logged during the check:\n${logged.join('\n')}`;
}

export function wantsPathFor(dir: string, path: string): string {
  return join(dir, path.replace(/\.[a-z]+$/, '.wants'));
}

/** The wants of a case: its markers, or the lines of its `.wants` file (`sidecar` says which). */
export function wantsWithSource(dir: string, path: string, text: string): { wants: Want[]; sidecar?: string } {
  const sidecar = wantsPathFor(dir, path);
  if (existsSync(sidecar)) {
    // Wants in a side file and markers in the case would leave the markers unchecked.
    if (parseWants(text).length) throw new Error(`${path} has both a .wants file and want markers`);
    return { wants: parseWantsFile(readFileSync(sidecar, 'utf8')), sidecar };
  }
  return { wants: parseWants(text) };
}

export function wantsFor(dir: string, path: string, text: string): Want[] {
  return wantsWithSource(dir, path, text).wants;
}

export interface WantsMatch {
  missing: string[];
  unexpected: string[];
}

/** Whether a full want is this finding in rule, start, end and severity, and in message id unless `anyId`. */
function isExactly(source: SourceText, want: Want, finding: Finding, anyId = false): boolean {
  if (want.draft || finding.rule !== want.rule || finding.severity !== want.severity) return false;
  if (!anyId && messageIdOf(finding) !== want.messageId) return false;
  const start = source.positionAt(finding.span.start);
  const end = source.positionAt(finding.span.end);
  return (
    start.line + 1 === want.line &&
    start.character + 1 === want.column &&
    end.line + 1 === want.end!.line &&
    end.character + 1 === want.end!.column
  );
}

/** Whether a want names this finding loosely, as the update mode pairs them: rule, line, and the column and substring it gives. */
function isNamedBy(source: SourceText, want: Want, finding: Finding): boolean {
  const start = source.positionAt(finding.span.start);
  return (
    finding.rule === want.rule &&
    start.line + 1 === want.line &&
    (want.column === undefined || start.character + 1 === want.column) &&
    (!want.substring || finding.message.includes(want.substring))
  );
}

/**
 * Pairs wants with findings. Exact pairs first (a full want and the finding it describes in every
 * part). Then, when `loosely` (the update mode), full wants that differ only in the message id (so
 * that ids added to the findings go to the wants that described them), and last the rest by rule,
 * line, and column and substring where given, the most specific wants picking first so that a want
 * without a column cannot take the finding a want with one needs.
 */
export function pairWants(
  report: FileReport,
  wants: readonly Want[],
  loosely: boolean,
): { pairs: [Want, Finding][]; wants: Want[]; findings: Finding[] } {
  const source = report.file.source;
  const findings = [...report.findings];
  const pairs: [Want, Finding][] = [];
  const pass = (left: readonly Want[], matches: (want: Want, finding: Finding) => boolean): Want[] => {
    const unpaired: Want[] = [];
    for (const want of left) {
      const index = findings.findIndex((f) => matches(want, f));
      if (index >= 0) pairs.push([want, findings.splice(index, 1)[0]!]);
      else unpaired.push(want);
    }
    return unpaired;
  };
  let left = pass(wants, (w, f) => isExactly(source, w, f));
  if (!loosely) return { pairs, wants: left, findings };
  left = pass(left, (w, f) => isExactly(source, w, f, true));
  const specificity = (w: Want) => (w.column !== undefined ? 2 : 0) + (w.substring ? 1 : 0);
  left = pass(
    [...left].sort((a, b) => specificity(b) - specificity(a) || a.line - b.line),
    (w, f) => isNamedBy(source, w, f),
  );
  return { pairs, wants: left, findings };
}

/** A want as its marker reads, for failure messages. */
function describeWant(want: Want): string {
  if (want.draft)
    return `${want.rule}${want.column !== undefined ? `@${want.column}` : ''}${want.substring ? ` "${want.substring}"` : ''}`;
  const down = want.end!.line > want.line ? `+${want.end!.line - want.line}:` : '';
  return `${want.severity} ${want.rule}${want.messageId !== undefined ? `:${want.messageId}` : ''} ${want.column}-${down}${want.end!.column}`;
}

export const UPDATE_COMMAND = 'UPDATE_FIXTURES=1 node scripts/run-tests.mjs fixtures';

/**
 * Each want must be exactly one finding (rule, start, end, severity, message id) and each finding
 * one want. A missing want lists the findings of its rule on its line as markers, so the difference
 * shows; a draft is always missing, with how to fill it in.
 */
export function matchWants(report: FileReport, wants: readonly Want[]): WantsMatch {
  const source = report.file.source;
  const { wants: left, findings } = pairWants(report, wants, false);
  const missing = left
    .sort((a, b) => a.line - b.line)
    .map((want) => {
      const onLine = report.findings.filter(
        (f) => f.rule === want.rule && source.positionAt(f.span.start).line + 1 === want.line,
      );
      const seen = onLine.length ? ` (on that line: ${onLine.map((f) => markerBody(source, f)).join('; ')})` : '';
      const draft = want.draft ? ` (a draft: fill it in with ${UPDATE_COMMAND}, then review it)` : '';
      return `  line ${want.line}: ${describeWant(want)}${draft}${seen}`;
    });
  const unexpected = findings.map(
    (f) => `  ${source.positionAt(f.span.start).line + 1}: ${markerBody(source, f)} "${f.message}"`,
  );
  return { missing, unexpected };
}

export function describeFindings(report: FileReport): string {
  return report.findings
    .map(
      (f) =>
        `  ${report.file.source.positionAt(f.span.start).line + 1}: ${markerBody(report.file.source, f)} "${f.message}"`,
    )
    .join('\n');
}

export function relativeToFixtures(path: string): string {
  return relative(FIXTURES_ROOT, path);
}
