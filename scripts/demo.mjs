// `npm run demo`: checks the example workspace in examples/ and prints what Tool Lens finds there.
// The examples hold mistakes planted on purpose; examples/README.md lists each (where, which rule,
// how severe). The demo says so first, names each planted mistake in a line, shows the checker's
// report, and ends by comparing the two: the findings are exactly the planted mistakes, or the
// demo says what differs and fails. Findings (the checker's exit code 1) are the expected
// outcome; only a build, usage or internal error, or a mismatch with the page, fails the demo.
// The build runs quietly: its output is shown only when it fails.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A few words for each planted mistake, by the rule that catches it (one rule per mistake). */
export const PLANTED = {
  'annotations/contradiction': 'a composite claims readOnlyHint: true while a step writes files',
  'template/not-upstream': 'a step reads another step\u2019s output without waiting for it (a race)',
  'args/unknown': 'an argument misspelt: excludePattern for excludePatterns',
  'schema/unknown-key': 'onError.maxRetries, a key that does not exist (the key is retryCount)',
  'template/syntax': 'a condition compares with ==, which Go templates do not have',
  'template/elicitation-path': 'an elicitation answer read from .content instead of .output.content',
  'face/unknown-param': 'a face names the parameter file_path; the tool calls it path',
  'envelope/bare-dynamic-name': 'a dynamic tool called by its bare name instead of through call_dynamic_tool',
};

/** The rows of examples/README.md's table of planted mistakes. */
export function plantedRows(page) {
  return [...page.matchAll(/^\| (\d+) \| `([^`]+)` \| .* \| `([a-z]+\/[a-z-]+)` \| (error|warning|info) \|$/gm)].map(
    (m) => ({ number: Number(m[1]), where: m[2], rule: m[3], severity: m[4] }),
  );
}

function main() {
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) {
    process.stderr.write(`${build.stdout}${build.stderr}demo: the build failed\n`);
    return 3;
  }
  const rows = plantedRows(readFileSync(join(ROOT, 'examples', 'README.md'), 'utf8'));
  const width = Math.max(...rows.map((row) => `examples/${row.where}`.length));
  const out = [
    `Tool Lens checks examples/, a small workspace with ${rows.length} mistakes planted on purpose`,
    '(examples/README.md says what each one is and why it matters):',
    '',
    ...rows.map(
      (row) =>
        `  ${String(row.number).padStart(2)}. ${`examples/${row.where}`.padEnd(width)}  ${PLANTED[row.rule] ?? row.rule}`,
    ),
    '',
    'What `tool-lens check examples` reports:',
    '',
  ];
  process.stdout.write(`${out.join('\n')}\n`);

  // The example workspace is its own: its .toollens.yaml configures the run, as it would in a
  // repository of its own (without --config, a run from here would take this folder as the workspace).
  const cli = ['dist/cli.js', 'check', 'examples', '--config', 'examples/.toollens.yaml'];
  const shown = spawnSync(process.execPath, [...cli, ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit' });
  const status = shown.status ?? 3;
  if (status !== 0 && status !== 1) return status;

  const json = spawnSync(process.execPath, [...cli, '--format', 'json'], { cwd: ROOT, encoding: 'utf8' });
  const report = JSON.parse(json.stdout);
  const found = report.files.flatMap((file) =>
    file.diagnostics.map(
      (d) => `${file.path.replace(/^examples\//, '')}:${d.range.start.line}:${d.range.start.column} ${d.rule}`,
    ),
  );
  const planted = rows.map((row) => `${row.where} ${row.rule}`);
  const missed = planted.filter((p) => !found.includes(p));
  const extra = found.filter((f) => !planted.includes(f));
  const withFindings = report.files.filter((file) => file.diagnostics.length > 0).length;
  if (missed.length === 0 && extra.length === 0) {
    process.stdout.write(
      `\nThese ${found.length} findings, in ${withFindings} of the ${report.files.length} files checked, are the ${rows.length} planted mistakes, each caught\n` +
        'once, and nothing else. (`tool-lens check` exits 1 on them, as it would in CI; the demo exits 0.)\n',
    );
    return 0;
  }
  for (const p of missed) process.stdout.write(`demo: planted but not reported: ${p}\n`);
  for (const f of extra) process.stdout.write(`demo: reported but not planted: ${f}\n`);
  return 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
