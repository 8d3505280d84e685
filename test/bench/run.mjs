// The benchmark suite (`npm run bench`). A measurement, not a test: it prints tables and writes
// test/bench/out/results.json, and never fails on a timing.
//
// Each section is one benchmark: a function (sync or async) that prints its own table and returns
// a plain object for results.json. Add later benchmarks (hover, completion...) as further entries
// of SECTIONS.
//
//   node test/bench/run.mjs [--only SECTION[,SECTION]] [--runs N] [--lines N]
//                           [--edits N] [--doc-lines N] [--ws-files N] [--starts N]
//
//   --only S      run only these sections (comma-separated): cli-check, cli-cache, lsp, scaling, lsp-scale, lsp-push. With --only, the
//                 other sections' last figures in results.json are kept (each has its own date).
//   cli-check (tool-lens check against a bare YAML parse of the same files, on two workspaces: ~100k
//     lines in files of about a thousand lines, and 240 files of six composite tools each):
//     --runs N      measured runs of each command after a warm-up (default 7)
//     --lines N     size of the first generated workspace in lines (default 100,000)
//   cli-cache (a re-run of tool-lens check --cache over the same workspace against the bare parse,
//     and the start-up alone): takes --runs and --lines as cli-check does
//   lsp (node dist/server.js --stdio, see lsp.mjs):
//     --edits N     edits of the large document, each followed by a diagnostic pull (default 200)
//     --doc-lines N size of the edited document in lines (default 2,000)
//     --ws-files N  files of the start-up workspace (default 100)
//     --starts N    measured start-ups after a warm-up, each paired with a baseline run (default 3)
//   scaling (scaling.mjs: one file per shape at two sizes against its bare parse; hostile files):
//     --scaling-lines N,N   the two sizes in lines (default 50,000 and 200,000)
//     --hostile-limit S     seconds a hostile file may take before it counts as not finishing (default 60)
//   lsp-scale (lsp-scale.mjs: the server's start-up time and peak memory beside tool-lens check, once
//     each, on generated workspaces in the temporary folder):
//     --scale-files N       files of the many-small-files workspace (default 20,000)
//     --scale-mb N          megabytes of the unrelated-YAML workspace (default 200)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LINES, generate, generateMany, MANY_FILES, MANY_PER_FILE } from './generate.mjs';
import { LSP_DEFAULTS, lspSection } from './lsp.mjs';
import { SCALE_DEFAULTS } from './lsp-scale.mjs';
import { scalingSection } from './scaling.mjs';
import { mb, median, ratio, round, table } from './stats.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const OUT = join(HERE, 'out');
const CLI = join(ROOT, 'dist', 'cli.js');
const SERVER = join(ROOT, 'dist', 'server.js');
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
  mkdirSync(OUT, { recursive: true });
  writeFileSync(
    RSS_REPORTER,
    `process.on('exit', () => { const u = process.resourceUsage(); ` +
      `require('node:fs').writeFileSync(process.env.TOOL_LENS_BENCH_RSS_FILE, JSON.stringify({ rssKb: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 })); });\n`,
  );
}

/**
 * Runs `node ARGS` once: wall time and CPU time (user + system) in ms, peak RSS in KB, stdout, exit
 * status. With `timeoutMs` the run is killed past it (node is run directly then, so the kill
 * reaches it) and comes back with `timedOut`.
 */
