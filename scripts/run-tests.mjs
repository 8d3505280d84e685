// Runs every test file under test/ with node's test runner (TypeScript through tsx).
// Node 20's runner does not expand globs itself, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function collect(dir, out) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (name === 'fixtures' || name === 'corpus' || name === 'node_modules') continue;
    if (statSync(full).isDirectory()) collect(full, out);
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const filter = process.argv.slice(2);
let files = collect('test', []).sort();
if (filter.length) files = files.filter((f) => filter.some((part) => f.includes(part)));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
