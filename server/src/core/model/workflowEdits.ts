// Minimal text edits for workflow fixes (add a dependency, add a defaultResults key, set a
// retryCount, replace a step id): computed against the original text so that comments, quoting,
// indentation, key order and line ends stay as the user wrote them. Every function returns
// undefined when the layout is one it cannot edit with certainty: no fix beats a wrong one.
import type { MapNode, Node, Pair, ScalarNode, SeqNode } from '../parse/nodes.js';
import type { TextEdit } from '../types.js';

/** A value to write: rendered as JSON in JSON files, as YAML flow or block in YAML files. */
export type InsertValue = string | number | boolean | InsertValue[] | { [key: string]: InsertValue };

export interface EditTarget {
  text: string;
  json: boolean;
}

function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

// Plain YAML scalars that read back as the same string, in block and flow context alike.
const PLAIN_SAFE = /^[A-Za-z_][A-Za-z0-9_.\-/]*$/;
const YAML_WORDS = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

export function renderString(target: EditTarget, value: string): string {
  if (target.json) return JSON.stringify(value);
  return PLAIN_SAFE.test(value) && !YAML_WORDS.test(value) ? value : JSON.stringify(value);
}

/** One-line rendering: JSON, or YAML flow style. */
export function renderInline(target: EditTarget, value: InsertValue): string {
  if (typeof value === 'string') return renderString(target, value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => renderInline(target, v)).join(', ')}]`;
  const entries = Object.entries(value).map(([k, v]) => `${renderString(target, k)}: ${renderInline(target, v)}`);
  return `{${entries.join(', ')}}`;
}

/** A scalar's new value in the quoting style it was written in; undefined for block scalars. */
export function replaceScalar(target: EditTarget, scalar: ScalarNode, value: string): TextEdit | undefined {
  let newText: string;
  switch (scalar.style) {
    case 'plain':
      newText = renderString(target, value);
      break;
    case 'single':
      newText = `'${value.replace(/'/g, "''")}'`;
      break;
    case 'double':
    case 'json':
      newText = JSON.stringify(value);
      break;
    default:
      return undefined;
  }
  return { span: scalar.span, newText };
}

function lineStartOf(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && text[i - 1] !== '\n' && text[i - 1] !== '\r') i--;
  return i;
}

/** Column (in characters) of an offset, or undefined when a tab precedes it (ambiguous width). */
function columnOf(text: string, offset: number): number | undefined {
  const start = lineStartOf(text, offset);
  const prefix = text.slice(start, offset);
  return prefix.includes('\t') ? undefined : prefix.length;
}

/** Where a new line may start after the line holding `end`, and the text that must come first. */
function afterLine(text: string, end: number): { at: number; lead: string } {
  // A block scalar's range can include its final line break: the next line starts right there.
  if (end > 0 && text[end - 1] === '\n') return { at: end, lead: '' };
  let i = end;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  if (i >= text.length) return { at: text.length, lead: eolOf(text) };
  if (text[i] === '\r' && text[i + 1] === '\n') return { at: i + 2, lead: '' };
  return { at: i + 1, lead: '' };
}

/** The indentation unit used under a block mapping: from a nested block mapping, else 2. */
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

function onSeparateLines(text: string, a: number, b: number): boolean {
  return /[\r\n]/.test(text.slice(a, b));
}

/**
 * Adds `key: value` to a mapping, after `after` (default: the last pair). Block mappings get a
 * new line at the keys' indentation (a mapping value as an indented block); flow mappings and
 * JSON objects get `, key: value` (on a new line when the pairs are on separate lines).
 */
export function insertPair(target: EditTarget, map: MapNode, key: string, value: InsertValue, after?: Pair): TextEdit | undefined {
  return insertPairs(target, map, [[key, value]], after);
}

/** Like insertPair, for several keys at one place. */
export function insertPairs(target: EditTarget, map: MapNode, entries: [string, InsertValue][], after?: Pair): TextEdit | undefined {
  const { text } = target;
  const eol = eolOf(text);
  if (!entries.length) return undefined;
  const anchor = after ?? map.pairs[map.pairs.length - 1];
  const anchorEnd = anchor ? (anchor.value ? Math.max(anchor.span.end, anchor.value.span.end) : anchor.span.end) : 0;
  if (map.flow || target.json) {
    const rendered = entries.map(([key, value]) => `${renderString(target, key)}: ${renderInline(target, value)}`);
    if (!anchor) {
      if (text[map.span.start] !== '{') return undefined;
      return { span: { start: map.span.start + 1, end: map.span.start + 1 }, newText: rendered.join(', ') };
    }
    if (onSeparateLines(text, map.span.start, anchor.key.span.start)) {
      const indent = text.slice(lineStartOf(text, anchor.key.span.start), anchor.key.span.start);
      if (!/\S/.test(indent)) {
        return { span: { start: anchorEnd, end: anchorEnd }, newText: rendered.map((r) => `,${eol}${indent}${r}`).join('') };
      }
    }
    return { span: { start: anchorEnd, end: anchorEnd }, newText: rendered.map((r) => `, ${r}`).join('') };
  }
  const first = map.pairs[0];
  if (!first || !anchor) return undefined;
  const column = columnOf(text, first.key.span.start);
  if (column === undefined) return undefined;
  const pad = ' '.repeat(column);
  const inner = ' '.repeat(column + indentUnit(text, map, column));
  let lines = '';
  for (const [key, value] of entries) {
    const keyText = renderString(target, key);
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
      lines += `${pad}${keyText}:${eol}`;
      for (const [k, v] of Object.entries(value)) lines += `${inner}${renderString(target, k)}: ${renderInline(target, v)}${eol}`;
    } else lines += `${pad}${keyText}: ${renderInline(target, value)}${eol}`;
  }
  const { at, lead } = afterLine(text, anchorEnd);
  return { span: { start: at, end: at }, newText: lead ? lead + lines.slice(0, -eol.length) : lines };
}

/** Appends items to a sequence: `, X` in flow and JSON, a new `- X` line each in block style. */
export function appendItems(target: EditTarget, seq: SeqNode, values: InsertValue[]): TextEdit | undefined {
  const { text } = target;
  const eol = eolOf(text);
  if (!values.length) return undefined;
  const rendered = values.map((v) => renderInline(target, v));
  const last: Node | undefined = seq.items[seq.items.length - 1];
  if (seq.flow || target.json) {
    if (!last) {
      if (text[seq.span.start] !== '[') return undefined;
      return { span: { start: seq.span.start + 1, end: seq.span.start + 1 }, newText: rendered.join(', ') };
    }
    const at = { start: last.span.end, end: last.span.end };
    if (onSeparateLines(text, seq.span.start, last.span.start)) {
      const indent = text.slice(lineStartOf(text, last.span.start), last.span.start);
      if (!/\S/.test(indent)) return { span: at, newText: rendered.map((r) => `,${eol}${indent}${r}`).join('') };
    }
    return { span: at, newText: rendered.map((r) => `, ${r}`).join('') };
  }
  if (!last) return undefined;
  const prefix = text.slice(lineStartOf(text, last.span.start), last.span.start);
  if (!/^ *- +$/.test(prefix)) return undefined;
  const lines = rendered.map((r) => `${prefix}${r}${eol}`).join('');
  const { at, lead } = afterLine(text, last.span.end);
  return { span: { start: at, end: at }, newText: lead ? lead + lines.slice(0, -eol.length) : lines };
}
