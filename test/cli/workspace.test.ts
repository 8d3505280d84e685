// The workspace of a run (docs/behaviour.md, "The workspace of a run"): whatever files are named,
// they are checked against everything the workspace folder holds that they may depend on, and only
// they are reported. `check FILE` says of FILE exactly what `check .` says of it, for every file of
// examples/ and of the clean corpus, also from a sub-folder; `--fix FILE` fixes what `--fix .`
// fixes in it (the case: a calls file whose catalogs sit in catalogs/).
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, test } from 'node:test';
import { ROOT, runCli } from './harness.js';

interface Report {
  files: { path: string; kind: string | null; diagnostics: unknown[] }[];
}

function report(args: string[], cwd: string): Report {
  const run = runCli(['check', ...args, '--format', 'json'], { cwd });
  assert.ok(run.code === 0 || run.code === 1, `exit 0 or 1, got ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Report;
}

/** The files a whole-folder run reports (every file it checks). */
function checkedFiles(whole: Report): string[] {
  return whole.files.map((file) => file.path);
}

describe('the same answer whatever files are named', () => {
  for (const name of ['examples', 'test/corpus/clean']) {
    const folder = join(ROOT, name);
    const whole = report(['.'], folder);
    const files = checkedFiles(whole);
    test(`${name}: each file alone, as in the whole-folder run`, () => {
      assert.ok(files.length >= 8, `${name} has files to compare`);
      assert.ok(
        whole.files.some((file) => file.diagnostics.length > 0) || name.includes('clean'),
        'examples has findings to compare',
      );
      for (const path of files) {
        const alone = report([path], folder);
        assert.deepEqual(
          alone.files,
          whole.files.filter((file) => file.path === path),
          `check ${path}`,
        );
      }
    });
    test(`${name}: two files together, and from a sub-folder`, () => {
      const pair = [files[0]!, files[files.length - 1]!];
      assert.deepEqual(
        report(pair, folder).files,
        whole.files.filter((file) => pair.includes(file.path)),
      );
      // From gateways/ the configuration is found upward: the workspace is still the folder.
      const sub = join(folder, 'gateways');
      const gateways = files.filter((path) => path.startsWith('gateways/'));
      assert.ok(gateways.length > 0);
      const fromSub = report(['.'], sub);
      assert.deepEqual(
        fromSub.files.map((file) => ({ ...file, path: `gateways/${file.path}` })),
        whole.files.filter((file) => gateways.includes(file.path)),
      );
    });
  }
});

describe('--fix on one file fixes what a whole-folder --fix fixes in it', () => {
  const temporary: string[] = [];
  after(() => {
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  });
  const workspace = () => {
    // The case: no .toollens.yaml, the catalogs in catalogs/, a bare call of a dynamic tool.
    const dir = mkdtempSync(join(tmpdir(), 'tool-lens-workspace-'));
    temporary.push(dir);
    mkdirSync(join(dir, 'catalogs'));
    cpSync(
      join(ROOT, 'examples', 'catalogs', 'team-tools.catalog.yaml'),
      join(dir, 'catalogs', 'team-tools.catalog.yaml'),
    );
    writeFileSync(
      join(dir, 'calls.yaml'),
      'server: assistant\ncalls:\n  - tool: applet_create\n    input:\n      value: A checklist\n      title: Docs 3.2\n',
    );
    return dir;
  };
  const fixed =
    'server: assistant\ncalls:\n  - tool: call_dynamic_tool\n    input:\n      namespace: applets\n      toolName: applet_create\n      arguments:\n        value: A checklist\n        title: Docs 3.2\n';

  test('check --fix calls.yaml rewrites the bare dynamic call into its envelope', () => {
    const dir = workspace();
    const run = runCli(['check', '--fix', 'calls.yaml'], { cwd: dir });
    assert.equal(run.stderr, 'tool-lens: fixed 1 problem in calls.yaml\n');
    assert.equal(run.code, 0);
    assert.equal(readFileSync(join(dir, 'calls.yaml'), 'utf8'), fixed);
  });

  test('as check --fix . does', () => {
    const dir = workspace();
    const run = runCli(['check', '--fix', '.'], { cwd: dir });
    assert.equal(run.stderr, 'tool-lens: fixed 1 problem in calls.yaml\n');
    assert.equal(readFileSync(join(dir, 'calls.yaml'), 'utf8'), fixed);
  });

  test('and every file of examples/, fixed alone, ends as the whole-folder --fix leaves it', () => {
    const whole = mkdtempSync(join(tmpdir(), 'tool-lens-workspace-'));
    temporary.push(whole);
    cpSync(join(ROOT, 'examples'), whole, { recursive: true });
    runCli(['check', '--fix', '.'], { cwd: whole });
    const files = readdirSync(whole, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(ya?ml|json)$/.test(entry.name) && entry.name !== '.toollens.yaml')
      .map((entry) => relative(whole, join(entry.parentPath, entry.name)));
    let changed = 0;
    for (const path of files) {
      const one = mkdtempSync(join(tmpdir(), 'tool-lens-workspace-'));
      temporary.push(one);
      cpSync(join(ROOT, 'examples'), one, { recursive: true });
      runCli(['check', '--fix', path], { cwd: one });
      const after = readFileSync(join(one, path), 'utf8');
      assert.equal(after, readFileSync(join(whole, path), 'utf8'), `--fix ${path}`);
      if (after !== readFileSync(join(ROOT, 'examples', path), 'utf8')) changed++;
    }
    assert.ok(changed > 0, 'some file of examples/ has a safe fix, so the comparison shows something');
  });
});

describe('which workspace', () => {
  const temporary: string[] = [];
  after(() => {
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  });

  test('only the files named are reported, and a nearer .toollens.yaml is not read but named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tool-lens-workspace-'));
    temporary.push(dir);
    cpSync(join(ROOT, 'examples'), dir, { recursive: true });
    writeFileSync(join(dir, 'calls', '.toollens.yaml'), 'rules:\n  envelope/bare-dynamic-name: off\n');
    const run = runCli(['check', 'calls/assistant.calls.yaml', '--format', 'json'], { cwd: dir });
    const out = JSON.parse(run.stdout) as Report;
    assert.deepEqual(
      out.files.map((file) => file.path),
      ['calls/assistant.calls.yaml'],
    );
    assert.ok(out.files[0]!.diagnostics.length > 0, 'the nested configuration switched nothing off');
    assert.equal(
      run.stderr,
      "tool-lens: note: calls/.toollens.yaml is not read: this run's workspace is ., configured by .toollens.yaml (run from its folder, or pass --config, to use it)\n",
    );
    // From its folder, it is the configuration.
    const inside = runCli(['check', 'assistant.calls.yaml', '--format', 'json'], { cwd: join(dir, 'calls') });
    assert.equal(inside.stderr, '');
    // With --config the user chose: no note.
    const chosen = runCli(['check', 'calls/assistant.calls.yaml', '--config', '.toollens.yaml', '--format', 'json'], {
      cwd: dir,
    });
    assert.equal(chosen.stderr, '');
  });

  test('a run that names only paths elsewhere takes their workspace, and reads nothing of here', () => {
    const here = mkdtempSync(join(tmpdir(), 'tool-lens-workspace-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'tool-lens-workspace-'));
    temporary.push(here, elsewhere);
    cpSync(join(ROOT, 'examples'), elsewhere, { recursive: true });
    // A catalog here that would shadow the examples' "assistant" server if it were read.
    writeFileSync(join(here, 'shadow.catalog.yaml'), 'catalog: 1\nservers:\n  - name: assistant\n    tools: []\n');
    const there = report([join(elsewhere, 'calls', 'assistant.calls.yaml')], here);
    const own = report(['calls/assistant.calls.yaml'], elsewhere);
    assert.deepEqual(
      there.files.map((file) => file.diagnostics),
      own.files.map((file) => file.diagnostics),
    );
  });
});
