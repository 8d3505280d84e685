// What a local server entry fetches when its client starts it: the package a runner downloads
// (`npx`, `bunx`, `pnpm dlx`, `yarn dlx`, `uvx`, `uv run --with`, `pipx run`), the image
// `docker run` pulls, and a runner inside `docker exec`. Each with whether it is pinned: an npm
// package with a version that is not a dist-tag, a Python one with `==`, a git source with a ref,
// an image with a tag other than `latest` or a digest. Client-neutral: every client starts
// `command` with `args` as written.
import type { MapNode, ScalarNode } from '../parse/nodes.js';
import { getNode, isScalar, isSeq } from '../parse/nodes.js';

export type FetchKind = 'npm' | 'python' | 'git' | 'image';

export interface Fetched {
  kind: FetchKind;
  /** The package, image or repository as written. */
  spec: string;
  pinned: boolean;
  /** The scalar that names it (an item of `args`, or `command`). */
  node: ScalarNode;
  /** The runner that fetches it (`npx`, `uvx`, `docker`...). */
  runner: string;
}

interface Word {
  text: string;
  node: ScalarNode;
}

/** The command and its arguments as words, when all are plain strings. */
function wordsOf(entry: MapNode | undefined): Word[] | undefined {
  // A key written twice is yaml/duplicate-key's; which one the client reads is not ours to guess.
  const written = (key: string) => entry?.pairs.filter((p) => p.key.value === key).length ?? 0;
  if (written('command') > 1 || written('args') > 1) return undefined;
  const command = getNode(entry, 'command');
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

const baseCommand = (text: string) => (text.split(/[\\/]/).pop() ?? text).toLowerCase().replace(/\.(cmd|exe)$/, '');

/** Everything an entry fetches as it starts, pinned or not. */
export function fetchedBy(entry: MapNode | undefined): Fetched[] {
  const words = wordsOf(entry);
  return words ? runnerFetches(words) : [];
}

function runnerFetches(words: Word[]): Fetched[] {
  const [first, ...rest] = words;
  if (!first) return [];
  const cmd = baseCommand(first.text);
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

function npmFetch(args: Word[], runner: string): Fetched[] {
  const out: Fetched[] = [];
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
  // A dev runner over the repository's own file (`npx tsx src/index.ts`) runs the project's own
  // dependency when it has one: not a fetch Tool Lens can judge.
  const next = args[i + 1]?.text;
  if (!/@/.test(spec.text.slice(1)) && next !== undefined && /^\.{0,2}\/|\.(m?[jt]s|py)$/.test(next)) return [];
  if (/^(\.{0,2}\/|[A-Za-z]:\\|file:)/.test(spec.text)) return [];
  return [npmSpec(spec, runner)];
}

/** `name`, `name@1.2.3`, `@scope/name@latest`, `github:o/r#ref`, `git+https://...#ref`. */
function npmSpec(word: Word, runner: string): Fetched {
  const text = word.text;
  if (/^(git\+|git:|github:|gitlab:|bitbucket:|https?:\/\/)/.test(text)) {
    return { kind: 'git', spec: text, pinned: /#.+/.test(text), node: word.node, runner };
  }
  const at = text.indexOf('@', text.startsWith('@') ? 1 : 0);
  const version = at < 0 ? '' : text.slice(at + 1);
  // A version or a range pins what is fetched; a dist-tag (latest, next, beta) follows the registry.
  const pinned = version !== '' && /^[\^~<>=v]*\d/.test(version);
  return { kind: 'npm', spec: text, pinned, node: word.node, runner };
}

const UVX_VALUE_FLAGS = new Set([
  '--python',
  '-p',
  '--index',
  '--index-url',
  '--extra-index-url',
  '--with-requirements',
]);

function pythonFetch(args: Word[], runner: string): Fetched[] {
  const out: Fetched[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (!a.text.startsWith('-')) break;
    if (a.text === '--from' || a.text === '--with') {
      const value = args[i + 1];
      if (value) out.push(pythonSpec(value, runner));
      i++;
    } else if (a.text.startsWith('--from=') || a.text.startsWith('--with=')) {
      out.push(pythonSpec({ text: a.text.slice(a.text.indexOf('=') + 1), node: a.node }, runner));
    } else if (UVX_VALUE_FLAGS.has(a.text)) {
      i++;
    }
  }
  const hasFrom = args.slice(0, i).some((a) => a.text === '--from' || a.text.startsWith('--from='));
  const spec = args[i];
  if (!hasFrom && spec && !/^(\.{0,2}\/|[A-Za-z]:\\)/.test(spec.text)) out.push(pythonSpec(spec, runner));
  return out;
}

/** `name`, `name==1.2`, `name@1.2` (uvx), `git+https://...@ref`, a local path (not a fetch). */
function pythonSpec(word: Word, runner: string): Fetched {
  const text = word.text;
  if (/^git\+/.test(text)) {
    return {
      kind: 'git',
      spec: text,
      pinned: /\.git@.+|@[^/]+$/.test(text.replace(/^git\+[a-z]+:\/\/[^/]*/, '')),
      node: word.node,
      runner,
    };
  }
  const pinned = /==\s*\d|@\s*\d/.test(text);
  return { kind: 'python', spec: text, pinned, node: word.node, runner };
}

/** `uv run --with pkg ...`: each `--with` package (the project's own dependencies are not a fetch). */
function uvRunWith(args: Word[]): Fetched[] {
  const out: Fetched[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.text === '--with' && args[i + 1]) {
      for (const part of args[i + 1]!.text.split(',')) {
        if (part.trim() !== '') out.push({ ...pythonSpec({ text: part.trim(), node: args[i + 1]!.node }, 'uv run') });
      }
      i++;
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
]);

function dockerFetch(args: Word[], runner: string): Fetched[] {
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
  return [{ kind: 'image', spec: target.text, pinned: imagePinned(target.text), node: target.node, runner }];
}

/** A digest, or a tag that is not `latest`. */
function imagePinned(image: string): boolean {
  if (image.includes('@sha256:')) return true;
  const last = image.slice(image.lastIndexOf('/') + 1);
  const colon = last.indexOf(':');
  return colon >= 0 && last.slice(colon + 1) !== 'latest' && last.slice(colon + 1) !== '';
}
