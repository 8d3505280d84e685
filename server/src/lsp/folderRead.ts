// A read of a workspace folder from disk, as the CLI reads it (node/loader.ts discoverWorkspace):
// the configuration found upward, the files to check, each read within the workspace's fileBytes.
// Nothing is parsed here; the session applies what was read to its entries.
import { existsSync, statSync } from 'node:fs';
import type { Workspace } from '../core/workspace.js';
import type { Finding } from '../core/types.js';
import { discoverWorkspace, readWithin, type DiskText } from '../node/loader.js';
import type { LinkOut } from '../node/walk.js';
import { errorText } from './listeners.js';

export interface FolderRead {
  workspace: Workspace;
  /** The active configuration file (absolute, native separators). */
  configPath: string | undefined;
  configProblems: Finding[];
  configText: string | undefined;
  /** Symbolic links the walk did not follow. */
  linksOut: LinkOut[];
  /** The files to check that this folder owns, in the walk's order, each as read. */
  files: { absolute: string; read: DiskText }[];
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
  const loaded = discoverWorkspace({ paths: ['.'], cwd: root, log });
  const files: FolderRead['files'] = [];
  for (const absolute of loaded.targets) {
    if (!owns(absolute)) continue; // a nested workspace folder's file: that folder reads it
    try {
      files.push({ absolute, read: readWithin(absolute, loaded.workspace.limits.fileBytes) });
    } catch (error) {
      log(`cannot read ${absolute}: ${errorText(error)}`);
    }
  }
  return {
    workspace: loaded.workspace,
    configPath: loaded.configPath,
    configProblems: loaded.configProblems,
    configText: loaded.configText,
    linksOut: loaded.linksOut,
    files,
  };
}
