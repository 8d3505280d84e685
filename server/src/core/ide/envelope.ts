// "Insert Call Envelope": where a `call_dynamic_tool` envelope goes in the document at the cursor,
// and the text that puts it there, as a snippet with tab stops on each argument and on the
// mcpDetails sentence (docs/behaviour.md#inserting-a-call-envelope). In a calls document it is
// placed by context, never spliced in at the cursor:
//   - YAML: a whole `- tool: call_dynamic_tool` entry of the `calls` list at the list's own
//     indentation (the list, or `calls:` itself, is created when missing); with the cursor inside
//     an entry that is an unfinished envelope, only the keys it lacks;
//   - JSON: an element of the `calls` array with its commas, or the keys an element lacks;
//   - JSONL: a line of its own, or the keys the line's object lacks.
// In other documents (a workflow step), the envelope's value at the cursor, as before.
// Only reads nodes and spans; the words of a refusal are said here, once.
import type { CatalogTool, DynamicNamespace } from '../catalog/model.js';
import { CALL_DYNAMIC_TOOL } from '../catalog/model.js';
import { MCP_DETAILS_PLACEHOLDER } from '../calls/calls.js';
import { endOfLine, nextLine, renderString, type EditContext } from '../edit/mappingEdits.js';
import { placeholderFor } from '../jsonschema/arguments.js';
import { isObject, topLevelProperties } from '../jsonschema/properties.js';
import type { ParsedDocument, ParsedFile } from '../parse/file.js';
import { getPair, isMap, isScalar, type MapNode, type Node, type Pair, type SeqNode } from '../parse/nodes.js';
import { eolOf, lineStartOf } from '../text/source.js';

/** A piece of the inserted text: literal text, or a tab stop with the text it offers. */
type Piece = string | { stop: number; text: string };

/** A value of the envelope: a leaf written as pieces, or a mapping of named values. */
type Value = { leaf: Piece[] } | { map: [string, Value][] };

/** What to write: one replacement of `[start, end)` by `pieces`. */
export interface EnvelopeInsertion {
  start: number;
  end: number;
  /** The text with every tab stop's offered text in place: what the document holds if the user only presses Tab. */
  text: string;
  /** The same as an LSP / VS Code snippet (`${1:…}`), literal `$`, `}` and `\` escaped. */
  snippet: string;
}

export type EnvelopePlan = EnvelopeInsertion | { refused: string };

/** The envelope's fields in the order they are written, with a tab stop on every argument and the sentence. */
function envelopeFields(namespace: DynamicNamespace, tool: CatalogTool): [string, Value][] {
  const root = isObject(tool.inputSchema) ? tool.inputSchema : {};
  let stop = 0;
  const args: [string, Value][] = [...topLevelProperties(root).properties.values()]
    .filter((property) => property.required)
    // A required property's default is what the user most likely wants; else a value of its type.
    .map((property) => [
      property.name,
      {
        leaf: offered(
          'default' in property.schema ? property.schema.default : placeholderFor(property.schema, root),
          ++stop,
        ),
      },
    ]);
  const fields: [string, Value][] = [
    ['namespace', { leaf: [JSON.stringify(namespace.name)] }],
    ['toolName', { leaf: [JSON.stringify(tool.name)] }],
    ['arguments', args.length ? { map: args } : { leaf: [{ stop: ++stop, text: '{}' }] }],
  ];
  if (namespace.external)
    fields.push(['mcpDetails', { map: [['description', { leaf: offered(MCP_DETAILS_PLACEHOLDER, ++stop) }]] }]);
  return fields;
}

/** A value offered at a tab stop: a string's characters between its quotes (so typing replaces them), anything else whole. */
function offered(value: unknown, stop: number): Piece[] {
  const json = JSON.stringify(value) ?? 'null';
  if (typeof value === 'string') return ['"', { stop, text: json.slice(1, -1) }, '"'];
  return [{ stop, text: json }];
}

