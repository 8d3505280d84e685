// Maps character indexes inside a scalar's decoded value back to source offsets, so a finding
// inside a template string (one character of `{{ .a == 1 }}`) lands on the exact character the
// user typed, through quotes, escapes and block indentation and folding.
import { lineStartOf, loneCrAsLf } from '../text/source.js';
import type { Span } from '../types.js';
import type { ScalarNode } from './nodes.js';

export type ValueSpanMapper = (start: number, end: number) => Span;

/**
 * Where each value character came from: value[i] was read from source [starts[i], ends[i]).
 * starts[value.length] is where the content ends (a caret after the last character). A line break
 * that folding turned into a space or a newline maps to the line break itself (`\n`, or `\r\n`);
 * a character with no source (the newline a block scalar ends with at the end of the file) maps
 * to an empty span. Offsets never decrease.
 */
interface ValueOffsets {
  starts: number[];
  ends: number[];
}

/**
 * Returns a mapper from value indexes to a source span. When the decoding cannot be replayed
 * exactly (multi-line flow scalars, odd escapes), it falls back to the whole scalar: never a
 * wrong place. An exact mapper gives an empty span for an empty range, so `map(0, 0)` tells them
 * apart (a scalar written with any text never has an empty span).
 */
export function valueSpanMapper(text: string, node: ScalarNode): ValueSpanMapper {
  const value = typeof node.value === 'string' ? node.value : String(node.value);
  const offsets = decodeOffsets(text, node, value);
  if (!offsets || !within(offsets, node.span, value.length)) return () => node.span;
  const { starts, ends } = offsets;
  return (start, end) => {
    const from = Math.max(0, Math.min(start, value.length));
    const to = Math.max(from, Math.min(end, value.length));
    const s = starts[from]!;
    // The span ends where the last character of the range ends, so a character written as an
    // escape (\n, '', \u00e9) is covered whole, and one before a folded line break stops there.
    const e = to > from ? ends[to - 1]! : s;
    return { start: s, end: Math.max(e, s) };
  };
}

/** A last guard: every offset inside the scalar, in order, without overlaps, one per value character. */
function within(offsets: ValueOffsets, span: Span, length: number): boolean {
  const { starts, ends } = offsets;
  if (starts.length !== length + 1 || ends.length !== length) return false;
  let previous = span.start;
  for (let i = 0; i <= length; i++) {
    const s = starts[i]!;
    if (s < previous || s > span.end) return false;
    if (i < length && (ends[i]! < s || ends[i]! > span.end)) return false;
    if (i > 0 && ends[i - 1]! > s) return false;
    previous = s;
  }
  return true;
}

function decodeOffsets(text: string, node: ScalarNode, value: string): ValueOffsets | null {
  const { start, end } = node.span;
  // A lone CR is a line break, as the parser read it (loneCrAsLf; one character past the end tells a CRLF's CR).
  const raw = loneCrAsLf(text.slice(start, end + 1)).slice(0, end - start);
  let offsets: number[] | null;
  switch (node.style) {
    case 'plain':
      offsets = raw === value ? range(start, value.length) : null;
      break;
    case 'single':
      offsets = decodeSingle(raw, start, value);
      break;
    case 'double':
    case 'json':
      offsets = decodeDouble(raw, start, value);
      break;
    case 'literal':
    case 'folded':
      return decodeBlock(raw, start, start - lineStartOf(text, start), value);
    default:
      return null;
  }
  // Flow scalars: each character ends where the next one starts.
  return offsets ? { starts: offsets, ends: offsets.slice(1) } : null;
}

function range(start: number, length: number): number[] {
  const out = new Array<number>(length + 1);
  for (let i = 0; i <= length; i++) out[i] = start + i;
  return out;
}

function decodeSingle(raw: string, base: number, value: string): number[] | null {
  if (raw[0] !== "'") return null;
  const out: number[] = [];
  let decoded = '';
  for (let i = 1; i < raw.length - 1; i++) {
    if (raw[i] === "'" && raw[i + 1] === "'") {
      out.push(base + i);
      decoded += "'";
      i++;
    } else if (raw[i] === '\n' || raw[i] === '\r')
      return null; // folded lines: fall back
    else {
      out.push(base + i);
      decoded += raw[i];
    }
  }
  out.push(base + raw.length - 1);
  return decoded === value ? out : null;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  '0': '\0',
  a: '\x07',
  v: '\v',
  e: '\x1b',
  ' ': ' ',
};

