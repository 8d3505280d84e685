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
    // A file declined whole fails the run: nothing of it was checked.
    assert.equal(declined.code, 1, declined.stderr);
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
    assert.equal(run.code, 1, run.stderr);
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
    assert.equal(named.code, 1, named.stderr);
    assert.equal(findingsOf(named.stdout)['huge.vmcp.yaml']?.length, 1);
  });

  test('issue 24: a workflow with mistakes padded past fileBytes or fileValues fails the default gate; a partial decline does not', () => {
    // An error, a type error and a contradiction (a read-only composite that writes)...
    const mistakes = [
      'compositeTools:',
      '  - name: publish',
      '    description: Publish.',
      '    annotations: {readOnlyHint: true}',
      '    timeout: soon',
      '    steps:',
      '      - id: write',
      '        tool: filesystem.write_file',
      '        arguments: {path: a, content: b}',
      '      - id: write',
      '        tool: filesystem.write_file',
      '        arguments: {path: a, content: b}',
      '',
    ].join('\n');
    const checked = folder({ 'wf.vmcp.yaml': mistakes });
    const plain = runCli(['check', '.', '--format', 'json'], { cwd: checked });
    assert.equal(plain.code, 1);
    assert.ok((findingsOf(plain.stdout)['wf.vmcp.yaml'] ?? []).length >= 2, plain.stdout);
    // ...padded past fileBytes with comments, or past fileValues with a list of numbers.
    const bytes = `${mistakes}${`# ${'x'.repeat(98)}\n`.repeat(Math.ceil((8 * 1024 * 1024) / 100) + 10)}`;
    const values = `${mistakes.replace('compositeTools:', `padding: [${'0,'.repeat(500_001)}0]\ncompositeTools:`)}`;
    for (const [name, padded, limit] of [
      ['bytes', bytes, 'more than the 8 MB Tool Lens reads'],
      ['values', values, 'more than the 500,000 values Tool Lens reads'],
    ] as const) {
      const dir = folder({ 'wf.vmcp.yaml': padded });
      const run = runCli(['check', '.', '--format', 'json'], { cwd: dir });
      const findings = findingsOf(run.stdout)['wf.vmcp.yaml'] ?? [];
      assert.equal(findings.length, 1, `${name}: ${run.stdout}`);
      assert.ok(findings[0]!.includes(limit), findings[0]);
      assert.equal(run.code, 1, `${name}: a file declined whole passed the gate`);
      const report = JSON.parse(run.stdout) as { files: { diagnostics: { severity: string }[] }[] };
      assert.equal(report.files[0]!.diagnostics[0]!.severity, 'error');
    }
    // A value nested too deep is declined alone; the rest of the file is checked and passes.
    const deep = folder({
      'wf.vmcp.yaml': [
        'compositeTools:',
        '  - name: shapes',
        '    description: Shapes.',
        '    parameters:',
        '      type: object',
        `      properties: {shape: {type: array, default: ${'['.repeat(450)}${']'.repeat(450)}}}`,
        '    steps:',
        '      - id: list',
        '        tool: filesystem.list_directory',
        '        arguments: {path: docs}',
        '',
      ].join('\n'),
    });
    const partial = runCli(['check', '.', '--format', 'json'], { cwd: deep });
    const diagnostics = (
      JSON.parse(partial.stdout) as { files: { diagnostics: { rule: string; severity: string }[] }[] }
    ).files[0]!.diagnostics;
    assert.ok(
      diagnostics.some((d) => d.rule === 'lens/declined' && d.severity === 'info'),
      partial.stdout,
    );
    assert.deepEqual(
      diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    assert.equal(partial.code, 0);
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
