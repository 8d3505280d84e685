// The flags linters share (docs/behaviour.md, "The checker's command line"), on the built bundle:
// --stdin with --stdin-filename (and --fix, which prints the fixed text and nothing else),
// --max-warnings, --quiet, --color / --no-color with NO_COLOR and FORCE_COLOR, --output-file and
// --version. Bad values are usage errors (test/cli/usage.test.ts).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ROOT, runCli, SCENARIOS } from './harness.js';

const scenario = (path: string) => readFileSync(join(SCENARIOS, path), 'utf8');
const ESC = '\u001b[';
// The tests run in a CI whose environment may force or forbid colour: start from neither.
const NEUTRAL = { NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'xterm' };

interface JsonOut {
  files: { path: string; kind: string | null; diagnostics: { rule: string; severity: string }[] }[];
  summary: Record<string, number>;
}

describe('--stdin', () => {
  test('checks standard input as the file --stdin-filename names, in its workspace', () => {
    const text = scenario('one-error/gateway.vmcp.yaml');
    const run = runCli(['check', '--stdin', '--stdin-filename', 'one-error/gateway.vmcp.yaml', '--format', 'json'], {
      input: text,
    });
    assert.equal(run.stderr, '');
    assert.equal(run.code, 1);
    const disk = runCli(['check', 'one-error/gateway.vmcp.yaml', '--format', 'json']);
    assert.equal(run.stdout, disk.stdout, 'the same report as for the file on disk');
  });

  test('the text wins over the disk, and the file need not exist', () => {
    const edited = scenario('one-error/gateway.vmcp.yaml').replace(
      /\n {4}description: Read the first lines[^\n]*(\n {4}description)/,
      '$1',
    );
    const run = runCli(['check', '--stdin', '--stdin-filename', 'one-error/unsaved.vmcp.yaml', '--format', 'json'], {
      input: edited,
    });
    const out = JSON.parse(run.stdout) as JsonOut;
    assert.deepEqual(
      out.files.map((file) => [file.path, file.kind, file.diagnostics.length]),
      [['one-error/unsaved.vmcp.yaml', 'vmcp-config', 0]],
    );
    assert.equal(run.code, 0);
  });

  test('the file name gives the kind; the tool references are resolved against the workspace catalogs', () => {
    // A calls file named only by its name: no kind from content alone.
    const text = 'server: filesystem\ncalls:\n  - tool: read_text_file\n    input: {path: a, head: "x"}\n';
    const named = JSON.parse(
      runCli(['check', '--stdin', '--stdin-filename', 'clean/session.calls.yaml', '--format', 'json'], { input: text })
        .stdout,
    ) as JsonOut;
    assert.equal(named.files[0]!.kind, 'tool-calls');
    assert.ok(
      named.files[0]!.diagnostics.some((d) => d.rule.startsWith('args/')),
      'the catalog in clean/catalogs/ was read',
    );
  });

  test('without --stdin-filename the text is <stdin>, recognised by its content', () => {
    const run = runCli(['check', '--stdin', '--format', 'json'], { input: scenario('one-error/gateway.vmcp.yaml') });
    const out = JSON.parse(run.stdout) as JsonOut;
    assert.deepEqual(
      out.files.map((file) => [file.path, file.kind, file.diagnostics.map((d) => d.rule)]),
      [['<stdin>', 'vmcp-config', ['yaml/duplicate-key']]],
    );
    assert.equal(run.code, 1);
  });

  test('--fix prints the fixed text and nothing else, and exits 0', () => {
    const text = scenario('fixable/inline.vmcp.yaml');
    const run = runCli(['check', '--stdin', '--stdin-filename', 'fixable/inline.vmcp.yaml', '--fix'], { input: text });
    assert.equal(run.stderr, '');
    assert.equal(run.code, 0);
    assert.equal(run.stdout, text.replace(' # tool-lens-disable-line yaml/duplicate-key -- old', ''));
    assert.equal(scenario('fixable/inline.vmcp.yaml'), text, 'the file on disk is not touched');
    // Nothing to fix: the text comes back as it was.
    const clean = scenario('clean/gateway.vmcp.yaml');
    assert.equal(
      runCli(['check', '--stdin', '--stdin-filename', 'clean/gateway.vmcp.yaml', '--fix'], { input: clean }).stdout,
      clean,
    );
  });
});

