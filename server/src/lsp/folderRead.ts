// A read of a workspace folder from disk, as the CLI reads it (node/loader.ts discoverWorkspace):
// the configuration found upward, the files to check, each read within the workspace's fileBytes.
// Nothing is parsed here; the session applies what was read to its entries. A file that the CLI's
// pre-filter says holds nothing of ours (core/parse/prefilter.ts `mayBeOurs`, as node/loader.ts
// uses it) is let go as soon as it is read, so a folder of other YAML is never held whole.
import { existsSync, statSync } from 'node:fs';
import { mayBeOurs } from '../core/parse/prefilter.js';
import type { Workspace } from '../core/workspace.js';
import type { Finding } from '../core/types.js';
import { discoverWorkspace, readWithin, type DiskText } from '../node/loader.js';
import { toPosix } from '../node/paths.js';
import type { LinkOut } from '../node/walk.js';
import { errorText } from './listeners.js';

export interface FolderRead {
  workspace: Workspace;
  /** The active configuration file (absolute, native separators). */
  configPath: string | undefined;
  configProblems: Finding[];
  configText: string | undefined;
  /**
   * The `.toollens.yaml` found that cannot be read (a folder of that name, a FIFO, no permission)
   * and why: the folder is read with the built-in defaults instead (`configPath` is unset).
   */
  configUnreadable: { path: string; reason: string } | undefined;
  /** Symbolic links the walk did not follow. */
  linksOut: LinkOut[];
  /**
   * The files to check that this folder owns, in the walk's order, each as read, or `unrelated`
   * when its text cannot hold a document of ours (its text is not kept).
   */
  files: { absolute: string; read: DiskText | 'unrelated' }[];
}

/**
 * Reads the folder `root` (absolute, native separators); undefined when it is not a folder on
 * disk. `owns` says whether a file is this folder's (not a nested workspace folder's); a file that
 * cannot be read is logged and left out.
 */
export function readFolder(
  root: string,
  owns: (absolute: string) => boolean,
  log: (message: string) => void,
): FolderRead | undefined {
  if (!existsSync(root) || !statSync(root).isDirectory()) return undefined;
  const loaded = discoverWorkspace({ paths: ['.'], cwd: root, log, unreadableConfig: 'defaults' });
  const files: FolderRead['files'] = [];
  for (const absolute of loaded.targets) {
    if (!owns(absolute)) continue; // a nested workspace folder's file: that folder reads it
    try {
      const read = readWithin(absolute, loaded.workspace.limits.fileBytes);
      const path = loaded.workspace.relative(toPosix(absolute));
      const ours = read.bytes !== undefined || mayBeOurs(path, read.text, loaded.workspace.forcedKind(path));
      files.push({ absolute, read: ours ? read : 'unrelated' });
    } catch (error) {
      log(`cannot read ${absolute}: ${errorText(error)}`);
    }
  }
  return {
    workspace: loaded.workspace,
    configPath: loaded.configPath,
    configProblems: loaded.configProblems,
    configText: loaded.configText,
    configUnreadable: loaded.configUnreadable,
    linksOut: loaded.linksOut,
    files,
  };
}