function toolField(): [string, Value] {
  return ['tool', { leaf: [JSON.stringify(CALL_DYNAMIC_TOOL)] }];
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** A leaf's pieces with strings written as YAML plain scalars where that reads back the same. */
function yamlLeaf(ctx: EditContext, pieces: Piece[]): Piece[] {
  if (pieces.length === 1 && typeof pieces[0] === 'string' && pieces[0].startsWith('"')) {
    return [renderString(ctx, JSON.parse(pieces[0]) as string)];
  }
  return pieces;
}

/** Block YAML lines for the pairs at `column`; the first line's indentation is `first` when given (`- ` of an entry). */
function yamlPairs(ctx: EditContext, pairs: [string, Value][], column: number, eol: string, first?: string): Piece[] {
  const out: Piece[] = [];
  pairs.forEach(([key, value], i) => {
    out.push(i === 0 && first !== undefined ? first : ' '.repeat(column), `${renderString(ctx, key)}:`);
    if ('leaf' in value) out.push(' ', ...yamlLeaf(ctx, value.leaf), eol);
    else out.push(eol, ...yamlPairs(ctx, value.map, column + 2, eol));
  });
  return out;
}

/** A JSON value; on several lines (`indent` before each closing brace) unless `indent` is undefined. */
function jsonValue(value: Value, indent: string | undefined, eol: string): Piece[] {
  if ('leaf' in value) return value.leaf;
  return jsonObject(value.map, indent, eol);
}

function jsonObject(pairs: [string, Value][], indent: string | undefined, eol: string): Piece[] {
  if (indent === undefined) {
    const out: Piece[] = ['{'];
    pairs.forEach(([key, value], i) =>
      out.push(i ? ',' : '', `${JSON.stringify(key)}:`, ...jsonValue(value, undefined, eol)),
    );
    return [...out, '}'];
  }
  return ['{', eol, ...jsonMembers(pairs, `${indent}  `, eol), eol, indent, '}'];
}

/** `"key": value` lines at `indent`, joined by commas (no line break after the last). */
function jsonMembers(pairs: [string, Value][], indent: string, eol: string): Piece[] {
  const out: Piece[] = [];
  pairs.forEach(([key, value], i) =>
    out.push(i ? `,${eol}` : '', indent, `${JSON.stringify(key)}: `, ...jsonValue(value, indent, eol)),
  );
  return out;
}

function escapeSnippet(text: string): string {
  return text.replace(/[\\$}]/g, (c) => `\\${c}`);
}

function finish(start: number, end: number, pieces: Piece[]): EnvelopeInsertion {
  let text = '';
  let snippet = '';
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      text += piece;
      snippet += escapeSnippet(piece);
    } else {
      text += piece.text;
      snippet += `\${${piece.stop}:${escapeSnippet(piece.text)}}`;
    }
  }
  return { start, end, text, snippet };
}

/** Several insertions as one replacement: the text between them written back as it was. */
function combine(text: string, parts: { at: number; pieces: Piece[] }[]): EnvelopeInsertion {
  const sorted = [...parts].sort((a, b) => a.at - b.at);
  const start = sorted[0]!.at;
  const pieces: Piece[] = [];
  let cursor = start;
  for (const part of sorted) {
    if (part.at > cursor) pieces.push(text.slice(cursor, part.at));
    pieces.push(...part.pieces);
    cursor = Math.max(cursor, part.at);
  }
  return finish(start, cursor, pieces);
}

// ---------------------------------------------------------------------------------------------
// Places

/** Lines (each ending in `eol`) written at the start of the line after `end`. */
function linesAfter(text: string, end: number, lines: Piece[], eol: string): { at: number; pieces: Piece[] } {
  const { at, lead } = nextLine(text, end);
  return lead ? { at, pieces: [lead, ...dropLastEol(lines, eol)] } : { at, pieces: lines };
}

function dropLastEol(pieces: Piece[], eol: string): Piece[] {
  const last = pieces[pieces.length - 1];
  return last === eol ? pieces.slice(0, -1) : pieces;
}

function valueEnd(pair: Pair): number {
  return pair.value ? Math.max(pair.span.end, pair.value.span.end) : pair.span.end;
}

function lineOf(text: string, offset: number): { start: number; end: number; blank: boolean; comment: boolean } {
  const start = lineStartOf(text, offset);
  const end = endOfLine(text, offset);
  const content = text.slice(start, end).trim();
  return { start, end, blank: content === '', comment: content.startsWith('#') || content.startsWith('//') };
}

/** Where a node's text ends, before the line breaks and blanks a block node's span takes along. */
function contentEnd(text: string, span: { start: number; end: number }): number {
  let end = span.end;
  while (end > span.start && /\s/.test(text[end - 1]!)) end--;
  return end;
}

function lineNumber(file: ParsedFile, offset: number): number {
  return file.source.positionAt(offset).line;
}