function decodeDouble(raw: string, base: number, value: string): number[] | null {
  if (raw[0] !== '"') return null;
  const out: number[] = [];
  let decoded = '';
  for (let i = 1; i < raw.length - 1; i++) {
    const ch = raw[i]!;
    if (ch === '\n' || ch === '\r') return null; // multi-line quoted scalars fold: fall back
    if (ch !== '\\') {
      out.push(base + i);
      decoded += ch;
      continue;
    }
    const next = raw[i + 1] ?? '';
    if (next in SIMPLE_ESCAPES) {
      out.push(base + i);
      decoded += SIMPLE_ESCAPES[next];
      i++;
    } else if (next === 'u' || next === 'x' || next === 'U') {
      const width = next === 'u' ? 4 : next === 'x' ? 2 : 8;
      const hex = raw.slice(i + 2, i + 2 + width);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) return null;
      const chars = String.fromCodePoint(parseInt(hex, 16));
      for (let k = 0; k < chars.length; k++) out.push(base + i);
      decoded += chars;
      i += 1 + width;
    } else return null;
  }
  out.push(base + raw.length - 1);
  return decoded === value ? out : null;
}

// ---------------------------------------------------------------------------------------------
// Block scalars (`|` and `>`): replays how the `yaml` library builds the value, which follows the
// YAML 1.2 rules (§8.1): a header line (`>` or `|`, an optional indentation indicator 1-9 and
// chomping indicator - or +, an optional comment), then lines indented by the block's indentation.
//   - Literal (`|`): lines kept as written, joined by newlines.
//   - Folded (`>`): a line break between two "normal" lines (text that starts right at the
//     indentation) becomes one space; followed by k empty lines, it is dropped and the empty lines
//     give k newlines. A "more-indented" line (a space or tab beyond the indentation) keeps its line
//     breaks: before it, after it, and those of the empty lines around it.
//   - Both: empty lines before the first text give newlines (and any spaces beyond the
//     indentation); the end is chomped: strip (-) drops the last line break and trailing empty
//     lines, clip (default) keeps the last line break only, keep (+) keeps them all.
// Every value character is then either copied from one source character or made from one line
// break. The replay is checked against the parsed value; if it differs, the caller falls back.

interface BlockHeader {
  folded: boolean;
  /** The indentation indicator, 0 when the indentation is detected from the first text line. */
  indent: number;
  chomp: '' | '-' | '+';
  /** Length of the header line, its line break included. */
  length: number;
}

interface BlockLine {
  /** Offset of the line's first character (in `raw`). */
  start: number;
  /** Leading spaces (tabs are content). */
  spaces: number;
  /** The rest of the line, a trailing `\r` included (as the library splits lines). */
  rest: string;
  /** End of the text: before a `\r` that precedes the line break. */
  textEnd: number;
  /** The line break after this line, `\r\n` or `\n`; breakEnd === breakStart when there is none. */
  breakStart: number;
  breakEnd: number;
}

