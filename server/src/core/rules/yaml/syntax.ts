// yaml/syntax: the YAML or JSON does not parse. The parsers give a code with data
// (parse/problems.ts); jsonc-parser's errors and the block reader's unpaired quotes are said in our
// words (wording/parserWords.ts, which `.toollens.yaml`'s problems share). The YAML library's
// errors come with its own text: this rule says them in ours from the library's error code and
// text, with what to do first, and keeps the library's text after it, so nothing it said is lost.
// The range is the parser's.
import { defineRule } from '../rule.js';
import { jsonErrorWords, tomlErrorWords, unpairedQuoteWords } from '../../wording/parserWords.js';

export const rule = defineRule({
  id: 'yaml/syntax',
  defaultSeverity: 'error',
  summary: 'The YAML, JSON or TOML does not parse.',
  kinds: '*',
  messages: {
    /** One of the YAML library's errors: `code` is the library's (`MISSING_CHAR`), `text` its sentence. */
    yamlError: ({ code, text }: { code: string; text: string }) => {
      const words = yamlWords(code, text);
      return words ? `${words} The YAML parser says: "${text.replace(/\.$/, '')}".` : text;
    },
    /** One of jsonc-parser's errors, by its name (`CommaExpected`). */
    jsonError: ({ code }: { code: string }) => jsonErrorWords(code),
    /** The TOML parser's error sentence (toml-eslint-parser's `ParseError`). */
    tomlError: ({ text }: { text: string }) => tomlErrorWords(text),
    unpairedQuote: ({ quote }: { quote: "'" | '"' }) => unpairedQuoteWords(quote),
  },
  check(ctx) {
    for (const problem of ctx.doc.problems) {
      switch (problem.code) {
        case 'yamlError':
          ctx.report({ messageId: 'yamlError', data: problem.data, span: problem.span });
          break;
        case 'jsonError':
          ctx.report({ messageId: 'jsonError', data: problem.data, span: problem.span });
          break;
        case 'tomlError':
          ctx.report({ messageId: 'tomlError', data: problem.data, span: problem.span });
          break;
        case 'unpairedQuote':
          ctx.report({ messageId: 'unpairedQuote', data: problem.data, span: problem.span });
          break;
      }
    }
  },
});

/** Our headline for one of the YAML library's errors, or undefined to keep its text as it is. */
export function yamlWords(code: string, text: string): string | undefined {
  const has = (pattern: RegExp) => pattern.test(text);
  switch (code) {
    case 'MISSING_CHAR':
      if (has(/^Missing closing "quote/)) return 'This string has no closing `"`: add it where the string ends.';
      if (has(/^Missing closing 'quote/)) return "This string has no closing `'`: add it where the string ends.";
      if (has(/^Implicit map keys need to be followed by map values/))
        return 'This line has no `key: value` colon: add the colon, or join it to the line above.';
      if (has(/^Missing , or : between/))
        return 'A comma or colon is missing between these entries: add the one meant.';
      if (has(/^Missing , between/)) return 'A comma is missing between these entries: add one.';
      if (has(/^Missing space after : in/)) return 'A space is missing after this colon: add one (or quote the text).';
      if (has(/^Comments must be separated/))
        return 'A `#` comment needs a space before it: add one, or quote the value.';
      if (has(/^Tags and anchors must be separated/)) return 'A tag or anchor needs a space after it: add one.';
      if (has(/^Sequence item without - indicator/))
        return 'This list item has no `-`: add one, or indent it under the item above.';
      if (has(/directives-end/)) return 'The directives are not closed: add a `---` line after them.';
      return undefined;
    case 'UNEXPECTED_TOKEN':
      if (has(/at node end$|at node end\./))
        return 'Something follows this value on its line: quote the whole value, or fix the indentation.';
      if (has(/^Unexpected empty item in/)) return 'An empty entry between two commas: remove the extra comma.';
      if (has(/^Unexpected , in/)) return 'A stray comma: remove it.';
      if (has(/^Block scalar header includes extra characters/))
        return 'This `|` or `>` header has extra characters: keep only `|` or `>` with a digit, `+` or `-`.';
      if (has(/in YAML stream/))
        return 'This cannot start a line here: indent it under a key, or make it a `key: value` entry.';
      return 'This is not valid YAML here: check this line and the one above it.';
    case 'BAD_INDENT':
      if (has(/^All (mapping|sequence) items must start at the same column/))
        return 'This entry is not aligned with the ones before it: indent it as they are.';
      if (has(/^Flow (sequence|map|mapping) in block collection must be sufficiently indented/))
        return `This \`${has(/sequence/) ? '[' : '{'}\` is not closed: add \`${has(/sequence/) ? ']' : '}'}\`, and indent its lines past the key.`;
      return 'This line is not indented as its place needs: align it with the entries it belongs to.';
    case 'TAB_AS_INDENT':
      return 'A tab indents this line: indent with spaces, as YAML requires.';
    case 'BLOCK_AS_IMPLICIT_KEY':
      if (has(/^Nested mappings are not allowed in compact mappings/))
        return 'Two `key:` on one line: quote the value, or put the inner mapping on its own lines.';
      return 'A list cannot be a key here: indent it under its key.';
    case 'MULTILINE_IMPLICIT_KEY':
      return 'This key runs over several lines: end it with a colon on its first line, or quote it.';
    case 'BLOCK_IN_FLOW':
      return 'A block value inside `[ ]` or `{ }`: write it in flow style, or drop the brackets.';
    case 'BAD_SCALAR_START':
      return 'A plain value cannot start with this character: quote the value.';
    case 'BAD_DQ_ESCAPE':
      return 'This `\\` escape is not valid in a double-quoted string: fix it, or use single quotes.';
    case 'BAD_ALIAS':
      return has(/^Alias/)
        ? 'This alias `*` has no name: name the anchor it stands for.'
        : 'This anchor `&` needs a name: name it, or remove it.';
    case 'ALIAS_PROPS':
      return 'An alias cannot have an anchor or tag: remove them from the alias.';
    case 'MULTIPLE_ANCHORS':
      return 'This value has two anchors: keep one.';
    case 'MULTIPLE_TAGS':
      return 'This value has two tags: keep one.';
    case 'BAD_PROP_ORDER':
      return 'An anchor or tag is before its indicator: put it after the `-`, `?` or `:`.';
    case 'TAG_RESOLVE_FAILED':
      return 'This tag is not one the YAML parser knows: remove it, or quote the value.';
    case 'MULTIPLE_DOCS':
      return 'A second document starts without `---`: add a `---` line before it.';
    case 'BAD_DIRECTIVE':
      return 'This `%` directive is not valid: remove it, or quote a value that starts with `%`.';
    case 'KEY_OVER_1024_CHARS':
      return 'This key is over 1024 characters: shorten it, or write it as an explicit `? ` key.';
    case 'NON_STRING_KEY':
      return 'A key here must be text: write it as a string.';
    case 'BAD_COLLECTION_TYPE':
      return 'This tag does not fit this kind of value: remove it, or change the value.';
    default:
      return undefined;
  }
}
