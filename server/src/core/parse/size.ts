// How big a file is, for the two limits that decline a file whole before any parser sees it:
// LIMITS.fileBytes (its size) and LIMITS.fileValues (how many values its text holds). The parsers'
// own cost grows with the values rather than the bytes: yaml builds about a kilobyte and spends
// some microseconds per node, so 8 MB of `[0,0,0,...]` (four million values) took 40 seconds and
// 4 GB, where 8 MB of an ordinary configuration holds a few hundred thousand.
import { createScanner, type SyntaxKind } from 'jsonc-parser';
import { Lexer } from 'yaml';
import { LIMITS } from '../limits.js';

/**
 * The size in UTF-8 bytes of a text larger than `limit` (LIMITS.fileBytes unless the workspace
 * sets it), or undefined when it is not.
 * Counted only where the length cannot decide: a UTF-16 unit is one to three bytes.
 */
export function tooLarge(text: string, limit: number = LIMITS.fileBytes): number | undefined {
  if (text.length * 3 <= limit) return undefined;
  const bytes = utf8Length(text);
  return bytes > limit ? bytes : undefined;
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * How many characters of a text may start a value: in YAML a value follows a line break, `,`,
 * `[`, `{`, `:`, `-` or `?` (at most two of them per such character: `- a: 1` starts a mapping and
 * its key), in JSON a `,`, `:`, `[` or `{` (one each). An upper bound within a factor of two, from
 * a cheap count; strings and comments only make it larger.
 */
export function valueStarts(text: string, yaml: boolean): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // , : [ {   and in YAML also \n (or a lone \r, a line break too) - ?
    if (
      c === 44 ||
      c === 58 ||
      c === 91 ||
      c === 123 ||
      (yaml && (c === 10 || c === 45 || c === 63 || (c === 13 && text.charCodeAt(i + 1) !== 10)))
    )
      count++;
  }
  return count;
}

// jsonc-parser's SyntaxKind is a const enum, which isolated modules cannot read: its values here.
const JSON_VALUE_TOKENS = new Set<number>([
  1, // OpenBraceToken
  3, // OpenBracketToken
  7, // NullKeyword
  8, // TrueKeyword
  9, // FalseKeyword
  10, // StringLiteral (keys too: each is a node of ours)
  11, // NumericLiteral
]);
const EOF = 17 as SyntaxKind.EOF;

/**
 * Whether a text holds more than `limit` values (LIMITS.fileValues unless the workspace sets it). The cheap bound decides for almost
 * every file; past it, the values are counted on the library's own tokens (no tree built), up to
 * the limit and no further: in YAML the scalars, aliases, flow collections and the collections a
 * compact `- - x` opens, a lower bound, so a file is declined only when it surely holds more.
 */
export function tooManyValues(
  text: string,
  language: 'yaml' | 'json' | 'jsonl' | 'toml',
  limit: number = LIMITS.fileValues,
): boolean {
  const yaml = language === 'yaml';
  if (valueStarts(text, yaml) <= limit) return false;
  return yaml ? yamlValuesOver(text, limit) : jsonValuesOver(text, limit);
}

function yamlValuesOver(text: string, limit: number): boolean {
  let count = 0;
  let scalarNext = false;
  /** The last lexeme on this line other than a space was an indicator: another one opens a collection. */
  let afterIndicator = false;
  for (const lexeme of new Lexer().lex(text)) {
    // A scalar marker, then the scalar's source (whatever its first character); an alias; the
    // start of a flow collection. Read by first character: this runs over every token of the file.
    if (scalarNext) {
      scalarNext = false;
      continue;
    }
    const c = lexeme.charCodeAt(0);
    if (c === 32 || c === 9) continue; // space
    const single = lexeme.length === 1;
    if (single && c === 0x1f) {
      scalarNext = true;
      count++;
    } else if ((single && (c === 91 || c === 123)) || c === 42) count++; // [ { *
    const indicator = single && (c === 45 || c === 63 || c === 58); // - ? :
    if (indicator && afterIndicator && c !== 58) count++;
    afterIndicator = indicator;
    if (count > limit) return true;
  }
  return false;
}

function jsonValuesOver(text: string, limit: number): boolean {
  let count = 0;
  const scanner = createScanner(text, true);
  for (let kind = scanner.scan(); kind !== EOF; kind = scanner.scan()) {
    if (JSON_VALUE_TOKENS.has(kind) && ++count > limit) return true;
  }
  return false;
}
