// Where `tool-lens catalog diff` reads a catalog from: a snapshot file, a folder of snapshots (the
// files a check would read there), or a folder or file as a git revision holds it (`REV:PATH`, as
// `git show` spells it; `main:catalogs`, `HEAD~1:catalogs/github.catalog.yaml`). Git runs without a
// shell, and only `ls-tree` and `show`: reading a revision changes nothing in the repository.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { isCheckedPath, walkCheckedFiles } from './discovery.js';
import { UsageError } from './loader.js';
import { toPosix } from './paths.js';

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

export function readCatalogSource(spec: string, cwd: string): CatalogSource {
  const absolute = resolve(cwd, spec);
  if (existsSync(absolute)) return { spec, files: fromDisk(absolute, cwd) };
  const revision = /^([^:]+):(.*)$/.exec(spec);
  if (!revision) throw new UsageError(`${spec} is neither a file, a folder nor REV:PATH`);
  return { spec, files: fromGit(revision[1]!, revision[2] || '.', cwd) };
}

function fromDisk(absolute: string, cwd: string): SourceFile[] {
  const paths = statSync(absolute).isDirectory() ? walkCheckedFiles(absolute).files.map((f) => f.path) : [absolute];
  return paths.map((path) => ({
    path: toPosix(relative(cwd, path)) || '.',
    text: readFileSync(path, 'utf8'),
    standsFor: path,
  }));
}

function fromGit(revision: string, path: string, cwd: string): SourceFile[] {
  const git = (args: string[]): string => {
    try {
      return execFileSync('git', args, {
        cwd,
        encoding: 'utf8',
        maxBuffer: GIT_MAX_BUFFER,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr?.trim();
      throw new UsageError(`git cannot read ${revision}:${path}${stderr ? `: ${stderr.split('\n')[0]}` : ''}`);
    }
  };
  // Paths relative to the current folder in and out, as `git ls-tree` gives them without --full-name.
  const listed = git(['ls-tree', '-r', '--name-only', revision, '--', path])
    .split('\n')
    .filter((line) => line !== '');
  if (listed.length === 0) throw new UsageError(`${revision}:${path} names no file in git`);
  const single = listed.length === 1 && toPosix(listed[0]!) === toPosix(path).replace(/^\.\//, '');
  const wanted = single ? listed : listed.filter((file) => isCheckedPath(file));
  return wanted.map((file) => ({
    path: `${revision}:${toPosix(file)}`,
    text: git(['show', `${revision}:./${file}`]),
    standsFor: resolve(cwd, file),
  }));
}
