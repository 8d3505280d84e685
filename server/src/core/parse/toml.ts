// TOML (Codex's `.codex/config.toml`) to our node tree, using toml-eslint-parser, so that the rules
// read a TOML file as they read YAML and JSON. TOML spreads one mapping over many places: a table
// header `[a.b]` opens (or reopens) the mappings `a` and `a.b`, a dotted key `x.y = 1` the mapping
// `x`. Each mapping is made once, where it is first named; its pair's key is that name as written
// (one segment of a header or a dotted key), and its span grows to cover every part written
// later. Spans are offsets in the text, as the parser gives them. The parser stops at the first
// error (TOML has no recovery): a text with one has no tree, and the error is a `yaml/syntax`
// problem at the parser's position.
import type { AST } from 'toml-eslint-parser';
import type * as TomlChunk from './toml.chunk.js';
import { bomLength } from '../text/source.js';
import type { Span } from '../types.js';
import {
  getPair,
  type Comment,
  type MapNode,
  type Node,
  type Pair,
  type ScalarNode,
  type ScalarStyle,
  type SeqNode,
} from './nodes.js';
import { MAX_NESTING, tooDeepToCheck, unreadable, type ParseProblem } from './problems.js';

let tomlChunk: typeof TomlChunk | undefined;

/**
 * toml-eslint-parser, loaded on the first TOML text: only a Codex config is TOML, and the parser
 * is a lazy chunk beside the bundles (toml.chunk.ts), which a start that reads none never parses.
 */
export function tomlParser(): typeof TomlChunk {
  // A literal path in a function: the build keeps it a require of the chunk's file (lazyChunkPlugin).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  tomlChunk ??= require('./toml.chunk.js') as typeof TomlChunk;
  return tomlChunk;
}

export interface ParsedTomlDocument {
  root: Node | null;
  span: Span;
  problems: ParseProblem[];
}

/** The parser's error: where it stopped (an offset in the text it read) and its sentence. */
interface TomlError {
  index: number;
  message: string;
}

function isTomlError(error: unknown): error is TomlError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { index?: unknown }).index === 'number' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

/** Parses a TOML text into one document. A BOM at its start is no part of the TOML. */
export function parseToml(text: string): ParsedTomlDocument {
  const base = bomLength(text);
  const body = base ? text.slice(base) : text;
  const span = { start: 0, end: text.length };
  let program: AST.TOMLProgram;
  try {
    program = tomlParser().parseTOML(body, { tomlVersion: '1.0' });
  } catch (error) {
    // Anything else (the parser ran out of stack on deep nesting): the document is declined, not checked.
    if (!isTomlError(error))
      return { root: null, span, problems: [unreadable({ start: 0, end: Math.min(text.length, 1) }, error)] };
    // An error past the last thing written is an array or inline table never closed: shown on
    // its opening bracket, as the YAML and JSON parsers show theirs. When no bracket is open, on
    // that last character, inside the text and before any comment that ends it.
    const contentEnd = lastContentEnd(body);
    let start = Math.min(error.index, body.length);
    let words = error.message;
    if (start >= contentEnd) {
      const opening = unclosedOpening(body.slice(0, contentEnd));
      start = opening ?? Math.max(0, contentEnd - 1);
      // The parser's sentence at the end may be about a value it still expected: say what is open.
      if (opening !== undefined)
        words = body[opening] === '[' ? 'this array is never closed' : 'this inline table is never closed';
    }
    const end = Math.min(start + 1, body.length);
    const problem: ParseProblem = {
      rule: 'yaml/syntax',
      code: 'tomlError',
      data: { text: words },
      span: { start: base + start, end: base + end },
    };
    return { root: null, span, problems: [problem] };
  }
  const problems: ParseProblem[] = [];
  const root = new TomlConverter(base, problems).convert(program.body[0]);
  return { root, span, problems };
}

/** The comments of a TOML text (none when it does not parse: TOML has no recovery). */
export function tomlComments(text: string): Comment[] {
  if (!text.includes('#')) return [];
  const base = bomLength(text);
  try {
    const program = tomlParser().parseTOML(base ? text.slice(base) : text, { tomlVersion: '1.0' });
    return program.comments.map((c) => ({
      span: { start: base + c.range[0], end: base + c.range[1] },
      text: text.slice(base + c.range[0], base + c.range[1]),
    }));
  } catch {
    return [];
  }
}

type Key = AST.TOMLBare | AST.TOMLQuoted;

