// Content nested deeper than LIMITS.nesting, found before the parsers see it and cut off, so that
// no parser recurses (or builds) past the limit. The libraries do: jsonc-parser's parseTree
// recurses once per level and throws when the stack runs out, losing the whole document; yaml's
// composer recurses too, and its CST parser keeps a few hundred bytes per open flow collection or
// compact `- - -` level, so a few megabytes of `[[[[` cost seconds and gigabytes before anything
// is checked.
//
// A region found here is the text of one value nested past the limit: it is replaced by a `0`
// and spaces (line breaks kept), the same length, so every offset of the text the parser reads
// is still the offset of the file. The converters then decline the region as one value
// (`tooDeepToCheck`, over the region's whole span), and everything around it is read as written.
import { CST, Lexer } from 'yaml';
import { createScanner, type SyntaxKind } from 'jsonc-parser';
import { MAX_NESTING } from './problems.js';

/**
 * Whether content nested past the limit is cut off before parsing: where it may be (`auto`), or,
 * for the tests that hold the cut to what the converters alone would make of the same text,
 * `never` and `always` (every pass run, whatever the text).
 */
export type Cut = 'auto' | 'never' | 'always';

/** The text a parser reads, and the regions cut from it. */
export interface Shallow {
  text: string;
  regions: Regions;
  /** The text could nest past the limit (it was read for regions to cut). */
  deep?: boolean;
}

/** Regions cut off, `[start, end)` offsets in the text, never overlapping. */
export class Regions {
  private starts: number[] = [];
  private ends: number[] = [];
  private sorted = true;

  get size(): number {
    return this.starts.length;
  }

  add(start: number, end: number): void {
    if (this.starts.length && start < this.starts[this.starts.length - 1]!) this.sorted = false;
    this.starts.push(start);
    this.ends.push(end);
  }

  /** The end of the region that starts at `start`, if one does. */
  endAt(start: number): number | undefined {
    const i = this.last(start);
    return i >= 0 && this.starts[i] === start ? this.ends[i] : undefined;
  }

  /** Whether `offset` lies inside a region. */
  contains(offset: number): boolean {
    const i = this.last(offset);
    return i >= 0 && offset < this.ends[i]!;
  }

  /** The regions starting in `[from, to)`, as `[start, end]` pairs. */
  within(from: number, to: number): [number, number][] {
    const out: [number, number][] = [];
    for (let i = this.last(from - 1) + 1; i < this.starts.length && this.starts[i]! < to; i++)
      out.push([this.starts[i]!, this.ends[i]!]);
    return out;
  }

  /** The index of the last region starting at or before `offset`, or -1. */
  private last(offset: number): number {
    if (!this.sorted) {
      const order = this.starts.map((_, i) => i).sort((a, b) => this.starts[a]! - this.starts[b]!);
      this.starts = order.map((i) => this.starts[i]!);
      this.ends = order.map((i) => this.ends[i]!);
      this.sorted = true;
    }
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.starts[mid]! <= offset) low = mid + 1;
      else high = mid;
    }
    return low - 1;
  }
}

// jsonc-parser's SyntaxKind is a const enum, which isolated modules cannot read: its values here.
const OPEN_BRACE = 1 as SyntaxKind.OpenBraceToken;
const CLOSE_BRACE = 2 as SyntaxKind.CloseBraceToken;
const OPEN_BRACKET = 3 as SyntaxKind.OpenBracketToken;
const CLOSE_BRACKET = 4 as SyntaxKind.CloseBracketToken;
const EOF = 17 as SyntaxKind.EOF;

/**
 * A JSON text with every array or object nested inside more than MAX_NESTING others cut off.
 * The depth is counted over the scanner's tokens, so brackets in strings and comments do not count.
 */
export function shallowJson(text: string): Shallow {
  const regions = new Regions();
  const scanner = createScanner(text, true);
  let depth = 0;
  let start = -1;
  let startDepth = 0;
  for (let kind = scanner.scan(); kind !== EOF; kind = scanner.scan()) {
    if (kind === OPEN_BRACE || kind === OPEN_BRACKET) {
      if (start < 0 && depth > MAX_NESTING) {
        start = scanner.getTokenOffset();
        startDepth = depth;
      }
      depth++;
    } else if (kind === CLOSE_BRACE || kind === CLOSE_BRACKET) {
      if (depth > 0) depth--;
      if (start >= 0 && depth === startDepth) {
        regions.add(start, scanner.getTokenOffset() + 1);
        start = -1;
      }
    }
  }
  if (start >= 0) regions.add(start, text.length);
  return regions.size ? { text: blank(text, regions), regions } : { text, regions: new Regions() };
}

