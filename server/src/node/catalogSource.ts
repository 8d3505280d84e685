// Where `tool-lens catalog diff` reads a catalog from: a snapshot file, a folder of snapshots (the
// files a check would read there, and those the configuration's catalog globs name), or a folder
// or file as a git revision holds it (`REV:PATH`, as `git show` spells it; `main:catalogs`,
// `HEAD~1:catalogs/github.catalog.yaml`).
//
// Reading a revision runs git, and git in a repository someone else prepared can be told by that
// repository's own config to run programs: a partial clone fetches missing objects from its
// "promisor" remote (through an upload-pack command run by a shell, or an `ext::` transport), and
// `git show` of a submodule entry shows a commit's patch through textconv drivers. So git runs
// without a shell, only as plumbing (`ls-tree -z` to list, `cat-file blob` to read: neither runs a
// filter, a textconv, a diff, a pager or a hook), and with `gitEnvironment`/`GIT_HARDENING`, which
// the command line and the environment set over anything the repository's config (and the files
// it includes) says. A file the diff should compare that git cannot give as a plain blob (a
// submodule entry, a symbolic link, an object that is missing) stops the diff: it never compares
// fewer files than it was asked to.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { isCheckedPath, walkCheckedFiles } from './discovery.js';
import { UsageError } from './loader.js';
import { toPosix } from './paths.js';
import { isInside } from './walk.js';

export interface SourceFile {
  /** How the file is named in output: relative to the current folder, or `REV:path`. */
  path: string;
  text: string;
  /** The working-tree file this one stands for (absolute), so the workspace's own copy is not read twice. */
  standsFor: string;
}

export interface CatalogSource {
  spec: string;
  files: SourceFile[];
}

/** Git output is bounded: a revision of a snapshot folder is megabytes, not gigabytes. */
const GIT_MAX_BUFFER = 256 * 1024 * 1024;
/** And so is its time: a config include that names a FIFO must not hang the run. */
const GIT_TIMEOUT_MS = 120_000;

/**
 * Options before git's subcommand: they are command-line config, which wins over every config
 * file (system, global, the repository's and whatever they include).
 */
export const GIT_HARDENING: readonly string[] = [
  '--no-pager',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'protocol.allow=never',
];

/**
 * The environment git runs with. `GIT_ALLOW_PROTOCOL` set to no protocol is read before any
 * config (a repository's `protocol.file.allow=always` included), so no transport starts: a lazy
 * fetch of a partial clone's missing object fails instead of running its remote's command.
 * `GIT_NO_LAZY_FETCH` says the same to git 2.44 and later, which do not even try.
 */
export function gitEnvironment(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  // The program an external diff would be, were one asked for (none is: the commands are plumbing).
  delete env.GIT_EXTERNAL_DIFF;
  return {
    ...env,
    GIT_ALLOW_PROTOCOL: '',
    GIT_NO_LAZY_FETCH: '1',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    // A revision reads the objects it names, not what refs/replace puts in their place.
    GIT_NO_REPLACE_OBJECTS: '1',
  };
}

/** What the configuration's catalog globs name: they join the catalog whatever their content or extension. */
export interface NamedBy {
  /** The files on disk they name (absolute). */
  files: readonly string[];
  /** Whether they name this path (absolute; for a revision, where its file would lie in the working tree). */
  names: (absolute: string) => boolean;
}

const NOTHING_NAMED: NamedBy = { files: [], names: () => false };

export function readCatalogSource(spec: string, cwd: string, named: NamedBy = NOTHING_NAMED): CatalogSource {
  const absolute = resolve(cwd, spec);
  if (existsSync(absolute)) return { spec, files: fromDisk(absolute, cwd, named) };
  const revision = /^([^:]+):(.*)$/.exec(spec);
  if (!revision) throw new UsageError(`${spec} is neither a file, a folder nor REV:PATH`);
  if (revision[1]!.startsWith('-')) throw new UsageError(`${spec}: a revision cannot start with "-"`);
  return { spec, files: fromGit(revision[1]!, revision[2] || '.', cwd, named) };
}

