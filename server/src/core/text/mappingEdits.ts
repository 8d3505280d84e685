// Minimal edits of mappings and scalars for fixes: replace a scalar keeping its quotes, add pairs
// in the mapping's own style (block lines at the keys' indentation, or `, k: v` in flow and JSON),
// remove a pair cleanly (its whole line in block style, the entry and one comma in flow). Every
// function returns undefined when the layout is one it cannot edit with certainty.
import type { MapNode, Node, Pair, ScalarNode } from '../parse/nodes.js';
import type { Span, TextEdit } from '../types.js';

export interface EditContext {
  text: string;
  /** JSON document: keys and strings double-quoted, no block style. */
  json: boolean;
}

/** A value to insert: already rendered inline text, or a nested mapping of such values. */
export type InsertValue = { inline: string } | { entries: InsertEntry[] };
export interface InsertEntry {
  key: string;
  value: InsertValue;
}

const PLAIN_SAFE = /^[A-Za-z_][A-Za-z0-9_.\-/]*$/;
const YAML_WORDS = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

/** A string as a YAML plain scalar when that reads back the same, else double-quoted; JSON always quotes. */
export function renderString(ctx: EditContext, value: string): string {
  if (ctx.json) return JSON.stringify(value);
  return PLAIN_SAFE.test(value) && !YAML_WORDS.test(value) ? value : JSON.stringify(value);
}

/** A JSON value written inline (valid YAML flow as well as JSON). */
export function renderInlineValue(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/** Replaces a scalar's text, keeping its quoting style; undefined for block scalars. */
export function replaceScalarText(ctx: EditContext, scalar: ScalarNode, value: string): TextEdit | undefined {
  switch (scalar.style) {
    case 'plain':
      return { span: scalar.span, newText: renderString(ctx, value) };
    case 'single':
      return { span: scalar.span, newText: `'${value.replace(/'/g, "''")}'` };
    case 'double':
    case 'json':
      return { span: scalar.span, newText: JSON.stringify(value) };
    default:
      return undefined;
  }
}

/** Replaces any value node with inline text (`true`, `0`, `""`...). */
export function replaceValue(node: Node, newText: string): TextEdit {
  return { span: node.span, newText };
}

export function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

export function lineStartOf(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && text[i - 1] !== '\n' && text[i - 1] !== '\r') i--;
  return i;
}

/** Column of an offset, or undefined when a tab precedes it (its width is ambiguous). */
function columnOf(text: string, offset: number): number | undefined {
  const prefix = text.slice(lineStartOf(text, offset), offset);
  return prefix.includes('\t') ? undefined : prefix.length;
}

/** The start of the line after the one holding `end`, and what must be written first at EOF. */
function nextLine(text: string, end: number): { at: number; lead: string } {
  // A block scalar's range may already include its final line break.
  if (end > 0 && text[end - 1] === '\n') return { at: end, lead: '' };
  let i = end;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  if (i >= text.length) return { at: text.length, lead: eolOf(text) };
  if (text[i] === '\r' && text[i + 1] === '\n') return { at: i + 2, lead: '' };
  return { at: i + 1, lead: '' };
}

function valueEnd(pair: Pair): number {
  return pair.value ? Math.max(pair.span.end, pair.value.span.end) : pair.span.end;
}

function onSeparateLines(text: string, a: number, b: number): boolean {
  return /[\r\n]/.test(text.slice(a, b));
}

/** Only whitespace between the line's start and `offset`. */
function startsLine(text: string, offset: number): boolean {
  return !/\S/.test(text.slice(lineStartOf(text, offset), offset));
}

/** The indentation step used under a block mapping (from a nested block mapping), else 2. */
function indentUnit(text: string, map: MapNode, column: number): number {
  for (const pair of map.pairs) {
    const value = pair.value;
    if (value?.type === 'map' && !value.flow && value.pairs.length) {
      const child = columnOf(text, value.pairs[0]!.key.span.start);
      if (child !== undefined && child > column) return child - column;
    }
  }
  return 2;
}

function inlineEntries(ctx: EditContext, entries: InsertEntry[]): string {
  return entries.map((e) => `${renderString(ctx, e.key)}: ${inlineValue(ctx, e.value)}`).join(', ');
}

