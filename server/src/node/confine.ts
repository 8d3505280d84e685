// Writing only inside the workspace: where a write would really land, every symbolic link on the
// way resolved, and a refusal that names the link when that is outside. `--fix` (cli/fix.ts) and
// the catalog snapshots (live/snapshot.ts, from the CLI and the editor) write nothing else.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { toPosix } from './paths.js';
import { isInside } from './walk.js';

/** A write refused because it would land outside the workspace. The message says which link leads out. */
export class OutsideWorkspace extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutsideWorkspace';
  }
}

/**
 * The real path a write to `target` would land at: the deepest part of it that exists with every
 * link resolved, then the rest (which does not exist yet, so holds no link). Throws
 * `OutsideWorkspace` when that is not inside `root` (links resolved too), or when a link on the
 * way leads nowhere.
 */
export function confinedTarget(root: string, target: string): string {
  const realRoot = realpathSync(root);
  const absolute = resolve(root, target);
  let existing = absolute;
  const rest: string[] = [];
  while (!exists(existing)) {
    const parent = dirname(existing);
    if (parent === existing) break;
    rest.unshift(basename(existing));
    existing = parent;
  }
  let real: string;
  try {
    real = join(realpathSync(existing), ...rest);
  } catch {
    // lstat found it, realpath cannot follow it: a link to nothing (or a loop).
    throw new OutsideWorkspace(
      `${shown(root, absolute)} would be written through ${linkOnTheWay(root, absolute) ?? shown(root, existing)}, which leads nowhere; Tool Lens writes only inside the workspace ${realRoot}`,
    );
  }
  if (isInside(realRoot, real)) return real;
  const link = linkOnTheWay(root, absolute);
  const why = link
    ? `${link} is a symbolic link that leads out of the workspace, to ${real}`
    : `it is outside the workspace (${real})`;
  throw new OutsideWorkspace(
    `not writing ${shown(root, absolute)}: ${why}. Tool Lens writes only inside the workspace ${realRoot}`,
  );
}

/** Whether a path exists as an entry (a dangling link counts). */
function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The first symbolic link on the way from `root` to `absolute`, as "name -> target". */
function linkOnTheWay(root: string, absolute: string): string | undefined {
  const base = resolve(root);
  const steps = isInside(base, absolute)
    ? relative(base, absolute).split(sep).filter(Boolean)
    : absolute.split(sep).filter(Boolean);
  let at = isInside(base, absolute) ? base : sep;
  for (const step of steps) {
    at = join(at, step);
    try {
      if (lstatSync(at).isSymbolicLink()) return `${shown(root, at)} -> ${readlinkSync(at)}`;
    } catch {
      return undefined; // the rest does not exist yet
    }
  }
  return undefined;
}

function shown(root: string, path: string): string {
  const rel = relative(resolve(root), path);
  return rel === '' ? '.' : rel.startsWith('..') ? path : toPosix(rel);
}