function measure(nodeArgs, { okCodes = [0], timeoutMs, cwd = OUT } = {}) {
  const gnu = useGnuTime && timeoutMs === undefined;
  const command = gnu ? TIME : process.execPath;
  const args = gnu ? ['-v', process.execPath, ...nodeArgs] : ['--require', RSS_REPORTER, ...nodeArgs];
  if (!gnu) rmSync(RSS_FILE, { force: true });
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: { ...process.env, NODE_OPTIONS: '', TOOL_LENS_BENCH_RSS_FILE: RSS_FILE },
    ...(timeoutMs === undefined ? {} : { timeout: timeoutMs, killSignal: 'SIGKILL' }),
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (timeoutMs !== undefined && (result.signal === 'SIGKILL' || result.error?.code === 'ETIMEDOUT'))
    return { ms, timedOut: true };
  if (result.error) throw result.error;
  if (!okCodes.includes(result.status ?? -1)) {
    throw new Error(`node ${nodeArgs.join(' ')} exited ${result.status}:\n${result.stderr.slice(-2000)}`);
  }
  let rssKb;
  let cpuMs;
  if (gnu) {
    const last = (pattern) => Number([...result.stderr.matchAll(pattern)].at(-1)?.[1]);
    rssKb = last(/Maximum resident set size \(kbytes\): (\d+)/g);
    cpuMs = (last(/User time \(seconds\): ([\d.]+)/g) + last(/System time \(seconds\): ([\d.]+)/g)) * 1000;
  } else {
    ({ rssKb, cpuMs } = JSON.parse(readFileSync(RSS_FILE, 'utf8')));
  }
  return { ms, cpuMs, rssKb, stdout: result.stdout, status: result.status };
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

// ------------------------------------------------------------------------------------------------
// Sections

/**
 * `tool-lens check --format json` against reading + parsing the same files (`baseline.mjs`), on
 * two generated workspaces: ~100k lines in files of about a thousand lines, and 240 files of six
 * composite tools each. All four commands run in one loop, the order of each pair alternating run
 * by run (baseline first, then check first), so that neither side always runs on a warmer machine.
 */
function cliCheckSection() {
  const workspaces = [
    {
      id: 'large',
      title: `~${Math.round(options.lines / 1000)}k lines`,
      ...generate(join(OUT, 'workspace'), options.lines),
    },
    {
      id: 'many',
      title: `${MANY_FILES} files of ${MANY_PER_FILE} composites`,
      ...generateMany(join(OUT, 'workspace-many')),
    },
  ];
  // Run inside the workspace, as a user runs in a repository: the workspace of a run is the current
  // folder (no .toollens.yaml), and the other sections' files beside it are no part of it.
  const casesOf = (cwd) => [
    { name: 'yaml parseAllDocuments (baseline)', args: [join(HERE, 'baseline.mjs'), '.'], okCodes: [0], cwd },
    // Exit 1 is expected: the generated workspace carries a few deliberate mistakes.
    { name: 'tool-lens check --format json', args: [CLI, 'check', '.', '--format', 'json'], okCodes: [0, 1], cwd },
  ];
  console.log(
    `\n## CLI check against the bare YAML parse\n` +
      workspaces
        .map(
          (w) =>
            `${w.id}: ${w.files} gateway files (and 2 catalog snapshots), ${w.tools} composite tools, ${w.lines.toLocaleString('en')} lines, ${(w.bytes / 1e6).toFixed(1)} MB`,
        )
        .join('\n') +
      `\n${options.runs} runs of each command after a warm-up, the two workspaces in turn, the order of each pair alternating\n`,
  );
  const cases = workspaces.map((w) => casesOf(w.dir));
  // Warm-up: the file cache, and node's compile cache where it has one.
  const findings = cases.map((pair) => JSON.parse(pair.map((c) => measure(c.args, c))[1].stdout).summary);
  const samples = cases.map((pair) => pair.map(() => []));
  for (let run = 0; run < options.runs; run++) {
    cases.forEach((pair, w) => {
      const order = run % 2 === 0 ? [0, 1] : [1, 0];
      for (const index of order) samples[w][index].push(measure(pair[index].args, pair[index]));
    });
  }
  const ms = (n) => `${n.toFixed(0)} ms`;
  const results = workspaces.map((w, index) => {
    const [base, cli] = samples[index].map(stats);
    const [baseSamples, cliSamples] = samples[index];
    return {
      id: w.id,
      workspace: { files: w.files, compositeTools: w.tools, lines: w.lines, bytes: w.bytes },
      baseline: { command: `node test/bench/baseline.mjs . (in ${relative(OUT, w.dir)})`, ...base },
      cli: {
        command: `node dist/cli.js check . --format json (in ${relative(OUT, w.dir)})`,
        ...cli,
        findings: findings[index],
      },
      ratio: {
        medianOfPairs: ratio(median(cliSamples.map((s, i) => s.ms / baseSamples[i].ms))),
        ofMedians: ratio(cli.medianMs / base.medianMs),
        // CPU time moves less than wall time when other work shares the machine.
        cpuMedianOfPairs: ratio(median(cliSamples.map((s, i) => s.cpuMs / baseSamples[i].cpuMs))),
        cpuOfMedians: ratio(cli.medianCpuMs / base.medianCpuMs),
        peakRss: ratio(cli.peakRssKb / base.peakRssKb),
        target: 1.0,
        rssTarget: 1.3,
      },
    };
  });
  for (const [index, r] of results.entries()) {
    console.log(`\n### ${r.id}: ${workspaces[index].title}\n`);
    console.log(
      table([
        ['case', 'median', 'min', 'max', 'CPU median', 'peak RSS'],
        ...cases[index].map((c, i) => {
          const s = [r.baseline, r.cli][i];
          return [c.name, ms(s.medianMs), ms(s.minMs), ms(s.maxMs), ms(s.medianCpuMs), mb(s.peakRssKb)];
        }),
      ]),
    );
    const f = r.cli.findings;
    console.log(
      `\nratio check/parse: ${r.ratio.ofMedians.toFixed(2)}x from the medians (${r.ratio.medianOfPairs.toFixed(2)}x median of paired runs; target at most ${r.ratio.target}x)` +
        `\nratio of CPU time (user + system): ${r.ratio.cpuOfMedians.toFixed(2)}x from the medians (${r.ratio.cpuMedianOfPairs.toFixed(2)}x median of paired runs)` +
        `\npeak RSS check/parse: ${r.ratio.peakRss.toFixed(2)}x (target at most ${r.ratio.rssTarget}x)` +
        `\nfindings: ${f.error} errors, ${f.warning} warnings, ${f.info} infos, ${f.hint} hints`,
    );
  }
  console.log(`\npeak RSS from ${useGnuTime ? '/usr/bin/time -v' : 'process.resourceUsage().maxRSS'}`);
  return {
    date: new Date().toISOString(),
    runs: options.runs,
    order: 'each pair alternating: baseline first on even runs, check first on odd runs; the workspaces in turn',
    peakRssFrom: useGnuTime ? '/usr/bin/time -v' : 'process.resourceUsage().maxRSS',
    workspaces: results,
  };
}

/**
 * `tool-lens check --cache` re-run over the same ~100k lines (every file's findings from the cache)
 * against reading + parsing them, alternating; and `tool-lens --version`, the start-up alone.
 */
function cliCacheSection() {
  const workspace = generate(join(OUT, 'workspace'), options.lines);
  const cwd = workspace.dir; // as in cliCheckSection
  const cacheFile = join(OUT, 'bench.toollens-cache');
  rmSync(cacheFile, { force: true });
  const cached = [CLI, 'check', '.', '--format', 'json', '--cache', '--cache-location', cacheFile];
  const cases = [
    { name: 'yaml parseAllDocuments (baseline)', args: [join(HERE, 'baseline.mjs'), '.'], okCodes: [0], cwd },
    { name: 'tool-lens check --cache (re-run)', args: cached, okCodes: [0, 1], cwd },
    { name: 'tool-lens --version (start-up)', args: [CLI, '--version'], okCodes: [0], cwd },
  ];
  console.log(
    `\n## CLI check --cache re-run against the bare YAML parse\n` +
      `${workspace.files} files, ${workspace.lines.toLocaleString('en')} lines; the cache filled by one run first; ` +
      `${options.runs} alternating runs each after a warm-up\n`,
  );
  const fill = measure(cached, { okCodes: [0, 1], cwd });
  const uncached = measure([CLI, 'check', '.', '--format', 'json'], { okCodes: [0, 1], cwd });
  if (fill.stdout !== uncached.stdout)
    throw new Error('the run that filled the cache printed other findings than a run without it');
  const first = cases.map((c) => measure(c.args, c));
  if (first[1].stdout !== uncached.stdout)
    throw new Error('the cached re-run printed other findings than a run without the cache');
  const samples = cases.map(() => []);
  for (let run = 0; run < options.runs; run++) cases.forEach((c, index) => samples[index].push(measure(c.args, c)));
  const [base, cache, start] = samples.map(stats);
  const pairs = (index) => ratio(median(samples[index].map((s, i) => s.ms / samples[0][i].ms)));
  const result = {
    date: new Date().toISOString(),
    workspace: { files: workspace.files, lines: workspace.lines, bytes: workspace.bytes },
    runs: options.runs,
    fillMs: round(fill.ms),
    baseline: { command: `node test/bench/baseline.mjs . (in ${relative(OUT, cwd)})`, ...base },
    cached: { command: `node dist/cli.js check . --format json --cache (in ${relative(OUT, cwd)})`, ...cache },
    startup: { command: 'node dist/cli.js --version', ...start },
    ratio: {
      medianOfPairs: pairs(1),
      ofMedians: ratio(cache.medianMs / base.medianMs),
      // CPU time moves less than wall time when other work shares the machine.
      cpuMedianOfPairs: ratio(median(samples[1].map((s, i) => s.cpuMs / samples[0][i].cpuMs))),
      startupOfPairs: pairs(2),
      target: 0.1,
    },
  };
  const ms = (n) => `${n.toFixed(0)} ms`;
  console.log(
    table([
      ['case', 'median', 'min', 'max', 'CPU median', 'peak RSS'],
      ...cases.map((c, i) => {
        const s = [base, cache, start][i];
        return [c.name, ms(s.medianMs), ms(s.minMs), ms(s.maxMs), ms(s.medianCpuMs), mb(s.peakRssKb)];
      }),
    ]),
  );
  console.log(
    `\nthe run that filled the cache: ${ms(fill.ms)}` +
      `\nratio cached re-run/parse: ${result.ratio.medianOfPairs.toFixed(2)}x (median of paired runs; ` +
      `${result.ratio.ofMedians.toFixed(2)}x from the medians; target at most ${result.ratio.target}x)` +
      `\nratio of CPU time (user + system): ${result.ratio.cpuMedianOfPairs.toFixed(2)}x (median of paired runs)` +
      `\nof which start-up alone (--version)/parse: ${result.ratio.startupOfPairs.toFixed(2)}x`,
  );
  return result;
}

const SECTIONS = [
  { id: 'cli-check', run: cliCheckSection },
  // A cached re-run of the same workspace against the bare YAML parse.
  { id: 'cli-cache', run: cliCacheSection },
  // Edit latency and start-up of the language server over stdio, against the bare YAML parse.
  { id: 'lsp', run: () => lspSection({ out: OUT, options }) },
  // One file of each shape at two sizes against its bare parse, and what hostile files cost.
  {
    id: 'scaling',
    run: () => scalingSection({ out: OUT, options, measure, cli: CLI, baseline: join(HERE, 'baseline.mjs') }),
  },
  // The server on 20,000 small files and on 200 MB of unrelated YAML, beside the CLI (lsp-scale.mjs).
  {
    id: 'lsp-scale',
    run: async () => (await import('./lsp-scale.mjs')).lspScaleSection({ options, measure, cli: CLI }),
  },
  // Push diagnostics (Neovim, Helix) beside yaml-language-server on the same document (lsp-push.mjs); takes --edits, --doc-lines, --starts.
  {
    id: 'lsp-push',
    run: async () =>
      (await import('./lsp-push.mjs')).lspPushSection({
        out: OUT,
        options: { push: { edits: options.lsp.edits, docLines: options.lsp.docLines, starts: options.lsp.starts } },
      }),
  },
];

// ------------------------------------------------------------------------------------------------

function parseOptions(argv) {
  const out = { runs: 7, lines: DEFAULT_LINES, only: undefined, lsp: { ...LSP_DEFAULTS } };
  const count = (flag, value, min) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) usage(`${flag} takes a whole number of at least ${min}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--runs') ((out.runs = count(flag, value, 1)), i++);
    else if (flag === '--lines') ((out.lines = count(flag, value, 1)), i++);
    else if (flag === '--only') ((out.only = (value ?? '').split(',').filter(Boolean)), i++);
    else if (flag === '--edits') ((out.lsp.edits = count(flag, value, 1)), i++);
    else if (flag === '--doc-lines') ((out.lsp.docLines = count(flag, value, 100)), i++);
    else if (flag === '--ws-files') ((out.lsp.wsFiles = count(flag, value, 4)), i++);
    else if (flag === '--starts') ((out.lsp.starts = count(flag, value, 1)), i++);
    else if (flag === '--scaling-lines')
      ((out.scalingLines = (value ?? '').split(',').map((n) => count(flag, n, 100))), i++);
    else if (flag === '--scale-files')
      ((out.scale = { ...(out.scale ?? SCALE_DEFAULTS), files: count(flag, value, 100) }), i++);
    else if (flag === '--scale-mb')
      ((out.scale = { ...(out.scale ?? SCALE_DEFAULTS), megabytes: count(flag, value, 1) }), i++);
    else if (flag === '--hostile-limit') ((out.hostileLimitMs = count(flag, value, 1) * 1000), i++);
    else usage(`unknown argument ${flag}`);
  }
  return out;
}

function usage(problem) {
  console.error(
    `${problem}; use --only SECTION[,SECTION], --runs N, --lines N, --edits N, --doc-lines N, --ws-files N, --starts N, --scaling-lines N,N, --hostile-limit SECONDS, --scale-files N, --scale-mb N`,
  );
  process.exit(2);
}

async function main() {
  const unknown = (options.only ?? []).filter((id) => !SECTIONS.some((s) => s.id === id));
  if (unknown.length || options.only?.length === 0)
    usage(`--only takes section names (${SECTIONS.map((s) => s.id).join(', ')})`);
  if (!existsSync(CLI) || !existsSync(SERVER)) {
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
  const file = join(OUT, 'results.json');
  // A partial run keeps the other sections' last figures.
  if (options.only) {
    try {
      results.sections = JSON.parse(readFileSync(file, 'utf8')).sections ?? {};
    } catch {
      // no earlier results
    }
  }
  for (const section of SECTIONS) {
    if (options.only && !options.only.includes(section.id)) continue;
    results.sections[section.id] = await section.run();
  }
  results.seconds = Math.round((Date.now() - started) / 1000);
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  console.log(`\nwrote ${relative(ROOT, file)} (${results.seconds} s)`);
}

main().catch((error) => {
  console.error(error?.stack ?? String(error));
  process.exitCode = 1;
});
