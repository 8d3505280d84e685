// Whether a server's command fetches a fixed thing: what a package runner downloads (`npx`,
// `bunx`, `pnpm dlx`, `yarn dlx`, `uvx`, `uv tool run`, `uv run --with`, `pipx run`) or the image
// `docker run` / `podman run` pulls, with whether it is pinned. Pinned: an npm package with an
// exact version (`pkg@1.2.3`), a Python one with `==1.2.3` (or uvx's `pkg@1.2.3`), a git source
// with a ref, an image with a tag other than `latest` or a digest. Not pinned: no version, a
// dist-tag (`@latest`, `@next`), a range (`@^1`), an image without a tag or with `:latest`. A
// command that fetches nothing (a local program, `node server.js`) is neither: `n/a`. Read from
// the words as written; `tool-lens servers` prints the verdict (cli/servers.ts).

export type PinVerdict = 'pinned' | 'unpinned' | 'n/a';

export interface Pin {
  verdict: PinVerdict;
  /** What is fetched, as written (a package, an image, a git source); absent for `n/a`. */
  fetches?: string;
  /** The runner that fetches it (`npx`, `uvx`, `docker`...). */
  runner?: string;
}

const NA: Pin = { verdict: 'n/a' };

const baseName = (word: string) => (word.split(/[\\/]/).pop() ?? word).toLowerCase().replace(/\.(cmd|exe|bat)$/, '');

/** The pin of a command line (the command, then its arguments as written). */
export function pinOf(command: string, args: readonly string[]): Pin {
  const cmd = baseName(command);
  if (cmd === 'npx' || cmd === 'bunx') return npm(args, cmd);
  if ((cmd === 'pnpm' || cmd === 'yarn') && args[0] === 'dlx') return npm(args.slice(1), `${cmd} dlx`);
  if (cmd === 'uvx') return python(args, 'uvx');
  if (cmd === 'uv' && args[0] === 'tool' && args[1] === 'run') return python(args.slice(2), 'uv tool run');
  if (cmd === 'uv' && args[0] === 'run') return uvRunWith(args.slice(1));
  if (cmd === 'pipx' && args[0] === 'run') return python(args.slice(1), 'pipx run');
  if ((cmd === 'docker' || cmd === 'podman') && args[0] === 'run') return image(args.slice(1), cmd);
  if ((cmd === 'docker' || cmd === 'podman') && args[0] === 'exec') return dockerExec(args.slice(1));
  return NA;
}

const LOCAL = /^(\.{0,2}[\\/]|~[\\/]|[A-Za-z]:[\\/]|file:)/;
const GIT = /^(git\+|git:|github:|gitlab:|bitbucket:|https?:\/\/)/;
/** An exact version: 1.2.3, with an optional pre-release or build. */
const EXACT = /^v?\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/;

function verdict(pinned: boolean, fetches: string, runner: string): Pin {
  return { verdict: pinned ? 'pinned' : 'unpinned', fetches, runner };
}

/** npx options that take a value. */
const NPX_VALUE_FLAGS = new Set(['-c', '--call', '--cache', '--registry', '--userconfig']);

function npm(args: readonly string[], runner: string): Pin {
  let i = 0;
  const packages: string[] = [];
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--') {
      i++;
      break;
    }
    if (!word.startsWith('-')) break;
    if (word === '-p' || word === '--package') {
      if (args[i + 1] !== undefined) packages.push(args[i + 1]!);
      i++;
    } else if (word.startsWith('--package=')) packages.push(word.slice('--package='.length));
    else if (NPX_VALUE_FLAGS.has(word)) i++;
  }
  const spec = packages[0] ?? args[i];
  if (spec === undefined || LOCAL.test(spec)) return NA;
  if (GIT.test(spec)) return verdict(/#.+/.test(spec), spec, runner);
  // A runner over the repository's own file (`npx tsx src/index.ts`) runs the project's own
  // dependency when it has one: whether anything is fetched depends on the project, not this line.
  const next = packages.length === 0 ? args[i + 1] : undefined;
  if (!spec.slice(1).includes('@') && next !== undefined && /^\.{0,2}\/|\.(m?[jt]s|py)$/.test(next)) return NA;
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  return verdict(at > 0 && EXACT.test(spec.slice(at + 1)), spec, runner);
}

