// `--fix` never writes outside the workspace (the folder the command runs in; SECURITY.md): a
// file named on the command line that is a link to a file outside, and a folder named there that
// is a link out, are checked but not fixed; the run says which link leads out and fails, and the
// files outside keep every byte. A link that stays inside is fixed as usual. `--cache` keeps to
// the same rule for its cache file.
import assert from 'node:assert/strict';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli, SCENARIOS } from './harness.js';

describe('tool-lens check --fix and symbolic links', () => {
  const base = mkdtempSync(join(tmpdir(), 'tool-lens-fix-links-'));
  after(() => rmSync(base, { recursive: true, force: true }));
  const outside = join(base, 'outside');
  const ws = join(base, 'ws');
  cpSync(join(SCENARIOS, 'fixable'), outside, { recursive: true });
  cpSync(join(SCENARIOS, 'fixable'), join(ws, 'own'), { recursive: true });
  cpSync(join(SCENARIOS, '.toollens.yaml'), join(ws, '.toollens.yaml'));
  symlinkSync(join(outside, 'inline.vmcp.yaml'), join(ws, 'linked.vmcp.yaml'));
  symlinkSync(outside, join(ws, 'vendor'));
  symlinkSync(join(ws, 'own', 'partial.vmcp.yaml'), join(ws, 'inside.vmcp.yaml'));
  const original = (name: string) => readFileSync(join(SCENARIOS, 'fixable', name), 'utf8');

  test('a file and a folder linked from outside are refused, named, and fail the run; the inside link is fixed', () => {
    const run = runCli(
      ['check', '--fix', '--format', 'json', 'linked.vmcp.yaml', 'vendor/partial.vmcp.yaml', 'inside.vmcp.yaml'],
      { cwd: ws },
    );
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stderr,
      /tool-lens: not fixed: not writing linked\.vmcp\.yaml: linked\.vmcp\.yaml -> \S+inline\.vmcp\.yaml is a symbolic link that leads out of the workspace, to \S+outside\/inline\.vmcp\.yaml\. Tool Lens writes only inside the workspace /,
    );
    assert.match(
      run.stderr,
      /tool-lens: not fixed: not writing vendor\/partial\.vmcp\.yaml: vendor -> \S+outside is a symbolic link that leads out of the workspace/,
    );
    assert.match(run.stderr, /tool-lens: fixed 1 problem in inside\.vmcp\.yaml/);
    for (const name of ['inline.vmcp.yaml', 'partial.vmcp.yaml'])
      assert.equal(readFileSync(join(outside, name), 'utf8'), original(name), `${name} outside is untouched`);
    assert.notEqual(
      readFileSync(join(ws, 'own', 'partial.vmcp.yaml'), 'utf8'),
      original('partial.vmcp.yaml'),
      'the file inside, reached through a link inside, is fixed',
    );
  });

  test('the refusal alone fails the run: the linked file passes without --fix, and fails with it', () => {
    const plain = runCli(['check', '--format', 'json', 'linked.vmcp.yaml'], { cwd: ws });
    assert.equal(plain.code, 0, plain.stderr);
    const fixing = runCli(['check', '--fix', '--format', 'json', 'linked.vmcp.yaml'], { cwd: ws });
    assert.equal(fixing.code, 1, fixing.stderr);
    assert.match(fixing.stderr, /not fixed: not writing linked\.vmcp\.yaml/);
    assert.equal(readFileSync(join(outside, 'inline.vmcp.yaml'), 'utf8'), original('inline.vmcp.yaml'));
  });
});

describe('tool-lens check --cache and symbolic links', () => {
  const base = mkdtempSync(join(tmpdir(), 'tool-lens-cache-links-'));
  after(() => rmSync(base, { recursive: true, force: true }));
  const outside = join(base, 'outside');
  const ws = join(base, 'ws');
  mkdirSync(outside);
  cpSync(join(SCENARIOS, 'fixable'), join(ws, 'own'), { recursive: true });
  cpSync(join(SCENARIOS, '.toollens.yaml'), join(ws, '.toollens.yaml'));
  symlinkSync(outside, join(ws, 'build'));

  test('a --cache-location through a link out of the folder is not written, and the run says so', () => {
    const run = runCli(['check', 'own', '--cache', '--cache-location', 'build/', '--format', 'json'], { cwd: ws });
    assert.match(
      run.stderr,
      /cache: not written: not writing build\/\.toollens-cache: build -> \S+ is a symbolic link that leads out of the workspace/,
    );
    assert.deepEqual(readdirSync(outside), []);
    // Inside the folder, the cache is written as usual.
    const inside = runCli(['check', 'own', '--cache', '--format', 'json'], { cwd: ws });
    assert.doesNotMatch(inside.stderr, /not written/);
    assert.ok(existsSync(join(ws, '.toollens-cache')));
  });
  test('an --output-file through a committed link out of the folder is not written: a usage error names the link', () => {
    const target = join(base, 'precious.txt');
    writeFileSync(target, 'keep me\n');
    symlinkSync(target, join(ws, 'report.json'));
    const run = runCli(['check', 'own', '--format', 'json', '--output-file', 'report.json'], { cwd: ws });
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /the report was not written: not writing report\.json: report\.json -> \S+precious\.txt is a symbolic link that leads out of the workspace/,
    );
    assert.equal(readFileSync(target, 'utf8'), 'keep me\n');
    // A report file inside the folder is written as usual, its folders made.
    const inside = runCli(['check', 'own', '--format', 'json', '--output-file', 'reports/check.json'], { cwd: ws });
    assert.notEqual(inside.code, 2, inside.stderr);
    assert.ok(existsSync(join(ws, 'reports', 'check.json')));
  });
});
