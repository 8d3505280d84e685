// The parser's problems (parse/problems.ts: codes with data) in plain sentences, as the
// configuration's own problems say them: `.toollens.yaml` is parsed by the same readers, and its
// problems stop a run before any rule runs (config/config.ts). In a checked document the rules
// `yaml/syntax`, `yaml/duplicate-key` and `lens/declined` word the same problems as findings, with
// a headline first; the sentences both say live here once.
import type { ParseProblem } from '../parse/problems.js';

const JSON_ERRORS: Record<string, string> = {
  InvalidSymbol: 'This character cannot start a JSON value.',
  InvalidNumberFormat: 'This is not a valid JSON number.',
  PropertyNameExpected: 'A property name in double quotes is expected here.',
  ValueExpected: 'A value is expected here.',
  ColonExpected: 'A colon is expected after the property name.',
  CommaExpected: 'A comma is expected between these entries.',
  CloseBraceExpected: 'This object is not closed: a "}" is missing.',
  CloseBracketExpected: 'This array is not closed: a "]" is missing.',
  EndOfFileExpected: 'Nothing may follow the top-level value.',
  InvalidCommentToken: 'This comment is not closed.',
  UnexpectedEndOfComment: 'This comment is not closed.',
  UnexpectedEndOfString: 'This string is not closed.',
  UnexpectedEndOfNumber: 'This number ends unexpectedly.',
  InvalidUnicode: 'This \\u escape is not valid.',
  InvalidEscapeCharacter: 'This escape sequence is not valid in JSON.',
  InvalidCharacter: 'This character is not allowed inside a JSON string.',
};

/** The TOML parser's error sentence (it stops at the first), with what to do. */
export function tomlErrorWords(text: string): string {
  return `The TOML does not parse (${text.replace(/\.$/, '')}): fix it to have the file checked.`;
}

/** One of jsonc-parser's errors (by its name) in our words. */
export function jsonErrorWords(code: string): string {
  return JSON_ERRORS[code] ?? `The JSON does not parse (${code}).`;
}

/** A quoted string with a stray quote inside, which the block reader ended on its own line. */
export function unpairedQuoteWords(quote: "'" | '"'): string {
  const headline =
    quote === "'"
      ? "This quoted string has an unpaired ' inside: write '' for each ' in it, and close it with '."
      : 'This quoted string has an unescaped " inside or at its end: write \\" for each " in it, and close it.';
  return `${headline} YAML reads such a string as going on to a later quote, so the lines after it would be part of it; the parser here ended it on its own line.`;
}

/** What the duplicate key costs: `most readers keep only one ...` (JSON: the last). */
export function duplicateKeyLoss(json: boolean): string {
  return json
    ? 'JSON readers keep only the last value, so the first one is silently lost'
    : 'most readers keep only one of the two values, so one of them is silently lost';
}

/** `8.6 MB`, rounded up so that a file just past the limit does not read as the limit itself. */
export function fileSizeWords(bytes: number): string {
  const unit =
    bytes >= GB ? { size: GB, name: 'GB' } : bytes >= MB ? { size: MB, name: 'MB' } : { size: 1024, name: 'KB' };
  return `${(Math.ceil((bytes / unit.size) * 10) / 10).toFixed(1)} ${unit.name}`;
}

/** A byte limit as set: `8 MB`, `256 KB`, `1,000 bytes`. */
export function byteLimitWords(limit: number): string {
  return limit % MB === 0
    ? `${limit / MB} MB`
    : limit % 1024 === 0
      ? `${limit / 1024} KB`
      : `${limit.toLocaleString('en-US')} bytes`;
}

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** The aliases left unexpanded: the sentence `lens/declined` puts after its headline. */
export function aliasesNotExpandedWords(more: number, limit: number): string {
  const which =
    more > 0 ? `This alias and the ${more.toLocaleString('en-US')} after it in this document are` : 'This alias is';
  const they = more > 0 ? 'they stand' : 'it stands';
  const them = more > 0 ? 'them' : 'it';
  return (
    `${which} not expanded, so what ${they} for is not checked where used: Tool Lens builds at most ${limit.toLocaleString('en-US')} values ` +
    `from aliases in one file, and ${more > 0 ? 'these' : 'this one'} would go past that. To have ${them} checked, write large repeated content out ` +
    'or alias smaller anchors; the rest of the document is checked.'
  );
}

/** Why a document could not be read at all. */
export function unreadableWords(error: string | undefined): string {
  return `This document is not checked: ${error === undefined ? 'it nests too deeply to be read' : `it could not be read (${error})`}.`;
}

/** A parse problem in one plain sentence or two, as a problem of the configuration. */
export function parserWords(problem: ParseProblem): string {
  switch (problem.code) {
    case 'yamlError':
      return problem.data.text;
    case 'jsonError':
      return jsonErrorWords(problem.data.code);
    case 'tomlError':
      return tomlErrorWords(problem.data.text);
    case 'unpairedQuote':
      return unpairedQuoteWords(problem.data.quote);
    case 'duplicateKey':
      return `The key "${problem.data.key}" appears twice in this ${problem.data.json ? 'object' : 'mapping'}; ${duplicateKeyLoss(problem.data.json)}.`;
    case 'tooDeep':
      return `This value nests deeper than ${problem.data.limit} levels, so Tool Lens does not check it; the rest of the document is checked.`;
    case 'aliasesNotExpanded':
      return aliasesNotExpandedWords(problem.data.more, problem.data.limit);
    case 'fileTooLarge':
      return `This file is ${fileSizeWords(problem.data.bytes)}, more than the ${byteLimitWords(problem.data.limit)} Tool Lens reads, so none of it is checked; split it into smaller files to have them checked.`;
    case 'fileTooManyValues':
      return `This file holds more than the ${problem.data.limit.toLocaleString('en-US')} values Tool Lens reads in one file, so none of it is checked; split it into smaller files to have them checked.`;
    case 'unreadable':
      return unreadableWords(problem.data.error);
  }
}
