// Node-only: finds the configuration, the files to check and the catalog snapshots on disk, and
// builds a Workspace from them. The CLI uses it for a run; the language server for its start-up.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { globSync } from 'tinyglobby';
import { CONFIG_FILE_NAME, parseConfig, type LensConfig } from '../core/config/config.js';
import type { ParsedFile } from '../core/parse/file.js';
import { kindFromName } from '../core/parse/kinds.js';
import { RULE_IDS } from '../core/rules/registry.js';
import type { Finding } from '../core/types.js';
import { Workspace, type Logger } from '../core/workspace.js';

export const CHECKED_EXTENSIONS = ['yaml', 'yml', 'json', 'jsonc', 'jsonl'];
const IGNORED_DIRS = ['**/node_modules/**', '**/.git/**'];

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
}

export class UsageError extends Error {}

/** `.toollens.yaml` in `start` or the nearest folder above it. */
export function findConfigUpward(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    const candidate = join(dir, CONFIG_FILE_NAME);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export function toPosix(path: string): string {
  return path.replace(/\\/g, '/');
}

/** What a run reads before any file is parsed: the configuration, the files and the catalog globs. */
export interface DiscoveredWorkspace {
  workspace: Workspace;
  /** Absolute paths of the files to check, sorted. */
  targets: string[];
  /** Absolute paths the catalog globs name (config `catalogs`, `--catalog`), sorted. */
  catalogOnly: string[];
  configPath?: string;
  configProblems: Finding[];
  configText?: string;
}

/** Finds the configuration and the files of a run without reading or parsing any of them. */
export function discoverWorkspace(options: LoadOptions): DiscoveredWorkspace {
  const cwd = resolve(options.cwd);
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
    configText = readFileSync(configPath, 'utf8');
    const result = parseConfig(toPosix(relative(cwd, configPath)), configText, RULE_IDS);
    configProblems = result.problems;
    workspace.config = rebaseConfig(result.config, configRoot, cwd);
  }

  const targets = new Set<string>();
  for (const path of options.paths.length ? options.paths : ['.']) {
    const absolute = resolve(cwd, path);
    if (!existsSync(absolute)) throw new UsageError(`no such file or folder: ${path}`);
    if (statSync(absolute).isDirectory()) {
      for (const file of globSync(`**/*.{${CHECKED_EXTENSIONS.join(',')}}`, { cwd: absolute, dot: true, ignore: IGNORED_DIRS, absolute: true })) {
        targets.add(resolve(file));
      }
    } else targets.add(absolute);
  }
  if (configPath) targets.delete(resolve(configPath));

  const catalogOnly = new Set<string>();
  for (const glob of workspace.config.catalogs) addGlob(glob, configRoot, catalogOnly);
  for (const glob of options.catalogGlobs ?? []) addGlob(glob, cwd, catalogOnly);
  return { workspace, targets: [...targets].sort(), catalogOnly: [...catalogOnly].sort(), configPath, configProblems, configText };
}

/**
 * Whether a file may hold a tool catalog, decided without parsing it: false only when it cannot.
 * A catalog is recognised by its name (`*.tools.json`, `*.catalog.yaml`), by a forced kind, or by
 * its content (`catalog: 1`, or a `tools/list` result, whose every tool has an `inputSchema`), so
 * its text names `catalog` or `inputSchema`, unless a key is spelled with escapes (`\u`, `\x`, an
 * escaped line break in JSON or double-quoted YAML), which we count as a "maybe" too. A false "maybe" only costs a parse.
 */
export function mayBeCatalog(workspace: Workspace, path: string, text: string): boolean {
  if (kindFromName(path) === 'tool-catalog' || workspace.forcedKind(path) === 'tool-catalog') return true;
  return text.includes('catalog') || text.includes('inputSchema') || /\\[xuU\r\n]/.test(text);
}

export function loadWorkspace(options: LoadOptions): LoadedWorkspace {
  const cwd = resolve(options.cwd);
  const { workspace, targets, catalogOnly, configPath, configProblems, configText } = discoverWorkspace(options);

  const parsed = new Map<string, ParsedFile>();
  const parse = (absolute: string): ParsedFile | undefined => {
    if (parsed.has(absolute)) return parsed.get(absolute);
    let text: string;
    try {
      text = readFileSync(absolute, 'utf8');
    } catch (error) {
      workspace.log(`cannot read ${absolute}: ${String(error)}`);
      return undefined;
    }
    const file = workspace.parse(toPosix(relative(cwd, absolute)), text);
    parsed.set(absolute, file);
    return file;
  };

  const files: ParsedFile[] = [];
  for (const absolute of targets) {
    const file = parse(absolute);
    if (file) files.push(file);
  }
  // Catalogs: explicit globs first (they are what the user asked for), then those found among the files.
  for (const absolute of catalogOnly) {
    const file = parse(absolute);
    if (file) workspace.catalog.addFile(file, { named: true });
  }
  for (const file of files) if (file.kind === 'tool-catalog' && !workspace.catalog.hasFile(file.path)) workspace.catalog.addFile(file);
  return { workspace, files, configPath, configProblems, configText };
}

function addGlob(glob: string, base: string, into: Set<string>): void {
  if (isAbsolute(glob) && existsSync(glob) && statSync(glob).isFile()) {
    into.add(resolve(glob));
    return;
  }
  const matches = globSync(glob, { cwd: base, dot: true, ignore: IGNORED_DIRS, absolute: true });
  for (const file of matches) into.add(resolve(file));
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
