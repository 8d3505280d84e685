// Runs every test file under test/ with node's test runner (TypeScript through tsx).
// Node 20's runner does not expand globs itself, so the files are listed here.
//
//   node scripts/run-tests.mjs [--fast] [PART...]
//
// PART keeps only the files whose path contains one of them. --fast leaves out the slow tiers
// below (npm run test:fast); `npm test` runs everything.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What --fast leaves out: real editors, packaging, live servers, the built CLI run as a process per
 * case, and the tests that run thousands of generated or mutated documents (fuzzing, whatever the
 * file is called). `npm test` runs them all.
 */
const SLOW = [
  // Neovim, and code-server driven through Chromium.
  'test/e2e/',
  // The ways Tool Lens is installed: npm pack into an empty project, the Action, pre-commit.
  'test/package/',
  // The release workflow's steps in dry-run form: vsce package, npm pack, ovsx, npm publish.
  'test/release/workflows.test.ts',
  // `npm run demo` as a process: a build, then the CLI twice.
  'test/demo.test.ts',
  // `catalog fetch` against the reference MCP servers and our own hostile ones, started as processes.
  'test/live/',
  // dist/cli.js started as a process for every case (formats, flags, exit codes, --fix, --cache):
  // longer than the rest of the fast tier together.
  'test/cli/',
  // The fuzzer (fixed.test.ts and found.test.ts stay: a few cases each, the bugs it found).
  'test/fuzz/checker.test.ts',
  // Differential and property tests over thousands of generated and mutated documents.
  'test/unit/block-yaml.test.ts',
  'test/unit/incremental.test.ts',
  'test/unit/prefilter.test.ts',
  'test/unit/fix-safety.test.ts',
];
/** In-process tests inside a folder SLOW leaves out, which --fast keeps. */
const FAST_ANYWAY = ['test/cli/formatters.test.ts'];

function collect(dir, out) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (name === 'fixtures' || name === 'corpus' || name === 'node_modules') continue;
    if (statSync(full).isDirectory()) collect(full, out);
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const args = process.argv.slice(2);
const fast = args.includes('--fast');
const filter = args.filter((arg) => arg !== '--fast');
let files = collect('test', []).sort();
if (fast) {
  const posixFiles = files.map((file) => file.split('\\').join('/'));
  // An entry that names no file any more (a test renamed or folded into another) is said, not skipped quietly.
  for (const part of [...SLOW, ...FAST_ANYWAY]) {
    if (!posixFiles.some((file) => file.includes(part)))
      console.error(`run-tests: --fast lists ${part}, which is no test file now: update scripts/run-tests.mjs`);
  }
  const slow = (file) => SLOW.some((part) => file.includes(part)) && !FAST_ANYWAY.includes(file);
  files = files.filter((file, i) => !slow(posixFiles[i]));
}
if (filter.length) files = files.filter((f) => filter.some((part) => f.includes(part)));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// The tests run with a temporary folder of their own (TMPDIR), so what they leave there is theirs
// alone, not another run's on the same machine: every test cleans up what it makes
// (test/helpers/tempDir.ts), and a tool-lens-* entry left after a passing run fails it.
const runTmp = mkdtempSync(join(tmpdir(), 'tool-lens-tests-'));
// Open as /tmp is (sticky, everyone may write): the tests that run the CLI as another user (to make
// a file unreadable even to root) need to reach their folders under it.
chmodSync(runTmp, 0o1777);
// A second reporter writes TAP to a file: the skipped tests are read from it for the closing lines.
const tap = join(runTmp, 'report.tap');
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, TMPDIR: runTmp, TMP: runTmp, TEMP: runTmp } },
);
let status = result.status ?? 1;

const skipped = skippedTests(existsSync(tap) ? readFileSync(tap, 'utf8') : '');
if (skipped.length > 0) {
  console.log(`\nSkipped (${skipped.length}), each with what would run it:`);
  for (const { name, reason } of skipped) console.log(`  - ${name}: ${reason}`);
  console.log(
    '  `bash scripts/setup-test-tools.sh` (as root) installs every tool the tests need (README, "What the tests need").',
  );
}

const left = readdirSync(runTmp).filter((name) => name.startsWith('tool-lens'));
if (left.length > 0) {
  console.error(
    `\nrun-tests: the tests left ${left.length} temporary entries behind (each test removes what it makes; test/helpers/tempDir.ts):`,
  );
  for (const name of left) console.error(`  ${name}`);
}
if (status === 0 && left.length === 0) rmSync(runTmp, { recursive: true, force: true });
else if (status === 0) {
  // A passing run that leaves something behind fails, and what it left goes.
  rmSync(runTmp, { recursive: true, force: true });
  status = 1;
} else console.error(`run-tests: the temporary folder of this failed run is kept for a look: ${runTmp}`);
process.exit(status);

/**
 * The skipped tests of a TAP report, with the reason each gave (`ok 3 - name # SKIP reason`); a
 * subtest's name is prefixed with its suite's.
 */
function skippedTests(text) {
  const out = [];
  const suites = [];
  for (const line of text.split('\n')) {
    const subtest = /^( *)# Subtest: (.*)$/.exec(line);
    if (subtest) {
      const depth = subtest[1].length / 4;
      suites.length = depth;
      suites[depth] = subtest[2];
      continue;
    }
    const skip = /^( *)ok \d+ - (.*?) # SKIP ?(.*)$/.exec(line);
    if (skip) {
      const depth = skip[1].length / 4;
      out.push({
        name: [...suites.slice(0, depth), unescape(skip[2])].join(' › '),
        reason: unescape(skip[3]) || 'no reason given',
      });
    }
  }
  return out;
}

function unescape(text) {
  return text.replace(/\\#/g, '#').replace(/\\\\/g, '\\');
}