/** The column of an offset, or undefined when a tab comes before it on its line. */
function column(text: string, offset: number): number | undefined {
  const prefix = text.slice(lineStartOf(text, offset), offset);
  return prefix.includes('\t') ? undefined : prefix.length;
}

/** The document the cursor is in (or the last one before it). */
function documentAt(file: ParsedFile, offset: number): ParsedDocument | undefined {
  let found: ParsedDocument | undefined;
  for (const doc of file.documents) {
    if (doc.embedded) continue;
    if (doc.span.start <= offset) found = doc;
    if (offset <= doc.span.end && doc.span.start <= offset) return doc;
  }
  return found ?? file.documents.find((d) => !d.embedded);
}

// ---------------------------------------------------------------------------------------------
// Filling in an entry that is an unfinished envelope

type Missing = {
  entry: [string, Value][];
  input: [string, Value][];
  inputPair?: Pair;
  inputMap?: MapNode;
  argsKey: string;
};

/**
 * What an entry lacks to be this envelope, or undefined when it is something else (another tool,
 * another namespace or tool, or already whole): then a new entry goes after it.
 */
function missingOf(
  entry: MapNode,
  fields: [string, Value][],
  namespace: string,
  toolName: string,
): Missing | undefined {
  const named = getPair(entry, 'tool') ?? getPair(entry, 'name');
  if (named?.value && !(isScalar(named.value) && named.value.value === CALL_DYNAMIC_TOOL)) return undefined;
  if (named && !named.value) return undefined; // `tool:` with no value: said by the schema rules, not guessed at
  const argsKey = getPair(entry, 'arguments') && !getPair(entry, 'input') ? 'arguments' : 'input';
  const inputPair = getPair(entry, argsKey);
  const missing: Missing = { entry: named ? [] : [toolField()], input: [], argsKey, inputPair };
  if (!inputPair) {
    missing.entry.push([argsKey, { map: fields }]);
    return missing;
  }
  const input = inputPair.value;
  if (input === null) {
    missing.input = fields;
    return missing;
  }
  if (!isMap(input)) return undefined;
  const text = (key: string) => {
    const node = getPair(input, key)?.value;
    return isScalar(node) ? node.value : undefined;
  };
  if (getPair(input, 'namespace') && text('namespace') !== namespace) return undefined;
  if (getPair(input, 'toolName') && text('toolName') !== toolName) return undefined;
  missing.inputMap = input;
  missing.input = fields.filter(([key]) => !getPair(input, key));
  return missing.entry.length || missing.input.length ? missing : undefined;
}

// ---------------------------------------------------------------------------------------------
// YAML

const NOT_BLOCK = (what: string) =>
  `Tool Lens inserts envelopes into block YAML only, and ${what} is written in flow style ({...} or [...]): write it as a block to insert here, or insert on an empty line.`;