function inlineValue(ctx: EditContext, value: InsertValue): string {
  return 'inline' in value ? value.inline : `{${inlineEntries(ctx, value.entries)}}`;
}

function blockLines(ctx: EditContext, entries: InsertEntry[], column: number, unit: number, eol: string): string {
  const pad = ' '.repeat(column);
  let out = '';
  for (const entry of entries) {
    const key = renderString(ctx, entry.key);
    if ('inline' in entry.value) out += `${pad}${key}: ${entry.value.inline}${eol}`;
    else if (entry.value.entries.length === 0) out += `${pad}${key}: {}${eol}`;
    else out += `${pad}${key}:${eol}${blockLines(ctx, entry.value.entries, column + unit, unit, eol)}`;
  }
  return out;
}

/**
 * Adds pairs to a mapping after `after` (default: its last pair), in the mapping's style: new lines
 * at the keys' indentation in block style; `, k: v` in flow mappings and JSON objects (on new lines
 * when the object already puts its entries on separate lines).
 */
export function insertPairs(ctx: EditContext, map: MapNode, entries: InsertEntry[], after?: Pair): TextEdit | undefined {
  if (entries.length === 0) return undefined;
  const { text } = ctx;
  const eol = eolOf(text);
  const anchor = after ?? map.pairs[map.pairs.length - 1];
  if (map.flow || ctx.json) {
    if (!anchor) {
      if (text[map.span.start] !== '{') return undefined;
      return { span: { start: map.span.start + 1, end: map.span.start + 1 }, newText: inlineEntries(ctx, entries) };
    }
    const at = valueEnd(anchor);
    if (onSeparateLines(text, map.span.start, anchor.key.span.start) && startsLine(text, anchor.key.span.start)) {
      const indent = text.slice(lineStartOf(text, anchor.key.span.start), anchor.key.span.start);
      const lines = entries.map((e) => `${indent}${renderString(ctx, e.key)}: ${inlineValue(ctx, e.value)}`);
      return { span: { start: at, end: at }, newText: `,${eol}${lines.join(`,${eol}`)}` };
    }
    return { span: { start: at, end: at }, newText: `, ${inlineEntries(ctx, entries)}` };
  }
  const first = map.pairs[0];
  if (!first || !anchor) return undefined;
  const column = columnOf(text, first.key.span.start);
  if (column === undefined) return undefined;
  const lines = blockLines(ctx, entries, column, indentUnit(text, map, column), eol);
  const { at, lead } = nextLine(text, valueEnd(anchor));
  return { span: { start: at, end: at }, newText: lead ? lead + lines.slice(0, -eol.length) : lines };
}

/**
 * Removes a pair: its whole line(s) in block style (a comment on the same line goes with it), the
 * entry and one comma in flow mappings and JSON objects.
 */
export function removePair(ctx: EditContext, map: MapNode, pair: Pair): TextEdit | undefined {
  const { text } = ctx;
  const index = map.pairs.indexOf(pair);
  if (index < 0) return undefined;
  if (map.flow || ctx.json) {
    const next = map.pairs[index + 1];
    const previous = map.pairs[index - 1];
    let span: Span;
    if (next) span = { start: pair.span.start, end: next.key.span.start };
    else if (previous) span = { start: valueEnd(previous), end: valueEnd(pair) };
    else if (text[map.span.start] === '{' && text[map.span.end - 1] === '}') span = { start: map.span.start + 1, end: map.span.end - 1 };
    else return undefined;
    return { span, newText: '' };
  }
  if (!startsLine(text, pair.key.span.start)) return undefined;
  const start = lineStartOf(text, pair.key.span.start);
  const { at, lead } = nextLine(text, valueEnd(pair));
  // The last line of a file without a final line break: take the break before it instead.
  if (lead && start > 0) {
    const before = text[start - 2] === '\r' && text[start - 1] === '\n' ? start - 2 : start - 1;
    return { span: { start: before, end: at }, newText: '' };
  }
  return { span: { start, end: at }, newText: '' };
}

/** Renames a key, keeping its quoting. */
export function renameKey(ctx: EditContext, pair: Pair, newKey: string): TextEdit | undefined {
  return replaceScalarText(ctx, pair.key, newKey);
}
