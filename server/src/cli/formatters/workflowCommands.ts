// Output a CI runner cannot take for its own commands. The GitHub Actions runner reads every line a
// step prints, on stdout and on stderr, and acts on two shapes (actions/runner,
// src/Runner.Common/ActionCommand.cs: TryParseV2, then TryParse): a line that starts with `::`
// once its leading white space is trimmed (`::stop-commands::`, `::group::`, `::add-mask::`,
// `::error file=...::`), and `##[command]` anywhere in a line. Its reader ends a line at LF, CR or
// CRLF. A checked file's name, keys and values reach our output (paths, messages, source lines),
// so each format is passed through one of these before it is printed: the only lines that start
// with `::` are the github format's own annotations, and `##[` is never printed as such. Each way
// keeps its format's meaning: a visible escape (`\x3a`, `\x5b`, as visible.ts writes) for text
// read by people, a JSON string escape (`\u005b`, the same string once parsed) in JSON, a
// character reference (`&#91;`) in XML.

/** White space the runner trims before looking for `::` (.NET's char.IsWhiteSpace). */
const LEADING = '[\\s\\u0085\\u180e]*';
/** A line (after LF, CR or CRLF, or at the start) whose first characters but white space are `::`. */
const COMMAND_LINE = new RegExp(`(^|\\r\\n|\\r|\\n)(${LEADING})::`, 'g');
const V1_PREFIX = /##\[/g;

/** For text read by people (stylish, the tables, stderr): the `:` that starts a line, and `[` after `##`, as escapes. */
export function guardText(text: string): string {
  return guard(text, '\\x3a', '##\\x5b');
}

/** For JSON: `##[` only occurs inside a string, where `\u005b` is the same `[`. A JSON line never starts with `:`. */
export function guardJson(text: string): string {
  return text.replace(V1_PREFIX, '##\\u005b');
}

/** For XML (junit): character references, which an XML reader reads back as the same text. */
export function guardXml(text: string): string {
  return guard(text, '&#58;', '##&#91;');
}

/**
 * For the github format, whose every line is one of our annotations: a line that is not one (none
 * is written today) is guarded as text, so the format cannot start to carry a file's command.
 */
export function guardGithub(text: string): string {
  return text
    .split('\n')
    .map((line) => (/^::(error|warning|notice) [^\r\n]*$/.test(line) || line === '' ? line : guardText(line)))
    .join('\n');
}

function guard(text: string, colon: string, v1: string): string {
  if (!text.includes('::') && !text.includes('##[')) return text;
  return text
    .replace(V1_PREFIX, v1)
    .replace(COMMAND_LINE, (_match: string, brk: string, space: string) => `${brk}${space}${colon}:`);
}
