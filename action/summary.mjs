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

// Everything in a row but the links we build comes from the checked files (paths, step ids, keys
// quoted in messages), so nothing in it may be read as Markdown: Markdown ends a line at LF, CR or
// CRLF (a lone CR would end the table and start a heading), and reads `` ` `` `*` `_` `[` `!` `#`
// `<` `&` ... as markup. A cell is one line, its markup characters backslash-escaped (CommonMark
// shows any ASCII punctuation literally after a backslash; in a table `\|` is a literal `|`).

/** Line breaks and other control characters, as one space: a cell is one line. */
function oneLine(text) {
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  return String(text).replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]+/g, ' ');
}

/**
 * A table cell of prose: one line, and every character that could start markup inline escaped: a
 * code span, emphasis, a link or image (`[`), raw HTML or an autolink (`<`), an entity (`&`), a
 * column break, strikethrough, math (`$`), and the `:` of `scheme://` and the `.` of `www.` that
 * GitHub turns into links on their own.
 */
function cell(text) {
  return oneLine(text)
    .replace(/[\\`*_[\]<>&|~$]/g, '\\$&')
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/(?<=www)\./gi, '\\.');
}

/**
 * A code span holding the text as it is: fenced by one backtick more than the longest run inside,
 * padded with a space when the text starts or ends with a backtick; `|` escaped, which a table
 * needs even inside code.
 */
function code(text) {
  const inner = oneLine(text).replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(inner.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^`|`$/.test(inner) || /^ .* $/.test(inner) ? ' ' : '';
  return `${fence}${pad}${inner}${pad}${fence}`;
}

/** A path in a link's destination: every character but letters, digits and `/-_.~` percent-encoded. */
function urlPath(path) {
  return path
    .split('/')
    .map((segment) =>
      encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    )
    .join('/');
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
    const where = code(`${row.path}:${line}:${column}`);
    const location = blob ? `[${where}](${blob}${urlPath(row.path)}#L${line})` : where;
    const rule = /^[a-z-]+\/[a-z-]+$/.test(row.rule) ? `[${code(row.rule)}](${DOCS}${row.rule}.md)` : code(row.rule);
    lines.push(`| ${cell(row.severity)} | ${location} | ${rule} | ${cell(row.message)} |`);
  }
  if (rows.length > MAX_ROWS)
    lines.push('', `${rows.length - MAX_ROWS} more findings are in the log and the annotations.`);
}
process.stdout.write(`${lines.join('\n')}\n`);