class TomlConverter {
  constructor(
    private readonly base: number,
    private readonly problems: ParseProblem[],
  ) {}

  private span(node: { range: [number, number] }): Span {
    return { start: this.base + node.range[0], end: this.base + node.range[1] };
  }

  convert(top: AST.TOMLTopLevelTable): MapNode {
    const root: MapNode = { type: 'map', pairs: [], span: this.span(top), flow: false };
    for (const item of top.body) {
      if (item.type === 'TOMLKeyValue') {
        this.keyValue(root, item, 0, false);
        continue;
      }
      const table = this.table(root, item);
      const depth = item.key.keys.length;
      for (const entry of item.body) if (table) this.keyValue(table, entry, depth, false);
    }
    settle(root, 0);
    return root;
  }

  /**
   * The mapping a table header names, made along its path where missing (`[[a]]` appends a new
   * mapping to the list `a`). Spans are made to cover what they hold at the end (`settle`).
   */
  private table(root: MapNode, table: AST.TOMLTable): MapNode | undefined {
    const keys = table.key.keys;
    const tableSpan = this.span(table);
    if (keys.length > MAX_NESTING) {
      this.problems.push(tooDeepToCheck(tableSpan));
      return undefined;
    }
    let map = root;
    for (let i = 0; i < keys.length; i++) {
      const last = i === keys.length - 1;
      const pair = getPair(map, keyName(keys[i]!));
      if (last && table.kind === 'array') {
        const item: MapNode = { type: 'map', pairs: [], span: { ...tableSpan }, flow: false };
        if (pair && pair.value?.type === 'seq') pair.value.items.push(item);
        else if (!pair) {
          const seq: SeqNode = { type: 'seq', items: [item], span: { ...tableSpan }, flow: false };
          map.pairs.push(this.pair(keys[i]!, seq));
        } else return undefined;
        return item;
      }
      let next: Node | null | undefined = pair?.value;
      // `[[a]]` then `[a.b]`: the table goes into the list's last mapping.
      if (next?.type === 'seq') next = next.items[next.items.length - 1];
      if (!pair) {
        const made: MapNode = {
          type: 'map',
          pairs: [],
          span: last ? { ...tableSpan } : { start: this.span(keys[i]!).start, end: tableSpan.end },
          flow: false,
        };
        map.pairs.push(this.pair(keys[i]!, made));
        next = made;
      }
      if (next?.type !== 'map') return undefined;
      // A table header written after a table inside it (`[a.b]`, then `[a]`) covers its own text too.
      if (last) grow(next.span, tableSpan);
      map = next;
    }
    return map;
  }

  /** A `key = value` (its key dotted or not) in `map`; `flow` inside an inline table. */
  private keyValue(map: MapNode, entry: AST.TOMLKeyValue, depth: number, flow: boolean): void {
    const keys = entry.key.keys;
    const entrySpan = this.span(entry);
    if (depth + keys.length > MAX_NESTING) {
      this.problems.push(tooDeepToCheck(entrySpan));
      return;
    }
    let target = map;
    for (let i = 0; i < keys.length - 1; i++) {
      const pair = getPair(target, keyName(keys[i]!));
      if (pair?.value?.type === 'map') {
        target = pair.value;
        continue;
      }
      if (pair) return; // the parser refuses this: never met
      const made: MapNode = {
        type: 'map',
        pairs: [],
        span: { start: this.span(keys[i]!).start, end: entrySpan.end },
        flow,
      };
      target.pairs.push(this.pair(keys[i]!, made));
      target = made;
    }
    const value = this.value(entry.value, depth + keys.length);
    target.pairs.push(this.pair(keys[keys.length - 1]!, value));
  }

  private pair(key: Key, value: Node): Pair {
    const keyNode = this.key(key);
    return { key: keyNode, value, span: { start: keyNode.span.start, end: value.span.end } };
  }

  private key(key: Key): ScalarNode {
    const style: ScalarStyle = key.type === 'TOMLBare' ? 'plain' : key.style === 'literal' ? 'single' : 'json';
    return { type: 'scalar', value: keyName(key), span: this.span(key), style };
  }