function fromDisk(absolute: string, cwd: string, named: NamedBy): SourceFile[] {
  let paths: string[];
  if (statSync(absolute).isDirectory()) {
    const walk = walkCheckedFiles(absolute);
    const unreadable = walk.unreadable[0];
    if (unreadable)
      throw new UsageError(
        `cannot read the folder ${toPosix(relative(cwd, unreadable.folder)) || '.'}: ${unreadable.error}`,
      );
    // The files a check reads there, and those the catalog globs name whatever their extension.
    const found = new Set(walk.files.map((f) => f.path));
    paths = [...found].sort();
    for (const file of named.files) if (isInside(absolute, file) && !found.has(file)) paths.push(file);
  } else {
    paths = [absolute];
  }
  return paths.map((path) => {
    const shown = toPosix(relative(cwd, path)) || '.';
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read ${shown}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { path: shown, text, standsFor: path };
  });
}

/** One entry of `git ls-tree`: what it is, and how it is named relative to the current folder. */
interface TreeEntry {
  mode: string;
  type: string;
  object: string;
  path: string;
}

function fromGit(revision: string, path: string, cwd: string, named: NamedBy): SourceFile[] {
  const env = gitEnvironment();
  const git = (args: string[], what: string): string => {
    try {
      return execFileSync('git', [...GIT_HARDENING, ...args], {
        cwd,
        env,
        encoding: 'utf8',
        maxBuffer: GIT_MAX_BUFFER,
        timeout: GIT_TIMEOUT_MS,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr?.trim();
      const why = stderr
        ? stderr
            .split('\n')
            .filter((line) => line.trim() !== '')
            .pop()
        : undefined;
      throw new UsageError(`git cannot read ${what}${why ? `: ${why}` : ''}`);
    }
  };
  // `-z`: names as they are (no quoting of unusual characters), each ended by a NUL. Paths are
  // relative to the current folder in and out, as `git ls-tree` gives them without --full-name.
  const listed = parseTree(
    git(['ls-tree', '-r', '-z', '--end-of-options', revision, '--', path], `${revision}:${path}`),
  );
  if (listed.length === 0) throw new UsageError(`${revision}:${path} names no file in git`);
  const single = listed.length === 1 && listed[0]!.path === toPosix(path).replace(/^\.\//, '');
  const wanted = single
    ? listed
    : listed.filter((entry) => isCheckedPath(entry.path) || named.names(resolve(cwd, entry.path)));
  return wanted.map((entry) => {
    const shown = `${revision}:${entry.path}`;
    if (entry.type !== 'blob' || (entry.mode !== '100644' && entry.mode !== '100755')) {
      const what =
        entry.type === 'commit' ? 'a submodule entry' : entry.mode === '120000' ? 'a symbolic link' : `a ${entry.type}`;
      throw new UsageError(`${shown} is ${what} in git, not a file: catalog diff cannot compare it`);
    }
    return {
      path: shown,
      // The blob itself, by its object id: no filter, textconv or attribute applies to it.
      text: git(['cat-file', 'blob', entry.object], shown),
      standsFor: resolve(cwd, entry.path),
    };
  });
}

/** `git ls-tree -z` output: `MODE SP TYPE SP OBJECT TAB PATH NUL`, repeated. */
function parseTree(output: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of output.split('\0')) {
    if (record === '') continue;
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t([\s\S]*)$/.exec(record);
    if (!match)
      throw new UsageError(
        `git ls-tree gave a line this version of Tool Lens cannot read: ${JSON.stringify(record.slice(0, 80))}`,
      );
    entries.push({ mode: match[1]!, type: match[2]!, object: match[3]!, path: toPosix(match[4]!) });
  }
  return entries;
}
