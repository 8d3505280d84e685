// The command line itself: help, version, `rules`, and the exit code for usage errors (2), an
// unreadable configuration among them, each with a one-line message on stderr.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ALL_RULES } from '../../server/src/core/rules/registry.js';
import { ROOT, runCli } from './harness.js';

function assertOneLine(stderr: string): void {
  assert.match(stderr, /^tool-lens: [^\n]+\n$/, `one line on stderr, got:\n${stderr}`);
}

describe('usage errors exit 2 with one line', () => {
  const cases: [string, string[], RegExp][] = [
    ['an unknown option', ['check', 'clean', '--bogus'], /unknown option --bogus/],
    ['a missing path', ['check', 'no-such-folder'], /no such file or folder: no-such-folder/],
    [
      'a bad --format',
      ['check', 'clean', '--format', 'xml'],
      /--format must be one of stylish, json, sarif, github, junit, gitlab, rdjson; got "xml"/,
    ],
    [
      'a bad --max-warnings',
      ['check', 'clean', '--max-warnings=-1'],
      /--max-warnings must be a whole number of 0 or more; got "-1"/,
    ],
    [
      'a --max-warnings that is no number',
      ['check', 'clean', '--max-warnings', 'ten'],
      /--max-warnings must be a whole number of 0 or more; got "ten"/,
    ],
    ['--stdin-filename without --stdin', ['check', '--stdin-filename', 'a.yaml'], /--stdin-filename needs --stdin/],
    [
      '--stdin with a path',
      ['check', '--stdin', 'clean'],
      /--stdin checks standard input and takes no PATH; got "clean"/,
    ],
    [
      '--output-file naming a folder',
      ['check', 'clean', '--output-file', 'clean'],
      /--output-file expects a file, and clean is a folder/,
    ],
    ['a check option on rules: --quiet', ['rules', '--quiet'], /--quiet does not apply to `tool-lens rules`/],
    ['help for no command', ['help', 'lint'], /no help for "lint"/],
    [
      'a bad --fail-on',
      ['check', 'clean', '--fail-on', 'hint'],
      /--fail-on must be one of error, warning, info; got "hint"/,
    ],
    ['an option without its value', ['check', 'clean', '--format'], /option --format needs a value/],
    ['a value for a flag', ['check', 'clean', '--fix=yes'], /option --fix takes no value/],
    ['no command', [], /no command given/],
    ['an unknown command', ['lint', '.'], /unknown command "lint"/],
    ['a check option on rules', ['rules', '--fix'], /--fix does not apply to `tool-lens rules`/],
    [
      'a format rules does not have',
      ['rules', '--format', 'sarif'],
      /--format must be one of stylish, json; got "sarif"/,
    ],
    [
      'a missing --config file',
      ['check', 'clean', '--config', 'missing.yaml'],
      /configuration file not found: missing\.yaml/,
    ],
    [
      '--config naming a folder',
      ['check', 'clean', '--config', 'clean'],
      /--config expects a file, and clean is a folder/,
    ],
    ['an unknown catalog command', ['catalog', 'pull'], /unknown catalog command "pull"/],
  ];
  for (const [what, args, message] of cases) {
    test(what, () => {
      const run = runCli(args);
      assert.equal(run.stdout, '');
      assertOneLine(run.stderr);
      assert.match(run.stderr, message);
      assert.equal(run.code, 2);
    });
  }
});

