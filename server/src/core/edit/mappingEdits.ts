// Minimal edits of mappings, sequences and scalars for fixes, computed against the original text so
// that comments, quoting, indentation, key order and line ends stay as the user wrote them: replace a
// scalar keeping its quotes, replace a value, add pairs in the mapping's own style (block lines at
// the keys' indentation, or `, k: v` in flow and JSON, on lines of their own where the entries are),
// append items to a sequence, remove a pair cleanly (its whole line in block style, the entry and
// one comma in flow). Every function returns undefined when the layout is one it cannot edit with
// certainty: no fix beats a wrong one. The one module of such edits; rules never splice text themselves.
//
// None edits through a YAML anchor or alias (`Shared`): an anchored node is also what every alias
// of it stands for, and nothing here can know what else shares it (a fix for one step would change
// them all); an alias's nodes have no text of their own (`*deps, first` is a syntax error). Nor
// does any removal or replacement take an anchor with it, which would leave its aliases unresolved.
import type { MapNode, Node, Pair, ScalarNode, ScalarStyle, SeqNode } from '../parse/nodes.js';
import { eolOf, lineStartOf } from '../text/source.js';
import type { Fix, Span, TextEdit } from '../types.js';

export interface EditContext {
  text: string;
  /** JSON document: keys and strings double-quoted, no block style. */
  json: boolean;
  /** TOML document (also `json`: a JSON string is a TOML basic string): a bare key stays bare. */
  toml?: boolean;
}

/**
 * The edit context of a parsed file (JSON and JSONL files are JSON; TOML is written with JSON's
 * strings, which TOML reads alike; everything else YAML).
 */
export function editContextOf(file: { source: { text: string }; language: string }): EditContext {
  return {
    text: file.source.text,
    json: file.language !== 'yaml',
    ...(file.language === 'toml' ? { toml: true } : {}),
  };
}

/** A value to insert: already rendered inline text, or a nested mapping of such values. */
export type InsertValue = { inline: string } | { entries: InsertEntry[] };
export interface InsertEntry {
  key: string;
  value: InsertValue;
}

/** A plain value to write, rendered in the document's syntax by `renderInline`. */
export type PlainValue = string | number | boolean | PlainValue[] | { [key: string]: PlainValue };

// Plain YAML scalars that read back as the same string, in block and flow context alike.
const PLAIN_SAFE = /^[A-Za-z_$][A-Za-z0-9_.\-/]*$/;
const YAML_WORDS = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

/** A string as a YAML plain scalar when that reads back the same, else double-quoted; JSON always quotes. */
export function renderString(ctx: EditContext, value: string): string {
  if (ctx.json) return JSON.stringify(value);
  return PLAIN_SAFE.test(value) && !YAML_WORDS.test(value) ? value : JSON.stringify(value);
}

/** A string written in a scalar's style: inside the same quotes when quoted, plain where that reads back the same. */
export function renderStringAs(ctx: EditContext, value: string, style: ScalarStyle | undefined): string {
  if (ctx.json || style === 'double' || style === 'json') return JSON.stringify(value);
  if (style === 'single') return `'${value.replace(/'/g, "''")}'`;
  return renderString(ctx, value);
}

