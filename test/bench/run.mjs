// The benchmark suite (`npm run bench`). A measurement, not a test: it prints tables and writes
// test/bench/out/results.json, and never fails on a timing.
//
// Each section is one benchmark: a function that prints its own table and returns a plain object
// for results.json. Add later benchmarks (language server edit latency, hover...) as further
// entries of SECTIONS.
//
//   node test/bench/run.mjs [--runs N] [--lines N] [--only SECTION]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LINES, generate } from './generate.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const OUT = join(HERE, 'out');
const CLI = join(ROOT, 'dist', 'cli.js');
const TIME = '/usr/bin/time';

const options = parseOptions(process.argv.slice(2));

// ------------------------------------------------------------------------------------------------
// Measuring one command

/**
 * Peak RSS comes from GNU time when it is installed; otherwise a preloaded module reports the
 * child's own `process.resourceUsage().maxRSS` into a file.
 */
const useGnuTime = existsSync(TIME) && spawnSync(TIME, ['-v', 'true']).status === 0;
const RSS_REPORTER = join(OUT, 'rss-reporter.cjs');
const RSS_FILE = join(OUT, 'rss.txt');

function prepareRssReporter() {
  if (useGnuTime) return;
  writeFileSync(
    RSS_REPORTER,
    `process.on('exit', () => { const u = process.resourceUsage(); ` +
      `require('node:fs').writeFileSync(process.env.TOOL_LENS_BENCH_RSS_FILE, JSON.stringify({ rssKb: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 })); });\n`,
  );
}

/** Runs `node ARGS` once: wall time and CPU time (user + system) in ms, peak RSS in KB, stdout. */
function measure(nodeArgs, { okCodes = [0] } = {}) {
  const command = useGnuTime ? TIME : process.execPath;
  const args = useGnuTime ? ['-v', process.execPath, ...nodeArgs] : ['--require', RSS_REPORTER, ...nodeArgs];
  if (!useGnuTime) rmSync(RSS_FILE, { force: true });
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, {
    cwd: OUT,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: { ...process.env, NODE_OPTIONS: '', TOOL_LENS_BENCH_RSS_FILE: RSS_FILE },
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.error) throw result.error;
  if (!okCodes.includes(result.status ?? -1)) {
    throw new Error(`node ${nodeArgs.join(' ')} exited ${result.status}:\n${result.stderr.slice(-2000)}`);
  }
  let rssKb;
  let cpuMs;
  if (useGnuTime) {
    const last = (pattern) => Number([...result.stderr.matchAll(pattern)].at(-1)?.[1]);
    rssKb = last(/Maximum resident set size \(kbytes\): (\d+)/g);
    cpuMs = (last(/User time \(seconds\): ([\d.]+)/g) + last(/System time \(seconds\): ([\d.]+)/g)) * 1000;
  } else {
    ({ rssKb, cpuMs } = JSON.parse(readFileSync(RSS_FILE, 'utf8')));
  }
  return { ms, cpuMs, rssKb, stdout: result.stdout };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function stats(samples) {
  const ms = samples.map((s) => s.ms);
  const rss = samples.map((s) => s.rssKb);
  return {
    medianMs: round(median(ms)),
    medianCpuMs: round(median(samples.map((s) => s.cpuMs))),
    minMs: round(Math.min(...ms)),
    maxMs: round(Math.max(...ms)),
    samplesMs: ms.map(round),
    peakRssKb: Math.max(...rss),
    medianRssKb: median(rss),
  };
}

const round = (n) => Math.round(n * 10) / 10;
const ratio = (n) => Math.round(n * 100) / 100;
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;

function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  return rows
    .map((row) => row.map((cell, column) => (column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]))).join('   '))
    .join('\n');
}

// ------------------------------------------------------------------------------------------------
// Sections

