// What a local server entry fetches when its client starts it: the package a runner downloads
// (`npx`, `bunx`, `pnpm dlx`, `yarn dlx`, `uvx`, `uv run --with`, `pipx run`), the image
// `docker run` pulls, and a runner inside `docker exec`. Each with whether it is pinned: an npm
// package with a version that is not a dist-tag, a Python one with `==`, a git source with a ref,
// an image with a tag other than `latest` or a digest. Client-neutral: every client starts
// `command` with `args` as written (opencode: one `command` list, the program first). Two bars: `pinned` (a version or a range: what the rule
// client/unpinned-package and the hover accept) and `exact` (an exact version, a git ref, a tag or
// a full digest: what `tool-lens servers` calls pinned, `pinOf`). The one analysis of both, read
// from nodes (`fetchedBy`, with the node to report at) or from plain words (`pinOf`).
import type { MapNode, ScalarNode } from '../parse/nodes.js';
import { getNode, isScalar, isSeq } from '../parse/nodes.js';

export type FetchKind = 'npm' | 'python' | 'git' | 'image';

export interface Fetched<N = ScalarNode> {
  kind: FetchKind;
  /** The package, image or repository as written. */
  spec: string;
  /** A version, a range, a ref, a tag or a digest fixes what is fetched (not a dist-tag, not `latest`). */
  pinned: boolean;
  /** Exactly one thing can be fetched: an exact version (`1.2.3`, `==1.2.3`), a git ref, a tag, a full digest. */
  exact: boolean;
  /** The scalar that names it (an item of `args`, or `command`). */
  node: N;
  /** The runner that fetches it (`npx`, `uvx`, `docker`...). */
  runner: string;
}

interface Word<N = ScalarNode> {
  text: string;
  node: N;
}

export type PinVerdict = 'pinned' | 'unpinned' | 'n/a';

/** What `tool-lens servers` says of a command line (docs/behaviour.md, "Listing the servers"). */
export interface Pin {
  /** `pinned`: everything fetched is exact; `unpinned`: something is not; `n/a`: nothing is fetched. */
  verdict: PinVerdict;
  /** What is fetched, as written (the first one not exact, else the first); absent for `n/a`. */
  fetches?: string;
  /** The runner that fetches it (`npx`, `uvx`, `docker`...). */
  runner?: string;
}

/** The pin of a command line (the command, then its arguments as written). */
export function pinOf(command: string, args: readonly string[]): Pin {
  const fetched = runnerFetches([command, ...args].map((text) => ({ text, node: undefined })));
  if (fetched.length === 0) return { verdict: 'n/a' };
  const loose = fetched.find((f) => !f.exact);
  const shown = loose ?? fetched[0]!;
  return { verdict: loose ? 'unpinned' : 'pinned', fetches: shown.spec, runner: shown.runner };
}

/** The command and its arguments as words, when all are plain strings. */
function wordsOf(entry: MapNode | undefined): Word[] | undefined {
  // A key written twice is yaml/duplicate-key's; which one the client reads is not ours to guess.
  const written = (key: string) => entry?.pairs.filter((p) => p.key.value === key).length ?? 0;
  if (written('command') > 1 || written('args') > 1) return undefined;
  const command = getNode(entry, 'command');
  // opencode writes the program and its arguments as one `command` list.
  if (isSeq(command)) {
    const line: Word[] = [];
    for (const item of command.items) {
      if (!isScalar(item) || typeof item.value !== 'string') return undefined;
      line.push({ text: item.value, node: item });
    }
    return line;
  }
  if (!isScalar(command) || typeof command.value !== 'string') return undefined;
  const words: Word[] = [{ text: command.value, node: command }];
  const args = getNode(entry, 'args');
  if (args !== undefined) {
    if (!isSeq(args)) return undefined;
    for (const item of args.items) {
      if (!isScalar(item) || item.value === null || typeof item.value === 'object') return undefined;
      words.push({ text: String(item.value), node: item });
    }
  }
  return words;
}

const baseCommand = (text: string) => (text.split(/[\\/]/).pop() ?? text).toLowerCase().replace(/\.(cmd|exe|bat)$/, '');

/** A path on this machine: not a fetch. */
const LOCAL = /^(\.{0,2}[\\/]|~[\\/]|[A-Za-z]:[\\/]|file:)/;
/** An exact version: 1.2.3, with an optional pre-release or build. */
const EXACT = /^v?\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/;

/** Everything an entry fetches as it starts, pinned or not. */
export function fetchedBy(entry: MapNode | undefined): Fetched[] {
  const words = wordsOf(entry);
  return words ? runnerFetches(words) : [];
}

