// Source text with a lazily built line index. Offsets are UTF-16 indexes (what JS strings and
// LSP's default encoding use); lines and characters are 0-based here and converted at the edges.
//
// Lines and characters are the ones editors show (docs/behaviour.md#text-as-editors-count-it):
// `\r\n`, `\n` and a lone `\r` each end a line, and a byte-order mark at the start of the text
// (U+FEFF, a UTF-8 BOM decoded) belongs to no line: line 1 starts after it, as in an editor, which
// hides it. The text itself keeps the BOM, so offsets are offsets into what is on disk and a fix
// written back leaves the BOM where it was.
import type { Span } from '../types.js';

/** 1 when the text starts with a byte-order mark (U+FEFF, what a UTF-8 BOM decodes to), else 0: where its first line starts. */
export function bomLength(text: string): 0 | 1 {
  return text.charCodeAt(0) === 0xfeff ? 1 : 0;
}

/**
 * The text with each lone CR (a `\r` not followed by `\n`) read as `\n`: the same length, so
 * every offset into it is an offset into the text. For the YAML library, which takes `\r\n` and
 * `\n` for line breaks but reads a lone CR as part of the line (YAML 1.2 and editors count it as a
 * break, and yaml.v3 reads it as one): what it parses is then the lines the user sees, and a value
 * that spans lines holds `\n` where the file has `\r`, which is what YAML's line-break
 * normalisation gives. The same string when there is no lone CR.
 */
export function loneCrAsLf(text: string): string {
  let at = text.indexOf('\r');
  if (at < 0) return text;
  let out = '';
  let from = 0;
  for (; at >= 0; at = text.indexOf('\r', at + 1)) {
    if (text.charCodeAt(at + 1) === 10) continue;
    out += text.slice(from, at) + '\n';
    from = at + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * Where the line holding `offset` starts: after the line break before it (`\n`, `\r\n` or a lone
 * `\r`), or on the first line after the BOM, which belongs to no line.
 */
export function lineStartOf(text: string, offset: number): number {
  let i = offset;
  const first = bomLength(text);
  while (i > first && text.charCodeAt(i - 1) !== 10 && text.charCodeAt(i - 1) !== 13) i--;
  return i;
}

let eolText: string | undefined;
let eolResult: '\n' | '\r\n' | '\r' = '\n';

/**
 * The line break a text uses most (`\r\n`, `\n` or a lone `\r`; the first of them met wins a tie,
 * `\n` when there is none), so lines a fix inserts match the user's. The last answer is kept:
 * every fix of a file asks it of the same text.
 */
export function eolOf(text: string): '\n' | '\r\n' | '\r' {
  if (text === eolText) return eolResult;
  let crlf = 0;
  let lf = 0;
  let cr = 0;
  let choice: '\n' | '\r\n' | '\r' = '\n';
  for (let i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) {
    if (text.charCodeAt(i + 1) === 10) crlf++;
    else cr++;
  }
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lf++;
  lf -= crlf;
  if (crlf + lf + cr > 0) {
    const firstBreak = /\r\n|\n|\r/.exec(text)![0] as '\n' | '\r\n' | '\r';
    const counts: Record<string, number> = { '\r\n': crlf, '\n': lf, '\r': cr };
    const most = Math.max(crlf, lf, cr);
    choice = counts[firstBreak] === most ? firstBreak : crlf === most ? '\r\n' : lf === most ? '\n' : '\r';
  }
  eolText = text;
  eolResult = choice;
  return choice;
}

export interface Position {
  line: number;
  character: number;
}

export class SourceText {
  private lineStartsCache: number[] | undefined;

  constructor(readonly text: string) {}

  get lineStarts(): number[] {
    if (!this.lineStartsCache) {
      const text = this.text;
      const starts: number[] = [bomLength(text)];
      for (let i = 0; i < text.length; i++) {
        const ch = text.charCodeAt(i);
        if (ch === 10 /* \n */) starts.push(i + 1);
        else if (ch === 13 /* \r */) {
          if (text.charCodeAt(i + 1) === 10) i++;
          starts.push(i + 1);
        }
      }
      this.lineStartsCache = starts;
    }
    return this.lineStartsCache;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const starts = this.lineStarts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= clamped) low = mid;
      else high = mid - 1;
    }
    // Offset 0 of a text with a BOM is before line 1's first character: character 0 too.
    return { line: low, character: Math.max(0, clamped - starts[low]!) };
  }

  offsetAt(position: Position): number {
    const starts = this.lineStarts;
    if (position.line < 0) return 0;
    if (position.line >= starts.length) return this.text.length;
    const lineStart = starts[position.line]!;
    const lineEnd = this.lineEnd(position.line);
    return Math.min(lineStart + Math.max(0, position.character), lineEnd);
  }

  /** Offset of the end of a line's content, before its line break. */
  lineEnd(line: number): number {
    const starts = this.lineStarts;
    if (line + 1 >= starts.length) return this.text.length;
    let end = starts[line + 1]!;
    if (end > 0 && this.text.charCodeAt(end - 1) === 10) end--;
    if (end > 0 && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  lineText(line: number): string {
    return this.text.slice(this.lineStarts[line] ?? this.text.length, this.lineEnd(line));
  }

  /** The line break this text uses most, so inserted lines match the user's style (`eolOf`). */
  get eol(): string {
    return eolOf(this.text);
  }

  /** Leading whitespace of the line that contains `offset`. */
  indentationAt(offset: number): string {
    const line = this.lineText(this.positionAt(offset).line);
    return /^[ \t]*/.exec(line)![0];
  }
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Whether an offset falls between the CR and the LF of a CRLF line break. */
function splitsCrlf(text: string, offset: number): boolean {
  return offset > 0 && text.charCodeAt(offset - 1) === 13 && text.charCodeAt(offset) === 10;
}

/** Whether an offset falls between the two halves of a surrogate pair (one astral character). */
function splitsPair(text: string, offset: number): boolean {
  return offset > 0 && isHighSurrogate(text.charCodeAt(offset - 1)) && isLowSurrogate(text.charCodeAt(offset));
}

/**
 * A span of `text` on whole characters and line breaks: its bounds inside the text and in order, a
 * start inside an astral character or a CRLF pair moved back to the character's (or the break's)
 * start, an end inside an astral character moved past it; an end between the CR and the LF moved
 * before the CR, or past the LF where that would empty the range (a range on the line break
 * itself); an empty range stays empty. The same span object when nothing changes. A parser's
 * error position, or any range a rule computes, may fall inside a character: no finding shows one.
 */
export function wholeCharacters(text: string, span: Span): Span {
  const bound = (offset: number) =>
    Number.isFinite(offset) ? Math.min(Math.max(Math.trunc(offset), 0), text.length) : 0;
  let start = bound(span.start);
  let end = Math.max(bound(span.end), start);
  const empty = start === end;
  if (splitsCrlf(text, start) || splitsPair(text, start)) start--;
  if (empty) end = start;
  else if (splitsPair(text, end)) end++;
  else if (splitsCrlf(text, end)) end = end - 1 > start ? end - 1 : end + 1;
  return start === span.start && end === span.end ? span : { start, end };
}
