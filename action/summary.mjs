// The GitHub Action's step summary: reads the report of `tool-lens check --format json` (the file
// named by the first argument) and prints Markdown for $GITHUB_STEP_SUMMARY: the totals, then one
// table row per finding (severity, location, rule, message), the location linked to the line of the
// commit and the rule to its page when the runner says which repository and commit these are.
// GitHub caps a step summary at 1 MiB, so at most MAX_ROWS rows are written; the rest are counted.
import { readFileSync } from 'node:fs';

const MAX_ROWS = 500;
// The project's rule pages, from package.json's repository (the action runs in its own checkout).
const PROJECT = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).repository.url;
const DOCS = `${PROJECT}/blob/main/docs/rules/`;

/** A table cell: no line breaks, no `|` (a column break), no raw HTML. */
function cell(text) {
  return String(text)
    .replace(/\r?\n/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|');
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_SHA: sha } = process.env;
const blob = server && repository && sha ? `${server}/${repository}/blob/${sha}/` : undefined;

const rows = [];
for (const file of report.files) {
  for (const d of file.diagnostics) rows.push({ path: file.path, ...d });
}
const { summary } = report;
const lines = ['## Tool Lens', ''];
if (rows.length === 0) {
  lines.push(`No findings (${plural(summary.files, 'file')} checked).`);
} else {
  const counts = ['error', 'warning', 'info', 'hint'].filter((s) => summary[s] > 0).map((s) => plural(summary[s], s));
  lines.push(`${counts.join(', ')} (${plural(summary.files, 'file')} checked).`, '');
  lines.push('| Severity | Location | Rule | Finding |', '| --- | --- | --- | --- |');
  for (const row of rows.slice(0, MAX_ROWS)) {
    const { line, column } = row.range.start;
    const where = `\`${cell(row.path)}:${line}:${column}\``;
    const location = blob ? `[${where}](${blob}${encodeURI(row.path)}#L${line})` : where;
    const rule = /^[a-z-]+\/[a-z-]+$/.test(row.rule)
      ? `[\`${row.rule}\`](${DOCS}${row.rule}.md)`
      : `\`${cell(row.rule)}\``;
    lines.push(`| ${row.severity} | ${location} | ${rule} | ${cell(row.message)} |`);
  }
  if (rows.length > MAX_ROWS)
    lines.push('', `${rows.length - MAX_ROWS} more findings are in the log and the annotations.`);
}
process.stdout.write(`${lines.join('\n')}\n`);
