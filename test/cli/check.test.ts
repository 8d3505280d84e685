// `tool-lens check` over the scenario folders: exit codes and the default (stylish) output.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCli } from './harness.js';

// Each message is one sentence; the why follows it (under the line, in JSON's `why`, after it in one-text formats).
const DUPLICATE = 'The key "description" appears twice in this mapping: keep one.';
const DUPLICATE_WHY = 'Most readers keep only one of the two values, so one of them is silently lost.';
const UNUSED = 'This suppression of yaml/duplicate-key silences nothing: remove it.';
const UNUSED_WHY =
  'yaml/duplicate-key reports nothing on the next line. Left in place, it would hide a future finding.';

describe('tool-lens check', () => {
  test('a clean folder exits 0 and says so in the summary', () => {
    const run = runCli(['check', 'clean']);
    assert.equal(run.stderr, '');
    assert.equal(run.stdout, '0 errors, 0 warnings, 0 infos in 3 files\n');
    assert.equal(run.code, 0);
  });

  test('a folder with one error exits 1 with the finding, its source line and a caret', () => {
    const run = runCli(['check', 'one-error']);
    assert.equal(run.stderr, '');
    assert.equal(
      run.stdout,
      [
        `one-error/gateway.vmcp.yaml:5:5: error ${DUPLICATE} [yaml/duplicate-key]`,
        `5 |     description: Read the first lines of a project's README.`,
        `  |     ^~~~~~~~~~~`,
        `  = ${DUPLICATE_WHY}`,
        `  = first occurrence at 4:5`,
        ``,
        `1 error, 0 warnings, 0 infos in 2 files`,
        ``,
      ].join('\n'),
    );
    assert.equal(run.code, 1);
  });

  test('a single file can be checked, and paths are relative to the current folder', () => {
    const run = runCli(['check', 'gateway.vmcp.yaml', '--catalog', 'catalogs/*.json'], {
      cwd: `${__dirname}/scenarios/one-error`,
    });
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^gateway\.vmcp\.yaml:5:5: error /);
    assert.match(run.stdout, /1 error, 0 warnings, 0 infos in 1 file\n$/);
  });

  test('--fail-on decides which severities fail the run', () => {
    const plain = runCli(['check', 'warning-only']);
    assert.equal(plain.code, 0, 'a warning does not fail the default --fail-on error');
    assert.equal(
      plain.stdout,
      [
        `warning-only/gateway.vmcp.yaml:13:37: warning ${UNUSED} [lens/unused-suppression]`,
        `13 |       # tool-lens-disable-next-line yaml/duplicate-key -- kept from an older version`,
        `   |                                     ^~~~~~~~~~~~~~~~~~`,
        `   = ${UNUSED_WHY}`,
        ``,
        `0 errors, 1 warning, 0 infos in 2 files`,
        ``,
      ].join('\n'),
    );
    assert.equal(runCli(['check', 'warning-only', '--fail-on', 'warning']).code, 1);
    assert.equal(runCli(['check', 'warning-only', '--fail-on=info']).code, 1);
    assert.equal(runCli(['check', 'clean', '--fail-on', 'info']).code, 0);
  });

  test('an invalid configuration stops the run with every problem and exit 2', () => {
    // From its folder: the workspace of a run is the folder of the configuration found upward.
    const run = runCli(['check', '.'], { cwd: `${__dirname}/scenarios/bad-config` });
    assert.equal(run.stdout, '');
    assert.equal(
      run.stderr,
      [
        '.toollens.yaml:2:1: "catalog" is not a configuration key. Did you mean catalogs? The keys are catalogs, workloads, rules, overrides, kinds, limits and ruleDocsUrl. (schema/unknown-key)',
        '.toollens.yaml:4:23: The severity of yaml/duplicate-key must be one of error, warning, info, hint, off. (schema/invalid-value)',
        '',
      ].join('\n'),
    );
    assert.equal(run.code, 2);
  });

  test('--config names the configuration explicitly', () => {
    const run = runCli(['check', 'one-error', '--config', 'bad-config/.toollens.yaml']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^bad-config\/\.toollens\.yaml:2:1: /);
  });

  test('several paths are checked as one workspace', () => {
    const run = runCli(['check', 'clean', 'one-error', '--format', 'json']);
    assert.equal(run.code, 1);
    const report = JSON.parse(run.stdout) as { files: { path: string }[] };
    assert.deepEqual(
      report.files.map((f) => f.path),
      [
        'clean/catalogs/filesystem.json',
        'clean/gateway.vmcp.yaml',
        'clean/notes.yaml',
        'one-error/catalogs/filesystem.json',
        'one-error/gateway.vmcp.yaml',
      ],
    );
  });
});
