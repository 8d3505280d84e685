// Edits that put a value one level deeper, under new keys, keeping its own text: wrap it in a flow
// mapping (`{k: v, inner: VALUE}`), or, for a YAML block mapping, write the new keys where it began
// and move each of its lines right by one indentation step. Nothing of the value's text changes but
// its indentation, so its comments and layout stay as the user wrote them. Like mappingEdits.ts,
// every function returns undefined when the layout is one it cannot edit with certainty.
import type { MapNode, Node, Pair, ScalarNode } from '../parse/nodes.js';
import type { Span, TextEdit } from '../types.js';
import { columnOf, endOfLine, eolOf, lineStartOf, type EditContext } from './mappingEdits.js';

/** The text spans more than one line. */
export function spansLines(ctx: EditContext, span: Span): boolean {
  return /[\r\n]/.test(ctx.text.slice(span.start, span.end));
}

/**
 * An anchor (`&a`) or a tag (`!t`) written on a pair's value: the tree keeps neither as written
 * (an anchored node is marked `shared`, and so is everything inside one), so this reads the text
 * between the key and the value, comments left out. Moving the value deeper would move them with it.
 */
export function hasProperties(ctx: EditContext, pair: Pair, value: Node): boolean {
  const between = ctx.text
    .slice(pair.key.span.end, value.span.start)
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\r\n]*|#[^\r\n]*/g, '');
  return /[&!]/.test(between);
}

/** A plain YAML scalar that keeps its meaning inside a flow mapping (no comma, bracket, colon or space to misread). */
export function flowSafePlain(ctx: EditContext, scalar: ScalarNode): boolean {
  return scalar.style !== 'plain' || /^[A-Za-z0-9_.+-]*$/.test(ctx.text.slice(scalar.span.start, scalar.span.end));
}

/** `before` and `after` around the value as written: the edits that wrap it in a flow collection. */
export function wrapValue(node: Node, before: string, after: string): TextEdit[] {
  return [
    { span: { start: node.span.start, end: node.span.start }, newText: before },
    { span: { start: node.span.end, end: node.span.end }, newText: after },
  ];
}

/** A `key: value` line of a nested block mapping: the key and value as the caller renders them. */
export interface NestedLine {
  key: string;
  /** Inline value text; absent for a key whose entries follow (`key:` then `lines`). */
  value?: string;
  lines?: NestedLine[];
}

/**
 * A YAML block mapping (the value of `pair`) moved under `inner`, with `before` written ahead of it
 * and `after` behind it, all at the mapping's own column: every line of the mapping moves right by
 * the step the file uses between `pair`'s key and its entries. The mapping must start its own line.
 */
export function nestBlockMap(
  ctx: EditContext,
  pair: Pair,
  map: MapNode,
  before: readonly NestedLine[],
  inner: string,
  after: readonly NestedLine[],
): TextEdit[] | undefined {
  const { text } = ctx;
  const eol = eolOf(text);
  const first = map.pairs[0];
  if (!first || map.flow || ctx.json) return undefined;
  const column = columnOf(text, first.key.span.start);
  const keyColumn = columnOf(text, pair.key.span.start);
  if (column === undefined || keyColumn === undefined || column <= keyColumn) return undefined;
  const firstLine = lineStartOf(text, first.key.span.start);
  if (/[^ ]/.test(text.slice(firstLine, first.key.span.start))) return undefined;
  const step = ' '.repeat(column - keyColumn);
  const render = (lines: readonly NestedLine[], depth: number): string[] =>
    lines.flatMap((line) => {
      const pad = ' '.repeat(column) + step.repeat(depth);
      if (line.lines) return [`${pad}${line.key}:`, ...render(line.lines, depth + 1)];
      return [`${pad}${line.key}: ${line.value ?? ''}`];
    });

  // The last character that belongs to the mapping (a block map's span may end after a line break).
  let end = map.span.end;
  while (end > first.key.span.start && /\s/.test(text[end - 1]!)) end--;

  const header = [...render(before, 0), `${' '.repeat(column)}${inner}:`].map((line) => line + eol).join('');
  const edits: TextEdit[] = [{ span: { start: firstLine, end: firstLine }, newText: header + step }];
  // Every later line of the mapping, blank lines aside, moves right by one step.
  let at = nextLineStart(text, firstLine);
  while (at !== undefined && at < end) {
    if (endOfLine(text, at) > at) edits.push({ span: { start: at, end: at }, newText: step });
    at = nextLineStart(text, at);
  }
  if (after.length) {
    const lines = render(after, 0).join(eol);
    const next = nextLineStart(text, end);
    if (next === undefined) edits.push({ span: { start: text.length, end: text.length }, newText: `${eol}${lines}` });
    else edits.push({ span: { start: next, end: next }, newText: `${lines}${eol}` });
  }
  return edits;
}

/** Start of the line after the one holding `offset`; undefined on the last line. */
function nextLineStart(text: string, offset: number): number | undefined {
  const i = endOfLine(text, offset);
  if (i >= text.length) return undefined;
  return text[i] === '\r' && text[i + 1] === '\n' ? i + 2 : i + 1;
}
