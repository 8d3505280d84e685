// Marker fixtures: `test/fixtures/<rule-id>/` is a small workspace. Every file in it is checked;
// a line that should get a finding carries `# want <rule-id>[@COL] ["message substring"]` (`// want`
// in JSON), where COL, when given, is the 1-based column (UTF-16 code units, as the CLI prints it)
// at which the finding's range starts on that line. JSONL files, which cannot hold comments, list
// their wants in `<case>.wants` as `LINE[:COL] RULE ["substring"]`. A `<case>.fixed.<ext>` beside a
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
import type { Finding } from '../../server/src/core/types.js';
import { loadWorkspace, type LoadedWorkspace, type LoadOptions } from '../../server/src/node/loader.js';

export const FIXTURES_ROOT = join(__dirname, '..', 'fixtures');

export interface Want {
  line: number; // 1-based
  /** 1-based column of the finding's start on `line`; any column when absent. */
  column?: number;
  rule: string;
  substring?: string;
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

/** Where a marker may start: a `#` or `//` comment, then `want`. */
const MARKER = /(?:#|\/\/)\s*want\b/g;
/** A whole marker, anchored at a MARKER match: it ends at a space or the line's end, and a quote after it must be its substring. */
const WANT = /(?:#|\/\/)\s*want\s+([a-z]+\/[a-z-]+)(?:@(\d+))?(?:\s+"([^"]*)")?(?!\S)(?!\s+")/y;

const LINE_BREAK = /\r\n|\r|\n/; // the line breaks SourceText counts

export function parseWants(text: string): Want[] {
  const wants: Want[] = [];
  text.split(LINE_BREAK).forEach((line, index) => {
    for (const marker of line.matchAll(MARKER)) {
      WANT.lastIndex = marker.index;
      const match = WANT.exec(line);
      // A marker that does not parse would silently expect nothing: refuse it.
      if (!match) throw new Error(`line ${index + 1}: malformed want marker: ${line.slice(marker.index)}`);
      wants.push(want(index + 1, match[2], match[1]!, match[3]));
    }
  });
  return wants;
}

export function parseWantsFile(text: string): Want[] {
  return text
    .split(LINE_BREAK)
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const match = /^(\d+)(?::(\d+))?\s+([a-z]+\/[a-z-]+)(?:\s+"([^"]*)")?\s*$/.exec(l.trim());
      if (!match) throw new Error(`bad .wants line: ${l}`);
      return want(Number(match[1]), match[2], match[3]!, match[4]);
    });
}

function want(line: number, column: string | undefined, rule: string, substring: string | undefined): Want {
  if (column !== undefined && Number(column) < 1) throw new Error(`line ${line}: columns are 1-based, got @${column}`);
  return { line, rule, ...(column !== undefined ? { column: Number(column) } : {}), ...(substring !== undefined ? { substring } : {}) };
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
  const reports = loaded.files.filter((f) => !/\.fixed\.[a-z]+$/.test(f.path)).map((file) => checkFile(file, loaded.workspace, options.rules));
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
  const baselineOf = new Map(marked.map((name) => [name.slice(0, -'.baseline'.length), readFileSync(join(dir, name), 'utf8')]));
  const workspace = loaded.workspace;
  const files: BaselineFile[] = [];
  for (const path of workspace.catalog.files) {
    const text = baselineOf.get(path) ?? loaded.files.find((f) => f.path === path)?.source.text ?? readFileSync(join(dir, path), 'utf8');
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

export function wantsFor(dir: string, path: string, text: string): Want[] {
  const sidecar = wantsPathFor(dir, path);
  if (existsSync(sidecar)) {
    // Wants in a side file and markers in the case would leave the markers unchecked.
    if (parseWants(text).length) throw new Error(`${path} has both a .wants file and want markers`);
    return parseWantsFile(readFileSync(sidecar, 'utf8'));
  }
  return parseWants(text);
}

export interface WantsMatch {
  missing: string[];
  unexpected: string[];
}

/**
 * Pairs each want with a finding of its rule that starts on its line (at its column, when it gives
 * one) and whose message holds its substring. The most specific wants pick first, so that a want
 * without a column cannot take the finding a want with one needs.
 */
export function matchWants(report: FileReport, wants: readonly Want[]): WantsMatch {
  const source = report.file.source;
  const start = (f: Finding) => source.positionAt(f.span.start);
  const specificity = (w: Want) => (w.column !== undefined ? 2 : 0) + (w.substring ? 1 : 0);
  const unmatched = [...report.findings];
  const missing: { line: number; text: string }[] = [];
  for (const want of [...wants].sort((a, b) => specificity(b) - specificity(a) || a.line - b.line)) {
    const index = unmatched.findIndex((f) => {
      const pos = start(f);
      return (
        f.rule === want.rule &&
        pos.line + 1 === want.line &&
        (want.column === undefined || pos.character + 1 === want.column) &&
        (!want.substring || f.message.includes(want.substring))
      );
    });
    if (index >= 0) {
      unmatched.splice(index, 1);
      continue;
    }
    const onLine = report.findings.filter((f) => f.rule === want.rule && start(f).line + 1 === want.line);
    const seen = onLine.length ? ` (on that line: ${onLine.map((f) => `@${start(f).character + 1} "${f.message}"`).join('; ')})` : '';
    missing.push({ line: want.line, text: `  line ${want.line}: ${want.rule}${want.column !== undefined ? `@${want.column}` : ''}${want.substring ? ` "${want.substring}"` : ''}${seen}` });
  }
  const unexpected = unmatched.map((f) => `  ${start(f).line + 1}:${start(f).character + 1} ${f.rule} ${f.message}`);
  return { missing: missing.sort((a, b) => a.line - b.line).map((m) => m.text), unexpected };
}

export function describeFindings(report: FileReport): string {
  return report.findings
    .map((f) => {
      const pos = report.file.source.positionAt(f.span.start);
      return `  ${pos.line + 1}:${pos.character + 1} ${f.rule} ${f.severity} ${f.message}`;
    })
    .join('\n');
}

export function relativeToFixtures(path: string): string {
  return relative(FIXTURES_ROOT, path);
}
