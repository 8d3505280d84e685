// Which files a run reads and which of them may be catalogs, one rule for the CLI (node/loader.ts) and the language server (lsp/session.ts), so both check and catalogue the same files in the same order.
//
// Files to check: every file with a checked extension under the folder, dot-files included, except
// inside an ignored folder at any depth, found without following a symbolic link (node/walk.ts).
// Catalogs: the files catalog globs name (whatever their content), then the checked files that
// parse as catalogs. They join the catalog in one order, named ones first, each group by absolute
// path, because the first server of a name wins. Globs are config/glob.ts's (bounded matching).
import { existsSync, realpathSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { CatalogIndex } from '../core/catalog/index.js';
import { compileGlob, type Glob } from '../core/config/glob.js';
import type { ParsedFile } from '../core/parse/file.js';
import { kindFromName } from '../core/parse/kinds.js';
import { speltOtherwise } from '../core/parse/prefilter.js';
import type { Workspace } from '../core/workspace.js';
import { toPosix } from './paths.js';
import { isInside, walkFolder, type LinkOut, type Walk } from './walk.js';

export const CHECKED_EXTENSIONS = ['yaml', 'yml', 'json', 'jsonc', 'jsonl'];
/** The files of a folder that are checked, as a glob relative to the folder. */
export const CHECKED_GLOB = `**/*.{${CHECKED_EXTENSIONS.join(',')}}`;
/**
 * The one TOML file that is checked: Codex's configuration (parse/clients.ts CLIENTS). Other TOML
 * files (Cargo.toml, pyproject.toml) are never ours, so no `*.toml` is walked.
 */
export const CHECKED_TOML_GLOB = '**/.codex/config.toml';
/** Folders never read, at any depth (dependencies and version control). */
const IGNORED_DIRS = ['node_modules', '.git'];

// The walk (node/walk.ts) and the path tests below use the same two rules.
const checkedGlob = compileGlob(CHECKED_GLOB);
const checkedToml = compileGlob(CHECKED_TOML_GLOB);
const checkedName = { matches: (path: string) => checkedGlob.matches(path) || checkedToml.matches(path) };

/** Whether a path (relative to the folder, posix separators) lies inside an ignored folder. */
export function isIgnoredPath(relativePath: string): boolean {
  const segments = relativePath.split('/');
  return segments.slice(0, -1).some((segment) => IGNORED_DIRS.includes(segment));
}

/**
 * Whether the walk of a folder finds a file at this path (relative to the folder, posix
 * separators): the test for a file that appears after the walk (a file-watch event). A path
 * through a symbolic link is not one the walk finds: see `isWalkedPath`.
 */
export function isCheckedPath(relativePath: string): boolean {
  return checkedName.matches(relativePath) && !isIgnoredPath(relativePath);
}

/**
 * Whether a path under a folder names its file without a symbolic link in between, as the walk
 * names the files it finds (it follows no link). False for a path that does not exist.
 */
export function isWalkedPath(folder: string, relativePath: string): boolean {
  try {
    return realpathSync(join(folder, relativePath)) === join(realpathSync(folder), relativePath);
  } catch {
    return false;
  }
}

/**
 * The files to check under a folder (absolute paths, sorted), and the links out of it that were
 * not followed (node/walk.ts).
 */
export function walkCheckedFiles(folder: string): Walk {
  const walk = walkFolder(folder, { ignoredDirs: IGNORED_DIRS, wanted: (path) => checkedName.matches(path) });
  walk.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return walk;
}

/**
 * A catalog glob (`.toollens.yaml` `catalogs`, `--catalog`, the `toolLens.catalogs` setting) and
 * the folder it is relative to. A confined glob names only files inside that folder (the
 * configuration's and the setting's: their text was checked not to leave it, see
 * `leavesFolder`; a link that leads out is not followed); `--catalog` names what the user typed.
 */
export interface CatalogGlob {
  glob: string;
  base: string;
  confined: boolean;
}

export interface CatalogGlobFiles {
  /** Absolute paths, sorted, each file once, named by where it lies when inside the glob's folder. */
  files: string[];
  /** Globs that name no file. */
  unmatched: string[];
  linksOut: LinkOut[];
  unreadable: { folder: string; error: string }[];
}

/**
 * The files catalog globs name. A glob that is the path of an existing file names that file, glob
 * characters in its name or not; another is matched against the files below its folders without
 * glob characters (`vendor` of `vendor/**\/*.json`), the ignored folders left out, no link
 * followed below them. A glob Tool Lens cannot read (config/glob.ts) goes to `onError` and names
 * nothing; without `onError` it throws.
 */
export function filesOfCatalogGlobs(
  globs: readonly CatalogGlob[],
  onError?: (glob: string, problem: string) => void,
): CatalogGlobFiles {
  const files = new Set<string>();
  const result: CatalogGlobFiles = { files: [], unmatched: [], linksOut: [], unreadable: [] };
  for (const catalogGlob of globs) {
    const found = filesOfCatalogGlob(catalogGlob, result);
    if (typeof found === 'string') {
      if (!onError) throw new Error(`${catalogGlob.glob}: ${found}`);
      onError(catalogGlob.glob, found);
      continue;
    }
    for (const file of found) files.add(file);
    if (found.length === 0) result.unmatched.push(catalogGlob.glob);
  }
  result.files = [...files].sort();
  return result;
}

/** Where a glob's files are: the file it names, or the folder its matches lie below. */
type GlobPlace =
  | { file: string }
  | { problem: string }
  | { compiled: Glob; start: string; startName: string; boundary: string | undefined }
  | undefined;

/**
 * Where a glob's files are, and by which name (by where they lie when that is inside the glob's
 * folder, so that a file reached through a link has the name the walk of the folder gives it).
 * Undefined when there is nothing (then a confined glob's link out is in `linksOut`).
 */
function placeOf({ glob, base, confined }: CatalogGlob, linksOut: LinkOut[]): GlobPlace {
  let baseReal: string;
  try {
    baseReal = realpathSync(base);
  } catch {
    return undefined;
  }
  const nameOf = (path: string): string | undefined => {
    const real = realpathSync(path);
    if (isInside(baseReal, real)) return join(base, relative(baseReal, real));
    if (confined) {
      linksOut.push({ link: path, target: real });
      return undefined;
    }
    return path;
  };
  const named = resolve(base, glob);
  if (existsSync(named) && statSync(named).isFile()) {
    const file = nameOf(named);
    return file === undefined ? undefined : { file };
  }
  const compiled = compileGlob(glob);
  if (compiled.problem !== undefined) return { problem: compiled.problem };
  if (compiled.literal !== undefined) return undefined;
  const start = resolve(base, compiled.prefix);
  if (!existsSync(start) || !statSync(start).isDirectory()) return undefined;
  const startName = nameOf(start);
  if (startName === undefined) return undefined;
  // A link to elsewhere in the glob's folder is not followed either, but nothing is lost by it.
  return { compiled, start, startName, boundary: confined ? baseReal : undefined };
}

/** The glob's text for a path below its start folder. */
function globPathOf(compiled: Glob, rel: string): string {
  if (compiled.prefix === '') return rel;
  return compiled.prefix.endsWith('/') ? compiled.prefix + rel : `${compiled.prefix}/${rel}`;
}

/** The files of one glob, or why it cannot be read. */
function filesOfCatalogGlob(catalogGlob: CatalogGlob, result: CatalogGlobFiles): string[] | string {
  const place = placeOf(catalogGlob, result.linksOut);
  if (place === undefined) return [];
  if ('file' in place) return [place.file];
  if ('problem' in place) return place.problem;
  const { compiled, start, startName, boundary } = place;
  const walk = walkFolder(start, {
    boundary,
    ignoredDirs: IGNORED_DIRS,
    maxDepth: compiled.depthBelowPrefix,
    wanted: (rel) => {
      const path = globPathOf(compiled, rel);
      return compiled.matches(path) && !isIgnoredPath(path);
    },
  });
  result.linksOut.push(...walk.linksOut);
  result.unreadable.push(...walk.unreadable);
  return walk.files.map((file) => join(startName, relative(start, file.path)));
}

/**
 * Whether catalog globs name a file (absolute, named as the walk names it): the test for a file
 * that appears after `filesOfCatalogGlobs` ran (a file-watch event), with its rules.
 */
export function catalogGlobsName(globs: readonly CatalogGlob[], absolute: string): boolean {
  return globs.some((catalogGlob) => {
    const place = placeOf(catalogGlob, []);
    if (place === undefined || 'problem' in place) return false;
    if ('file' in place) return place.file === absolute;
    const { compiled, startName } = place;
    if (!isInside(startName, absolute) || absolute === startName) return false;
    const rel = toPosix(relative(startName, absolute));
    const path = globPathOf(compiled, rel);
    return (
      rel.split('/').length <= compiled.depthBelowPrefix &&
      compiled.matches(path) &&
      !isIgnoredPath(path) &&
      isWalkedPath(startName, rel)
    );
  });
}

/**
 * Whether catalog globs name a path by its text alone, whether or not a file lies there: the test
 * for a file as a git revision holds it (`catalog diff REV:PATH`). A glob that is a file's path
 * names that path; another names the paths below its folder it matches, outside ignored folders.
 * A confined glob names nothing outside its folder.
 */
export function catalogGlobsNamePath(globs: readonly CatalogGlob[], absolute: string): boolean {
  return globs.some(({ glob, base, confined }) => {
    if (resolve(base, glob) === absolute) return true;
    const rel = toPosix(relative(base, absolute));
    if (rel === '' || rel.startsWith('../') || rel === '..' || (confined && !isInside(base, absolute))) return false;
    const compiled = compileGlob(glob);
    return (
      compiled.problem === undefined && compiled.literal === undefined && compiled.matches(rel) && !isIgnoredPath(rel)
    );
  });
}

/**
 * Whether a file may hold a tool catalog, decided without parsing it: false only when it cannot.
 * A catalog is recognised by its name (`*.tools.json`, `*.catalog.yaml`), by a forced kind, or by
 * its content (`catalog: 1`, or a `tools/list` result, whose every tool has an `inputSchema`), so
 * its text names `catalog` or `inputSchema`, unless a key is spelled otherwise (escapes, a `!!binary`
 * key, a `%` in a tag: parse/prefilter.ts `speltOtherwise`), which we count as a "maybe" too. A false
 * "maybe" only costs a parse.
 */
export function mayBeCatalog(workspace: Workspace, path: string, text: string): boolean {
  if (kindFromName(path) === 'tool-catalog' || workspace.forcedKind(path) === 'tool-catalog') return true;
  return text.includes('catalog') || text.includes('inputSchema') || speltOtherwise(text);
}

/** A file that may join the catalog. */
export interface CatalogCandidate {
  /** Its absolute path, which orders the candidates. */
  absolute: string;
  /** A catalog glob names it: it joins whatever its content, before every other file. */
  named: boolean;
}

/**
 * The order in which candidates join the catalog: those a catalog glob names first (they are what
 * the user asked for), then the others, each group sorted by absolute path. Give each file once.
 */
function catalogOrder<T extends CatalogCandidate>(candidates: Iterable<T>): T[] {
  const byPath = (a: T, b: T) => (a.absolute < b.absolute ? -1 : a.absolute > b.absolute ? 1 : 0);
  const all = [...candidates];
  return [...all.filter((c) => c.named).sort(byPath), ...all.filter((c) => !c.named).sort(byPath)];
}

/**
 * Adds the candidates to the catalog in `catalogOrder`: a named one whatever it parses as, another
 * when it parses as a catalog. `fileOf` parses (undefined: unreadable, left out); `mayBe`, when
 * given, skips the parse of a file that cannot be a catalog (see `mayBeCatalog`).
 */
export function joinCatalog<T extends CatalogCandidate>(
  catalog: CatalogIndex,
  candidates: Iterable<T>,
  fileOf: (candidate: T) => ParsedFile | undefined,
  mayBe?: (candidate: T) => boolean,
): void {
  for (const candidate of catalogOrder(candidates)) {
    if (!candidate.named && mayBe && !mayBe(candidate)) continue;
    const file = fileOf(candidate);
    if (!file) continue;
    if (candidate.named) catalog.addFile(file, { named: true });
    else if (file.kind === 'tool-catalog' && !catalog.hasFile(file.path)) catalog.addFile(file);
  }
}