/** A JSON value written inline (valid YAML flow as well as JSON): strings always quoted. */
export function renderInlineValue(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/** One-line rendering of a plain value: JSON, or YAML flow style with plain strings where they read back the same. */
function renderInline(ctx: EditContext, value: PlainValue): string {
  if (typeof value === 'string') return renderString(ctx, value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => renderInline(ctx, v)).join(', ')}]`;
  const entries = Object.entries(value).map(([k, v]) => `${renderString(ctx, k)}: ${renderInline(ctx, v)}`);
  return `{${entries.join(', ')}}`;
}

/** An entry for `insertPairs` from a plain value: a non-empty mapping as nested pairs (their values inline), anything else inline. */
export function plainEntry(ctx: EditContext, key: string, value: PlainValue): InsertEntry {
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
    return {
      key,
      value: { entries: Object.entries(value).map(([k, v]) => ({ key: k, value: { inline: renderInline(ctx, v) } })) },
    };
  }
  return { key, value: { inline: renderInline(ctx, value) } };
}

/** Whether a node is shared through an anchor or an alias (see above): no edit goes inside it. */
function shared(node: Node): boolean {
  return node.shared !== undefined;
}

/** Whether a subtree holds an anchor (itself or any node or key in it): removing or replacing it would orphan the aliases. */
function holdsAnchor(node: Node | null): boolean {
  if (!node) return false;
  const stack: Node[] = [node];
  while (stack.length) {
    const current = stack.pop()!;
    if (current.shared === 'anchor') return true;
    if (current.type === 'map') {
      for (const pair of current.pairs) {
        if (pair.key.shared === 'anchor') return true;
        if (pair.value) stack.push(pair.value);
      }
    } else if (current.type === 'seq') for (const item of current.items) stack.push(item);
  }
  return false;
}

/**
 * Replaces a scalar (a key or a value) with a string written in the scalar's own quoting style.
 * Undefined when the source does not hold the scalar as its style says (an alias, a plain scalar
 * whose text is not its value, a block scalar), or the scalar is anchored: no edit beats a wrong one.
 */
export function replaceScalarText(ctx: EditContext, scalar: ScalarNode, value: string): TextEdit | undefined {
  if (shared(scalar)) return undefined;
  const raw = ctx.text.slice(scalar.span.start, scalar.span.end);
  switch (scalar.style) {
    case 'plain':
      if (raw !== String(scalar.value)) return undefined;
      break;
    case 'single':
      if (raw.length < 2 || !raw.startsWith("'") || !raw.endsWith("'")) return undefined;
      break;
    case 'double':
    case 'json':
      if (raw.length < 2 || !raw.startsWith('"') || !raw.endsWith('"')) return undefined;
      break;
    default:
      return undefined;
  }
  return { span: scalar.span, newText: renderStringAs(ctx, value, scalar.style) };
}

/**
 * "Did you mean" fixes: one per value, each replacing the scalar with that value in the scalar's own
 * quoting. Suggestions (not safe): only the user knows which value they meant.
 */
export function replaceScalarFixes(
  ctx: EditContext,
  scalar: ScalarNode,
  values: readonly string[],
  title: (value: string) => string,
): Fix[] {
  return values.flatMap((value) => {
    const change = replaceScalarText(ctx, scalar, value);
    return change ? [{ title: title(value), safe: false, edits: [change] }] : [];
  });
}

/** Renames a key, keeping its quoting. */
export function renameKey(ctx: EditContext, pair: Pair, newKey: string): TextEdit | undefined {
  // A TOML bare key (its text is its name) renamed to a name that may be bare stays bare.
  const bare = /^[A-Za-z0-9_-]+$/;
  if (ctx.toml && pair.key.style === 'plain' && bare.test(newKey) && !shared(pair.key)) {
    const raw = ctx.text.slice(pair.key.span.start, pair.key.span.end);
    return raw === String(pair.key.value) ? { span: pair.key.span, newText: newKey } : undefined;
  }
  return replaceScalarText(ctx, pair.key, newKey);
}

/** Replaces any value node with inline text (`true`, `0`, `""`...); undefined for a node shared through an anchor or alias. */
export function replaceValue(node: Node, newText: string): TextEdit | undefined {
  if (shared(node) || holdsAnchor(node)) return undefined;
  return { span: node.span, newText };
}

/**
 * Replaces a value node with inline text, also where `replaceValue` would be wrong: an empty YAML
 * value (`key:` and nothing) has a zero-width span right after the colon, so the text goes after a
 * space; a key written without a colon in a flow mapping (`{path}`, `{path, b: 1}`) gets the colon
 * too; a block scalar's span may end with its line break, which stays. Undefined where an empty
 * value has no colon and is not such a flow entry (an explicit `? key` in block style).
 */
export function replaceValueText(ctx: EditContext, node: Node, newText: string): TextEdit | undefined {
  if (shared(node) || holdsAnchor(node)) return undefined;
  if (node.span.start === node.span.end) {
    // Right after the colon, so that spaces and a comment that follow stay where they are.
    const before = ctx.text.slice(0, node.span.start).trimEnd();
    if (before.endsWith(':')) return { span: { start: before.length, end: before.length }, newText: ` ${newText}` };
    // No colon: a flow entry that is a key alone, ended by `,` or `}` (a JSON document has no such entry).
    if (ctx.json || !/^[ \t]*[,}]/.test(ctx.text.slice(node.span.start))) return undefined;
    return { span: { start: node.span.start, end: node.span.start }, newText: `: ${newText}` };
  }
  const old = ctx.text.slice(node.span.start, node.span.end);
  const trailing = /[\r\n][\s]*$/.exec(old)?.[0] ?? '';
  return { span: node.span, newText: newText + trailing };
}

/**
 * One fix's edits with the insertions at one offset joined into one, their texts in the order
 * given: no two edits of a fix may insert at one place (which goes first would be arbitrary).
 */
export function joinInsertions(edits: readonly TextEdit[]): TextEdit[] {
  const out: TextEdit[] = [];
  const at = new Map<number, number>();
  for (const edit of edits) {
    const index = edit.span.start === edit.span.end ? at.get(edit.span.start) : undefined;
    if (index === undefined) {
      if (edit.span.start === edit.span.end) at.set(edit.span.start, out.length);
      out.push(edit);
    } else out[index] = { span: out[index]!.span, newText: out[index]!.newText + edit.newText };
  }
  return out;
}

/** The line break the text uses most (text/source.ts), for the lines a fix writes. */
export { eolOf };

/** Where the line holding an offset starts (text/source.ts): never before the BOM, so no edit takes it along. */
export { lineStartOf };

/** The offset of the line break (or the end of the text) after `offset`. */
export function endOfLine(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  return i;
}

/** Column of an offset, or undefined when a tab precedes it (its width is ambiguous). */
export function columnOf(text: string, offset: number): number | undefined {
  const prefix = text.slice(lineStartOf(text, offset), offset);
  return prefix.includes('\t') ? undefined : prefix.length;
}

/** The start of the line after the one holding `end`, and what must be written first at EOF. */
export function nextLine(text: string, end: number): { at: number; lead: string } {
  // A block scalar's range may already include its final line break (a lone CR too).
  if (end > 0 && (text[end - 1] === '\n' || (text[end - 1] === '\r' && text[end] !== '\n')))
    return { at: end, lead: '' };
  const i = endOfLine(text, end);
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
 * at the keys' indentation in block style (a nested mapping as an indented block); `, k: v` in flow
 * mappings and JSON objects (on new lines when the object already puts its entries on separate lines).
 */
export function insertPairs(
  ctx: EditContext,
  map: MapNode,
  entries: InsertEntry[],
  after?: Pair,
): TextEdit | undefined {
  if (entries.length === 0 || shared(map)) return undefined;
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

/** Appends items to a sequence: `, X` in flow and JSON (on new lines where the items are), a new `- X` line each in block style. */
export function appendItems(ctx: EditContext, seq: SeqNode, values: PlainValue[]): TextEdit | undefined {
  const { text } = ctx;
  const eol = eolOf(text);
  if (!values.length || shared(seq)) return undefined;
  const rendered = values.map((v) => renderInline(ctx, v));
  const last: Node | undefined = seq.items[seq.items.length - 1];
  if (seq.flow || ctx.json) {
    if (!last) {
      if (text[seq.span.start] !== '[') return undefined;
      return { span: { start: seq.span.start + 1, end: seq.span.start + 1 }, newText: rendered.join(', ') };
    }
    // The last item must end where the sequence's text says it does: only blanks, comments and the
    // closing bracket after it (a tagged collection, `!!omap [a: 1]`, reads back as other nodes).
    const after = text.slice(last.span.end, seq.span.end).replace(/\/\*[\s\S]*?\*\/|(?:#|\/\/)[^\r\n]*/g, '');
    if (last.span.start === last.span.end || !/^\s*,?\s*\]$/.test(after)) return undefined;
    const at = { start: last.span.end, end: last.span.end };
    if (onSeparateLines(text, seq.span.start, last.span.start) && startsLine(text, last.span.start)) {
      const indent = text.slice(lineStartOf(text, last.span.start), last.span.start);
      return { span: at, newText: rendered.map((r) => `,${eol}${indent}${r}`).join('') };
    }
    return { span: at, newText: rendered.map((r) => `, ${r}`).join('') };
  }
  if (!last) return undefined;
  const prefix = text.slice(lineStartOf(text, last.span.start), last.span.start);
  if (!/^ *- +$/.test(prefix)) return undefined;
  const lines = rendered.map((r) => `${prefix}${r}${eol}`).join('');
  const { at, lead } = nextLine(text, last.span.end);
  return { span: { start: at, end: at }, newText: lead ? lead + lines.slice(0, -eol.length) : lines };
}

/**
 * Removes a pair: its whole line(s) in block style (a comment on the same line goes with it), the
 * entry and one comma in flow mappings and JSON objects.
 */
export function removePair(ctx: EditContext, map: MapNode, pair: Pair): TextEdit | undefined {
  const { text } = ctx;
  const index = map.pairs.indexOf(pair);
  if (index < 0 || shared(map) || pair.key.shared === 'anchor' || holdsAnchor(pair.value)) return undefined;
  if (map.flow || ctx.json) {
    const next = map.pairs[index + 1];
    const previous = map.pairs[index - 1];
    let span: Span;
    if (next) span = { start: pair.span.start, end: next.key.span.start };
    else if (previous) span = { start: valueEnd(previous), end: valueEnd(pair) };
    else if (text[map.span.start] === '{' && text[map.span.end - 1] === '}')
      span = { start: map.span.start + 1, end: map.span.end - 1 };
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

// ---------------------------------------------------------------------------------------------
// Flow text copied from the mapping as written (the envelope fixes write whole entries)

/**
 * The separators of flow text in this place: in JSON, copied from the mapping as written (`:` and
 * `,` in compact JSONL, `: ` and `, ` otherwise); YAML flow always needs the space after the colon.
 */
export function flowSeparators(
  ctx: EditContext,
  map: MapNode | undefined,
  pair?: Pair,
): { colon: string; comma: string } {
  let colon = ': ';
  let comma = ', ';
  if (!ctx.json || !map) return { colon, comma };
  const { text } = ctx;
  const sample = pair ?? map.pairs[0];
  if (sample?.value) {
    const between = text.slice(sample.key.span.end, sample.value.span.start);
    if (/^[ \t]*:[ \t]*$/.test(between)) colon = between;
  }
  for (let i = 0; i + 1 < map.pairs.length; i++) {
    const end = map.pairs[i]!.value?.span.end ?? map.pairs[i]!.key.span.end;
    const between = text.slice(end, map.pairs[i + 1]!.key.span.start);
    if (/^[ \t]*,[ \t]*$/.test(between)) {
      comma = between.trimStart();
      break;
    }
  }
  return { colon, comma };
}

const REST_OF_LINE = /^[ \t]*(,)?[ \t]*(\/\/.*|\/\*.*\*\/[ \t]*|#.*)?$/;

/**
 * A new entry on its own line after `after`, in a flow mapping or JSON object that puts its entries
 * on separate lines. A comment that ends the anchor's line stays on that line.
 */
export function ownLineInsertion(
  ctx: EditContext,
  container: MapNode,
  after: Pair,
  entry: string,
): TextEdit[] | undefined {
  const { text } = ctx;
  if (shared(container)) return undefined;
  const end = valueEnd(after);
  const lineStart = lineStartOf(text, after.key.span.start);
  const indent = text.slice(lineStart, after.key.span.start);
  if (/[^ \t]/.test(indent) || lineStart <= container.span.start) return undefined;
  const lineEnd = endOfLine(text, end);
  const rest = REST_OF_LINE.exec(text.slice(end, lineEnd));
  if (!rest) return undefined;
  const eol = eolOf(text);
  if (rest[1]) return [{ span: { start: lineEnd, end: lineEnd }, newText: `${eol}${indent}${entry},` }];
  // No comma after the anchor: it must be the last entry, or the comma sits on a later line.
  if (container.pairs[container.pairs.length - 1] !== after) return undefined;
  if (lineEnd === end) return [{ span: { start: end, end }, newText: `,${eol}${indent}${entry}` }];
  return [
    { span: { start: end, end }, newText: ',' },
    { span: { start: lineEnd, end: lineEnd }, newText: `${eol}${indent}${entry}` },
  ];
}

/**
 * Adds `key: value` to a mapping as written: at the end of a one-line flow mapping or JSON object
 * (with its own separators), on a line of its own in one that spreads its entries over lines (a
 * comment ending the previous entry's line stays there), as block lines in YAML block style.
 */
export function appendEntry(
  ctx: EditContext,
  map: MapNode,
  key: string,
  flowValue: string,
  blockValue?: InsertValue,
): TextEdit[] | undefined {
  const { text } = ctx;
  if (shared(map)) return undefined;
  const last = map.pairs[map.pairs.length - 1];
  if (!map.flow && !ctx.json) {
    const insertion = insertPairs(ctx, map, [{ key, value: blockValue ?? { inline: flowValue } }]);
    return insertion ? [insertion] : undefined;
  }
  const { colon, comma } = flowSeparators(ctx, map);
  const entry = `${renderString(ctx, key)}${colon}${flowValue}`;
  if (!/[\r\n]/.test(text.slice(map.span.start, map.span.end))) {
    if (!last) {
      if (text[map.span.start] !== '{') return undefined;
      return [{ span: { start: map.span.start + 1, end: map.span.start + 1 }, newText: entry }];
    }
    const at = valueEnd(last);
    return [{ span: { start: at, end: at }, newText: `${comma}${entry}` }];
  }
  if (last) {
    const own = ownLineInsertion(ctx, map, last, entry);
    if (own) return own;
  }
  const insertion = insertPairs(ctx, map, [{ key, value: { inline: flowValue } }]);
  return insertion ? [insertion] : undefined;
}