describe('--max-warnings and --quiet', () => {
  test('--max-warnings N exits 1 when there are more than N warnings', () => {
    // warning-only has one warning and no error.
    assert.equal(runCli(['check', 'warning-only']).code, 0);
    assert.equal(runCli(['check', 'warning-only', '--max-warnings', '1']).code, 0);
    const over = runCli(['check', 'warning-only', '--max-warnings', '0']);
    assert.equal(over.code, 1);
    assert.equal(over.stderr, 'tool-lens: 1 warning, more than --max-warnings 0\n');
    // Errors still fail whatever the warnings.
    assert.equal(runCli(['check', 'one-error', '--max-warnings', '10']).code, 1);
  });

  test('--quiet reports errors only, and counts nothing below them', () => {
    const all = JSON.parse(runCli(['check', 'one-error', 'warning-only', '--format', 'json']).stdout) as JsonOut;
    assert.deepEqual(all.summary, { files: 4, error: 1, warning: 1, info: 0, hint: 0 });
    const quiet = runCli(['check', 'one-error', 'warning-only', '--format', 'json', '--quiet']);
    const out = JSON.parse(quiet.stdout) as JsonOut;
    assert.deepEqual(out.summary, { files: 4, error: 1, warning: 0, info: 0, hint: 0 });
    assert.ok(out.files.every((file) => file.diagnostics.every((d) => d.severity === 'error')));
    assert.equal(runCli(['check', 'warning-only', '--quiet', '--max-warnings', '0']).code, 0);
    assert.equal(runCli(['check', 'warning-only', '--quiet', '--fail-on', 'warning']).code, 0);
    const stylish = runCli(['check', 'warning-only', '--quiet']);
    assert.equal(stylish.stdout, '0 errors, 0 warnings, 0 infos in 2 files\n');
  });
});

describe('colour', () => {
  const stylish = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    runCli(['check', 'one-error', ...args], { env: { ...NEUTRAL, ...env } }).stdout;

  test('off for a pipe, on with --color or FORCE_COLOR, off again with --no-color or FORCE_COLOR=0', () => {
    assert.ok(!stylish([]).includes(ESC), 'a pipe gets no colour');
    assert.ok(stylish(['--color']).includes(ESC));
    assert.ok(stylish([], { FORCE_COLOR: '1' }).includes(ESC));
    assert.ok(stylish([], { FORCE_COLOR: '1', NO_COLOR: '1' }).includes(ESC), 'FORCE_COLOR wins over NO_COLOR');
    assert.ok(!stylish(['--no-color'], { FORCE_COLOR: '1' }).includes(ESC), 'the flag wins over the environment');
    assert.ok(!stylish([], { FORCE_COLOR: '0' }).includes(ESC));
    assert.ok(stylish(['--no-color', '--color']).includes(ESC), 'the last flag wins');
    assert.ok(!stylish(['--color', '--no-color']).includes(ESC));
    assert.equal(
      stylish(['--color']).replace(new RegExp(`${ESC.replace('[', '\\[')}\\d+m`, 'g'), ''),
      stylish([]),
      'colour adds escape codes and nothing else',
    );
    assert.ok(runCli(['rules', '--color'], { env: NEUTRAL }).stdout.includes(ESC));
  });
});

describe('--output-file and --version', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tool-lens-flags-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('--output-file writes the report there, creating its folders, and prints nothing', () => {
    const target = join(dir, 'reports', 'deep', 'tool-lens.json');
    const run = runCli(['check', 'one-error', '--format', 'json', '--output-file', target]);
    assert.equal(run.stdout, '');
    assert.equal(run.code, 1);
    assert.equal(readFileSync(target, 'utf8'), runCli(['check', 'one-error', '--format', 'json']).stdout);
    // A file gets no colour unless asked for.
    const plain = join(dir, 'plain.txt');
    runCli(['check', 'one-error', '--output-file', plain], { env: NEUTRAL });
    assert.ok(!readFileSync(plain, 'utf8').includes(ESC));
    const rules = join(dir, 'rules.json');
    assert.equal(runCli(['rules', '--format', 'json', '--output-file', rules]).stdout, '');
    assert.ok(existsSync(rules));
  });

  test('--version prints the package version, whatever the command', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(runCli(['--version']).stdout, `${version}\n`);
    assert.equal(runCli(['check', '--version']).stdout, `${version}\n`);
  });
});