function runnerFetches<N>(words: Word<N>[]): Fetched<N>[] {
  const [first, ...rest] = words;
  if (!first) return [];
  const cmd = baseCommand(first.text);
  // Windows starts a runner through its shell (`cmd /c npx -y pkg`): the rest of the line is what runs.
  if (cmd === 'cmd' && rest[0] && /^\/c$/i.test(rest[0].text))
    return runnerFetches(rest.slice(1)).map((f) => ({ ...f, runner: `cmd /c ${f.runner}` }));
  if (cmd === 'npx' || cmd === 'bunx') return npmFetch(rest, cmd);
  if ((cmd === 'pnpm' || cmd === 'yarn') && rest[0]?.text === 'dlx') return npmFetch(rest.slice(1), `${cmd} dlx`);
  if (cmd === 'uvx') return pythonFetch(rest, 'uvx');
  if (cmd === 'uv' && rest[0]?.text === 'tool' && rest[1]?.text === 'run')
    return pythonFetch(rest.slice(2), 'uv tool run');
  if (cmd === 'uv' && rest[0]?.text === 'run') return uvRunWith(rest.slice(1));
  if (cmd === 'pipx' && rest[0]?.text === 'run') return pythonFetch(rest.slice(1), 'pipx run');
  if (cmd === 'docker' || cmd === 'podman') return dockerFetch(rest, cmd);
  return [];
}

/** npx options that take a value (`-p pkg`, `--package pkg`, `-c cmd`). */
const NPX_VALUE_FLAGS = new Set(['-p', '--package', '-c', '--call', '--cache', '--registry', '--userconfig']);

function npmFetch<N>(args: Word<N>[], runner: string): Fetched<N>[] {
  const out: Fetched<N>[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a.text === '--') {
      i++;
      break;
    }
    if (!a.text.startsWith('-')) break;
    if (a.text === '-p' || a.text === '--package') {
      const value = args[i + 1];
      if (value) out.push(npmSpec(value, runner));
      i++;
    } else if (a.text.startsWith('--package=')) {
      out.push(npmSpec({ text: a.text.slice('--package='.length), node: a.node }, runner));
    } else if (NPX_VALUE_FLAGS.has(a.text)) {
      i++;
    }
  }
  if (out.length > 0) return out;
  const spec = args[i];
  if (!spec) return [];
  // A dev runner over the repository's own file (`npx tsx src/index.ts`, `./server.js`) runs the
  // project's own dependency when it has one: not a fetch Tool Lens can judge. An absolute path
  // (`server-filesystem /Users/me`) is the fetched package's own argument, no project file.
  const next = args[i + 1]?.text;
  if (!/@/.test(spec.text.slice(1)) && next !== undefined && /^\.{1,2}\/|\.(m?[jt]s|py)$/.test(next)) return [];
  if (LOCAL.test(spec.text)) return [];
  return [npmSpec(spec, runner)];
}

/** `name`, `name@1.2.3`, `@scope/name@latest`, `github:o/r#ref`, `git+https://...#ref`. */
function npmSpec<N>(word: Word<N>, runner: string): Fetched<N> {
  const text = word.text;
  if (/^(git\+|git:|github:|gitlab:|bitbucket:|https?:\/\/)/.test(text)) {
    const ref = /#.+/.test(text);
    return { kind: 'git', spec: text, pinned: ref, exact: ref, node: word.node, runner };
  }
  const at = text.indexOf('@', text.startsWith('@') ? 1 : 0);
  const version = at < 0 ? '' : text.slice(at + 1);
  // A version or a range pins what is fetched; a dist-tag (latest, next, beta) follows the registry.
  const pinned = version !== '' && /^[\^~<>=v]*\d/.test(version);
  return { kind: 'npm', spec: text, pinned, exact: EXACT.test(version), node: word.node, runner };
}

const UVX_VALUE_FLAGS = new Set([
  '--python',
  '-p',
  '--index',
  '--index-url',
  '--extra-index-url',
  '--with-requirements',
]);

function pythonFetch<N>(args: Word<N>[], runner: string): Fetched<N>[] {
  const out: Fetched<N>[] = [];
  const add = (word: Word<N>) => {
    if (!LOCAL.test(word.text)) out.push(pythonSpec(word, runner));
  };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (!a.text.startsWith('-')) break;
    if (a.text === '--from' || a.text === '--with') {
      const value = args[i + 1];
      if (value) add(value);
      i++;
    } else if (a.text.startsWith('--from=') || a.text.startsWith('--with=')) {
      add({ text: a.text.slice(a.text.indexOf('=') + 1), node: a.node });
    } else if (UVX_VALUE_FLAGS.has(a.text)) {
      i++;
    }
  }
  const hasFrom = args.slice(0, i).some((a) => a.text === '--from' || a.text.startsWith('--from='));
  const spec = args[i];
  if (!hasFrom && spec) add(spec);
  return out;
}

