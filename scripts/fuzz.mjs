// `npm run fuzz`: the fuzzer of test/fuzz/checker.test.ts run long, with a new seed each time.
//
//   npm run fuzz                                   100,000 cases, a random seed (printed)
//   npm run fuzz -- --runs 20000 --seed 42         how many, and which seed
//   npm run fuzz -- --jobs 2                       split the cases over processes (seeds seed, seed+1, ...)
//   npm run fuzz -- --seed 42 --only "any damage" --path "17:3:0"
//                                                  replay one failure: the seed, property and path it printed
//   npm run fuzz -- --trace .tmp/case.txt          write each case to the file before checking it (with
//                                                  --jobs, one file per job: .tmp/case.txt.1, ...), to
//                                                  find a case that never finishes
//
// The cases are shared out among the properties as checker.test.ts says (most to the mutated
// corpus files); --only gives them all to one property. Each job prints its seed first and, on a
// failure, the seed, the path, the shrunk input and the command that replays it.
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const USAGE =
  'usage: node scripts/fuzz.mjs [--runs N] [--seed N] [--jobs N] [--only PROPERTY] [--path PATH] [--trace FILE]';

function parseArgs(argv) {
  const options = { runs: 100_000, seed: undefined, jobs: 1, only: undefined, path: undefined, trace: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${name} needs a value\n${USAGE}`);
      return v;
    };
    const integer = (v, min) => {
      if (!/^-?\d+$/.test(v) || Number(v) < min)
        throw new Error(`${name} must be an integer of at least ${min}, got ${v}\n${USAGE}`);
      return Number(v);
    };
    switch (name) {
      case '--runs':
        options.runs = integer(value(), 1);
        break;
      case '--seed':
        options.seed = integer(value(), -(2 ** 31));
        break;
      case '--jobs':
        options.jobs = integer(value(), 1);
        break;
      case '--only':
        options.only = value();
        break;
      case '--path':
        options.path = value();
        break;
      case '--trace':
        options.trace = value();
        break;
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument ${arg}\n${USAGE}`);
    }
  }
  if (options.path !== undefined && (options.seed === undefined || options.only === undefined)) {
    throw new Error('--path replays one failure: give it with the --seed and the --only property it was printed with');
  }
  if (options.path !== undefined) options.jobs = 1;
  return options;
}

let options;
try {
  options = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}

const seed = options.seed ?? randomInt(2 ** 31);
const root = fileURLToPath(new URL('..', import.meta.url));
const testFile = 'test/fuzz/checker.test.ts';

console.log(
  `fuzz: ${options.path ? `replaying path ${options.path} of` : `${options.runs} cases of`} ${options.only ? `"${options.only}"` : 'every property'}, seed ${seed}` +
    (options.jobs > 1 ? ` (${options.jobs} jobs: seeds ${seed} to ${seed + options.jobs - 1})` : ''),
);

function runJob(index) {
  const jobSeed = seed + index;
  const runs = Math.floor(options.runs / options.jobs) + (index < options.runs % options.jobs ? 1 : 0);
  const env = { ...process.env, TOOL_LENS_SEED: String(jobSeed), FUZZ_RUNS: String(runs) };
  if (options.only !== undefined) env.FUZZ_ONLY = options.only;
  if (options.path !== undefined) env.FUZZ_PATH = options.path;
  if (options.trace !== undefined) env.FUZZ_TRACE = resolve(options.trace) + (options.jobs > 1 ? `.${index + 1}` : '');
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', testFile], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = options.jobs > 1 ? `[job ${index + 1}, seed ${jobSeed}] ` : '';
  let cases = 0;
  const relay = (stream, out) => {
    let buffered = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) {
        const counted = /^\S*\s*seed -?\d+, (\d+) cases$/.exec(line.replace(/^ℹ\s*/, ''));
        if (counted) cases += Number(counted[1]);
        out.write(`${prefix}${line}\n`);
      }
    });
    stream.on('end', () => buffered && out.write(`${prefix}${buffered}\n`));
  };
  relay(child.stdout, process.stdout);
  relay(child.stderr, process.stderr);
  return new Promise((resolve) => child.on('close', (code) => resolve({ seed: jobSeed, code: code ?? 1, cases })));
}

const started = Date.now();
const results = await Promise.all(Array.from({ length: options.jobs }, (_, i) => runJob(i)));
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const failed = results.filter((r) => r.code !== 0);
const total = results.reduce((n, r) => n + r.cases, 0);
console.log(
  `fuzz: ${total} cases passed in ${minutes} min with seed${results.length > 1 ? 's' : ''} ${results.map((r) => r.seed).join(', ')}` +
    (failed.length
      ? `; FAILED with seed${failed.length > 1 ? 's' : ''} ${failed.map((r) => r.seed).join(', ')} (the failure above says how to replay it)`
      : ''),
);
process.exit(failed.length ? 1 : 0);