describe('a configuration that cannot be read', () => {
  test('a configuration path that cannot be read ends cleanly, in one line: a usage error that says why', () => {
    // `.toollens.yaml` found upward is a folder: the loader refuses to read it.
    const dir = mkdtempSync(join(tmpdir(), 'tool-lens-cli-'));
    try {
      mkdirSync(join(dir, '.toollens.yaml'));
      writeFileSync(join(dir, 'gateway.vmcp.yaml'), 'compositeTools: []\n');
      const run = runCli(['check'], { cwd: dir });
      assert.equal(run.stdout, '');
      assertOneLine(run.stderr);
      assert.equal(run.stderr, 'tool-lens: cannot read the configuration .toollens.yaml: it is a folder, not a file\n');
      assert.equal(run.code, 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('help, version and rules', () => {
  test('--help prints the usage on stdout and exits 0', () => {
    const run = runCli(['--help']);
    assert.equal(run.code, 0);
    assert.equal(run.stderr, '');
    for (const part of [
      'tool-lens check [PATH...]',
      'tool-lens rules',
      'tool-lens catalog fetch',
      'tool-lens help [COMMAND]',
      'Exit codes:',
    ]) {
      assert.ok(run.stdout.includes(part), `help mentions ${part}`);
    }
    assert.equal(runCli(['help']).stdout, run.stdout);
  });

  test('every command has its --help, and `help COMMAND` prints the same', () => {
    const check = runCli(['check', '--help']);
    assert.equal(check.code, 0);
    assert.equal(check.stderr, '');
    for (const part of [
      'Usage: tool-lens check [PATH...]',
      '--format FORMAT',
      'junit',
      'gitlab',
      'rdjson',
      '--fail-on error|warning|info',
      '--max-warnings N',
      '--quiet',
      '--catalog GLOB',
      '--config FILE',
      '--fix',
      '--stdin',
      '--stdin-filename PATH',
      '--output-file FILE',
      '--color, --no-color',
      'NO_COLOR',
      'FORCE_COLOR',
      'UTF-16',
      'Exit codes:',
    ]) {
      assert.ok(check.stdout.includes(part), `check --help mentions ${part}`);
    }
    assert.equal(runCli(['help', 'check']).stdout, check.stdout);
    assert.equal(runCli(['check', '-h']).stdout, check.stdout);
    const rules = runCli(['rules', '--help']);
    assert.equal(rules.code, 0);
    assert.match(rules.stdout, /^Usage: tool-lens rules/);
    assert.equal(runCli(['help', 'rules']).stdout, rules.stdout);
    const fetch = runCli(['catalog', 'fetch', '--help']);
    assert.equal(fetch.code, 0);
    assert.match(fetch.stdout, /^Usage: tool-lens catalog fetch/);
    assert.equal(runCli(['help', 'catalog', 'fetch']).stdout, fetch.stdout);
    assert.equal(runCli(['catalog', '--help']).stdout, fetch.stdout);
    for (const help of [check.stdout, rules.stdout, fetch.stdout]) assert.notEqual(help, runCli(['--help']).stdout);
  });

  test('--version prints the package version', () => {
    const run = runCli(['--version']);
    assert.equal(run.code, 0);
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(run.stdout, `${version}\n`);
  });

  test('rules lists every rule id with its default severity and summary, aligned', () => {
    const run = runCli(['rules']);
    assert.equal(run.code, 0);
    const lines = run.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^RULE\s+DEFAULT\s+SUMMARY$/);
    const rows = lines.slice(1);
    assert.equal(rows.length, ALL_RULES.length);
    const column = lines[0]!.indexOf('DEFAULT');
    ALL_RULES.forEach((rule, index) => {
      const row = rows[index]!;
      assert.ok(row.startsWith(`${rule.id} `), row);
      assert.equal(row.slice(column).split(/\s+/, 1)[0], rule.defaultSeverity, row);
      assert.ok(row.endsWith(rule.summary), row);
    });
    for (const id of ['yaml/syntax', 'yaml/duplicate-key', 'lens/unused-suppression'])
      assert.ok(rows.some((r) => r.startsWith(`${id} `)));
  });

  test('rules --format json', () => {
    const run = runCli(['rules', '--format', 'json']);
    assert.equal(run.code, 0);
    const out = JSON.parse(run.stdout) as {
      version: number;
      rules: { id: string; defaultSeverity: string; summary: string; docs: string }[];
    };
    assert.equal(out.version, 1);
    assert.deepEqual(
      out.rules.map((r) => [r.id, r.defaultSeverity, r.summary]),
      ALL_RULES.map((r) => [r.id, r.defaultSeverity, r.summary]),
    );
    assert.ok(out.rules.every((r) => r.docs.endsWith(`/docs/rules/${r.id}.md`)));
  });
});