function parseBlockHeader(raw: string): BlockHeader | null {
  const mode = raw[0];
  if (mode !== '>' && mode !== '|') return null;
  let indent = 0;
  let chomp: BlockHeader['chomp'] = '';
  let i = 1;
  for (; i < raw.length; i++) {
    const ch = raw[i]!;
    if (!chomp && (ch === '-' || ch === '+')) chomp = ch;
    else if (!indent && ch >= '1' && ch <= '9') indent = Number(ch);
    else break;
  }
  const newline = raw.indexOf('\n', i);
  const length = newline < 0 ? raw.length : newline + 1;
  // Only spaces and a comment may follow the indicators; anything else is an error we do not replay.
  if (!/^(?:[ \t]+(?:#[^\n]*)?)?\r?\n?$/.test(raw.slice(i, length))) return null;
  return { folded: mode === '>', indent, chomp, length };
}

function splitBlockLines(raw: string, from: number): BlockLine[] {
  const lines: BlockLine[] = [];
  if (from >= raw.length) return lines; // no content at all
  let start = from;
  for (;;) {
    const newline = raw.indexOf('\n', start);
    const end = newline < 0 ? raw.length : newline;
    let spaces = 0;
    while (start + spaces < end && raw[start + spaces] === ' ') spaces++;
    const textEnd = end > start + spaces && raw[end - 1] === '\r' ? end - 1 : end;
    lines.push({
      start,
      spaces,
      rest: raw.slice(start + spaces, end),
      textEnd,
      breakStart: newline < 0 ? end : textEnd,
      breakEnd: newline < 0 ? end : newline + 1,
    });
    if (newline < 0) return lines;
    start = newline + 1;
  }
}

function isEmptyRest(line: BlockLine): boolean {
  return line.rest === '' || line.rest === '\r';
}

function decodeBlock(raw: string, base: number, column: number, value: string): ValueOffsets | null {
  const header = parseBlockHeader(raw);
  if (!header) return null;
  const lines = splitBlockLines(raw, header.length);
  let last = lines.length; // lines from `last` on are trailing empty lines (chomped)
  while (last > 0 && isEmptyRest(lines[last - 1]!)) last--;
  let candidates: number[];
  if (header.indent === 0) {
    // The first text line sets the indentation (without any, it does not matter).
    const first = lines.find((line) => !isEmptyRest(line));
    candidates = [first ? first.spaces : 0];
  } else {
    // The indicator counts from the parent node's indentation, which the scalar does not record:
    // try each one possible (it is at most the header's column) and accept only a single answer.
    // Beyond the deepest line every indentation gives the same replay.
    const deepest = lines.reduce((most, line) => Math.max(most, line.spaces), 0) + 1;
    const highest = Math.max(header.indent, Math.min(header.indent + column, deepest));
    candidates = [];
    for (let indent = header.indent; indent <= highest; indent++) candidates.push(indent);
  }
  let found: ValueOffsets | null = null;
  for (const indent of candidates) {
    const replay = replayBlock(raw, base, header, lines, last, indent);
    if (replay.value !== value) continue;
    if (found && !sameOffsets(found, replay)) return null; // ambiguous: not exact
    found = replay;
  }
  return found;
}

function sameOffsets(a: ValueOffsets, b: ValueOffsets): boolean {
  return a.starts.length === b.starts.length && a.starts.every((s, i) => s === b.starts[i] && a.ends[i] === b.ends[i]);
}

/** The value of a block scalar read with content indentation `indent`, and where each character came from. */
function replayBlock(
  raw: string,
  base: number,
  header: BlockHeader,
  lines: BlockLine[],
  trailing: number,
  indent: number,
): ValueOffsets & { value: string } {
  let value = '';
  const starts: number[] = [];
  const ends: number[] = [];
  const copy = (from: number, to: number): void => {
    for (let k = from; k < to; k++) {
      value += raw[k];
      starts.push(base + k);
      ends.push(base + k + 1);
    }
  };
  /** A character made from the line break after line i. */
  const lineBreak = (i: number, ch: string): void => {
    const line = lines[i]!;
    value += ch;
    starts.push(base + line.breakStart);
    ends.push(base + line.breakEnd);
  };
  /** A newline the library adds where the source has no line break (end of the file). */
  const virtualNewline = (): void => {
    value += '\n';
    starts.push(base + raw.length);
    ends.push(base + raw.length);
  };
  const finish = (): ValueOffsets & { value: string } => {
    starts.push(ends.length ? ends[ends.length - 1]! : base + Math.min(header.length, raw.length));
    return { value, starts, ends };
  };
  const extraSpaces = (line: BlockLine): void => {
    if (line.spaces > indent) copy(line.start + indent, line.start + line.spaces);
  };

  if (trailing === 0) {
    // Only empty lines: keep gives one newline per line break (at least one), the others nothing.
    if (header.chomp === '+' && lines.length > 0) {
      if (lines.length === 1) virtualNewline();
      for (let i = 0; i < lines.length - 1; i++) lineBreak(i, '\n');
    }
    return finish();
  }
  // Trailing lines with spaces beyond the indentation are content (more-indented), up to the last.
  let end = trailing;
  for (let i = lines.length - 1; i >= end; i--) if (lines[i]!.spaces > indent) end = i + 1;

  let first = 0;
  while (isEmptyRest(lines[first]!)) {
    // Leading empty lines: their spaces beyond the indentation, and a newline each.
    extraSpaces(lines[first]!);
    lineBreak(first, '\n');
    first++;
  }
  let previous = -1; // the last text line
  let previousMore = false;
  for (let i = first; i < end; i++) {
    const line = lines[i]!;
    const text = raw.slice(line.start + line.spaces, line.textEnd);
    const more = line.spaces > indent || text[0] === '\t';
    if (header.folded && !more && text === '') continue; // an empty line, counted in the gap below
    if (previous >= 0) {
      if (!header.folded) lineBreak(i - 1, '\n');
      else if (!more && !previousMore && i === previous + 1) lineBreak(previous, ' ');
      else {
        // Between two normal lines the first break is dropped; otherwise every break is kept.
        for (let b = !more && !previousMore ? previous + 1 : previous; b < i; b++) lineBreak(b, '\n');
      }
    }
    // Spaces beyond the indentation belong to the line; a line indented less (an error) keeps its text.
    copy(line.start + Math.min(line.spaces, indent), line.textEnd);
    previous = i;
    previousMore = more;
  }

  if (header.chomp === '+') {
    for (let i = end; i < lines.length; i++) {
      lineBreak(i - 1, '\n');
      extraSpaces(lines[i]!);
    }
    if (!value.endsWith('\n')) virtualNewline();
  } else if (header.chomp === '') {
    if (end < lines.length) lineBreak(end - 1, '\n');
    else virtualNewline();
  }
  return finish();
}
