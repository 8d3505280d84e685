// Paths and URIs in the language server, converted in one place: the client names files by URI, the core by path (relative to the workspace folder with posix separators, absolute outside it, the URI itself for a non-file URI).
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Workspace } from '../core/workspace.js';
import { toPosix } from '../node/paths.js';

/** The folder (native separators) of a workspace-folder URI; undefined for none or a non-file URI. */
export function folderOfUri(folderUri: string | undefined): string | undefined {
  if (!folderUri || !folderUri.startsWith('file:')) return undefined;
  return fileURLToPath(folderUri);
}

/** The core path of a URI; a file URI that cannot be read as a path is logged and kept as it is. */
export function pathOfUri(uri: string, workspace: Workspace, log: (message: string) => void): string {
  if (!uri.startsWith('file:')) return uri;
  let fsPath: string;
  try {
    fsPath = fileURLToPath(uri);
  } catch (error) {
    log(`cannot read the URI ${uri}: ${String(error)}`);
    return uri;
  }
  return pathOfAbsolute(fsPath, workspace);
}

/** The core path of an absolute file path. */
export function pathOfAbsolute(absolute: string, workspace: Workspace): string {
  return workspace.relative(toPosix(absolute));
}

/** The absolute path of a core path (unchanged when it is absolute already, or when there is no folder). */
export function absoluteOf(path: string, root: string | undefined): string {
  if (isAbsolute(path) || !root) return path;
  return resolve(root, path);
}

/** The file URI of a core path. */
export function fileUriOf(path: string, root: string | undefined): string {
  return pathToFileURL(absoluteOf(path, root)).href;
}

/** Whether a core path lies inside the workspace folder. */
export function isUnderRoot(path: string, root: string | undefined): boolean {
  return root !== undefined && !isAbsolute(path) && !path.includes('://') && !path.startsWith('untitled:');
}

/** Whether `absolute` is `root` or lies under it (absolute native paths). */
export function isWithin(root: string, absolute: string): boolean {
  const rel = relative(root, absolute);
  return rel === '' || (!isAbsolute(rel) && rel.split(sep)[0] !== '..');
}