const UVX_VALUE_FLAGS = new Set([
  '--python',
  '-p',
  '--index',
  '--index-url',
  '--extra-index-url',
  '--with-requirements',
]);

function python(args: readonly string[], runner: string): Pin {
  let from: string | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (!word.startsWith('-')) break;
    if (word === '--from') {
      from = args[i + 1];
      i++;
    } else if (word.startsWith('--from=')) from = word.slice('--from='.length);
    else if (word === '--with') i++;
    else if (UVX_VALUE_FLAGS.has(word)) i++;
  }
  const spec = from ?? args[i];
  if (spec === undefined || LOCAL.test(spec)) return NA;
  return verdict(pythonPinned(spec), spec, runner);
}

function pythonPinned(spec: string): boolean {
  if (/^git\+/.test(spec)) return (spec.split('/').pop() ?? '').includes('@');
  if (/[^=!<>~]==/.test(spec)) return /==\s*v?\d[\w.!+-]*$/.test(spec) && !spec.includes('*');
  const at = /^[A-Za-z0-9._[\],-]+@(.+)$/.exec(spec);
  return at !== null && /^v?\d+(\.\d+)+/.test(at[1]!);
}

/** `uv run --with pkg ...`: each `--with` is fetched; a `uv run` without one runs the project's own code. */
function uvRunWith(args: readonly string[]): Pin {
  const withs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--with' && args[i + 1] !== undefined) withs.push(args[++i]!);
    else if (word.startsWith('--with=')) withs.push(word.slice('--with='.length));
  }
  if (withs.length === 0) return NA;
  const loose = withs.find((spec) => !pythonPinned(spec));
  return verdict(loose === undefined, loose ?? withs[0]!, 'uv run --with');
}

/** `docker run` options that take the next word as their value. */
const DOCKER_VALUE_FLAGS = new Set([
  '-e',
  '--env',
  '--env-file',
  '-v',
  '--volume',
  '--mount',
  '-p',
  '--publish',
  '--name',
  '--network',
  '--net',
  '-w',
  '--workdir',
  '-u',
  '--user',
  '--entrypoint',
  '--platform',
  '-l',
  '--label',
  '--label-file',
  '-h',
  '--hostname',
  '--add-host',
  '--cpus',
  '-m',
  '--memory',
  '--pull',
  '--restart',
  '--runtime',
  '--cap-add',
  '--cap-drop',
  '--device',
  '--dns',
  '--log-driver',
  '--log-opt',
  '--security-opt',
  '--tmpfs',
  '--ulimit',
  '--shm-size',
  '--ipc',
  '--pid',
  '--gpus',
  '--cidfile',
  '--stop-signal',
  '--stop-timeout',
  '--health-cmd',
  '--group-add',
  '--userns',
  '--uts',
  '--volumes-from',
  '--link',
  '--expose',
  '--memory-swap',
]);

function image(args: readonly string[], runner: string): Pin {
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--') continue;
    if (word.startsWith('-')) {
      if (!word.includes('=') && DOCKER_VALUE_FLAGS.has(word)) i++;
      continue;
    }
    return verdict(imagePinned(word), word, runner);
  }
  return NA;
}

function imagePinned(ref: string): boolean {
  if (/@sha256:[0-9a-f]{64}$/i.test(ref)) return true;
  const last = ref.slice(ref.lastIndexOf('/') + 1);
  const colon = last.indexOf(':');
  if (colon < 0) return false;
  const tag = last.slice(colon + 1);
  return tag !== '' && tag !== 'latest';
}

/** `docker exec [options] CONTAINER COMMAND...`: the command inside, when it is a runner. */
function dockerExec(args: readonly string[]): Pin {
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (!word.startsWith('-')) break;
    if (!word.includes('=') && ['-e', '--env', '--env-file', '-u', '--user', '-w', '--workdir'].includes(word)) i++;
  }
  const inner = args.slice(i + 1);
  return inner.length > 0 ? pinOf(inner[0]!, inner.slice(1)) : NA;
}
