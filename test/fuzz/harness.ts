// The fuzzer's harness: the workspaces it checks in (every fixture folder, the clean corpus and the
// examples, each loaded once as the CLI loads it), the invariants every check keeps whatever the
// input, and the runner that gives each property its seed and number of cases and says how to
// replay a failure.
//
// The rules are run wrapped: a rule that throws is recorded by the wrapper on every throw (the
// engine logs a failure only once per process, so without the wrapper fast-check could not shrink
// a failing input), then rethrown to the engine, which logs it as it always does.
import { isDeepStrictEqual } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { clientServersOf, mayHoldClientServers } from '../../server/src/core/catalog/clientServers.js';
import { definitionsOf, mayHoldDefinitions } from '../../server/src/core/catalog/definitions.js';
import { checkFile, type FileReport } from '../../server/src/core/engine.js';
import type { ParsedFile } from '../../server/src/core/parse/file.js';
import { ALL_RULES, RULE_IDS } from '../../server/src/core/rules/registry.js';
import type { Rule } from '../../server/src/core/rules/rule.js';
import { applyEdits, chooseCompatibleFixes } from '../../server/src/core/text/edits.js';
import { SourceText } from '../../server/src/core/text/source.js';
import type { Finding, Fix, Span, TextEdit } from '../../server/src/core/types.js';
import { Workspace } from '../../server/src/core/workspace.js';
import type { LensConfig } from '../../server/src/core/config/config.js';
import { filesOfCatalogGlobs, joinCatalog } from '../../server/src/node/discovery.js';
import { discoverWorkspace, loadWorkspace } from '../../server/src/node/loader.js';
import { toPosix } from '../../server/src/node/paths.js';
import { fixtureFolders } from '../helpers/fixtures.js';
import type { Language } from './mutations.js';
import { seedFor } from '../helpers/seed.js';

const ROOT = join(__dirname, '..', '..');

// ---------------------------------------------------------------------------------------------
// The corpus

export interface CorpusFile {
  /** Relative to the folder, as the checker names it. */
  path: string;
  text: string;
  language: Language;
}

export interface Folder {
  /** Relative to the repository, for messages. */
  name: string;
  cwd: string;
  /** Loaded once, as the CLI loads it, and shared by every case of the folder. */
  workspace: Workspace;
  /** What that workspace logged (a rule that threw): emptied before each check. */
  logs: string[];
  /** The files checked in the folder. */
  files: CorpusFile[];
  /** Paths (relative to the folder) of the files that joined the catalog. */
  catalogFiles: string[];
  config?: { path: string; text: string };
  /** What a fresh workspace is built from: the catalog candidates in the loader's order, and every text. */
  candidates: { absolute: string; named: boolean }[];
  texts: Map<string, string>;
}

export function languageOf(path: string): Language {
  if (/\.jsonl$/i.test(path)) return 'jsonl';
  if (/\.jsonc?$/i.test(path)) return 'json';
  return 'yaml';
}

function loadFolder(cwd: string): Folder {
  const logs: string[] = [];
  const loaded = loadWorkspace({ paths: ['.'], cwd, log: (message) => logs.push(message) });
  if (logs.length) throw new Error(`loading ${cwd} logged:\n${logs.join('\n')}`);
  // The catalog candidates in the loader's order: the files the catalog globs name, then the others.
  const discovered = discoverWorkspace({ paths: ['.'], cwd });
  const catalogOnly = filesOfCatalogGlobs(discovered.catalogGlobs).files;
  const named = new Set(catalogOnly);
  const candidates = [
    ...catalogOnly.map((absolute) => ({ absolute, named: true })),
    ...discovered.targets.filter((absolute) => !named.has(absolute)).map((absolute) => ({ absolute, named: false })),
  ];
  const texts = new Map(candidates.map((c) => [c.absolute, readFileSync(c.absolute, 'utf8')]));
  return {
    name: toPosix(relative(ROOT, cwd)),
    cwd,
    workspace: loaded.workspace,
    logs,
    files: loaded.files.map((file) => ({ path: file.path, text: file.source.text, language: languageOf(file.path) })),
    catalogFiles: loaded.workspace.catalog.files,
    ...(loaded.configPath && loaded.configText !== undefined
      ? { config: { path: toPosix(relative(cwd, loaded.configPath)), text: loaded.configText } }
      : {}),
    candidates,
    texts,
  };
}