/**
 * A YAML text with every flow collection nested inside more than MAX_NESTING flow collections,
 * and every compact block collection (`- - - x`, `? ? x`) started past the MAX_NESTING-th
 * indicator of its line, cut off. Read with the yaml library's own lexer, so quotes, comments and
 * block scalars are what the parser will see; and only when the text could nest that deep at all
 * (brackets open past the limit, or a line with that many indicator characters), which a
 * hand-written file never does. Deep nesting by indentation is left to the parser: each level
 * costs a line of its own and one more column, so a file under LIMITS.fileBytes holds only a few
 * thousand of them, which the parser reads at its usual speed.
 */
export function shallowYaml(text: string, cut: Cut = 'auto'): Shallow {
  if (cut === 'never' || (cut === 'auto' && !mayNestTooDeep(text))) return { text, regions: new Regions() };
  const regions = new Regions();
  let offset = 0;
  /** Open flow collections. */
  let depth = 0;
  /** Offset of the current line's start. */
  let lineStart = 0;
  /** Compact indicators (`-`, `?`, `:`) in the line so far, while nothing else but properties and plain keys came. */
  let run = 0;
  let inRun = true;
  /** Nothing but spaces since the line's start. */
  let atLineStart = true;
  let region: { start: number; flowDepth: number; column: number } | undefined;
  let scalarNext = false;
  const close = (end: number) => {
    if (region) regions.add(region.start, end);
    region = undefined;
  };
  for (const lexeme of new Lexer().lex(text)) {
    // The lexeme after a scalar marker is the scalar's source, whatever its first character.
    const type = scalarNext ? 'scalar-source' : CST.tokenType(lexeme);
    scalarNext = false;
    if (type === 'scalar') {
      scalarNext = true;
      continue;
    }
    if (type === 'doc-mode' || type === 'flow-error-end' || type === 'doc-start' || type === 'doc-end') {
      // The lexer left flow context (a document boundary, or a line that ends an unclosed flow).
      close(offset);
      depth = 0;
      if (type === 'doc-mode' || type === 'flow-error-end') continue;
    }
    if (atLineStart && type !== 'space' && type !== 'newline') {
      atLineStart = false;
      // A compact region goes on over the lines indented past its column, and ends at the first other one.
      if (region && region.column >= 0 && depth === 0 && offset - lineStart <= region.column) close(lineStart);
    }
    switch (type) {
      case 'newline':
        lineStart = offset + lexeme.length;
        run = 0;
        inRun = true;
        atLineStart = true;
        break;
      case 'space':
      case 'anchor':
      case 'tag':
      case 'comment':
        break;
      case 'scalar-source':
        // A key does not end the run: in `a: : : x` each `:` after the first opens one more
        // (empty-keyed) mapping, as deep as a line of `: : :` alone.
        break;
      case 'flow-seq-start':
      case 'flow-map-start':
        if (!region && depth > MAX_NESTING) region = { start: offset, flowDepth: depth, column: -1 };
        depth++;
        inRun = false;
        break;
      case 'flow-seq-end':
      case 'flow-map-end':
        if (depth > 0) depth--;
        if (region && region.column < 0 && depth === region.flowDepth) close(offset + 1);
        inRun = false;
        break;
      case 'seq-item-ind':
      case 'explicit-key-ind':
      case 'map-value-ind':
        if (depth === 0 && inRun) {
          run++;
          // The run-th indicator of a line starts a collection at least run - 1 levels deep.
          if (!region && run - 1 > MAX_NESTING) region = { start: offset, flowDepth: 0, column: offset - lineStart };
        } else inRun = false;
        break;
      default:
        inRun = false;
    }
    offset += lexeme.length;
  }
  if (region) close(text.length);
  return regions.size ? { text: blank(text, regions), regions } : { text, regions: new Regions() };
}

/**
 * The library's CST of a YAML text, each document's collections nested deeper than MAX_NESTING
 * (by indentation, or flow and block together) replaced by a placeholder scalar over the same
 * text, each added to `regions`: its composer recurses once per level (and, out of stack, drops
 * the collection it was in, which a decline could then only partly cover). Only where the text
 * could nest that deep; the tokens pass through untouched otherwise.
 */
export function* shallowTokens(tokens: Iterable<CST.Token>, shallow: Shallow, cut: Cut = 'auto'): Generator<CST.Token> {
  if (cut === 'never' || (cut === 'auto' && !shallow.deep && !mayNestBlocksDeep(shallow.text))) {
    yield* tokens;
    return;
  }
  for (const token of tokens) {
    if (token.type === 'document') cutDeepCollections(token, shallow.regions);
    yield token;
  }
}

type Holder = { key?: CST.Token | null; value?: CST.Token };

