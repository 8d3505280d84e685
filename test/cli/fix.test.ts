// `--fix` on a temporary copy: safe fixes are written, everything else in the file stays byte for
// byte (CRLF included), files without a safe fix are not written at all, and the report describes
// the files as they are after the fix.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { copyScenarios, runCli, SCENARIOS } from './harness.js';

// crlf.vmcp.yaml is given CRLF line endings here, whatever a checkout did to the stored file.
const toCrlf = (text: string) => text.replace(/\r?\n/g, '\r\n');
const original = (name: string) => {
  const text = readFileSync(join(SCENARIOS, 'fixable', name), 'utf8');
  return name === 'crlf.vmcp.yaml' ? toCrlf(text) : text;
};

describe('tool-lens check --fix', () => {
  const dir = copyScenarios('fixable', 'clean');
  after(() => rmSync(dir, { recursive: true, force: true }));
  const fixable = join(dir, 'fixable');
  writeFileSync(join(fixable, 'crlf.vmcp.yaml'), original('crlf.vmcp.yaml'));
  const untouched = join(fixable, 'untouched.vmcp.yaml');
  // An old modification time makes a write, even of identical bytes, visible.
  const past = new Date('2020-01-01T00:00:00Z');
  utimesSync(untouched, past, past);

  test('applies every safe fix and reports only what is left', () => {
    const run = runCli(['check', 'fixable', '--fix', '--format', 'json'], { cwd: dir });
    assert.equal(
      run.stderr,
      [
        'tool-lens: fixed 1 problem in fixable/crlf.vmcp.yaml',
        'tool-lens: fixed 1 problem in fixable/inline.vmcp.yaml',
        'tool-lens: fixed 1 problem in fixable/partial.vmcp.yaml',
        '',
      ].join('\n'),
    );
    const report = JSON.parse(run.stdout) as {
      files: { path: string; diagnostics: { rule: string }[] }[];
      summary: Record<string, number>;
    };
    const left = report.files.flatMap((f) => f.diagnostics.map((d) => `${f.path} ${d.rule}`));
    assert.deepEqual(left, ['fixable/untouched.vmcp.yaml yaml/duplicate-key']);
    assert.deepEqual(report.summary, { files: 5, error: 1, warning: 0, info: 0, hint: 0 });
    assert.equal(run.code, 1, 'the duplicate key has no safe fix and still fails the run');
  });

  test('a whole-line suppression goes with its CRLF line break; every other byte stays', () => {
    const before = original('crlf.vmcp.yaml');
    const line = '      # tool-lens-disable-next-line yaml/syntax -- nothing to hide here\r\n';
    assert.ok(before.includes(line));
    const after = readFileSync(join(fixable, 'crlf.vmcp.yaml'), 'utf8');
    assert.equal(after, before.replace(line, ''));
    assert.ok(!/[^\r]\n/.test(after), 'no bare LF introduced');
  });

  test('a trailing suppression goes, the line it was on stays', () => {
    const before = original('inline.vmcp.yaml');
    const comment = ' # tool-lens-disable-line yaml/duplicate-key -- old';
    assert.ok(before.includes(comment));
    assert.equal(readFileSync(join(fixable, 'inline.vmcp.yaml'), 'utf8'), before.replace(comment, ''));
  });

  test('only the unused id leaves a suppression that still silences something', () => {
    const before = original('partial.vmcp.yaml');
    assert.ok(before.includes('yaml/duplicate-key, yaml/syntax -- migrated'));
    assert.equal(readFileSync(join(fixable, 'partial.vmcp.yaml'), 'utf8'), before.replace(', yaml/syntax', ''));
  });

  test('a file without a safe fix is not written', () => {
    assert.equal(readFileSync(untouched, 'utf8'), original('untouched.vmcp.yaml'));
    assert.equal(statSync(untouched).mtimeMs, past.getTime());
  });

  test('a second run has nothing left to fix and writes nothing', () => {
    const run = runCli(['check', 'fixable', 'clean', '--fix'], { cwd: dir });
    assert.equal(run.stderr, '');
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^fixable\/untouched\.vmcp\.yaml:5:5: error /);
    assert.equal(statSync(untouched).mtimeMs, past.getTime());
  });
});