/** `tool-lens check --format json` over ~100k lines against reading + parsing the same files. */
function cliCheckSection() {
  const workspace = generate(join(OUT, 'workspace'), options.lines);
  const target = relative(OUT, workspace.dir);
  const cases = [
    { name: 'yaml parseAllDocuments (baseline)', args: [join(HERE, 'baseline.mjs'), target], okCodes: [0] },
    // Exit 1 is expected: the generated workspace carries a few deliberate mistakes.
    { name: 'tool-lens check --format json', args: [CLI, 'check', target, '--format', 'json'], okCodes: [0, 1] },
  ];
  console.log(
    `\n## CLI check against the bare YAML parse\n` +
      `${workspace.files} files, ${workspace.tools} composite tools, ${workspace.lines.toLocaleString('en')} lines, ` +
      `${(workspace.bytes / 1e6).toFixed(1)} MB; ${options.runs} alternating runs each after a warm-up\n`,
  );
  // Warm-up: the file cache, and node's compile cache where it has one.
  const first = cases.map((c) => measure(c.args, c));
  const findings = JSON.parse(first[1].stdout).summary;
  const samples = cases.map(() => []);
  for (let run = 0; run < options.runs; run++) {
    cases.forEach((c, index) => samples[index].push(measure(c.args, c)));
  }
  const [base, cli] = samples.map(stats);
  const pairRatios = samples[1].map((s, i) => s.ms / samples[0][i].ms);
  // CPU time moves less than wall time when other work shares the machine.
  const cpuRatios = samples[1].map((s, i) => s.cpuMs / samples[0][i].cpuMs);
  const result = {
    workspace: { files: workspace.files, compositeTools: workspace.tools, lines: workspace.lines, bytes: workspace.bytes },
    runs: options.runs,
    peakRssFrom: useGnuTime ? '/usr/bin/time -v' : 'process.resourceUsage().maxRSS',
    baseline: { command: `node test/bench/baseline.mjs ${target}`, ...base },
    cli: { command: `node dist/cli.js check ${target} --format json`, ...cli, findings },
    ratio: {
      medianOfPairs: ratio(median(pairRatios)),
      ofMedians: ratio(cli.medianMs / base.medianMs),
      cpuMedianOfPairs: ratio(median(cpuRatios)),
      target: 2.5,
    },
  };
  console.log(
    table([
      ['case', 'median', 'min', 'max', 'CPU median', 'peak RSS'],
      ...cases.map((c, i) => {
        const s = [base, cli][i];
        const ms = (n) => `${n.toFixed(0)} ms`;
        return [c.name, ms(s.medianMs), ms(s.minMs), ms(s.maxMs), ms(s.medianCpuMs), mb(s.peakRssKb)];
      }),
    ]),
  );
  console.log(
    `\nratio check/parse: ${result.ratio.medianOfPairs.toFixed(2)}x (median of paired runs; ` +
      `${result.ratio.ofMedians.toFixed(2)}x from the medians; target at most ${result.ratio.target}x)` +
      `\nratio of CPU time (user + system): ${result.ratio.cpuMedianOfPairs.toFixed(2)}x (median of paired runs)` +
      `\nfindings: ${findings.error} errors, ${findings.warning} warnings, ${findings.info} infos, ${findings.hint} hints` +
      `\npeak RSS from ${result.peakRssFrom}`,
  );
  return result;
}

const SECTIONS = [
  { id: 'cli-check', run: cliCheckSection },
  // { id: 'lsp-edit-latency', run: lspEditLatencySection },  // next: the server over stdio
];

// ------------------------------------------------------------------------------------------------

function parseOptions(argv) {
  const out = { runs: 7, lines: DEFAULT_LINES, only: undefined };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    if (argv[i] === '--runs') out.runs = Math.max(1, Number(value)), i++;
    else if (argv[i] === '--lines') out.lines = Number(value), i++;
    else if (argv[i] === '--only') out.only = value, i++;
    else {
      console.error(`unknown argument ${argv[i]}; use --runs N, --lines N, --only SECTION`);
      process.exit(2);
    }
  }
  return out;
}

function main() {
  if (!existsSync(CLI)) {
    const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) process.exit(1);
  }
  mkdirSync(OUT, { recursive: true });
  prepareRssReporter();
  const started = Date.now();
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: `${cpus()[0]?.model ?? 'unknown'} x${cpus().length}`,
    memory: mb(totalmem() / 1024),
    sections: {},
  };
  console.log(`# Tool Lens benchmarks (${results.node}, ${results.cpu})`);
  for (const section of SECTIONS) {
    if (options.only && options.only !== section.id) continue;
    results.sections[section.id] = section.run();
  }
  results.seconds = Math.round((Date.now() - started) / 1000);
  const file = join(OUT, 'results.json');
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  console.log(`\nwrote ${relative(ROOT, file)} (${results.seconds} s)`);
}

main();
