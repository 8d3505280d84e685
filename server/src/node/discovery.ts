// Which files a run reads and which of them may be catalogs, one rule for the CLI (node/loader.ts) and the language server (lsp/session.ts), so both check and catalogue the same files in the same order.
//
// Files to check: every file with a checked extension under the folder, dot-files included, except
// inside an ignored folder at any depth. Catalogs: the files catalog globs name (whatever their
// content), then the checked files that parse as catalogs. They join the catalog in one order,
// named ones first, each group by absolute path, because the first server of a name wins.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import picomatch from 'picomatch';
import { globSync } from 'tinyglobby';
import type { CatalogIndex } from '../core/catalog/index.js';
import type { ParsedFile } from '../core/parse/file.js';
import { kindFromName } from '../core/parse/kinds.js';
import type { Workspace } from '../core/workspace.js';

export const CHECKED_EXTENSIONS = ['yaml', 'yml', 'json', 'jsonc', 'jsonl'];
/** The files of a folder that are checked, as a glob relative to the folder. */
export const CHECKED_GLOB = `**/*.{${CHECKED_EXTENSIONS.join(',')}}`;
/** Folders never read, at any depth (dependencies and version control). */
const IGNORED_DIRS = ['node_modules', '.git'];
const IGNORED_GLOBS = IGNORED_DIRS.map((dir) => `**/${dir}/**`);

// The walk (tinyglobby) and the path tests below both match with picomatch, with the same options.
const isCheckedName = picomatch(CHECKED_GLOB, { dot: true });
const isInIgnoredDir = picomatch(IGNORED_GLOBS, { dot: true });

/** Whether a path (relative to the folder, posix separators) lies inside an ignored folder. */
export function isIgnoredPath(relativePath: string): boolean {
  return isInIgnoredDir(relativePath);
}

/**
 * Whether the walk of a folder finds a file at this path (relative to the folder, posix
 * separators): the test for a file that appears after the walk (a file-watch event).
 */
export function isCheckedPath(relativePath: string): boolean {
  return isCheckedName(relativePath) && !isInIgnoredDir(relativePath);
}

/** The files to check under a folder: absolute paths, sorted. */
export function checkedFilesUnder(folder: string): string[] {
  return globSync(CHECKED_GLOB, { cwd: folder, dot: true, ignore: IGNORED_GLOBS, absolute: true })
    .map((file) => resolve(file))
    .sort();
}

/** A catalog glob (`.toollens.yaml` `catalogs`, `--catalog`, the `toolLens.catalogs` setting) and the folder it is relative to. */
export interface CatalogGlob {
  glob: string;
  base: string;
}

/**
 * The files catalog globs name: absolute paths, sorted, each once. A glob that is the absolute
 * path of an existing file names that file, glob characters in its name or not. A glob that
 * cannot be read throws, unless `onError` takes it (then its files are left out).
 */
export function filesOfCatalogGlobs(globs: readonly CatalogGlob[], onError?: (glob: string, error: unknown) => void): string[] {
  const files = new Set<string>();
  for (const { glob, base } of globs) {
    try {
      if (isAbsolute(glob) && existsSync(glob) && statSync(glob).isFile()) {
        files.add(resolve(glob));
        continue;
      }
      for (const file of globSync(glob, { cwd: base, dot: true, ignore: IGNORED_GLOBS, absolute: true })) files.add(resolve(file));
    } catch (error) {
      if (!onError) throw error;
      onError(glob, error);
    }
  }
  return [...files].sort();
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
