// What a file-watch event means to one workspace folder: read the whole folder again (a
// configuration that applies here appeared, changed or went away), nothing (not this folder's,
// ignored, reached through a symbolic link), or a change to apply to one file, which is checked
// here, named by a catalog glob, or both.
import { dirname } from 'node:path';
import { CONFIG_FILE_NAME } from '../core/config/config.js';
import { catalogGlobsName, isCheckedPath, isIgnoredPath, isWalkedPath, type CatalogGlob } from '../node/discovery.js';
import { isUnderRoot, isWithin } from './paths.js';

export type WatchKind = 'created' | 'changed' | 'deleted';

export type WatchVerdict =
  { action: 'reload' } | { action: 'ignore' } | { action: 'apply'; checked: boolean; globbed: boolean };

export interface WatchScope {
  /** The folder (absolute, native separators), if any. */
  root: string | undefined;
  /** A core path made absolute. */
  absolute(path: string): string;
  /** Whether a file (absolute) is this folder's, not a nested workspace folder's. */
  owns(absolute: string): boolean;
  /** The globs whose files join the catalog. */
  catalogGlobs: readonly CatalogGlob[];
  /** Whether the file was named by a catalog glob when last seen (for a file gone). */
  wasGlobbed(path: string): boolean;
}

export function watchVerdict(path: string, kind: WatchKind, scope: WatchScope): WatchVerdict {
  const { root } = scope;
  const name = path.split('/').pop() ?? path;
  const underRoot = isUnderRoot(path, root);
  // The configuration is found upward from the folder (node/loader.ts): one in a folder above,
  // such as that of a workspace folder this one is nested in, applies here too.
  if (name === CONFIG_FILE_NAME && root !== undefined && !underRoot && isWithin(dirname(scope.absolute(path)), root))
    return { action: 'reload' };
  if (!underRoot || isIgnoredPath(path)) return { action: 'ignore' };
  const owned = scope.owns(scope.absolute(path));
  if (name === CONFIG_FILE_NAME) {
    // A nested workspace folder's configuration is that folder's alone; this folder's appeared,
    // changed or went away: read everything again (rare, and globs may move).
    return owned ? { action: 'reload' } : { action: 'ignore' };
  }
  // A nested workspace folder's file is checked there; here it can only be a catalog a glob names.
  const checked = owned && isCheckedPath(path);
  // A file gone is no longer where a glob can find it: what it was is what its entry says.
  const globbed =
    kind === 'deleted' ? scope.wasGlobbed(path) : catalogGlobsName(scope.catalogGlobs, scope.absolute(path));
  if (!checked && !globbed) return { action: 'ignore' };
  // The walk follows no symbolic link (node/walk.ts): nor does a watch event.
  if (kind !== 'deleted' && root !== undefined && !isWalkedPath(root, path)) return { action: 'ignore' };
  return { action: 'apply', checked, globbed };
}
