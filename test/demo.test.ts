// `npm run demo` as a newcomer sees it: no build noise, the planted mistakes of examples/ said to
// be planted and each named, the checker's report, and a closing line that matches
// examples/README.md (the same mistakes, the same number of files checked).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
// @ts-expect-error: a script of this repository without type declarations
import { PLANTED, plantedRows } from '../scripts/demo.mjs';

const ROOT = join(__dirname, '..');
const page = readFileSync(join(ROOT, 'examples', 'README.md'), 'utf8');
const rows = (plantedRows as (page: string) => { number: number; where: string; rule: string }[])(page);
const planted = PLANTED as Record<string, string>;

test('every planted mistake of the page has its line in the demo, and one rule is one mistake', () => {
  assert.equal(rows.length, 8);
  assert.deepEqual(Object.keys(planted).sort(), rows.map((row) => row.rule).sort());
});

test('npm run demo: the planted mistakes first, the report, a closing line true to examples/README.md', () => {
  const run = spawnSync('npm', ['run', 'demo', '--silent'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
  assert.equal(run.stderr, '');
  const lines = run.stdout.split('\n');
  assert.equal(
    lines[0],
    `Tool Lens checks examples/, a small workspace with ${rows.length} mistakes planted on purpose`,
  );
  // No build noise: the bundle sizes and regenerated files the build prints are not shown.
  assert.doesNotMatch(run.stdout, /dist\/cli\.js\s+\d+ KB|regenerated/);
  for (const row of rows) {
    const line = lines.find((l) => l.startsWith(`${String(row.number).padStart(4)}. examples/${row.where} `));
    assert.ok(line, `the demo names mistake ${row.number} at ${row.where}`);
    assert.ok(line.endsWith(`  ${planted[row.rule]}`), line);
  }
  const totals = /^Expected totals for `tool-lens check examples`: (\d+) diagnostics in (\d+) files/m.exec(page)!;
  const checked = /The run checks\s+(\d+) files: every file of the table above but `\.toollens\.yaml`/.exec(page);
  assert.ok(checked, 'the page says how many files the run checks');
  // The page's table of files: one row per file, .toollens.yaml among them.
  const tableFiles = [...page.matchAll(/^\| `([^`]+)` \| [^|]+ \| [^|]+ \|$/gm)].map((m) => m[1]);
  assert.ok(tableFiles.includes('.toollens.yaml'));
  assert.equal(Number(checked[1]), tableFiles.length - 1);
  assert.match(run.stdout, new RegExp(`in ${checked[1]} files\\n`), 'the stylish summary counts the same files');
  assert.match(
    run.stdout,
    new RegExp(
      `^These ${totals[1]} findings, in ${totals[2]} of the ${checked[1]} files checked, are the ${rows.length} planted mistakes`,
      'm',
    ),
  );
});
