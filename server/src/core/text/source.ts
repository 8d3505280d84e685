// Source text with a lazily built line index. Offsets are UTF-16 indexes (what JS strings and
// LSP's default encoding use); lines and characters are 0-based here and converted at the edges.
import type { Span } from '../types.js';

export interface Position {
  line: number;
  character: number;
}

export class SourceText {
  private lineStartsCache: number[] | undefined;

  constructor(readonly text: string) {}

  get lineStarts(): number[] {
    if (!this.lineStartsCache) {
      const starts = [0];
      const text = this.text;
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
    return { line: low, character: clamped - starts[low]! };
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

  /** The line break this text uses most, so inserted lines match the user's style. */
  get eol(): string {
    const crlf = this.text.indexOf('\r\n');
    return crlf >= 0 ? '\r\n' : '\n';
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
  const bound = (offset: number) => (Number.isFinite(offset) ? Math.min(Math.max(Math.trunc(offset), 0), text.length) : 0);
  let start = bound(span.start);
  let end = Math.max(bound(span.end), start);
  const empty = start === end;
  if (splitsCrlf(text, start) || splitsPair(text, start)) start--;
  if (empty) end = start;
  else if (splitsPair(text, end)) end++;
  else if (splitsCrlf(text, end)) end = end - 1 > start ? end - 1 : end + 1;
  return start === span.start && end === span.end ? span : { start, end };
}
