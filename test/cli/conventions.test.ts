// The command line as ESLint and Ruff users expect it: a did-you-mean for a misspelt option or
// command, the short flags of the common options, a note when the paths hold files but none of a
// kind Tool Lens checks (the exit code unchanged), and the source-map hint only where maps ship.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CLI, copyScenarios, ensureBuilt, runCli } from './harness.js';

const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tool-lens-cli-'));
  made.push(dir);
  return dir;
}

describe('did you mean', () => {
  const cases: [string[], string][] = [
    [
      ['check', '--formt', 'json'],
      'tool-lens: unknown option --formt; did you mean --format? (see tool-lens --help)\n',
    ],
    [
      ['check', '--fail-onn=warning'],
      'tool-lens: unknown option --fail-onn; did you mean --fail-on? (see tool-lens --help)\n',
    ],
    [
      ['chek', '.'],
      'tool-lens: unknown command "chek"; the commands are check, rules, gateway tools, servers, catalog fetch, catalog diff and help; did you mean check? (see tool-lens --help)\n',
    ],
    [
      ['catalog', 'dif', 'a', 'b'],
      'tool-lens: unknown catalog command "dif"; the catalog commands are `catalog fetch [SERVER...]` and `catalog diff OLD NEW`; did you mean diff? (see tool-lens --help)\n',
    ],
    [
      ['gateway', 'tool'],
      'tool-lens: unknown gateway command "tool"; the gateway command is `gateway tools [PATH...]`; did you mean tools? (see tool-lens --help)\n',
    ],
  ];
  for (const [args, stderr] of cases) {
    test(args.join(' '), () => {
      const result = runCli(args);
      assert.equal(result.code, 2);
      assert.equal(result.stderr, stderr);
      assert.equal(result.stdout, '');
    });
  }

  test('nothing is guessed for a word close to no option or command', () => {
    assert.doesNotMatch(runCli(['check', '--zzzzzz']).stderr, /did you mean/);
    assert.doesNotMatch(runCli(['frobnicate']).stderr, /did you mean/);
  });
});

describe('short flags', () => {
  test('-f, -o, -c and -q are --format, --output-file, --config and --quiet', () => {
    const dir = copyScenarios('one-error', 'warning-only');
    made.push(dir);
    const long = runCli(
      [
        'check',
        'one-error',
        'warning-only',
        '--format',
        'json',
        '--quiet',
        '--config',
        '.toollens.yaml',
        '--output-file',
        'long.json',
      ],
      { cwd: dir },
    );
    const short = runCli(
      ['check', 'one-error', 'warning-only', '-f', 'json', '-q', '-c', '.toollens.yaml', '-o', 'short.json'],
      {
        cwd: dir,
      },
    );
    assert.equal(short.code, long.code);
    assert.equal(short.stderr, long.stderr);
    const report = readFileSync(join(dir, 'short.json'), 'utf8');
    assert.equal(report, readFileSync(join(dir, 'long.json'), 'utf8'));
    // --quiet took effect: only errors are left.
    const parsed = JSON.parse(report) as { summary: { warning: number; error: number } };
    assert.equal(parsed.summary.warning, 0);
    assert.ok(parsed.summary.error > 0);
  });

  test('every short flag in the help stands for one option, and -h stays help', () => {
    for (const command of ['check', 'rules', 'gateway', 'catalog diff']) {
      const help = runCli(['help', ...command.split(' ')]).stdout;
      const shorts = [...help.matchAll(/^ {2}(-[a-z]), (--[a-z-]+)/gm)].map((m) => [m[1]!, m[2]!] as const);
      const letters = shorts.map(([letter]) => letter);
      assert.equal(new Set(letters).size, letters.length, `${command}: a short flag used twice`);
      const expected: Record<string, string> = {
        '-f': '--format',
        '-o': '--output-file',
        '-c': '--config',
        '-q': '--quiet',
        '-h': '--help',
      };
      for (const [letter, name] of shorts) assert.equal(name, expected[letter], `${command}: ${letter}`);
      assert.ok(letters.includes('-f') && letters.includes('-o') && letters.includes('-h'), command);
    }
    assert.equal(runCli(['rules', '-f', 'json']).code, 0);
  });
});

describe('paths that hold nothing Tool Lens checks', () => {
  test('files of no kind it checks: a note on stderr, exit code 0', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'docker-compose.yaml'), 'services:\n  web:\n    image: nginx\n');
    writeFileSync(join(dir, 'settings.json'), '{"editor.tabSize": 2}\n');
    const result = runCli(['check', 'docker-compose.yaml', 'settings.json'], { cwd: dir });
    assert.equal(result.code, 0);
    assert.equal(
      result.stderr,
      'tool-lens: nothing checked: 2 files in docker-compose.yaml, settings.json, none of them a gateway workflow, tool-face overlay, tool catalog, tool calls or MCP client config (what Tool Lens recognises: docs/behaviour.md#recognising-files)\n',
    );
    const folder = runCli(['check', '.', '-f', 'json'], { cwd: dir });
    assert.equal(folder.code, 0);
    assert.match(folder.stderr, /^tool-lens: nothing checked: 2 files in \., none of them /);
  });

  test('a run that checks a file of a known kind says nothing of the others', () => {
    const result = runCli(['check', 'clean']);
    assert.equal(result.code, 0);
    assert.doesNotMatch(result.stderr, /nothing checked/);
  });
});

describe('the source-map hint', () => {
  test('given beside the bundle and its map, left out without the map (as in the npm package)', () => {
    ensureBuilt();
    assert.match(runCli(['check', '--help']).stdout, /--enable-source-maps/);
    const dir = tempDir();
    copyFileSync(CLI, join(dir, 'cli.js'));
    // package.json is bundled in: the bundle alone answers --help.
    const help = spawnSync(process.execPath, [join(dir, 'cli.js'), 'check', '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0, help.stderr);
    assert.match(
      help.stdout,
      /--debug {20}details of the run on stderr, and the stack of an internal error\n {2}-h, --help/,
    );
    assert.doesNotMatch(help.stdout, /source-maps/);
  });
});
