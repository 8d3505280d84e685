// examples/README.md lists the mistakes planted in the example workspace, with their places, rules
// and severities, and the totals: held here to what `tool-lens check examples` prints, so the page
// a newcomer reads first stays true.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT, runCli } from './cli/harness.js';

interface Report {
  files: {
    path: string;
    diagnostics: { rule: string; severity: string; range: { start: { line: number; column: number } } }[];
  }[];
  summary: { error: number; warning: number; info: number; hint: number };
}

test('every planted mistake in examples/README.md is reported where, by which rule and how severely the page says, and nothing else', () => {
  const page = readFileSync(join(ROOT, 'examples', 'README.md'), 'utf8');
  const rows = [
    ...page.matchAll(/^\| \d+ \| `([^`]+):(\d+):(\d+)` \| .* \| `([a-z]+\/[a-z-]+)` \| (error|warning|info) \|$/gm),
  ].map((m) => `${m[1]}:${m[2]}:${m[3]} ${m[4]} ${m[5]}`);
  assert.ok(rows.length > 0, 'the page has its table of planted mistakes');
  const run = runCli(['check', '.', '--format', 'json'], { cwd: join(ROOT, 'examples') });
  const report = JSON.parse(run.stdout) as Report;
  const found = report.files.flatMap((f) =>
    f.diagnostics.map((d) => `${f.path}:${d.range.start.line}:${d.range.start.column} ${d.rule} ${d.severity}`),
  );
  assert.deepEqual([...found].sort(), [...rows].sort());

  const totals =
    /Expected totals for `tool-lens check examples`: (\d+) diagnostics in (\d+) files \((\d+) errors and\s+(\d+) warnings/.exec(
      page,
    );
  assert.ok(totals, 'the page states the totals');
  const withFindings = report.files.filter((f) => f.diagnostics.length > 0).length;
  assert.deepEqual(totals.slice(1).map(Number), [
    found.length,
    withFindings,
    report.summary.error,
    report.summary.warning,
  ]);
});
