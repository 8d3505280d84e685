// Node-only: finds the configuration, the files to check and the catalog snapshots on disk (which
// files, and in which order, is node/discovery.ts's), and builds a Workspace from them. The CLI uses
// it for a run; the language server for its start-up.
import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { CONFIG_FILE_NAME, parseConfig, type LensConfig } from '../core/config/config.js';
import { LIMITS } from '../core/limits.js';
import { HEAD_BYTES, type ParsedFile } from '../core/parse/file.js';
import { fileTooLarge } from '../core/parse/problems.js';
import { RULE_IDS } from '../core/rules/registry.js';
import type { Finding } from '../core/types.js';
import { Workspace, type Logger } from '../core/workspace.js';
import { filesOfCatalogGlobs, joinCatalog, walkCheckedFiles, type CatalogCandidate, type CatalogGlob } from './discovery.js';
import { toPosix } from './paths.js';
import type { LinkOut } from './walk.js';

export interface LoadOptions {
  /** Files or folders to check, relative to `cwd`. */
  paths: string[];
  cwd: string;
  /** Explicit configuration file (relative to `cwd`); otherwise `.toollens.yaml` found upward. */
  configPath?: string;
  /** Extra catalog globs, relative to `cwd` (`--catalog`). */
  catalogGlobs?: string[];
  log?: Logger;
}

export interface LoadedWorkspace {
  workspace: Workspace;
  /** Files to check, in a stable order. */
  files: ParsedFile[];
  configPath?: string;
  configProblems: Finding[];
  configText?: string;
  /** Symbolic links that lead out of a folder being read, not followed (node/walk.ts). */
  linksOut: LinkOut[];
  /** `--catalog` globs that name no file. */
  unmatchedCatalogGlobs: string[];
  /** Parses another file of the workspace (each once; undefined when it cannot be read, which is logged). */
  parse: (absolute: string) => ParsedFile | undefined;
}

export class UsageError extends Error {}