function yamlPlan(
  file: ParsedFile,
  doc: ParsedDocument | undefined,
  offset: number,
  fields: [string, Value][],
  ids: { namespace: string; tool: string },
): EnvelopePlan {
  const text = file.source.text;
  const eol = eolOf(text);
  const ctx: EditContext = { text, json: false };
  const here = lineOf(text, offset);
  const root = doc?.root ?? null;
  const entryPairs: [string, Value][] = [toolField(), ['input', { map: fields }]];
  const entryLines = (dash: number, content: number) =>
    yamlPairs(ctx, entryPairs, content, eol, `${' '.repeat(dash)}-${' '.repeat(content - dash - 1)}`);

  if (root === null || (isScalar(root) && root.value === null)) {
    // An empty file, or comments only: the whole list.
    const lines: Piece[] = ['calls:', eol, ...entryLines(2, 4)];
    if (here.blank) return blankLine(text, here, lines, eol);
    return finishAt(linesAfter(text, text.length, lines, eol));
  }
  if (!isMap(root) || root.flow) return { refused: NOT_BLOCK('this document') };
  const callsPair = getPair(root, 'calls');
  if (!callsPair) {
    const keyColumn = column(text, root.pairs[0]!.key.span.start) ?? 0;
    const lines = yamlPairs(ctx, [['calls', { map: [] }]], keyColumn, eol);
    const list: Piece[] = [...lines, ...entryLines(keyColumn + 2, keyColumn + 4)];
    return finishAt(linesAfter(text, valueEnd(root.pairs[root.pairs.length - 1]!), list, eol));
  }
  const seq = callsPair.value;
  const keyColumn = column(text, callsPair.key.span.start) ?? 0;
  if (seq === null || (isScalar(seq) && seq.value === null && !seq.shared))
    return finishAt(linesAfter(text, callsPair.span.end, entryLines(keyColumn + 2, keyColumn + 4), eol));
  if (seq.type !== 'seq')
    return {
      refused:
        'The calls key of this document does not hold a list: make it one (calls: followed by - entries) to insert an entry.',
    };
  if (seq.flow) return { refused: NOT_BLOCK('the calls list') };
  if (seq.shared)
    return { refused: 'The calls list is an anchor or an alias: insert the entry where the list is written.' };
  const { dash, content } = listColumns(text, seq, keyColumn);
  const lines = entryLines(dash, content);

  const cursorLine = lineNumber(file, offset);
  const items = seq.items;
  for (const item of items) {
    const first = lineNumber(file, item.span.start);
    const last = lineNumber(file, contentEnd(text, item.span));
    if (cursorLine < first || cursorLine > last) continue;
    const line = lineOf(text, item.span.start);
    const dashOnly = /^( *)- *$/.exec(text.slice(line.start, line.end));
    if (isScalar(item) && item.value === null && dashOnly) {
      // An empty `- ` entry: the envelope becomes it.
      const dashColumn = dashOnly[1]!.length;
      return blankLine(text, line, entryLines(dashColumn, dashColumn + 2), eol);
    }
    if (isMap(item) && !item.flow && !item.shared) {
      const missing = missingOf(item, fields, ids.namespace, ids.tool);
      if (missing) return fillYaml(ctx, item, missing, eol);
    }
    // Inside an entry that is something else: the new entry goes after it.
    return finishAt(linesAfter(text, item.span.end, lines, eol));
  }
  const callsLine = lineNumber(file, callsPair.key.span.start);
  const firstItem = items[0];
  const lastItem = items[items.length - 1];
  const next = root.pairs[root.pairs.indexOf(callsPair) + 1];
  const nextLineNumber = next ? lineNumber(file, next.key.span.start) : Infinity;
  if (!firstItem || !lastItem) return finishAt(linesAfter(text, callsPair.span.end, lines, eol));
  const before = cursorLine <= callsLine;
  const after = cursorLine >= nextLineNumber;
  if (before) return finishAt(linesAfter(text, callsPair.key.span.end, lines, eol));
  if (after) return finishAt(linesAfter(text, lastItem.span.end, lines, eol));
  // Between entries, before the first, or after the last one: on the cursor's line when it is blank
  // or a comment (a comment stays with the entry below it), else after the entry before the cursor.
  if (here.blank) return blankLine(text, here, lines, eol);
  if (here.comment) return finishAt({ at: here.start, pieces: lines });
  const previous = [...items].reverse().find((item) => item.span.end <= offset) ?? lastItem;
  return finishAt(linesAfter(text, previous.span.end, lines, eol));
}

function finishAt(part: { at: number; pieces: Piece[] }): EnvelopeInsertion {
  return finish(part.at, part.at, part.pieces);
}

/** Lines written on a blank line, replacing its blanks; its line break stays. */
function blankLine(text: string, line: { start: number; end: number }, lines: Piece[], eol: string): EnvelopeInsertion {
  const pieces = line.end >= text.length ? lines : dropLastEol(lines, eol);
  return finish(line.start, line.end, pieces);
}

/** Where the list's dashes are and where an entry's keys start (from its first entry), else under the key. */
function listColumns(text: string, seq: SeqNode, keyColumn: number): { dash: number; content: number } {
  const item = seq.items[0];
  if (item) {
    const prefix = text.slice(lineStartOf(text, item.span.start), item.span.start);
    const match = /^( *)-( +)$/.exec(prefix);
    if (match) return { dash: match[1]!.length, content: prefix.length };
  }
  return { dash: keyColumn + 2, content: keyColumn + 4 };
}

