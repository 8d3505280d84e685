// One `tool-lens check` pass: load the workspace (configuration, files, catalogs) from disk, stop on
// an invalid configuration, and check every file with the shared engine.
import { counted } from '../core/text/words.js';
import { existsSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { checkFile } from '../core/engine.js';
import { SourceText } from '../core/text/source.js';
import type { Logger } from '../core/workspace.js';
import { startPlanned, planWorkspace, UsageError } from '../node/loader.js';
import { capYoungGeneration } from './heap.js';
import { toPosix } from '../node/paths.js';
import { linksOutNote } from '../node/walk.js';
import { checkWithCache } from './cache.js';
import type { CheckResult } from './result.js';

export interface CheckOptions {
  paths: string[];
  cwd: string;
  configPath?: string;
  catalogGlobs: string[];
  /** `--stdin`: this text, checked as the file at `path` (relative to cwd). */
  stdin?: { path: string; text: string };
  /** Problems met during the run (a file that cannot be read, a rule that failed). */
  log: Logger;
  /** Details of the run, for --debug; a no-op otherwise. */
  debug: Logger;
  /** The check after --fix: what the first one said about the run (the notes) is not said again. */
  again?: boolean;
  /** --cache: the cache file (cache.ts); absent, every file is checked. */
  cacheFile?: string;
  /** --fix: the findings' fixes are to be applied, so none is taken from the cache (cache.ts). */
  fix?: boolean;
  /** --rule-docs-url: where the reports link a rule's page, over the configuration's `ruleDocsUrl`. */
  ruleDocsUrl?: string;
}

/** The configuration file has problems: each is a `file:line:col: message (rule)` line. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`the configuration has ${counted(problems.length, 'problem')}`);
  }
}

export function runCheck(options: CheckOptions): CheckResult {
  const started = performance.now();
  if (options.configPath !== undefined) {
    const absolute = resolve(options.cwd, options.configPath);
    if (existsSync(absolute) && statSync(absolute).isDirectory()) {
      throw new UsageError(`--config expects a file, and ${options.configPath} is a folder`);
    }
  }
  const plan = planWorkspace({
    paths: options.paths,
    cwd: options.cwd,
    configPath: options.configPath,
    catalogGlobs: options.catalogGlobs,
    stdin: options.stdin,
    log: options.log,
  });
  // Reading the files grows V8's young generation as checking them does: it is held from here on.
  capYoungGeneration();
  if (plan.configProblems.length > 0 && plan.configPath !== undefined) {
    const source = new SourceText(plan.configText ?? '');
    const path = toPosix(relative(options.cwd, plan.configPath));
    throw new ConfigError(
      plan.configProblems.map((problem) => {
        const at = source.positionAt(problem.span.start);
        return `${path}:${at.line + 1}:${at.character + 1}: ${problem.message} (${problem.rule})`;
      }),
    );
  }
  if (!options.again) {
    // A mistyped --catalog would otherwise look like "no catalog" on every tool reference.
    for (const glob of plan.unmatchedCatalogGlobs) options.log(`--catalog ${glob} matches no file`);
    // One note for the run, not a finding: a link is no document's.
    const note = linksOutNote(plan.linksOut, options.cwd);
    if (note !== undefined) options.log(`note: ${note}`);
    // A run has one workspace: a configuration nearer to a named path is not read, and says so.
    const rootName = toPosix(relative(options.cwd, plan.root)) || '.';
    for (const config of plan.configsNotRead) {
      options.log(
        `note: ${toPosix(relative(options.cwd, config))} is not read: this run's workspace is ${rootName}${plan.configPath ? `, configured by ${toPosix(relative(options.cwd, plan.configPath))}` : ''} (run from its folder, or pass --config, to use it)`,
      );
    }
  }
  if (options.cacheFile !== undefined) {
    options.debug(`configuration: ${plan.configPath ?? '(none found; defaults)'}`);
    const result = checkWithCache(plan, options.catalogGlobs, {
      file: options.cacheFile,
      root: options.cwd,
      log: options.log,
      debug: options.debug,
      check: (file, workspace) => checkFile(file, workspace).findings,
      fix: options.fix === true && options.again !== true,
    });
    options.debug(`checked ${result.files.length} file(s) in ${(performance.now() - started).toFixed(0)} ms`);
    // What the load could not read is in the plan, whichever way the cache went.
    return {
      ...result,
      unreadable: plan.unreadable.length,
      root: plan.root,
      ...docsOf(options, plan.workspace.config.ruleDocsUrl),
    };
  }
  const load = startPlanned(plan);
  const { loaded } = load;
  capYoungGeneration();
  const workspace = loaded.workspace;
  options.debug(`configuration: ${loaded.configPath ?? '(none found; defaults)'}`);
  options.debug(`catalog: ${workspace.catalog.size} server(s) from ${workspace.catalog.files.length} file(s)`);
  // Each file is parsed, checked and let go in turn: only the catalog's trees are held at once.
  const files = load.each((file) => {
    const report = checkFile(file, workspace);
    capYoungGeneration();
    return { path: file.path, kind: file.kind, source: file.source, findings: report.findings };
  });
  options.debug(`checked ${files.length} file(s) in ${(performance.now() - started).toFixed(0)} ms`);
  return {
    files,
    unreadable: loaded.unreadable.length,
    root: loaded.root,
    ...docsOf(options, workspace.config.ruleDocsUrl),
  };
}

function docsOf(options: CheckOptions, configured: string | undefined): Pick<CheckResult, 'ruleDocsUrl'> {
  const url = options.ruleDocsUrl ?? configured;
  return url === undefined ? {} : { ruleDocsUrl: url };
}
