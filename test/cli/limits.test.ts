// `tool-lens check` under the limits of `.toollens.yaml` (docs/limits.md#setting-limits): a raised
// limit checks what the default declines, a lowered one declines, a value out of its range stops
// the run at its place; and a file of gigabytes is declined from its size, never read.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from './harness.js';

const dirs: string[] = [];
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tool-lens-limits-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

interface JsonOutput {
  files: { path: string; kind: string | null; diagnostics: { rule: string; message: string }[] }[];
}
const findingsOf = (stdout: string) =>
  Object.fromEntries(
    (JSON.parse(stdout) as JsonOutput).files.map((f) => [f.path, f.diagnostics.map((d) => `${d.rule}: ${d.message}`)]),
  );

/** A clean gateway of about `bytes` bytes (comments after its one key). */
const gateway = (bytes: number) => `compositeTools: []\n${`# ${'x'.repeat(98)}\n`.repeat(Math.ceil(bytes / 100))}`;

describe('tool-lens check with limits: in .toollens.yaml', () => {
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('a raised fileBytes checks the file the default declines; a lowered one declines', () => {
    const dir = folder({ 'big.vmcp.yaml': gateway(9 * 1024 * 1024), 'small.vmcp.yaml': gateway(300 * 1024) });
    const declined = runCli(['check', '.', '--format', 'json'], { cwd: dir });
    assert.equal(declined.code, 0, declined.stderr);
    assert.deepEqual(findingsOf(declined.stdout), {
      'big.vmcp.yaml': [
        'lens/declined: This file is 9.1 MB, more than the 8 MB Tool Lens reads: split it to have it checked.',
      ],
      'small.vmcp.yaml': [],
    });
    writeFileSync(join(dir, '.toollens.yaml'), 'limits:\n  fileBytes: 16777216\n');
    const raised = runCli(['check', '.', '--format', 'json'], { cwd: dir });
    assert.deepEqual(findingsOf(raised.stdout), { 'big.vmcp.yaml': [], 'small.vmcp.yaml': [] });
    writeFileSync(join(dir, '.toollens.yaml'), 'limits:\n  fileBytes: 262144\n');
    const lowered = runCli(['check', '.', '--format', 'json'], { cwd: dir });
    assert.deepEqual(findingsOf(lowered.stdout)['small.vmcp.yaml'], [
      'lens/declined: This file is 303.1 KB, more than the 256 KB Tool Lens reads: split it to have it checked.',
    ]);
  });

  test('a limit out of its range, or one that is not configurable, stops the run at its place', () => {
    const dir = folder({
      'ok.vmcp.yaml': 'compositeTools: []\n',
      '.toollens.yaml': 'limits:\n  fileValues: 99000000\n  nesting: 800\n',
    });
    const run = runCli(['check', '.'], { cwd: dir });
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    const lines = run.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 2, run.stderr);
    assert.match(
      lines[0]!,
      /^\.toollens\.yaml:2:15: fileValues is 99,000,000, more than the 1,000,000 Tool Lens lets a configuration set: .* \(schema\/invalid-value\)$/,
    );
    assert.match(lines[1]!, /^\.toollens\.yaml:3:3: The limit nesting cannot be set: .* \(schema\/unknown-key\)$/);
  });

  test('a file of gigabytes is declined from its size on disk, without being read', () => {
    // Sparse: three gigabytes that take no room. Reading it would fail (a string cannot hold it)
    // or cost gigabytes; its size and first bytes are all the decline needs.
    const dir = folder({
      'huge.vmcp.yaml': 'compositeTools: []\n',
      'huge.json': '{"a": 1}\n',
      'ok.vmcp.yaml': 'compositeTools: []\n',
    });
    truncateSync(join(dir, 'huge.vmcp.yaml'), 3 * 1024 ** 3);
    truncateSync(join(dir, 'huge.json'), 3 * 1024 ** 3);
    const run = runCli(['check', '.', '--format', 'json'], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    assert.deepEqual(findingsOf(run.stdout), {
      'huge.json': [],
      'huge.vmcp.yaml': [
        'lens/declined: This file is 3.0 GB, more than the 8 MB Tool Lens reads: split it to have it checked.',
      ],
      'ok.vmcp.yaml': [],
    });
    // Named on the command line, and as a catalog, it is the same.
    const named = runCli(['check', 'huge.vmcp.yaml', '--catalog', 'huge.json', '--format', 'json'], { cwd: dir });
    assert.equal(named.code, 0, named.stderr);
    assert.equal(findingsOf(named.stdout)['huge.vmcp.yaml']?.length, 1);
  });

  test('a configuration of gigabytes is not read either: it is a problem of the configuration', () => {
    const dir = folder({ '.toollens.yaml': 'limits: {fileBytes: 16777216}\n', 'ok.vmcp.yaml': 'compositeTools: []\n' });
    truncateSync(join(dir, '.toollens.yaml'), 3 * 1024 ** 3);
    const run = runCli(['check', '.'], { cwd: dir });
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      '.toollens.yaml:1:1: This file is 3.0 GB, more than the 8 MB Tool Lens reads, so none of it is checked; split it into smaller files to have them checked. (lens/declined)\n',
    );
  });
});