/** `name`, `name==1.2`, `name@1.2` (uvx), `git+https://...@ref`, a local path (not a fetch). */
function pythonSpec<N>(word: Word<N>, runner: string): Fetched<N> {
  const text = word.text;
  if (/^git\+/.test(text)) {
    const ref = /\.git@.+|@[^/]+$/.test(text.replace(/^git\+[a-z]+:\/\/[^/]*/, ''));
    return { kind: 'git', spec: text, pinned: ref, exact: ref, node: word.node, runner };
  }
  const pinned = /==\s*\d|@\s*\d/.test(text);
  return { kind: 'python', spec: text, pinned, exact: pythonExact(text), node: word.node, runner };
}

/** `pkg==1.2.3` (no wildcard), or uvx's `pkg@1.2.3`. */
function pythonExact(spec: string): boolean {
  if (/[^=!<>~]==/.test(spec)) return /==\s*v?\d[\w.!+-]*$/.test(spec) && !spec.includes('*');
  const at = /^[A-Za-z0-9._[\],-]+@(.+)$/.exec(spec);
  return at !== null && /^v?\d+(\.\d+)+/.test(at[1]!);
}

/** `uv run --with pkg ...`: each `--with` package (the project's own dependencies are not a fetch). */
function uvRunWith<N>(args: Word<N>[]): Fetched<N>[] {
  const out: Fetched<N>[] = [];
  const add = (text: string, node: N) => {
    for (const part of text.split(',')) {
      if (part.trim() !== '' && !LOCAL.test(part.trim())) out.push(pythonSpec({ text: part.trim(), node }, 'uv run'));
    }
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.text === '--with' && args[i + 1]) {
      add(args[i + 1]!.text, args[i + 1]!.node);
      i++;
    } else if (a.text.startsWith('--with=')) {
      add(a.text.slice('--with='.length), a.node);
    } else if (!a.text.startsWith('-')) {
      break;
    }
  }
  return out;
}

/** docker options that take a value (the next word is not the image). */
const DOCKER_VALUE_FLAGS = new Set([
  '-e',
  '--env',
  '--env-file',
  '-v',
  '--volume',
  '--mount',
  '--name',
  '-p',
  '--publish',
  '--network',
  '--net',
  '-w',
  '--workdir',
  '--entrypoint',
  '-u',
  '--user',
  '--platform',
  '-l',
  '--label',
  '--add-host',
  '--cap-add',
  '--cap-drop',
  '--device',
  '--dns',
  '--hostname',
  '-h',
  '--memory',
  '-m',
  '--cpus',
  '--pull',
  '--restart',
  '--security-opt',
  '--tmpfs',
  '--ulimit',
  '--log-driver',
  '--log-opt',
  '--gpus',
  '--runtime',
  '--ipc',
  '--pid',
  '--group-add',
  '--shm-size',
  '--stop-signal',
  '--label-file',
  '--cidfile',
  '--expose',
  '--link',
  '--volumes-from',
  '--stop-timeout',
  '--health-cmd',
  '--userns',
  '--uts',
  '--memory-swap',
]);

function dockerFetch<N>(args: Word<N>[], runner: string): Fetched<N>[] {
  const sub = args[0]?.text;
  const rest = sub === 'container' ? args.slice(2) : args.slice(1);
  const verb = sub === 'container' ? args[1]?.text : sub;
  if (verb !== 'run' && verb !== 'exec') return [];
  let i = 0;
  for (; i < rest.length; i++) {
    const a = rest[i]!;
    if (!a.text.startsWith('-')) break;
    if (DOCKER_VALUE_FLAGS.has(a.text)) i++;
  }
  const target = rest[i];
  if (!target) return [];
  if (verb === 'exec')
    return runnerFetches(rest.slice(i + 1)).map((f) => ({ ...f, runner: `${runner} exec ${f.runner}` }));
  if (/[${}]/.test(target.text)) return [];
  const pinned = imagePinned(target.text);
  return [
    {
      kind: 'image',
      spec: target.text,
      pinned,
      // A digest fixes the image only when it is whole.
      exact: pinned && (!target.text.includes('@sha256:') || /@sha256:[0-9a-f]{64}$/i.test(target.text)),
      node: target.node,
      runner,
    },
  ];
}

/** A digest, or a tag that is not `latest`. */
function imagePinned(image: string): boolean {
  if (image.includes('@sha256:')) return true;
  const last = image.slice(image.lastIndexOf('/') + 1);
  const colon = last.indexOf(':');
  return colon >= 0 && last.slice(colon + 1) !== 'latest' && last.slice(colon + 1) !== '';
}
