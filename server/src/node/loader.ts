// Node-only: finds the configuration, the files to check and the catalog snapshots on disk (which
// files, and in which order, is node/discovery.ts's), and builds a Workspace from them. The CLI uses
// it for a run; the language server for its start-up.
import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { CONFIG_FILE_NAME, parseConfig, type LensConfig } from '../core/config/config.js';
import { LIMITS } from '../core/limits.js';
import { HEAD_BYTES, type ParsedFile } from '../core/parse/file.js';
import { clientServersOf, mayHoldClientServers } from '../core/catalog/clientServers.js';
import { definitionsOf, mayHoldDefinitions } from '../core/catalog/definitions.js';
import { mayBeOurs, unparsedFile } from '../core/parse/prefilter.js';
import { fileTooLarge } from '../core/parse/problems.js';
import { parserWords } from '../core/wording/parserWords.js';
import { RULE_IDS } from '../core/rules/registry.js';
import type { Finding } from '../core/types.js';
import { Workspace, type Logger } from '../core/workspace.js';
import {
  filesOfCatalogGlobs,
  joinCatalog,
  mayBeCatalog,
  walkCheckedFiles,
  type CatalogCandidate,
  type CatalogGlob,
} from './discovery.js';
import { toPosix } from './paths.js';
import { isInside, type LinkOut, type Walk } from './walk.js';

export interface LoadOptions {
  /** Files or folders to check, relative to `cwd`. */
  paths: string[];
  cwd: string;
  /** Explicit configuration file (relative to `cwd`); otherwise `.toollens.yaml` found upward. */
  configPath?: string;
  /** Extra catalog globs, relative to `cwd` (`--catalog`). */
  catalogGlobs?: string[];
  /**
   * Text to check as if it were the file at `path` (relative to `cwd`; the file need not exist):
   * `--stdin`. It is then the only file checked (`paths` is ignored), and wherever the workspace
   * reads that file (as a catalog) it reads this text.
   */
  stdin?: { path: string; text: string };
  log?: Logger;
  /**
   * A configuration found upward that cannot be read (a folder named `.toollens.yaml`, a FIFO, no
   * permission): by default a usage error (the CLI stops, exit 2); with `defaults` the run goes on
   * with the built-in defaults and says why in `configUnreadable` (the language server, which shows it).
   */
  unreadableConfig?: 'defaults';
}