  private value(node: AST.TOMLContentNode, depth: number): Node {
    const span = this.span(node);
    if (depth > MAX_NESTING) {
      this.problems.push(tooDeepToCheck(span));
      return { type: 'scalar', value: null, span, style: 'plain' };
    }
    switch (node.type) {
      case 'TOMLArray':
        return { type: 'seq', items: node.elements.map((e) => this.value(e, depth + 1)), span, flow: true };
      case 'TOMLInlineTable': {
        const map: MapNode = { type: 'map', pairs: [], span, flow: true };
        for (const entry of node.body) this.keyValue(map, entry, depth + 1, true);
        return map;
      }
      case 'TOMLValue':
        return this.scalar(node, span);
    }
  }

  private scalar(node: AST.TOMLValue, span: Span): ScalarNode {
    switch (node.kind) {
      case 'string':
        // A multi-line string's text is not replayed by any decoder of ours (scalarOffsets.ts):
        // `toml` style, so a finding inside it covers it whole and no edit rewrites it.
        return {
          type: 'scalar',
          value: node.value,
          span,
          style: node.multiline ? 'toml' : node.style === 'literal' ? 'single' : 'json',
        };
      case 'integer':
      case 'float':
      case 'boolean':
        return { type: 'scalar', value: node.value, span, style: 'plain' };
      default:
        // A date or time: its text as written.
        return { type: 'scalar', value: node.datetime, span, style: 'toml' };
    }
  }
}

/** How many closing brackets `unclosedOpening` adds at most before it gives up. */
const MAX_CLOSERS = 16;

/**
 * The opening bracket of the innermost array or inline table left open at the end of a text that
 * does not parse (the text cut after the last thing written). TOML's parser stops at the end and
 * says only that: the text is parsed again with closing brackets added (`]` or `}`, whichever
 * takes the parse further) until it parses, and the collection the first added bracket closes is
 * the one left open. Undefined when no added bracket makes the text parse.
 */
function unclosedOpening(head: string): number | undefined {
  let closers = '';
  for (let i = 0; i < MAX_CLOSERS; i++) {
    let next: string | undefined;
    for (const closer of [']', '}']) {
      const text = head + closers + closer;
      try {
        return openedBefore(tomlParser().parseTOML(text, { tomlVersion: '1.0' }), head.length);
      } catch (error) {
        // Still open at the (new) end: this bracket closed one collection, more are open.
        if (next === undefined && isTomlError(error) && error.index >= text.length) next = closer;
      }
    }
    if (next === undefined) return undefined;
    closers += next;
  }
  return undefined;
}

/** The start of the array or inline table that ends just after `at` (closed by the bracket there). */
function openedBefore(program: AST.TOMLProgram, at: number): number | undefined {
  let found: number | undefined;
  tomlParser().traverseNodes(program, {
    enterNode(node) {
      if ((node.type === 'TOMLArray' || node.type === 'TOMLInlineTable') && node.range[1] === at + 1)
        found = node.range[0];
    },
    leaveNode: () => undefined,
  });
  return found;
}

/** Where the last thing written ends: past it only spaces, line breaks and comments. */
function lastContentEnd(text: string): number {
  const lines = text.split(/\r\n|\r|\n/);
  let end = text.length;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    const start = end - line.length;
    const content = line.slice(0, commentStart(line)).trimEnd();
    if (content) return start + content.length;
    // The line break before this line: one or two characters.
    end = start - (text[start - 1] === '\n' && text[start - 2] === '\r' ? 2 : 1);
  }
  return 0;
}

/** Where a line's comment starts (a `#` outside a string), or the line's length. */
function commentStart(line: string): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#') return i;
  }
  return line.length;
}

function keyName(key: Key): string {
  return key.type === 'TOMLBare' ? key.name : key.value;
}

/**
 * Every mapping, list and pair made of parts written apart grown to cover all of them: a pair from
 * its key to the end of its value, a mapping over its pairs (an inline array or table holds its
 * parts inside its brackets already: no change there).
 */
function settle(node: Node, depth: number): void {
  if (depth > MAX_NESTING + 2) return;
  if (node.type === 'seq') {
    for (const item of node.items) {
      settle(item, depth + 1);
      grow(node.span, item.span);
    }
  } else if (node.type === 'map') {
    for (const pair of node.pairs) {
      if (!pair.value) continue;
      settle(pair.value, depth + 1);
      // From its key (a table's mapping starts at its header, before the key) to its value's end.
      if (pair.value.span.end > pair.span.end) pair.span.end = pair.value.span.end;
      grow(node.span, pair.span);
    }
  }
}

function grow(span: Span, by: Span): void {
  if (by.start < span.start) span.start = by.start;
  if (by.end > span.end) span.end = by.end;
}