let folders: Folder[] | undefined;

/** Every fixture folder, the clean corpus and the examples, each a workspace. */
export function corpusFolders(): Folder[] {
  folders ??= [
    ...fixtureFolders().map((f) => f.dir),
    join(ROOT, 'test', 'corpus', 'clean'),
    join(ROOT, 'examples'),
  ].map(loadFolder);
  return folders;
}

/**
 * Each folder's files parsed once for the fresh workspaces (never checked, so no check leaves
 * anything in them), under the kinds its own configuration forces on them (the only way a
 * configuration changes a parse); under other kinds (a damaged configuration's), parsed anew.
 */
const pristine = new WeakMap<Folder, { forced: string; files: Map<string, ParsedFile> }>();

/**
 * A new Workspace and CatalogIndex, as the loader builds them: the folder's configuration (or
 * `config`), its catalog files joined in the loader's order. The files come from a parse of the
 * folder's texts made for the fresh workspaces alone, since parsing every catalog again for every
 * case would cost more than all the rest of a case. `replace` puts another text in place of one
 * file's (parsed anew).
 */
export function freshWorkspace(
  folder: Folder,
  logs: string[],
  replace?: { path: string; text: string },
  config?: LensConfig,
): Workspace {
  const workspace = new Workspace(folder.workspace.root, (message) => logs.push(message));
  workspace.config = config ?? folder.workspace.config;
  const pathOf = (absolute: string) => toPosix(relative(folder.cwd, absolute));
  const forcedBy = (w: Workspace) => folder.candidates.map((c) => w.forcedKind(pathOf(c.absolute)) ?? '').join(',');
  let kept = pristine.get(folder);
  if (!kept)
    pristine.set(folder, (kept = { forced: forcedBy(folder.workspace), files: new Map<string, ParsedFile>() }));
  const cache = kept.forced === forcedBy(workspace) ? kept.files : new Map<string, ParsedFile>();
  joinCatalog(workspace.catalog, folder.candidates, ({ absolute }) => {
    const path = pathOf(absolute);
    if (replace?.path === path) return workspace.parse(path, replace.text);
    let file = cache.get(absolute);
    if (!file) {
      file = workspace.parse(path, folder.texts.get(absolute)!);
      cache.set(absolute, file);
    }
    return file;
  });
  // The composite tool definitions of the folder, as the loader indexes them (node/loader.ts).
  for (const { absolute } of folder.candidates) {
    const path = pathOf(absolute);
    const text = replace?.path === path ? replace.text : folder.texts.get(absolute)!;
    if (!mayHoldDefinitions(text)) continue;
    const file =
      replace?.path === path ? workspace.parse(path, text) : (cache.get(absolute) ?? workspace.parse(path, text));
    workspace.definitions.setFile(file.path, definitionsOf(file));
  }
  // The servers of the folder's client configs, as the loader indexes them.
  for (const { absolute } of folder.candidates) {
    const path = pathOf(absolute);
    if (!mayHoldClientServers(path)) continue;
    const file =
      replace?.path === path
        ? workspace.parse(path, replace.text)
        : (cache.get(absolute) ?? workspace.parse(path, folder.texts.get(absolute)!));
    workspace.clientServers.setFile(file.path, clientServersOf(file));
  }
  return workspace;
}

// ---------------------------------------------------------------------------------------------
// Failures: what went wrong, on which file, with which input

/** What a failure was about, for the known bugs (known.ts) to recognise it by. */
export interface FailureDetail {
  /** The finding that broke an invariant. */
  finding?: Finding;
  /** The safe fixes applied in the round that broke one, each with its finding's rule. */
  fixes?: { rule: string; fix: Fix }[];
}

/** A broken invariant, with the input it broke on (in the message; the fields are for known.ts). */
export class FuzzFailure extends Error {
  declare readonly what: string;
  declare readonly file: string;
  declare readonly input: string;
  declare readonly detail: FailureDetail;

