// What a run reads, on hostile workspaces: globs of `.toollens.yaml` that used to take exponential
// time or crawl the machine, and symbolic links out of the folder, to `/`, and in loops.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from './harness.js';

// A workflow with one finding (a key written twice), so that a file being read shows.
const WORKFLOW =
  'compositeTools:\n  - name: t\n    description: one\n    description: two\n    steps:\n      - id: s\n        tool: fs.read\n';
const CATALOG = 'catalog: 1\nservers:\n  - name: secret\n    tools: []\n';

const temporary: string[] = [];
after(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** A temporary folder with these files (path -> text) and links (path -> target). */
function workspace(files: Record<string, string>, links: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'tool-lens-walk-'));
  temporary.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  for (const [path, target] of Object.entries(links)) symlinkSync(target, join(dir, path));
  return dir;
}

interface Report {
  files: { path: string; diagnostics: { rule: string }[] }[];
}

function check(cwd: string, ...args: string[]): { code: number | null; report: Report | undefined; stderr: string } {
  const run = runCli(['check', ...args, '--format', 'json'], { cwd });
  return { code: run.code, report: run.stdout ? (JSON.parse(run.stdout) as Report) : undefined, stderr: run.stderr };
}

describe('globs of .toollens.yaml', () => {
  test('a glob that backtracks exponentially, against a 200-character file name, completes', () => {
    // picomatch's regular expression for this glob took 9 s against a 28-character name; against
    // 200 characters `check` never ended, in the CLI and in the server alike.
    const hostile = '*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b';
    const long = 'a'.repeat(200);
    const cwd = workspace({
      '.toollens.yaml': [
        'catalogs:',
        `  - "${hostile}"`,
        'kinds:',
        `  tool-calls: ["${hostile}"]`,
        'overrides:',
        `  - files: ["${hostile}", "${hostile}.yaml"]`,
        '    rules: {yaml/duplicate-key: off}',
        '',
      ].join('\n'),
      [`${long}.yaml`]: WORKFLOW,
      [`${long}b.yaml`]: WORKFLOW,
    });
    const { code, report, stderr } = check(cwd);
    assert.equal(stderr, '');
    assert.equal(code, 1);
    // The override applies where the glob matches, and only there.
    assert.deepEqual(
      report!.files.map((file) => [file.path, file.diagnostics.some((d) => d.rule === 'yaml/duplicate-key')]),
      [
        [`${long}.yaml`, true],
        [`${long}b.yaml`, false],
      ],
    );
  });

  test('an absolute glob, or one that climbs out with .., is a configuration problem', () => {
    // `/**/*.json` used to crawl the whole machine (`/usr/**/*.json` alone: 14 s and 1 GB).
    const cwd = workspace({
      '.toollens.yaml': 'catalogs: ["/**/*.json", "../*.json"]\noverrides:\n  - files: ["/etc/**"]\n    rules: {}\n',
      'gw.vmcp.yaml': WORKFLOW,
    });
    const run = runCli(['check', '.'], { cwd });
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    const lines = run.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 3, run.stderr);
    assert.match(
      lines[0]!,
      /^\.toollens\.yaml:1:12: "\/\*\*\/\*\.json" is an absolute path, and globs here are relative to the folder of \.toollens\.yaml, which is as far as Tool Lens reads; write it relative to that folder\. \(schema\/invalid-value\)$/,
    );
    assert.match(lines[1]!, /^\.toollens\.yaml:1:26: "\.\.\/\*\.json" climbs out with "\.\."/);
    assert.match(lines[2]!, /^\.toollens\.yaml:3:13: "\/etc\/\*\*" is an absolute path/);
  });

  test('a glob Tool Lens cannot read is a configuration problem, and a bad --catalog a usage error', () => {
    const cwd = workspace({
      '.toollens.yaml': `kinds:\n  tool-calls: ["!x/**", "${'a'.repeat(300)}"]\n`,
      'gw.vmcp.yaml': WORKFLOW,
    });
    const run = runCli(['check', '.'], { cwd });
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /^\.toollens\.yaml:2:16: "!x\/\*\*" starts with "!", and Tool Lens globs have no negation/,
    );
    assert.match(
      run.stderr,
      /\n\.toollens\.yaml:2:25: This glob is 300 characters long, and Tool Lens reads globs of at most 256/,
    );

    const clean = workspace({ 'gw.vmcp.yaml': WORKFLOW, '.toollens.yaml': '' });
    const bad = runCli(['check', '.', '--catalog', '*(a|b).json'], { cwd: clean });
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /^tool-lens: --catalog \*\(a\|b\)\.json: "\*\(" in "\*\(a\|b\)\.json" is a pattern form Tool Lens does not read/,
    );
    // --catalog is what the user typed: it may name files outside the folder.
    const outside = workspace({
      'snap/c.yaml':
        'catalog: 1\nservers:\n  - name: fs\n    tools:\n      - name: read\n        inputSchema: {type: object}\n',
    });
    const ok = check(clean, '.', '--catalog', join(outside, 'snap', '*.yaml'), '--catalog', '../nothing-here/*.json');
    assert.equal(ok.stderr, `tool-lens: --catalog ../nothing-here/*.json matches no file\n`);
    assert.deepEqual(
      ok.report!.files[0]!.diagnostics.map((d) => d.rule),
      ['yaml/duplicate-key'],
      'the tool is found in the catalog outside the folder',
    );
  });
});