function cutDeepCollections(document: CST.Document, regions: Regions): void {
  // A loop rather than recursion: the tree nests as deep as the text does.
  const stack: { holder: Holder; field: 'key' | 'value'; depth: number }[] = [
    { holder: document, field: 'value', depth: 0 },
  ];
  while (stack.length) {
    const { holder, field, depth } = stack.pop()!;
    const token = holder[field];
    if (!CST.isCollection(token)) continue;
    if (depth > MAX_NESTING) {
      // A flow collection's placeholder ends at its closing bracket and keeps what follows it.
      const close = token.type === 'flow-collection' ? token.end[0] : undefined;
      const closed = close?.type === 'flow-seq-end' || close?.type === 'flow-map-end';
      const end = closed ? close.offset + close.source.length : extentEnd(token);
      const placeholder: CST.FlowScalar = {
        type: 'scalar',
        offset: token.offset,
        indent: token.indent,
        source: '0'.padEnd(Math.max(1, end - token.offset), ' '),
        end: closed && token.type === 'flow-collection' ? token.end.slice(1) : [],
      };
      holder[field] = placeholder;
      regions.add(token.offset, end);
      continue;
    }
    for (const item of token.items) {
      if (item.value) stack.push({ holder: item, field: 'value', depth: depth + 1 });
      if (item.key) stack.push({ holder: item, field: 'key', depth: depth + 1 });
    }
  }
}

/** Where the text of a CST token ends: the furthest end of the source tokens it holds. */
function extentEnd(token: CST.Token): number {
  let end = token.offset;
  const see = (source: { offset: number; source: string }) => {
    end = Math.max(end, source.offset + source.source.length);
  };
  const stack: CST.Token[] = [token];
  while (stack.length) {
    const t = stack.pop()!;
    switch (t.type) {
      case 'block-map':
      case 'block-seq':
      case 'flow-collection':
        if (t.type === 'flow-collection') {
          see(t.start);
          t.end.forEach(see);
        }
        for (const item of t.items) {
          item.start.forEach(see);
          item.sep?.forEach(see);
          if (item.key) stack.push(item.key);
          if (item.value) stack.push(item.value);
        }
        break;
      case 'block-scalar': {
        // Its content follows its header (the props) directly.
        let propsEnd = t.offset;
        for (const prop of t.props)
          if ('source' in prop) propsEnd = Math.max(propsEnd, prop.offset + prop.source.length);
        end = Math.max(end, propsEnd + t.source.length);
        break;
      }
      case 'document':
      case 'directive':
      case 'doc-end':
        break;
      default:
        see(t);
        if ('end' in t && t.end) t.end.forEach(see);
    }
  }
  return end;
}

/**
 * Whether block collections could nest deeper than MAX_NESTING, in a text whose flow collections
 * do not (`mayNestTooDeep` said no): a block level takes at least one more column of a line's
 * leading run (its indentation and its `- `, `? `, `: ` indicators), so a leading run of more than
 * 150 characters is worth the walk. The library's composer runs out of stack near a thousand
 * levels: what this lets through stays well below that in any honest text, and in one made to slip
 * past, the library catches its own overflow, which is declined too (convertDocument, yaml.ts).
 */
function mayNestBlocksDeep(text: string): boolean {
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end - start > 150) {
      let run = start;
      for (; run < end; run++) {
        const c = text.charCodeAt(run);
        if (c !== 32 && c !== 9 && c !== 45 && c !== 63 && c !== 58) break; // space, tab, - ? :
      }
      if (run - start > 150) return true;
    }
    start = end + 1;
  }
  return false;
}

/**
 * Whether a YAML text could hold a region `shallowYaml` cuts: flow brackets open more than the
 * limit deep, counted over the raw text (brackets in strings and comments too, which a hand-written
 * file balances), or a line with more indicator characters than the limit. A text made to slip past
 * the bracket count (closers hidden in strings) only reaches the parser uncut, which is bounded by
 * LIMITS.fileValues, reads it more slowly and still declines what nests too deep.
 */
function mayNestTooDeep(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91 || c === 123) {
      if (++depth > MAX_NESTING) return true;
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  // Each compact indicator takes two characters (itself and a space).
  const longLine = 2 * (MAX_NESTING + 1);
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end - start > longLine) {
      let indicators = 0;
      for (let i = start; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c === 45 || c === 63 || c === 58) indicators++; // - ? :
      }
      if (indicators > MAX_NESTING) return true;
    }
    start = end + 1;
  }
  return false;
}

/** The text with each region replaced by `0` and spaces, its line breaks kept. */
function blank(text: string, regions: Regions): string {
  if (regions.size === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const [start, end] of regions.within(0, text.length + 1)) {
    parts.push(text.slice(at, start), '0', text.slice(start + 1, end).replace(/[^\r\n]/g, ' '));
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}