export interface LoadedWorkspace {
  workspace: Workspace;
  /** Files to check, in a stable order. */
  files: ParsedFile[];
  /** The workspace folder (absolute): see `workspaceRootOf`. */
  root: string;
  configPath?: string;
  configProblems: Finding[];
  configText?: string;
  /** Symbolic links that lead out of a folder being read, not followed (node/walk.ts). */
  linksOut: LinkOut[];
  /** `--catalog` globs that name no file. */
  unmatchedCatalogGlobs: string[];
  /** `.toollens.yaml` files nearer to a named path than the run's configuration, not read. */
  configsNotRead: string[];
  /**
   * What a run had to read and could not (a file: permission denied, a folder where a file was, a
   * FIFO, an I/O error; a folder that cannot be listed), each already logged: the run's result is
   * incomplete, which the CLI says with its exit code (docs/behaviour.md#files-that-cannot-be-read).
   */
  unreadable: string[];
  /** Parses another file of the workspace (each once; undefined when it cannot be read, which is logged). */
  parse: (absolute: string) => ParsedFile | undefined;
  /**
   * `parse`, without keeping a file that was not parsed before: for a file checked once and let go
   * (the CLI's cache checks its files one by one), whose tree would otherwise be held to the end.
   */
  parseOnce: (absolute: string) => ParsedFile | undefined;
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

/**
 * The workspace of a run (docs/behaviour.md, "The workspace of a run"): the folder of the
 * configuration (`--config`, else the `.toollens.yaml` found upward from the current directory),
 * or the current directory when there is none. A run that names only paths outside that folder
 * takes the workspace of its first path instead, found the same way from it (its folder, or the
 * folder of the `.toollens.yaml` above it), so that `check /elsewhere` reads nothing of here.
 */
export function workspaceRootOf(options: Pick<LoadOptions, 'paths' | 'cwd' | 'configPath'>): {
  root: string;
  configPath?: string;
} {
  const cwd = resolve(options.cwd);
  if (options.configPath) {
    const configPath = resolve(cwd, options.configPath);
    if (!existsSync(configPath)) throw new UsageError(`configuration file not found: ${options.configPath}`);
    return { root: dirname(configPath), configPath };
  }
  const here = findConfigUpward(cwd);
  const root = here ? dirname(here) : cwd;
  const absolutes = options.paths.map((path) => resolve(cwd, path));
  if (absolutes.length === 0 || absolutes.some((path) => isInside(root, path))) return { root, configPath: here };
  const first = absolutes[0]!;
  const startDir = existsSync(first) && statSync(first).isDirectory() ? first : dirname(first);
  const there = findConfigUpward(startDir);
  return { root: there ? dirname(there) : startDir, configPath: there };
}

/** What a run reads before any file is parsed: the configuration, the files and the catalog globs. */
export interface DiscoveredWorkspace {
  workspace: Workspace;
  /** The workspace folder (absolute): see `workspaceRootOf`. */
  root: string;
  /** Absolute paths of the files to check, sorted, each real file once. */
  targets: string[];
  /**
   * The files of the workspace folder (absolute, sorted, each real file once, the configuration
   * left out): what the files checked may depend on (the catalog), whichever of them are named.
   * Walked on the first call (the language server has its own folder and never asks).
   */
  workspaceFiles(): string[];
  /** The catalog globs (config `catalogs`, `--catalog`); `filesOfCatalogGlobs` finds their files. */
  catalogGlobs: CatalogGlob[];
  /** Symbolic links that lead out of a folder being read, not followed. */
  linksOut: LinkOut[];
  configPath?: string;
  configProblems: Finding[];
  configText?: string;
  /**
   * `.toollens.yaml` files found upward from a named path before the run's configuration (one in
   * a sub-folder of the workspace): not read, since a run has one workspace; the CLI says so.
   */
  configsNotRead: string[];
  /**
   * With `unreadableConfig: 'defaults'`, the configuration that was found and could not be read
   * (absolute) and why: the run uses the built-in defaults instead, and `configPath` is unset.
   */
  configUnreadable?: { path: string; reason: string };
  /** Folders that could not be listed (logged); the load adds the files it could not read. */
  unreadable: string[];
  /** A path's real path (every link resolved; the path itself when it has none): the walk's for a file it found, without asking the disk again. */
  realPathOf: (absolute: string) => string;
}

/** Finds the configuration and the files of a run without reading or parsing any of them. */
export function discoverWorkspace(options: LoadOptions): DiscoveredWorkspace {
  const cwd = resolve(options.cwd);
  const log =
    options.log ??
    (() => {
      /* no log unless one is given */
    });
  const paths = options.stdin ? [options.stdin.path] : options.paths;
  const found = workspaceRootOf({ paths, cwd, configPath: options.configPath });
  const root = found.root;
  let configPath = found.configPath;
  let configUnreadable: DiscoveredWorkspace['configUnreadable'];

  // Paths in output are relative to the current directory; globs in the config to its folder.
  const workspace = new Workspace(toPosix(cwd), options.log);
  let configProblems: Finding[] = [];
  let configText: string | undefined;
  const configRoot = configPath ? dirname(configPath) : cwd;
  // The configuration sets the limits, so its own size is bounded by the default: a larger one
  // is not read (its head is kept for the message's place) and is one problem.
  let read: DiskText | undefined;
  if (configPath) {
    try {
      read = readWithin(configPath, LIMITS.fileBytes);
    } catch (error) {
      if (options.unreadableConfig !== 'defaults')
        throw new UsageError(
          `cannot read the configuration ${toPosix(relative(cwd, configPath))}: ${errorText(error)}`,
        );
      configUnreadable = { path: configPath, reason: errorText(error) };
      configPath = undefined;
    }
  }
  if (configPath && read) {
    configText = read.text;
    if (read.bytes === undefined) {
      const result = parseConfig(toPosix(relative(cwd, configPath)), configText, RULE_IDS);
      configProblems = result.problems;
      workspace.config = rebaseConfig(result.config, configRoot, cwd);
    } else {
      const problem = fileTooLarge({ start: 0, end: Math.min(read.text.length, 1) }, read.bytes);
      configProblems = [
        {
          rule: problem.rule,
          messageId: problem.code,
          severity: 'error',
          message: parserWords(problem),
          span: problem.span,
        },
      ];
    }
  }

  // Each folder is walked once, its links out and unreadable folders said once.
  const linksOut: LinkOut[] = [];
  const unreadable: string[] = [];
  const walks = new Map<string, Walk>();
  // The real path of every file a walk found (the walk follows no link, so it knows them).
  const walkedReal = new Map<string, string>();
  const walkOf = (folder: string): Walk => {
    let walk = walks.get(folder);
    if (!walk) {
      walk = walkCheckedFiles(folder);
      walks.set(folder, walk);
      for (const file of walk.files) walkedReal.set(file.path, file.real);
      linksOut.push(...walk.linksOut);
      for (const { folder: unlisted, error } of walk.unreadable) {
        log(`cannot read the folder ${toPosix(relative(cwd, unlisted)) || '.'}: ${error}`);
        unreadable.push(unlisted);
      }
    }
    return walk;
  };
  const realOf = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  const configReal = configPath ? realOf(configPath) : undefined;

  // Each real file once (a file named on the command line may be a link to one a folder holds):
  // the first name given for it wins.
  const targets = new Map<string, string>();
  if (options.stdin) {
    const absolute = resolve(cwd, options.stdin.path);
    targets.set(realOf(absolute), absolute);
  } else {
    for (const path of paths.length ? paths : ['.']) {
      const absolute = resolve(cwd, path);
      if (!existsSync(absolute)) throw new UsageError(`no such file or folder: ${path}`);
      if (statSync(absolute).isDirectory()) {
        for (const file of walkOf(absolute).files) if (!targets.has(file.real)) targets.set(file.real, file.path);
      } else {
        const real = realOf(absolute);
        if (!targets.has(real)) targets.set(real, absolute);
      }
    }
  }
  if (configReal) targets.delete(configReal);
  const configsNotRead = new Set<string>();
  // With --config the user chose the configuration: the others need no word.
  for (const path of options.configPath ? [] : paths) {
    const absolute = resolve(cwd, path);
    const start = existsSync(absolute) && statSync(absolute).isDirectory() ? absolute : dirname(absolute);
    const nearest = findConfigUpward(start);
    if (nearest !== undefined && nearest !== configPath) configsNotRead.add(nearest);
  }

  let workspaceFiles: string[] | undefined;
  const workspaceFilesOf = (): string[] => {
    if (workspaceFiles) return workspaceFiles;
    const byReal = new Map<string, string>();
    for (const file of walkOf(root).files)
      if (file.real !== configReal && !byReal.has(file.real)) byReal.set(file.real, file.path);
    return (workspaceFiles = [...byReal.values()].sort());
  };

  const catalogGlobs: CatalogGlob[] = [
    ...workspace.config.catalogs.map((glob) => ({ glob, base: configRoot, confined: true })),
    ...(options.catalogGlobs ?? []).map((glob) => ({ glob, base: cwd, confined: false })),
  ];
  return {
    workspace,
    root,
    targets: [...targets.values()].sort(),
    workspaceFiles: workspaceFilesOf,
    catalogGlobs,
    linksOut,
    configPath,
    configProblems,
    configText,
    configsNotRead: [...configsNotRead].sort(),
    ...(configUnreadable ? { configUnreadable } : {}),
    unreadable,
    realPathOf: (absolute) => walkedReal.get(absolute) ?? realOrSelf(absolute),
  };
}

/** A run's files and catalog candidates, found without reading or parsing any of them. */
export interface WorkspacePlan extends DiscoveredWorkspace {
  cwd: string;
  /** Files a catalog glob names (absolute, in discovery.ts's order): they join the catalog whatever their content. */
  catalogOnly: string[];
  /**
   * Every file that may join the catalog, in no particular order (`joinCatalog` orders them): the
   * files the globs name, then the workspace folder's files and the files named, each real file once.
   */
  candidates: CatalogCandidate[];
  /** `--catalog` globs that name no file. */
  unmatchedCatalogGlobs: string[];
  stdin?: LoadOptions['stdin'];
}

/** Finds the configuration, the files to check and the catalog candidates of a run. */
export function planWorkspace(options: LoadOptions): WorkspacePlan {
  const cwd = resolve(options.cwd);
  const discovered = discoverWorkspace(options);
  const globbed = filesOfCatalogGlobs(discovered.catalogGlobs, (glob, problem) => {
    throw new UsageError(`--catalog ${glob}: ${problem}`);
  });
  for (const { folder, error } of globbed.unreadable) {
    discovered.workspace.log(`cannot read the folder ${toPosix(relative(cwd, folder)) || '.'}: ${error}`);
    discovered.unreadable.push(folder);
  }
  const catalogOnly = globbed.files;
  const cliGlobs = new Set(options.catalogGlobs ?? []);
  const named = new Set(catalogOnly);
  const seen = new Set(catalogOnly.map(discovered.realPathOf));
  const found: string[] = [];
  for (const absolute of [...discovered.workspaceFiles(), ...discovered.targets]) {
    const real = discovered.realPathOf(absolute);
    if (named.has(absolute) || seen.has(real)) continue;
    seen.add(real);
    found.push(absolute);
  }
  return {
    ...discovered,
    cwd,
    catalogOnly,
    candidates: [
      ...catalogOnly.map((absolute) => ({ absolute, named: true })),
      ...found.map((absolute) => ({ absolute, named: false })),
    ],
    linksOut: [...discovered.linksOut, ...globbed.linksOut],
    unmatchedCatalogGlobs: globbed.unmatched.filter((glob) => cliGlobs.has(glob)),
    stdin: options.stdin,
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

/**
 * Loads a run: the files named (`targets`), checked against everything the workspace folder holds
 * that they may depend on, whichever files are named, so that `check a.yaml` says of a.yaml what
 * `check .` in the workspace says of it. A file of the workspace that is not named is read only to
 * see whether it may be a catalog (`mayBeCatalog`), and parsed only then.
 */
export function loadWorkspace(options: LoadOptions, hooks: LoadHooks = {}): LoadedWorkspace {
  return loadPlanned(planWorkspace(options), hooks);
}

/** The workspace of a plan: its files parsed, its catalog joined. */
export function loadPlanned(plan: WorkspacePlan, hooks: LoadHooks = {}): LoadedWorkspace {
  const load = openPlanned(plan, hooks);
  const files: ParsedFile[] = [];
  for (const absolute of load.wanted) {
    const file = load.parse(absolute);
    if (file) files.push(file);
  }
  return { ...load.loaded, files };
}

/** A load whose catalog is joined and whose files to check are read but not parsed yet (`startPlanned`). */
export interface StartedLoad {
  loaded: Omit<LoadedWorkspace, 'files'>;
  /**
   * Each file to check handed to `check` in turn, parsed as it comes and let go after (unless it
   * is a catalog, which the workspace keeps): what `loadPlanned` gives, without holding every
   * file's tree at once. The answers come back in the files' order.
   */
  each<T>(check: (file: ParsedFile) => T): T[];
}

/** The load of a plan up to its files to check: see `StartedLoad`. */
export function startPlanned(plan: WorkspacePlan, hooks: LoadHooks = {}): StartedLoad {
  const load = openPlanned(plan, hooks);
  return {
    loaded: load.loaded,
    each: <T>(check: (file: ParsedFile) => T): T[] => {
      const results: T[] = [];
      for (const absolute of load.wanted) {
        const file = load.parseOnce(absolute);
        if (file) results.push(check(file));
      }
      return results;
    },
  };
}

/**
 * The load of a plan, up to the files to check: every file to check read (in their order, so that
 * what cannot be read is said in that order), the catalog joined. Each file is read once and
 * parsed once; a file to check that `mayBeOurs` says cannot be of our kinds is not parsed at all
 * (its full parse would find no kind, and a file of no kind has no findings), unless a catalog
 * glob names it, which reads it as a catalog whatever it holds.
 */
function openPlanned(plan: WorkspacePlan, hooks: LoadHooks) {
  const { cwd, workspace, root, targets, configPath, configProblems, configText, unreadable, stdin } = plan;
  const read = hooks.read ?? readWithin;
  const stdinAbsolute = stdin ? resolve(cwd, stdin.path) : undefined;
  const stdinReal = stdinAbsolute === undefined ? undefined : realOrSelf(stdinAbsolute);

  // A file that could not be read is tried once (it may be both a target and a catalog).
  const texts = new Map<string, DiskText | undefined>();
  const textOf = (absolute: string): DiskText | undefined => {
    if (texts.has(absolute)) return texts.get(absolute);
    let text: DiskText | undefined;
    if (stdin && (absolute === stdinAbsolute || realOrSelf(absolute) === stdinReal)) text = { text: stdin.text };
    else {
      try {
        text = read(absolute, workspace.limits.fileBytes);
      } catch (error) {
        workspace.log(`cannot read ${toPosix(relative(cwd, absolute))}: ${errorText(error)}`);
        unreadable.push(absolute);
      }
    }
    texts.set(absolute, text);
    return text;
  };
  const catalogNamed = new Set(plan.catalogOnly);
  const parseText = (absolute: string, text: DiskText): ParsedFile => {
    const path = toPosix(relative(cwd, absolute));
    if (text.bytes !== undefined) return workspace.parseTooLarge(path, text.bytes, text.text);
    if (!catalogNamed.has(absolute) && !mayBeOurs(path, text.text, workspace.forcedKind(path)))
      return unparsedFile(path, text.text);
    return workspace.parse(path, text.text);
  };
  const parsed = new Map<string, ParsedFile>();
  const parse = (absolute: string): ParsedFile | undefined => {
    if (parsed.has(absolute)) return parsed.get(absolute);
    const text = textOf(absolute);
    if (text === undefined) return undefined;
    const file = parseText(absolute, text);
    parsed.set(absolute, file);
    return file;
  };
  /** `parse`, without keeping a file no one parsed before. */
  const parseOnce = (absolute: string): ParsedFile | undefined => {
    const known = parsed.get(absolute);
    if (known) return known;
    const text = textOf(absolute);
    return text === undefined ? undefined : parseText(absolute, text);
  };

  const wanted = hooks.wanted ? targets.filter(hooks.wanted) : targets;
  for (const absolute of wanted) textOf(absolute);
  const targetSet = new Set(targets);
  joinCatalog(
    workspace.catalog,
    plan.candidates,
    (candidate) => parse(candidate.absolute),
    (candidate) => {
      if (hooks.mayBeCatalog && !hooks.mayBeCatalog(candidate.absolute)) return false;
      // A workspace file that is not named is read to see whether it may be a catalog; one that
      // cannot be read may be a catalog the named files depend on, so it counts as unreadable too.
      // A file to check that cannot be read is said once, with the others.
      const text = textOf(candidate.absolute);
      if (text === undefined) return false;
      // A file to check that is too large is declined whole, and may be a catalog by its name: its parse is all it costs.
      if (targetSet.has(candidate.absolute) && text.bytes !== undefined) return true;
      return mayBeCatalog(workspace, toPosix(relative(cwd, candidate.absolute)), text.text);
    },
  );
  // The composite tool definitions of the workspace, for references from other files: only the
  // files whose text names the kind are parsed for them (their texts were read for the catalog).
  for (const candidate of plan.candidates) {
    const text = textOf(candidate.absolute);
    if (text === undefined || text.bytes !== undefined || !mayHoldDefinitions(text.text)) continue;
    const file = parse(candidate.absolute);
    if (file) workspace.definitions.setFile(file.path, definitionsOf(file));
  }
  // The servers of the workspace's client configs, for a server two clients of a project start
  // differently: only the files whose path names a client are parsed for them.
  for (const candidate of plan.candidates) {
    if (!mayHoldClientServers(toPosix(relative(cwd, candidate.absolute)))) continue;
    const text = textOf(candidate.absolute);
    if (text === undefined || text.bytes !== undefined) continue;
    const file = parse(candidate.absolute);
    if (file) workspace.clientServers.setFile(file.path, clientServersOf(file));
  }
  const loaded: Omit<LoadedWorkspace, 'files'> = {
    workspace,
    root,
    configPath,
    configProblems,
    configText,
    linksOut: plan.linksOut,
    unmatchedCatalogGlobs: plan.unmatchedCatalogGlobs,
    configsNotRead: plan.configsNotRead,
    unreadable,
    parse,
    parseOnce,
  };
  return { loaded, wanted, parse, parseOnce };
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
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
  const stat = statSync(absolute);
  notAFile(stat);
  const bytes = stat.size;
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

/**
 * Only a regular file is read: a folder (a file replaced by one since it was listed), a FIFO (whose
 * read would wait for a writer for ever), a socket or a device is refused with what it is.
 */
function notAFile(stat: Stats): void {
  if (stat.isFile()) return;
  const what = stat.isDirectory()
    ? 'a folder'
    : stat.isFIFO()
      ? 'a FIFO (named pipe)'
      : stat.isSocket()
        ? 'a socket'
        : 'a device';
  throw new Error(`it is ${what}, not a file`);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `readWithin`, without blocking (the language server's file-watch events). */
export async function readWithinAsync(absolute: string, fileBytes: number): Promise<DiskText> {
  const stats = await stat(absolute);
  notAFile(stats);
  const bytes = stats.size;
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
  return {
    ...config,
    kinds,
    overrides: config.overrides.map((o) => ({ ...o, files: o.files.map((g) => rebaseGlob(g, configRoot, root)) })),
  };
}
