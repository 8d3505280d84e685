// Process trees: the environment a server starts with, and stopping it and everything it started, so that nothing a fetch launched outlives it.
import { accessSync, constants, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, resolve } from 'node:path';
import { describe, isRecord } from './errors.js';
import { sdk } from './sdk.js';

/**
 * The child's whole environment: PATH and HOME from ours, plus the entry's own `env`. The SDK
 * always merges its own list of inherited variables, so those we do not pass are set to
 * undefined, which child_process leaves out. (On Windows the SDK's list is kept: programs there
 * cannot start without SYSTEMROOT and friends.)
 */
export function minimalEnvironment(own: Record<string, string>): Record<string, string> {
  // A Map, then own properties: a variable the user names `__proto__` stays a variable.
  const env = new Map<string, string | undefined>();
  const keep = process.platform === 'win32' ? sdk().DEFAULT_INHERITED_ENV_VARS : ['PATH', 'HOME'];
  for (const key of sdk().DEFAULT_INHERITED_ENV_VARS) env.set(key, undefined);
  for (const key of keep) {
    const value = process.env[key];
    if (value !== undefined && !value.startsWith('()')) env.set(key, value);
  }
  for (const [key, value] of Object.entries(own)) env.set(key, value);
  return Object.fromEntries(env) as Record<string, string>;
}

/** The PATH the child gets: the entry's own, or else ours (undefined when neither is set). */
export function childPath(own: Record<string, string>): string | undefined {
  if (Object.hasOwn(own, 'PATH')) return own.PATH;
  const ours = process.env.PATH;
  return ours !== undefined && !ours.startsWith('()') ? ours : undefined;
}

export interface ResolvedExecutable {
  /** Absolute, as the start will find it. */
  path: string;
  /** `path` with every link resolved. */
  real: string;
  /** Found by searching the PATH (the command had no slash). */
  viaPath: boolean;
}

/**
 * The file a stdio launch runs, found the way the start finds it (libuv's execvp, after changing to
 * the launch's folder): a command with a slash is taken relative to that folder; any other is
 * looked for in each entry of the PATH the child gets, relative entries (and empty ones, which
 * mean the folder itself) taken from that folder too; the first regular file we may execute wins.
 * Undefined when there is none (the start will fail), and on Windows, where the rules differ.
 */
export function resolveExecutable(
  command: string,
  own: Record<string, string>,
  cwd: string,
): ResolvedExecutable | undefined {
  if (process.platform === 'win32' || command === '') return undefined;
  if (command.includes('/')) {
    const path = isAbsolute(command) ? command : resolve(cwd, command);
    return executable(path) ? { path, real: realOf(path), viaPath: false } : undefined;
  }
  // libuv's default when the child has no PATH at all.
  const search = childPath(own) ?? '/usr/local/bin:/bin:/usr/bin';
  for (const entry of search.split(delimiter)) {
    const path = resolve(cwd, entry, command);
    if (executable(path)) return { path, real: realOf(path), viaPath: true };
  }
  return undefined;
}

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false; // missing, a folder, or not ours to run: the search goes on, as execvp's does
  }
}

function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path; // it was there a moment ago; the start will say what went wrong
  }
}

/** Whether an error is the command failing to start (not found, not executable...). */
export function isSpawnError(error: unknown): boolean {
  return isRecord(error) && typeof error.syscall === 'string' && error.syscall.startsWith('spawn');
}

/** A server process and its descendants, as they were when the tree was taken. */
export interface ProcessTree {
  pid: number;
  descendants: number[];
}

/**
 * The process and every descendant it has now. Taken before the server's input is closed: once
 * the server exits, its children are re-parented and can no longer be found from its pid.
 */
export function processTreeOf(pid: number): ProcessTree {
  return { pid, descendants: descendantsOf(pid) };
}

/**
 * Stops a process tree whose root was asked to end (its input closed): SIGTERM, then SIGKILL,
 * each after the grace period; whatever it started (an `npx` wrapper starts the real server as a
 * grandchild) is killed at the end if it is still there. `log` gets notes without the server's name.
 */
export async function stopProcessTree(tree: ProcessTree, graceMs: number, log: (line: string) => void): Promise<void> {
  const { pid } = tree;
  if (!(await waitGone(pid, graceMs))) {
    signal(pid, 'SIGTERM', log);
    if (!(await waitGone(pid, graceMs))) {
      signal(pid, 'SIGKILL', log);
      if (!(await waitGone(pid, 2_000))) log(`process ${pid} is still there after SIGKILL`);
    }
  }
  const left = tree.descendants.filter(isAlive);
  for (const child of left) signal(child, 'SIGKILL', log);
  for (const child of left) {
    if (!(await waitGone(child, 2_000))) log(`process ${child}, started by the server, is still there after SIGKILL`);
  }
}

function signal(pid: number, name: NodeJS.Signals, log: (line: string) => void): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    // Gone between the check and the signal: that is the outcome we wanted.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH')
      log(`cannot send ${name} to process ${pid}: ${describe(error)}`);
  }
}

/** Whether a process exists and has not exited (a zombie counts as gone). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    // ESRCH: gone. EPERM: the pid was reused by someone else's process, so ours is gone too.
    return false;
  }
  if (process.platform !== 'linux') return true;
  const stat = readProcStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (!isAlive(pid)) return true;
    if (Date.now() >= until) return false;
    await sleep(20);
  }
}

/** Every descendant of `pid`, from /proc (Linux); elsewhere none are known. */
function descendantsOf(pid: number): number[] {
  if (process.platform !== 'linux') return [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return []; // no /proc mounted: only the direct child can be stopped
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcStat(Number(entry));
    if (!stat) continue;
    const list = children.get(stat.ppid);
    if (list) list.push(Number(entry));
    else children.set(stat.ppid, [Number(entry)]);
  }
  const out: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    out.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return out;
}

function readProcStat(pid: number): { state: string; ppid: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // the process ended while we looked: nothing to report
  }
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ")".
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', ppid: Number(fields[1]) };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