function fillYaml(ctx: EditContext, entry: MapNode, missing: Missing, eol: string): EnvelopePlan {
  const { text } = ctx;
  const parts: { at: number; pieces: Piece[] }[] = [];
  const entryColumn = column(text, entry.pairs[0]!.key.span.start);
  if (entryColumn === undefined)
    return { refused: 'This entry is indented with tabs: Tool Lens cannot tell its columns.' };
  if (missing.input.length) {
    if (missing.inputMap) {
      const map = missing.inputMap;
      if (map.flow || map.shared || !map.pairs.length) return { refused: NOT_BLOCK(`its ${missing.argsKey}`) };
      const inner = column(text, map.pairs[0]!.key.span.start);
      if (inner === undefined)
        return { refused: 'This entry is indented with tabs: Tool Lens cannot tell its columns.' };
      parts.push(
        linesAfter(text, valueEnd(map.pairs[map.pairs.length - 1]!), yamlPairs(ctx, missing.input, inner, eol), eol),
      );
    } else if (missing.inputPair) {
      parts.push(
        linesAfter(text, missing.inputPair.span.end, yamlPairs(ctx, missing.input, entryColumn + 2, eol), eol),
      );
    }
  }
  if (missing.entry.length)
    parts.push(
      linesAfter(
        text,
        valueEnd(entry.pairs[entry.pairs.length - 1]!),
        yamlPairs(ctx, missing.entry, entryColumn, eol),
        eol,
      ),
    );
  // At the end of the text each insertion brings its own leading line break and none after: they chain.
  return combine(text, parts);
}

// ---------------------------------------------------------------------------------------------
// JSON and JSONL

function indentOf(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStartOf(text, offset)))![0];
}

/** Whether the object spreads its members over lines (its first member starts a line). */
function multiline(text: string, node: MapNode | SeqNode): boolean {
  const first = node.type === 'map' ? node.pairs[0]?.key : node.items[0];
  if (!first) return false;
  const between = text.slice(node.span.start + 1, first.span.start);
  return !/\S/.test(between.replace(/\/\*[\s\S]*?\*\/|\/\/[^\r\n]*/g, '')) && /[\r\n]/.test(between);
}

/** Members added to a JSON object: after its last one, each on a line of its own where the object's are, with the commas. */
function jsonAddMembers(
  text: string,
  map: MapNode,
  members: [string, Value][],
  eol: string,
  oneLine: boolean,
): { at: number; pieces: Piece[] } {
  const last = map.pairs[map.pairs.length - 1];
  if (!last) {
    if (oneLine || !/[\r\n]/.test(text.slice(map.span.start, map.span.end))) {
      return { at: map.span.start + 1, pieces: dropBraces(jsonObject(members, undefined, eol)) };
    }
    const indent = `${indentOf(text, map.span.start)}  `;
    return { at: map.span.start + 1, pieces: [eol, ...jsonMembers(members, indent, eol)] };
  }
  if (oneLine || !multiline(text, map))
    return { at: valueEnd(last), pieces: [',', ...dropBraces(jsonObject(members, undefined, eol))] };
  const indent = indentOf(text, last.key.span.start);
  return { at: valueEnd(last), pieces: [`,${eol}`, ...jsonMembers(members, indent, eol)] };
}

function dropBraces(pieces: Piece[]): Piece[] {
  return pieces.slice(1, -1);
}

function fillJson(text: string, entry: MapNode, missing: Missing, eol: string, oneLine: boolean): EnvelopePlan {
  const parts: { at: number; pieces: Piece[] }[] = [];
  if (missing.input.length) {
    if (missing.inputMap) parts.push(jsonAddMembers(text, missing.inputMap, missing.input, eol, oneLine));
    else
      return { refused: `This entry's ${missing.argsKey} is null: replace it with {} to insert the envelope into it.` };
  }
  if (missing.entry.length) parts.push(jsonAddMembers(text, entry, missing.entry, eol, oneLine));
  return combine(text, parts);
}