/** `.toollens.yaml` in `start` or the nearest folder above it. */
function findConfigUpward(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    const candidate = join(dir, CONFIG_FILE_NAME);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** What a run reads before any file is parsed: the configuration, the files and the catalog globs. */
export interface DiscoveredWorkspace {
  workspace: Workspace;
  /** Absolute paths of the files to check, sorted, each real file once. */
  targets: string[];
  /** The catalog globs (config `catalogs`, `--catalog`); `filesOfCatalogGlobs` finds their files. */
  catalogGlobs: CatalogGlob[];
  /** Symbolic links that lead out of a folder being checked, not followed. */
  linksOut: LinkOut[];
  configPath?: string;
  configProblems: Finding[];
  configText?: string;
}

/** Finds the configuration and the files of a run without reading or parsing any of them. */
export function discoverWorkspace(options: LoadOptions): DiscoveredWorkspace {
  const cwd = resolve(options.cwd);
  const log = options.log ?? (() => { /* no log unless one is given */ });
  const firstPath = options.paths[0] ? resolve(cwd, options.paths[0]) : cwd;
  const startDir = existsSync(firstPath) && statSync(firstPath).isDirectory() ? firstPath : dirname(firstPath);
  let configPath: string | undefined;
  if (options.configPath) {
    configPath = resolve(cwd, options.configPath);
    if (!existsSync(configPath)) throw new UsageError(`configuration file not found: ${options.configPath}`);
  } else configPath = findConfigUpward(startDir);

  // Paths in output are relative to the current directory; globs in the config to its folder.
  const workspace = new Workspace(toPosix(cwd), options.log);
  let configProblems: Finding[] = [];
  let configText: string | undefined;
  const configRoot = configPath ? dirname(configPath) : cwd;
  if (configPath) {
    // The configuration sets the limits, so its own size is bounded by the default: a larger one
    // is not read (its head is kept for the message's place) and is one problem.
    const read = readWithin(configPath, LIMITS.fileBytes);
    configText = read.text;
    if (read.bytes === undefined) {
      const result = parseConfig(toPosix(relative(cwd, configPath)), configText, RULE_IDS);
      configProblems = result.problems;
      workspace.config = rebaseConfig(result.config, configRoot, cwd);
    } else {
      const problem = fileTooLarge({ start: 0, end: Math.min(read.text.length, 1) }, read.bytes);
      configProblems = [{ rule: problem.rule, severity: 'error', message: problem.message, span: problem.span }];
    }
  }

  // Each real file once (a file named on the command line may be a link to one a folder holds):
  // the first name given for it wins.
  const targets = new Map<string, string>();
  const linksOut: LinkOut[] = [];
  const realOf = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  for (const path of options.paths.length ? options.paths : ['.']) {
    const absolute = resolve(cwd, path);
    if (!existsSync(absolute)) throw new UsageError(`no such file or folder: ${path}`);
    if (statSync(absolute).isDirectory()) {
      const walk = walkCheckedFiles(absolute);
      for (const file of walk.files) if (!targets.has(file.real)) targets.set(file.real, file.path);
      linksOut.push(...walk.linksOut);
      for (const { folder, error } of walk.unreadable) log(`cannot read the folder ${folder}: ${error}`);
    } else {
      const real = realOf(absolute);
      if (!targets.has(real)) targets.set(real, absolute);
    }
  }
  if (configPath) targets.delete(realOf(configPath));

  const catalogGlobs: CatalogGlob[] = [
    ...workspace.config.catalogs.map((glob) => ({ glob, base: configRoot, confined: true })),
    ...(options.catalogGlobs ?? []).map((glob) => ({ glob, base: cwd, confined: false })),
  ];
  return { workspace, targets: [...targets.values()].sort(), catalogGlobs, linksOut, configPath, configProblems, configText };
}

/** A run's files and catalog candidates, found without reading or parsing any of them. */
export interface WorkspacePlan extends DiscoveredWorkspace {
  cwd: string;
  /** Files a catalog glob names (absolute, in discovery.ts's order): they join the catalog whatever their content. */
  catalogOnly: string[];
  /** Every file that may join the catalog, in no particular order (`joinCatalog` orders them). */
  candidates: CatalogCandidate[];
  /** `--catalog` globs that name no file. */
  unmatchedCatalogGlobs: string[];
}

/** Finds the configuration, the files to check and the catalog candidates of a run. */
export function planWorkspace(options: LoadOptions): WorkspacePlan {
  const cwd = resolve(options.cwd);
  const discovered = discoverWorkspace(options);
  const globbed = filesOfCatalogGlobs(discovered.catalogGlobs, (glob, problem) => {
    throw new UsageError(`--catalog ${glob}: ${problem}`);
  });
  for (const { folder, error } of globbed.unreadable) discovered.workspace.log(`cannot read the folder ${folder}: ${error}`);
  const catalogOnly = globbed.files;
  const cliGlobs = new Set(options.catalogGlobs ?? []);
  // Catalogs: the files the globs name, then those found among the files (discovery.ts's order).
  const named = new Set(catalogOnly);
  const candidates = [
    ...catalogOnly.map((absolute) => ({ absolute, named: true })),
    ...discovered.targets.filter((absolute) => !named.has(absolute)).map((absolute) => ({ absolute, named: false })),
  ];
  return {
    ...discovered,
    cwd,
    catalogOnly,
    candidates,
    linksOut: [...discovered.linksOut, ...globbed.linksOut],
    unmatchedCatalogGlobs: globbed.unmatched.filter((glob) => cliGlobs.has(glob)),
  };
}

/** What a caller that already knows some files (the CLI's cache) changes in a load. */
export interface LoadHooks {
  /** Reads a file (default: `readWithin`). */
  read?: (absolute: string, fileBytes: number) => DiskText;
  /** Whether a file to check is parsed and returned in `files` (default: every one). */
  wanted?: (absolute: string) => boolean;
  /** false for a file not named by a catalog glob that is known not to parse as a catalog: it is not parsed for the catalog. */
  mayBeCatalog?: (absolute: string) => boolean;
}

export function loadWorkspace(options: LoadOptions, hooks: LoadHooks = {}): LoadedWorkspace {
  return loadPlanned(planWorkspace(options), hooks);
}

/** The workspace of a plan: its files parsed, its catalog joined. */
export function loadPlanned(plan: WorkspacePlan, hooks: LoadHooks = {}): LoadedWorkspace {
  const { cwd, workspace, targets, configPath, configProblems, configText } = plan;
  const read = hooks.read ?? readWithin;
  const parsed = new Map<string, ParsedFile>();
  const parse = (absolute: string): ParsedFile | undefined => {
    if (parsed.has(absolute)) return parsed.get(absolute);
    let text: DiskText;
    try {
      text = read(absolute, workspace.limits.fileBytes);
    } catch (error) {
      workspace.log(`cannot read ${absolute}: ${String(error)}`);
      return undefined;
    }
    const path = toPosix(relative(cwd, absolute));
    const file = text.bytes === undefined ? workspace.parse(path, text.text) : workspace.parseTooLarge(path, text.bytes, text.text);
    parsed.set(absolute, file);
    return file;
  };

  const files: ParsedFile[] = [];
  for (const absolute of targets) {
    if (hooks.wanted && !hooks.wanted(absolute)) continue;
    const file = parse(absolute);
    if (file) files.push(file);
  }
  const mayBe = hooks.mayBeCatalog;
  joinCatalog(workspace.catalog, plan.candidates, (candidate) => parse(candidate.absolute), mayBe && ((candidate) => mayBe(candidate.absolute)));
  return {
    workspace,
    files,
    configPath,
    configProblems,
    configText,
    linksOut: plan.linksOut,
    unmatchedCatalogGlobs: plan.unmatchedCatalogGlobs,
    parse,
  };
}

/**
 * A file as read from disk: its whole text, or, for a file larger on disk than the workspace's
 * fileBytes, only its first HEAD_BYTES (decoded) with its size in `bytes`: that is all the decline
 * of it needs (`Workspace.parseTooLarge`), so a file of gigabytes in a cloned repository costs a
 * stat and one small read.
 */
export type DiskText = { text: string; bytes?: undefined } | { text: string; bytes: number };

/** The file's text, or its head when it is larger than `fileBytes` (see DiskText). */
export function readWithin(absolute: string, fileBytes: number): DiskText {
  const bytes = statSync(absolute).size;
  if (bytes <= fileBytes) return { text: readFileSync(absolute, 'utf8') };
  const head = Buffer.alloc(HEAD_BYTES);
  const fd = openSync(absolute, 'r');
  try {
    const read = readSync(fd, head, 0, HEAD_BYTES, 0);
    return { text: head.subarray(0, read).toString('utf8'), bytes };
  } finally {
    closeSync(fd);
  }
}

/** `readWithin`, without blocking (the language server's file-watch events). */
export async function readWithinAsync(absolute: string, fileBytes: number): Promise<DiskText> {
  const bytes = (await stat(absolute)).size;
  if (bytes <= fileBytes) return { text: await readFile(absolute, 'utf8') };
  const handle = await open(absolute, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
    return { text: buffer.subarray(0, bytesRead).toString('utf8'), bytes };
  } finally {
    await handle.close();
  }
}

/** Config globs are written relative to the config's folder; matching happens on paths relative to `root`. */
export function rebaseGlob(glob: string, configRoot: string, root: string): string {
  const prefix = toPosix(relative(root, configRoot));
  if (!prefix || glob.startsWith('/') || glob.startsWith('**')) return glob;
  return `${prefix}/${glob}`;
}

/** The configuration with its file globs (`kinds`, `overrides`) rebased onto `root`. */
export function rebaseConfig(config: LensConfig, configRoot: string, root: string): LensConfig {
  const kinds: LensConfig['kinds'] = {};
  for (const [kind, globs] of Object.entries(config.kinds) as [keyof LensConfig['kinds'], string[] | undefined][]) {
    if (globs) kinds[kind] = globs.map((g) => rebaseGlob(g, configRoot, root));
  }
  return { ...config, kinds, overrides: config.overrides.map((o) => ({ ...o, files: o.files.map((g) => rebaseGlob(g, configRoot, root)) })) };
}