describe('symbolic links', () => {
  test('a link to /, a link out, a loop and a second name: each file inside once, one note for the links out', () => {
    // With links followed, the link to / made `check .` read the whole machine (killed at 30 s
    // and 1 GB), the link out had the outside files checked and their catalog joined, and the
    // loop had every file reported twice.
    const outside = workspace({ 'gw.vmcp.yaml': WORKFLOW, 'secret.catalog.yaml': CATALOG });
    const cwd = workspace(
      { 'd/gw.vmcp.yaml': WORKFLOW, 'catalogs/c.catalog.yaml': CATALOG.replace('secret', 'inside') },
      {
        root: '/',
        out: outside,
        'd/up': '..',
        'second.vmcp.yaml': 'd/gw.vmcp.yaml',
        'out.catalog.yaml': join(outside, 'secret.catalog.yaml'),
      },
    );
    const { code, report, stderr } = check(cwd, '.');
    assert.equal(code, 1);
    assert.deepEqual(
      report!.files.map((file) => file.path),
      ['catalogs/c.catalog.yaml', 'd/gw.vmcp.yaml'],
    );
    assert.equal(
      stderr,
      `tool-lens: note: did not follow 3 symbolic links that lead out of the folder being read, so nothing behind them is checked: out -> ${outside}, out.catalog.yaml -> ${join(outside, 'secret.catalog.yaml')}, root -> /\n`,
    );
  });

  test('a file named on the command line may be a link; a file named twice is checked once', () => {
    const cwd = workspace({ 'd/gw.vmcp.yaml': WORKFLOW }, { 'second.vmcp.yaml': 'd/gw.vmcp.yaml' });
    const alone = check(cwd, 'second.vmcp.yaml');
    assert.equal(alone.stderr, '');
    assert.deepEqual(
      alone.report!.files.map((file) => [file.path, file.diagnostics.map((d) => d.rule)]),
      [['second.vmcp.yaml', ['yaml/duplicate-key', 'tool/unknown']]],
    );
    const twice = check(cwd, 'second.vmcp.yaml', '.');
    assert.deepEqual(
      twice.report!.files.map((file) => file.path),
      ['second.vmcp.yaml'],
    );
  });

  test('a catalog glob through a link out of the folder names nothing, and says so', () => {
    const outside = workspace({ 'secret.catalog.yaml': CATALOG });
    const cwd = workspace(
      {
        '.toollens.yaml': 'catalogs: ["vendor/*.yaml"]\n',
        'gw.vmcp.yaml': 'compositeTools:\n  - name: t\n    steps:\n      - id: s\n        tool: secret.x\n',
      },
      { vendor: outside },
    );
    const { report, stderr } = check(cwd, '.');
    assert.equal(
      stderr,
      `tool-lens: note: did not follow a symbolic link that leads out of the folder being read, so nothing behind it is checked: vendor -> ${outside}\n`,
    );
    // The server `secret` has no catalog: its tool is unknown rather than checked against it.
    assert.ok(
      report!.files[0]!.diagnostics.some((d) => d.rule === 'tool/unknown'),
      JSON.stringify(report),
    );
  });
});
