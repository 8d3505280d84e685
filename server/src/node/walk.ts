// Walking a folder for the files a run reads (node/discovery.ts says which). No symbolic link is
// followed below the folder: one that points inside it adds nothing (what it points to is walked
// under its own path, so each file is read once, and a link loop is no loop), and one that points
// out of it is skipped and returned, so that the run can say what it did not read
// (docs/behaviour.md, "Which files are read"). The folder itself may be reached through a link.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { byCount } from '../core/text/words.js';
import { toPosix } from './paths.js';

/** A symbolic link the walk did not follow because it leads out of the folder. */
export interface LinkOut {
  /** The link (absolute). */
  link: string;
  /** Where it leads (absolute, every link resolved). */
  target: string;
}

export interface WalkedFile {
  /** Absolute, under the folder as it was given. */
  path: string;
  /** Absolute, every link resolved: two names of one file have the same. */
  real: string;
}

export interface Walk {
  files: WalkedFile[];
  linksOut: LinkOut[];
  /** Folders that could not be listed, with the reason. */
  unreadable: { folder: string; error: string }[];
}

export interface WalkOptions {
  /** Folder names never entered, at any depth. */
  ignoredDirs: readonly string[];
  /** Whether a file (its path relative to the folder, posix separators) is one the walk wants. */
  wanted: (relativePath: string) => boolean;
  /** The most path segments a wanted file can have below the folder (default: any number). */
  maxDepth?: number;
  /**
   * A folder around this one (absolute, links resolved): a link to a place inside it is not
   * followed either, but is not returned as leading out. Default: the folder itself.
   */
  boundary?: string;
}

/** Whether `path` is `folder` or lies inside it (both absolute, links resolved). */
export function isInside(folder: string, path: string): boolean {
  if (path === folder) return true;
  return path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** The wanted files under a folder, in no particular order, each real file once. */
export function walkFolder(folder: string, options: WalkOptions): Walk {
  const walk: Walk = { files: [], linksOut: [], unreadable: [] };
  const maxDepth = options.maxDepth ?? Infinity;
  let folderReal: string;
  try {
    folderReal = realpathSync(folder);
  } catch (error) {
    walk.unreadable.push({ folder, error: errorText(error) });
    return walk;
  }
  const boundary = options.boundary ?? folderReal;
  const ignored = new Set(options.ignoredDirs);
  // Each folder once: without links the tree has no cycle, and every folder is reached by one path.
  const pending: { path: string; relative: string; depth: number }[] = [{ path: folder, relative: '', depth: 0 }];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(dir.path, { withFileTypes: true });
    } catch (error) {
      walk.unreadable.push({ folder: dir.path, error: errorText(error) });
      continue;
    }
    const depth = dir.depth + 1;
    for (const entry of entries) {
      const path = join(dir.path, entry.name);
      const rel = dir.relative ? `${dir.relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!ignored.has(entry.name) && depth < maxDepth) pending.push({ path, relative: rel, depth });
      } else if (entry.isFile()) {
        if (options.wanted(rel)) walk.files.push({ path, real: join(folderReal, ...rel.split('/')) });
      } else if (entry.isSymbolicLink()) {
        const out = leadsOut(path, boundary);
        if (!out) continue;
        // Said only when the walk would have gone there: a folder it would enter, a file it wants.
        const mattered = out.directory ? !ignored.has(entry.name) && depth < maxDepth : options.wanted(rel);
        if (mattered) walk.linksOut.push({ link: path, target: out.target });
      }
    }
  }
  return walk;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Where a link leads when that is out of the folder; undefined when inside, dangling or a loop. */
function leadsOut(link: string, boundary: string): { target: string; directory: boolean } | undefined {
  let target: string;
  try {
    target = realpathSync(link);
  } catch {
    return undefined; // dangling, or a cycle of links: there is nothing to read
  }
  if (isInside(boundary, target)) return undefined;
  try {
    return { target, directory: statSync(target).isDirectory() };
  } catch {
    return undefined;
  }
}

/**
 * How the run says which links it did not follow: one sentence for all of them, naming a few
 * (relative to `cwd`). Undefined when there are none.
 */
export function linksOutNote(linksOut: readonly LinkOut[], cwd: string): string | undefined {
  const unique = [...new Map(linksOut.map((link) => [link.link, link])).values()].sort((a, b) =>
    a.link < b.link ? -1 : a.link > b.link ? 1 : 0,
  );
  if (unique.length === 0) return undefined;
  const shown = unique.slice(0, 5).map((link) => `${toPosix(relative(cwd, link.link))} -> ${toPosix(link.target)}`);
  const more = unique.length > shown.length ? `, and ${unique.length - shown.length} more` : '';
  const count = byCount(unique.length, 'a symbolic link that leads', `${unique.length} symbolic links that lead`);
  return `did not follow ${count} out of the folder being read, so nothing behind ${byCount(unique.length, 'it', 'them')} is checked: ${shown.join(', ')}${more}`;
}