function jsonPlan(
  file: ParsedFile,
  doc: ParsedDocument | undefined,
  offset: number,
  fields: [string, Value][],
  ids: { namespace: string; tool: string },
): EnvelopePlan {
  const text = file.source.text;
  const eol = eolOf(text);
  const root = doc?.root ?? null;
  const entry: [string, Value][] = [toolField(), ['input', { map: fields }]];
  if (root === null) {
    // Empty, or comments only: the whole document after them.
    const element = jsonObject(entry, '    ', eol);
    const pieces: Piece[] = ['{', eol, '  "calls": [', eol, '    ', ...element, eol, '  ]', eol, '}', eol];
    const at = text.length;
    const lead = text.length && !/[\r\n]$/.test(text) ? eol : '';
    return finish(at, at, lead ? [lead, ...pieces] : pieces);
  }
  if (!isMap(root))
    return { refused: 'This calls document is not a JSON object: write it as {"calls": [...]} to insert an entry.' };
  const callsPair = getPair(root, 'calls');
  if (!callsPair) {
    const indent = root.pairs[0] ? indentOf(text, root.pairs[0].key.span.start) : '  ';
    const element = jsonObject(entry, `${indent}  `, eol);
    const member: [string, Value] = ['calls', { leaf: ['[', eol, `${indent}  `, ...element, eol, indent, ']'] }];
    return finishAt(jsonAddMembers(text, root, [member], eol, false));
  }
  const seq = callsPair.value;
  if (!seq || seq.type !== 'seq')
    return { refused: 'The "calls" member of this document is not an array: make it one to insert an entry.' };
  const items = seq.items;
  const inside = items.find((item) => item.span.start < offset && offset < item.span.end);
  if (inside && isMap(inside)) {
    const missing = missingOf(inside, fields, ids.namespace, ids.tool);
    if (missing) return fillJson(text, inside, missing, eol, false);
  }
  const spread = items.length === 0 ? true : multiline(text, seq);
  const itemIndent = items[0] ? indentOf(text, items[0].span.start) : `${indentOf(text, callsPair.key.span.start)}  `;
  const element = jsonObject(entry, spread ? itemIndent : undefined, eol);
  if (!items.length) {
    const closing = indentOf(text, seq.span.end - 1);
    return finish(seq.span.start + 1, seq.span.end - 1, [eol, itemIndent, ...element, eol, closing]);
  }
  // After the element the cursor is in, or the last one that ends before it (before the first when none does).
  const previous = inside ?? [...items].reverse().find((item: Node) => item.span.end <= offset);
  if (!previous)
    return finish(items[0]!.span.start, items[0]!.span.start, [...element, spread ? `,${eol}${itemIndent}` : ', ']);
  return finish(previous.span.end, previous.span.end, [spread ? `,${eol}${itemIndent}` : ', ', ...element]);
}

function jsonlPlan(
  file: ParsedFile,
  offset: number,
  fields: [string, Value][],
  ids: { namespace: string; tool: string },
): EnvelopePlan {
  const text = file.source.text;
  const eol = eolOf(text);
  const here = lineOf(text, offset);
  const line = jsonObject([toolField(), ['input', { map: fields }]], undefined, eol);
  if (here.blank) return finish(here.start, here.end, line);
  const doc = file.documents.find((d) => d.span.start <= offset && offset <= d.span.end && d.root);
  if (doc && isMap(doc.root)) {
    const missing = missingOf(doc.root, fields, ids.namespace, ids.tool);
    if (missing) return fillJson(text, doc.root, missing, eol, true);
  }
  return finish(here.end, here.end, [eol, ...line]);
}

// ---------------------------------------------------------------------------------------------

/**
 * Where and what to insert for an envelope of `tool` in `namespace`, with the cursor at `offset`:
 * placed by the calls document's structure (see the top of this file), or at the cursor in any
 * other document.
 */
export function planEnvelope(
  file: ParsedFile | undefined,
  offset: number,
  namespace: DynamicNamespace,
  tool: CatalogTool,
): EnvelopePlan {
  const fields = envelopeFields(namespace, tool);
  const ids = { namespace: namespace.name, tool: tool.name };
  const language = file?.language ?? 'yaml';
  if (file && language === 'jsonl') return jsonlPlan(file, offset, fields, ids);
  const doc = file ? documentAt(file, offset) : undefined;
  const calls = file && (doc?.kind === 'tool-calls' || (file.kind === 'tool-calls' && !doc?.kind));
  if (file && calls)
    return language === 'yaml' ? yamlPlan(file, doc, offset, fields, ids) : jsonPlan(file, doc, offset, fields, ids);
  return atCursor(file, offset, fields);
}

/** Outside a calls document: the envelope's value at the cursor, continuation lines under its column. */
function atCursor(file: ParsedFile | undefined, offset: number, fields: [string, Value][]): EnvelopeInsertion {
  const text = file?.source.text ?? '';
  const eol = eolOf(text);
  const value: [string, Value][] = [toolField(), ['input', { map: fields }]];
  if (file && file.language !== 'yaml') return finish(offset, offset, jsonObject(value, indentOf(text, offset), eol));
  const col = Math.max(0, offset - lineStartOf(text, offset));
  return finish(offset, offset, dropLastEol(yamlPairs({ text, json: false }, value, col, eol, ''), eol));
}