  constructor(what: string, file: string, input: string, detail: FailureDetail = {}) {
    super(`${what}\n  file: ${file}\n${describeInput(input)}`);
    // Not enumerable, so that the test runner prints the message alone, not the input twice more.
    for (const [key, value] of Object.entries({ what, file, input, detail }))
      Object.defineProperty(this, key, { value, enumerable: false });
  }
}

/** A JavaScript string literal of `text`, every character outside printable ASCII escaped. */
export function literal(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The input, one line per line as a string literal, long lines and long files elided in the middle. */
export function describeInput(text: string): string {
  const lines = text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
  const shown = (line: string) =>
    line.length > 240
      ? `${literal(line.slice(0, 160))} + …${line.length - 220} characters… + ${literal(line.slice(-60))}`
      : literal(line);
  const rows = lines.map((line, i) => `    ${String(i + 1).padStart(4)} ${shown(line)}`);
  const elided =
    rows.length > 160 ? [...rows.slice(0, 120), `    … ${rows.length - 150} lines …`, ...rows.slice(-30)] : rows;
  return `  input (${text.length} characters, ${lines.length} lines, each line a string literal):\n${elided.join('\n')}`;
}

function describeFinding(source: SourceText, finding: Finding): string {
  const start = source.positionAt(finding.span.start);
  return `${start.line + 1}:${start.character + 1} [${finding.span.start}, ${finding.span.end}) ${finding.rule}: ${finding.message}`;
}

// ---------------------------------------------------------------------------------------------
// Checking, with every rule's throw recorded

const thrown: string[] = [];

/** Every rule, each wrapped so that a throw is recorded whenever it happens, then rethrown to the engine. */
export const RULES: readonly Rule[] = ALL_RULES.map((rule) => {
  if (!rule.check) return rule;
  return {
    ...rule,
    check(ctx) {
      try {
        rule.check!(ctx);
      } catch (error) {
        thrown.push(
          `rule ${rule.id} threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        throw error;
      }
    },
  };
});

export interface Checked {
  file: ParsedFile;
  report: FileReport;
}

/** Parses and checks `text` as the file at `path`; fails when anything throws or a rule fails. */
export function checkText(workspace: Workspace, logs: string[], where: string, path: string, text: string): Checked {
  let file: ParsedFile;
  try {
    file = workspace.parse(path, text);
  } catch (error) {
    throw new FuzzFailure(`the parse threw: ${stack(error)}`, where, text);
  }
  return { file, report: checkParsed(workspace, logs, where, file) };
}

function checkParsed(workspace: Workspace, logs: string[], where: string, file: ParsedFile): FileReport {
  thrown.length = 0;
  logs.length = 0;
  let report: FileReport;
  const printed = consoleOutputOf(() => {
    try {
      report = checkFile(file, workspace, RULES);
    } catch (error) {
      throw new FuzzFailure(`the check threw: ${stack(error)}`, where, file.source.text);
    }
  });
  if (thrown.length || logs.length)
    throw new FuzzFailure(`a rule failed:\n${[...thrown, ...logs].join('\n')}`, where, file.source.text);
  // The core says what it has to say through findings and the workspace's log, never the console
  // (the language server's stdout is the protocol).
  if (printed.length)
    throw new FuzzFailure(
      `the check wrote to the console:\n${printed.slice(0, 5).join('\n')}`,
      where,
      file.source.text,
    );
  return report!;
}

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

/** What `run` writes through the console, which is kept from printing meanwhile. */
export function consoleOutputOf(run: () => void): string[] {
  const printed: string[] = [];
  const saved = CONSOLE_METHODS.map((name) => Object.getOwnPropertyDescriptor(console, name)!);
  for (const name of CONSOLE_METHODS)
    console[name] = (...args: unknown[]) => printed.push(`console.${name}: ${args.map(String).join(' ')}`);
  try {
    run();
  } finally {
    CONSOLE_METHODS.forEach((name, i) => Object.defineProperty(console, name, saved[i]!));
  }
  return printed;
}

function stack(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

// ---------------------------------------------------------------------------------------------
// The invariants

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** What is wrong with an offset of `text` as the bound of a range, if anything. */
function offsetProblem(text: string, offset: number): string | undefined {
  if (!Number.isInteger(offset)) return `${offset} is not an integer offset`;
  if (offset < 0 || offset > text.length) return `${offset} lies outside the text (0..${text.length})`;
  if (offset > 0 && offset < text.length) {
    if (text.charCodeAt(offset - 1) === 13 && text.charCodeAt(offset) === 10) return `${offset} splits a CRLF pair`;
    if (isHigh(text.charCodeAt(offset - 1)) && isLow(text.charCodeAt(offset)))
      return `${offset} splits a surrogate pair`;
  }
  return undefined;
}

/** What is wrong with a range of `text`, if anything: its bounds, their order, and a one-line range past its line. */
function spanProblem(source: SourceText, span: Span): string | undefined {
  const text = source.text;
  const problem = offsetProblem(text, span.start) ?? offsetProblem(text, span.end);
  if (problem) return problem;
  if (span.start > span.end) return `it starts after it ends`;
  const line = source.positionAt(span.start).line;
  const lineStart = source.lineStarts[line]!;
  const lineEnd = source.lineEnd(line);
  if (span.start < lineStart || span.start > lineEnd) return `its start is not on its line's text`;
  if (!/[\r\n]/.test(text.slice(span.start, span.end)) && span.end > lineEnd)
    return `a one-line range ends past its line's end (${lineEnd})`;
  return undefined;
}

function editsOverlap(a: TextEdit, b: TextEdit): boolean {
  if (a.span.start === a.span.end && b.span.start === b.span.end) return a.span.start === b.span.start;
  return a.span.start < b.span.end && b.span.start < a.span.end;
}

/**
 * Every finding's range, related place (in the same file) and fix edit lies inside the text, on
 * whole characters and line breaks; a fix's edits never overlap one another (no fix could apply
 * them); a message and a fix title say something, and a message shows no JavaScript artefact the
 * input did not contain.
 */
export function assertSaneFindings(report: FileReport, where: string): void {
  const source = report.file.source;
  const text = source.text;
  const fail = (finding: Finding, what: string) => {
    throw new FuzzFailure(`${finding.rule}: ${what}\n  the finding: ${describeFinding(source, finding)}`, where, text, {
      finding,
    });
  };
  for (const finding of report.findings) {
    if (!RULE_IDS.has(finding.rule)) fail(finding, `not a rule id`);
    if (typeof finding.message !== 'string' || !finding.message.trim()) fail(finding, `an empty message`);
    // The message and its why are what a user reads: both are held to the same words.
    const words = finding.why === undefined ? finding.message : `${finding.message} ${finding.why}`;
    // JavaScript's words for a missing or unprintable value where a message quotes one (the word
    // "undefined" in a sentence is fine: "JSON Schema leaves such a schema undefined").
    for (const [artefact, pattern] of [
      ['undefined', /["'`]undefined["'`]|[(:=]\s*undefined\b/],
      ['[object Object]', /\[object Object\]/],
    ] as const) {
      if (pattern.test(words) && !text.includes(artefact))
        fail(finding, `the message says "${artefact}" where it quotes a value`);
    }
    // A stack overflow caught and shown as a finding is an exception that escaped, in other words.
    if (/Maximum call stack size exceeded|too much recursion/i.test(words))
      fail(finding, `a stack overflow is reported as a finding`);
    const problem = spanProblem(source, finding.span);
    if (problem) fail(finding, `its range is wrong: ${problem}`);
    for (const related of finding.related ?? []) {
      if (related.file !== undefined) continue;
      const relatedProblem = spanProblem(source, related.span);
      if (relatedProblem) fail(finding, `a related place's range is wrong: ${relatedProblem}`);
    }
    for (const fix of finding.fixes ?? []) {
      if (!fix.title.trim()) fail(finding, `a fix without a title`);
      for (const edit of fix.edits) {
        const editProblem =
          offsetProblem(text, edit.span.start) ??
          offsetProblem(text, edit.span.end) ??
          (edit.span.start > edit.span.end ? 'it starts after it ends' : undefined);
        if (editProblem) fail(finding, `the fix "${fix.title}" has an edit whose range is wrong: ${editProblem}`);
      }
      if (fix.edits.some((e, i) => fix.edits.some((o, j) => i < j && editsOverlap(e, o))))
        fail(finding, `the fix "${fix.title}" has edits that overlap one another`);
    }
  }
}

function sameFindings(a: FileReport, b: FileReport, what: string, where: string): void {
  if (isDeepStrictEqual(a.findings, b.findings)) return;
  const lines = (r: FileReport) => r.findings.map((f) => describeFinding(r.file.source, f));
  const [first, then] = [lines(a), lines(b)];
  const only = (xs: string[], ys: string[]) => {
    const rest = xs.filter((x) => !ys.includes(x));
    const shown = rest.slice(0, 12).map((x) => `    ${x}`);
    if (rest.length > 12) shown.push(`    … and ${rest.length - 12} more`);
    return shown.join('\n') || '    none (the same findings, in another order or with other fixes)';
  };
  throw new FuzzFailure(
    `${what} gives other findings (${first.length}, then ${then.length}).\n  only the first time:\n${only(first, then)}\n  only the second time:\n${only(then, first)}`,
    where,
    a.file.source.text,
  );
}

/**
 * The text outside the edits is the same before and after them: the first and last characters
 * that differ lie inside the span the edits cover (found by comparing the texts, not by trusting
 * applyEdits).
 */
function assertOnlyEditsChanged(before: string, after: string, edits: readonly TextEdit[], where: string): void {
  const from = Math.min(...edits.map((e) => e.span.start));
  const to = Math.max(...edits.map((e) => e.span.end));
  const grown = after.length - before.length;
  if (before.slice(0, from) !== after.slice(0, from) || before.slice(to) !== after.slice(to + grown)) {
    throw new FuzzFailure(
      `applying the safe fixes changed text outside their edits (which cover [${from}, ${to}))`,
      where,
      before,
    );
  }
  // Between the edits, too: each gap between two consecutive edits is kept.
  const sorted = [...edits].sort((a, b) => a.span.start - b.span.start);
  let shift = 0;
  for (let i = 0; i < sorted.length; i++) {
    const edit = sorted[i]!;
    shift += edit.newText.length - (edit.span.end - edit.span.start);
    const next = sorted[i + 1];
    if (!next) break;
    const gap = before.slice(edit.span.end, next.span.start);
    if (after.slice(edit.span.end + shift, next.span.start + shift) !== gap) {
      throw new FuzzFailure(
        `applying the safe fixes changed text between two edits ([${edit.span.end}, ${next.span.start}))`,
        where,
        before,
      );
    }
  }
}

const MAX_FIX_ROUNDS = 5;

function safeFixes(report: FileReport): { finding: Finding; fix: Fix }[] {
  return report.findings.flatMap((finding) => {
    const fix = finding.fixes?.find((candidate) => candidate.safe);
    return fix ? [{ finding, fix }] : [];
  });
}

/**
 * Applying every safe fix (those that do not overlap, the rest in the next round, as `--fix` and
 * "fix all" do) and checking again converges within MAX_FIX_ROUNDS rounds to a text with no safe
 * fix left, never back to a text already seen; no round adds a yaml/syntax error to a text that
 * had none, or changes the file's kind; each round changes only what its edits cover; every round's
 * text keeps the invariants.
 */
export function assertFixesConverge(
  workspace: Workspace,
  logs: string[],
  where: string,
  path: string,
  first: Checked,
): void {
  const syntaxErrors = (r: FileReport) => r.findings.filter((f) => f.rule === 'yaml/syntax').length;
  const syntaxBefore = syntaxErrors(first.report);
  const seen = new Set([first.file.source.text]);
  let current = first;
  for (let round = 1; ; round++) {
    const safe = safeFixes(current.report);
    if (!safe.length) return;
    const text = current.file.source.text;
    const offered = safe
      .map(({ finding, fix }) => `    ${describeFinding(current.file.source, finding)} → "${fix.title}"`)
      .join('\n');
    if (round > MAX_FIX_ROUNDS)
      throw new FuzzFailure(
        `safe fixes are still offered after ${MAX_FIX_ROUNDS} rounds of applying them:\n${offered}`,
        where,
        text,
      );
    const { chosen } = chooseCompatibleFixes(safe.map((s) => s.fix));
    const detail = { fixes: chosen.map((fix) => ({ rule: safe.find((s) => s.fix === fix)!.finding.rule, fix })) };
    if (!chosen.length)
      throw new FuzzFailure(`safe fixes are offered but none can be applied:\n${offered}`, where, text, detail);
    const edits = chosen.flatMap((fix) => fix.edits);
    const next = applyEdits(text, edits);
    assertOnlyEditsChanged(text, next, edits, where);
    if (seen.has(next))
      throw new FuzzFailure(
        `applying the safe fixes (round ${round}) gives back a text already seen, so they never converge:\n${offered}`,
        where,
        text,
        detail,
      );
    seen.add(next);
    const fixedWhere = `${where} after ${round} round(s) of safe fixes`;
    try {
      current = checkText(workspace, logs, fixedWhere, path, next);
      assertSaneFindings(current.report, fixedWhere);
    } catch (error) {
      if (error instanceof FuzzFailure)
        throw new FuzzFailure(error.what, error.file, error.input, { ...error.detail, ...detail });
      throw error;
    }
    // Only where the input parsed cleanly: in a text that is already broken, the library's error
    // recovery can say one error more or fewer for any change, a comment line removed included.
    if (syntaxBefore === 0 && syntaxErrors(current.report) > 0) {
      throw new FuzzFailure(
        `the safe fixes (round ${round}) added a yaml/syntax error:\n${offered}\n  after them:\n${describeInput(next)}`,
        where,
        text,
        detail,
      );
    }
    if (current.file.kind !== first.file.kind) {
      throw new FuzzFailure(
        `the safe fixes (round ${round}) turned a ${first.file.kind ?? 'unrecognised'} file into a ${current.file.kind ?? 'unrecognised'} one:\n${offered}`,
        where,
        text,
        detail,
      );
    }
  }
}

/**
 * Everything one input must keep: it checks without a throw or a rule failure; its findings are
 * sane; the same parse checked again (its analyses memoised) and a new parse in a fresh workspace
 * give the same findings; the safe fixes converge.
 */
export function assertCheckInvariants(folder: Folder, path: string, text: string): void {
  const freshLogs: string[] = [];
  const fresh = inFreshWorkspace(text)
    ? () => ({ workspace: freshWorkspace(folder, freshLogs), logs: freshLogs })
    : undefined;
  assertInvariantsIn(folder.workspace, folder.logs, `${folder.name}/${path}`, path, text, fresh);
}

function assertInvariantsIn(
  workspace: Workspace,
  logs: string[],
  where: string,
  path: string,
  text: string,
  fresh?: () => { workspace: Workspace; logs: string[] },
): void {
  const first = checkText(workspace, logs, where, path, text);
  assertSaneFindings(first.report, where);
  sameFindings(first.report, checkParsed(workspace, logs, where, first.file), 'checking the same parse again', where);
  if (fresh) {
    const other = fresh();
    sameFindings(
      first.report,
      checkText(other.workspace, other.logs, where, path, text).report,
      'checking the same text in a fresh workspace',
      where,
    );
  }
  assertFixesConverge(workspace, logs, where, path, first);
}

/**
 * Whether an input is also checked in a fresh workspace: one in four, chosen by the text's hash (so
 * a replay makes the same choice), since that check costs as much as the first one and a leak of
 * state between checks would show on any input.
 */
function inFreshWorkspace(text: string): boolean {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % 4 === 0;
}

/** The invariants on one text alone, in a workspace of its own (with `catalog` as its one catalog file): the first that breaks, if any. */
export function failureAlone(
  path: string,
  text: string,
  catalog?: { path: string; text: string },
): FuzzFailure | undefined {
  const workspace = (logs: string[]) => {
    const created = new Workspace('/fuzz', (message) => logs.push(message));
    if (catalog) created.catalog.addFile(created.parse(catalog.path, catalog.text));
    return created;
  };
  const logs: string[] = [];
  try {
    assertInvariantsIn(workspace(logs), logs, path, path, text, () => {
      const freshLogs: string[] = [];
      return { workspace: workspace(freshLogs), logs: freshLogs };
    });
  } catch (error) {
    if (error instanceof FuzzFailure) return error;
    throw error;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The runner

/** The seed of every property (TOOL_LENS_SEED, test/helpers/seed.ts; npm test's is fixed, so that it fails the same way each time). */
export const SEED = seedFor(20261201);
/** The cases of all properties together (FUZZ_RUNS); npm test runs each property's default share. */
const TOTAL_RUNS = process.env.FUZZ_RUNS !== undefined ? Number(process.env.FUZZ_RUNS) : undefined;
/** fast-check's replay path of a failure (FUZZ_PATH), given with the seed and the one property (FUZZ_ONLY) it belongs to. */
const REPLAY_PATH = process.env.FUZZ_PATH;
const FUZZING = TOTAL_RUNS !== undefined;
/** The one property to run (FUZZ_ONLY, the fuzz script's --only): it gets every case. */
const ONLY = process.env.FUZZ_ONLY;
/** A file each case is written to before it is checked (FUZZ_TRACE, the fuzz script's --trace): what a case that never finishes was. */
const TRACE = process.env.FUZZ_TRACE;

/** Whether a property runs: all of them, or the --only one. Fails on an --only that names none of `names`. */
export function selected(name: string, names: readonly string[]): boolean {
  if (ONLY !== undefined && !names.includes(ONLY))
    throw new Error(
      `FUZZ_ONLY names no property: ${JSON.stringify(ONLY)}; the properties are ${names.map((n) => JSON.stringify(n)).join(', ')}`,
    );
  return ONLY === undefined || ONLY === name;
}

if (TOTAL_RUNS !== undefined && !(Number.isInteger(TOTAL_RUNS) && TOTAL_RUNS > 0))
  throw new Error(`FUZZ_RUNS must be a positive integer, got ${process.env.FUZZ_RUNS}`);

export interface PropertyRun {
  runs: number;
  /** The slowest cases, for the report of a long run (measured, never asserted). */
  slowest: { ms: number; where: string }[];
}

/**
 * Runs one property: `defaultRuns` cases under npm test, or `share` of FUZZ_RUNS. On a failure,
 * throws with the seed, the replay path and command, the shrunk counterexample and what broke.
 */
export function runProperty<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => string,
  defaultRuns: number,
  share: number,
): PropertyRun {
  const numRuns =
    TOTAL_RUNS !== undefined ? Math.max(1, Math.round(TOTAL_RUNS * (ONLY !== undefined ? 1 : share))) : defaultRuns;
  const slowest: { ms: number; where: string }[] = [];
  let done = 0;
  const started = performance.now();
  const property = fc.property(arbitrary, (value) => {
    if (TRACE) writeFileSync(TRACE, `${name}, seed ${SEED}, case ${done + 1}: ${fc.stringify(value)}\n`);
    const t0 = performance.now();
    const where = predicate(value);
    if (FUZZING) {
      const ms = performance.now() - t0;
      if (slowest.length < 5 || ms > slowest[slowest.length - 1]!.ms) {
        slowest.push({ ms, where: `${where}: ${fc.stringify(value)}` });
        slowest.sort((a, b) => b.ms - a.ms);
        slowest.length = Math.min(slowest.length, 5);
      }
      if (++done % 2000 === 0) {
        const heap = Math.round(process.memoryUsage().heapUsed / 1e6);
        process.stderr.write(
          `fuzz: ${name}: ${done}/${numRuns} cases, ${Math.round((performance.now() - started) / 1000)} s, heap ${heap} MB\n`,
        );
      }
    }
  });
  const details = fc.check(property, {
    seed: SEED,
    numRuns,
    ...(REPLAY_PATH ? { path: REPLAY_PATH, endOnFailure: true } : {}),
  });
  if (details.failed) {
    const error = details.errorInstance;
    const replay = `npm run fuzz -- --seed ${SEED} --only ${JSON.stringify(name)} --path ${JSON.stringify(details.counterexamplePath ?? '')}`;
    throw new Error(
      [
        `fuzz: "${name}" failed after ${details.numRuns} case(s) with seed ${SEED} (shrunk ${details.numShrinks} time(s)).`,
        `  replay: ${replay}`,
        `  seed: ${SEED}, path: ${details.counterexamplePath}`,
        `  counterexample: ${fc.stringify(details.counterexample)}`,
        error instanceof Error ? error.message : String(error),
      ].join('\n'),
    );
  }
  return { runs: details.numRuns, slowest };
}
