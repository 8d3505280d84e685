// Our node tree for the YAML most configuration files are written in, read straight from the text
// in one pass over its lines: block mappings and sequences, plain and quoted scalars on one line,
// literal and folded block scalars, flow collections of scalars on one line, comments, `---`
// documents. It does less work than any general parser can, since it never builds tokens.
//
// It gives the same tree, spans, values and problems as the library's Composer does through
// yaml.ts: spans follow where the library's parser attaches comment lines and line breaks (to the
// value before them, to the collection, or to its parent; see `Frame`). Wherever a text holds
// anything else (tabs, CR, directives, anchors, aliases, tags, explicit keys, multi-line plain or
// quoted scalars, nested flow collections, a comment after an empty value, a line it cannot
// place), it gives up on the whole file (`undefined`) and the caller reads it through the library
// as before, so every error is still the library's. A differential test
// (test/unit/block-yaml.test.ts) holds it to the Composer's build on every YAML file of the
// repository and on generated and mutated documents.
import { CST, Document, isScalar as isLibraryScalar } from 'yaml';
import type { MapNode, Node, Pair, ScalarNode, ScalarValue, SeqNode } from './nodes.js';
import type { ParseProblem } from './problems.js';
import { mappingPair, problemKey, scalarValue, type ParsedYamlDocument } from './yamlShared.js';

/** The tokens of comment and blank lines, as the library's lexer makes them. */
type FillerToken = 0 | 1 | 2;
const SPACE_TOKEN = 0;
const COMMENT_TOKEN = 1;
const NEWLINE_TOKEN = 2;

/** Thrown wherever the text leaves what this reader handles: the file is read through the library instead. */
class Decline extends Error {}
const DECLINE = new Decline('read through the library instead');
function decline(): never {
  throw DECLINE;
}

/** How often the reader declined a file (read by the differential test). */
export const blockYamlDeclines = { files: 0, declined: 0 };

// The core schema's scalar tags, from the library itself, as the Composer uses them for a plain
// scalar without a tag (compose-scalar's findScalarTagByTest: the first default tag whose test matches).
const LIBRARY_DOCUMENT = new Document(undefined, { uniqueKeys: false, prettyErrors: false, strict: false });
const SCHEMA_OPTIONS = LIBRARY_DOCUMENT.options;
interface ScalarTag {
  test: RegExp;
  resolve: (value: string, onError: (message: string) => void, options: unknown) => unknown;
}
const TESTED_TAGS: ScalarTag[] = (
  LIBRARY_DOCUMENT.schema.tags as unknown as (ScalarTag & { default?: unknown; collection?: unknown })[]
).filter((tag) => tag.default === true && !tag.collection && tag.test instanceof RegExp);
/** The first characters any of those tests can match (null, bool, int and float of the core schema); anything else is a string. */
const TESTED_FIRST = /^[~nNtTfF0-9+\-.]/;
// Were the library's core schema to change, the shortcut above could be wrong: then every plain scalar is tested.
const SHORTCUT = LIBRARY_DOCUMENT.schema.name === 'core' && TESTED_TAGS.length === 8;

/**
 * What a plain scalar without a tag means under the core schema, as the Composer resolves it
 * (compose-scalar: the first default tag whose test matches); undefined where that tag reports an
 * error, which the Composer would show.
 */
function plainScalarValue(source: string): ScalarValue | undefined {
  if (SHORTCUT && source !== '' && !TESTED_FIRST.test(source)) return source;
  for (const tag of TESTED_TAGS) {
    if (!tag.test.test(source)) continue;
    let failed = false;
    let resolved: unknown;
    try {
      resolved = tag.resolve(source, () => (failed = true), SCHEMA_OPTIONS);
    } catch {
      return undefined;
    }
    return failed ? undefined : scalarValue(isLibraryScalar(resolved) ? resolved.value : resolved);
  }
  return source;
}

/** Characters whose rules this reader does not replay: tabs, a CR outside CRLF, other controls and line separators, a byte-order mark. */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const UNHANDLED_CHARACTERS = /[\x00-\x09\x0b\x0c\x0e-\x1f\x7f\x85\u2028\u2029\ufeff]|\r(?!\n)/;

/** Deeper than this, the library's build (with its nesting limit) takes over. */
const MAX_DEPTH = 100;
/** Flow collections nested deeper than this on one line are left to the library. */
const MAX_FLOW_DEPTH = 16;
/** The longest implicit key YAML allows. */
const MAX_KEY = 1024;

const SPACE = 32;
const NEWLINE = 10;
const CR = 13;
const HASH = 35;
const COLON = 58;
const DASH = 45;
const SINGLE = 39;
const DOUBLE = 34;
const BACKSLASH = 92;

/**
 * A block collection being read. `valueEnd` is where its last entry's value ends for the
 * library (its `range[2]`: a scalar's trailing comment and line break included). Comment and
 * blank lines after a value go, as the library's parser puts them, to that value when the
 * comment is indented deeper than the collection (`endsWithComment`: its line break follows),
 * or to a `trailing` run of the collection, which moves to the parent when the collection ends
 * unless a comment in it is indented as deep as the collection.
 */
interface Frame {
  kind: 'map' | 'seq';
  indent: number;
  node: MapNode | SeqNode;
  start: number;
  /** The key whose value is still to come (a mapping), or `-` with nothing after it yet (a sequence). */
  pending: Pending | null;
  valueEnd: number;
  /** The last value has an end of its own in the library's CST (a scalar or flow collection on its line). */
  lastHasEnd: boolean;
  endsWithComment: boolean;
  trailing: Trailing | null;
  keys?: Map<string, ScalarNode>;
}

interface Pending {
  key: ScalarNode | null;
  /** Where an empty value sits: after the indicator and the spaces after it. */
  emptyAt: number;
  /** The key's (or `-`'s) line: where its content ends, whether a comment ends it (or, for `-`, came before it), where the next line starts. */
  lineEnd: number;
  lineComment: boolean;
  next: number;
  /** The comment and blank lines' tokens after it while no value came, `type, end, comment indent` each (only once there are any). */
  tokens: number[] | null;
}

interface Trailing {
  end: number;
  deepestComment: number;
}

class Reader {
  private readonly documents: ParsedYamlDocument[] = [];
  private stack: Frame[] = [];
  private root: Node | null = null;
  private rootEnd = 0;
  /** Where the document being read starts (-1: not started). */
  private docStart = -1;
  private problems: ParseProblem[] = [];
  private seen = new Set<string>();

  private readonly crlf: boolean;

  constructor(
    private readonly text: string,
    private readonly base: number,
  ) {
    this.crlf = text.includes('\r');
  }

  read(): ParsedYamlDocument[] {
    const text = this.text;
    const length = text.length;
    let pos = 0;
    while (pos < length) {
      let lineEnd = text.indexOf('\n', pos);
      if (lineEnd < 0) lineEnd = length;
      const next = lineEnd < length ? lineEnd + 1 : length;
      // A CRLF line's content ends before its CR (the library's line break is both).
      if (lineEnd > pos && text.charCodeAt(lineEnd - 1) === CR) lineEnd--;
      let at = pos;
      while (at < lineEnd && text.charCodeAt(at) === SPACE) at++;
      const indent = at - pos;
      if (at === lineEnd) {
        this.filler(pos, next, -1);
        pos = next;
        continue;
      }
      const first = text.charCodeAt(at);
      if (first === HASH) {
        this.filler(pos, next, indent);
        pos = next;
        continue;
      }
      if (
        indent === 0 &&
        (first === DASH || first === 46) &&
        (text.startsWith('---', pos) || text.startsWith('...', pos))
      ) {
        if (text.startsWith('...', pos) || !isBlank(text, pos + 3, lineEnd)) decline();
        this.endDocument(true);
        this.docStart = pos;
        pos = next;
        continue;
      }
      if (indent === 0 && first === 37) decline(); // a directive
      pos = this.content(at, indent, lineEnd, next);
    }
    this.endDocument(false);
    if (this.documents.length === 0) decline();
    return this.documents;
  }

  // ---- documents --------------------------------------------------------------------------------

  /** The document ends, at a `---` (`atMarker`) or at the end of the text. */
  private endDocument(atMarker: boolean): void {
    if (this.docStart < 0 && this.stack.length === 0) return; // only comments and blank lines so far
    while (this.stack.length > 0) this.close(atMarker);
    if (!this.root) decline(); // an empty document
    this.documents.push({
      root: this.root,
      span: { start: this.base + this.docStart, end: this.base + this.rootEnd },
      problems: this.problems,
      selfContained: true,
    });
    this.root = null;
    this.docStart = -1;
    this.problems = [];
    this.seen = new Set();
  }

  // ---- comment and blank lines ----------------------------------------------------------------

  /** A blank line (`commentIndent` -1) or a comment line, from `start` to `next` (its line break included). */
  private filler(start: number, next: number, commentIndent: number): void {
    const frame = this.stack[this.stack.length - 1];
    if (!frame) return; // before the document's content: not part of any node
    const text = this.text;
    let lineEnd = next > start && text.charCodeAt(next - 1) === NEWLINE ? next - 1 : next;
    if (lineEnd > start && text.charCodeAt(lineEnd - 1) === CR) lineEnd--;
    if (commentIndent >= 0) {
      if (commentIndent > 0) this.token(frame, SPACE_TOKEN, start + commentIndent, -1);
      this.token(frame, COMMENT_TOKEN, lineEnd, commentIndent);
    } else if (lineEnd > start) this.token(frame, SPACE_TOKEN, lineEnd, -1);
    if (lineEnd < next) this.token(frame, NEWLINE_TOKEN, next, -1);
  }

  /**
   * One space, comment or line-break token ending at `end` after the last value of `frame`,
   * placed as the library's parser places it (its blockMap and blockSequence).
   */
  private token(frame: Frame, type: FillerToken, end: number, commentIndent: number): void {
    if (frame.pending) {
      // Before any value: the library keeps these with the key or `-` (see `emptyValue`).
      (frame.pending.tokens ??= []).push(type, end, commentIndent);
      return;
    }
    const trailing = frame.trailing;
    if (!trailing) {
      if (type === NEWLINE_TOKEN && frame.endsWithComment) {
        // The line break after a comment that went to the value goes there too.
        frame.valueEnd = end;
        frame.endsWithComment = false;
        return;
      }
      frame.trailing = { end, deepestComment: type === COMMENT_TOKEN ? commentIndent : -1 };
      return;
    }
    if (type === COMMENT_TOKEN && trailing.deepestComment < 0 && commentIndent > frame.indent && frame.lastHasEnd) {
      // A comment indented deeper than the collection, with only spaces and line breaks before it, goes to the value.
      frame.trailing = null;
      frame.valueEnd = end;
      frame.endsWithComment = true;
      return;
    }
    trailing.end = end;
    if (commentIndent > trailing.deepestComment) trailing.deepestComment = commentIndent;
  }

  // ---- content lines ----------------------------------------------------------------------------

  /** A line with content at `at` (column `indent`); returns where the next line starts. */
  private content(at: number, indent: number, lineEnd: number, next: number): number {
    const text = this.text;
    const item = text.charCodeAt(at) === DASH && (at + 1 === lineEnd || text.charCodeAt(at + 1) === SPACE);
    if (this.stack.length === 0) {
      if (this.root || indent !== 0) decline();
      if (this.docStart < 0) this.docStart = at;
      this.open(item ? 'seq' : 'map', indent, at);
    } else {
      // The line's indentation is a space token of its own, for the collection on top (where it
      // can matter: not before the value of its pending key or `-`).
      const onTop = this.stack[this.stack.length - 1]!;
      if (indent > 0 && !(onTop.pending && indent > onTop.indent)) this.token(onTop, SPACE_TOKEN, at, -1);
      // Collections indented deeper than this line end here; so does a sequence at the column of
      // its mapping's keys (`key:` then `- item` at the key's column) when the line is a key.
      for (;;) {
        const top = this.stack[this.stack.length - 1]!;
        if (indent < top.indent) {
          this.close();
          if (this.stack.length === 0) decline();
          continue;
        }
        if (indent === top.indent && top.kind === 'seq' && !item) {
          const parent = this.stack[this.stack.length - 2];
          if (!parent || parent.kind !== 'map' || parent.indent !== indent) decline();
          this.close();
          continue;
        }
        break;
      }
      const top = this.stack[this.stack.length - 1]!;
      if (indent > top.indent) {
        // Only the value of a key or `-` on an earlier line is indented deeper.
        if (!top.pending) decline();
        this.open(item ? 'seq' : 'map', indent, at);
      } else if (top.kind === 'map' && item) {
        // A sequence at the column of its mapping's keys: the value of the key before it.
        if (!top.pending) decline();
        this.open('seq', indent, at);
      } else if (top.pending) {
        this.emptyValue(top, true);
      }
    }
    if (this.stack.length > MAX_DEPTH) decline();
    return item ? this.seqItem(at, lineEnd, next) : this.mapEntry(at, lineEnd, next);
  }

  private open(kind: 'map' | 'seq', indent: number, at: number): void {
    const node: MapNode | SeqNode =
      kind === 'map'
        ? { type: 'map', pairs: [], span: { start: 0, end: 0 }, flow: false }
        : { type: 'seq', items: [], span: { start: 0, end: 0 }, flow: false };
    this.stack.push({
      kind,
      indent,
      node,
      start: at,
      pending: null,
      valueEnd: at,
      lastHasEnd: false,
      endsWithComment: false,
      trailing: null,
    });
  }

  /**
   * The collection on top ends: its span is set, and it becomes its parent's value (or the root).
   * A `---` ends a mapping at column 0 as its next key would (`emptyValue`).
   */
  private close(atMarker = false): void {
    const frame = this.stack.pop()!;
    if (frame.pending) this.emptyValue(frame, atMarker && frame.indent === 0);
    let rangeEnd = frame.valueEnd;
    const trailing = frame.trailing;
    const parent = this.stack[this.stack.length - 1];
    let moved: Trailing | null = null;
    if (trailing) {
      // The library's parser keeps the run in the collection when a comment in it is indented as deep.
      if (frame.indent !== 0 && trailing.deepestComment >= frame.indent) rangeEnd = trailing.end;
      else moved = trailing;
    }
    const node = frame.node;
    node.span.start = this.base + frame.start;
    node.span.end = this.base + frame.valueEnd;
    if (!parent) {
      // The document ends where its content does for the library, with the run after it.
      this.root = node;
      this.rootEnd = moved ? moved.end : rangeEnd;
      return;
    }
    this.setValue(parent, node, rangeEnd);
    parent.lastHasEnd = false;
    parent.trailing = moved;
  }

  /** A value for the top collection's pending key or `-`, ending (for the library) at `rangeEnd`. */
  private setValue(frame: Frame, value: Node, rangeEnd: number): void {
    const pending = frame.pending!;
    frame.pending = null;
    if (frame.kind === 'map') (frame.node as MapNode).pairs.push(this.pair(frame, pending.key!, value));
    else (frame.node as SeqNode).items.push(value);
    frame.valueEnd = rangeEnd;
    frame.endsWithComment = false;
  }

  /**
   * A key or `-` with nothing after it: null, where the library puts an empty node. Where a
   * comment follows it before the next entry, the library's value ends after the comment and the
   * lines kept with it: for a mapping followed by its next key, up to the second line break since
   * the last comment indented deeper than the keys (`atNextKey`); otherwise all of them.
   */
  private emptyValue(frame: Frame, atNextKey: boolean): void {
    const pending = frame.pending!;
    let rangeEnd = pending.emptyAt;
    const tokens = pending.tokens;
    if (pending.lineComment || tokens) {
      let hasComment = pending.lineComment;
      let end = pending.next > pending.lineEnd ? pending.next : pending.lineEnd;
      // The line breaks' starts since the last deeper comment, the key line's own first.
      const breaks: number[] = pending.next > pending.lineEnd ? [pending.lineEnd] : [];
      const comments: number[] = [];
      if (tokens) {
        for (let i = 0; i < tokens.length; i += 3) {
          const type = tokens[i]!;
          if (type === NEWLINE_TOKEN) breaks.push(end);
          else if (type === COMMENT_TOKEN) {
            comments.push(end);
            if (tokens[i + 2]! > frame.indent) breaks.length = 0;
          }
          end = tokens[i + 1]!;
        }
      }
      if (frame.kind === 'map' && atNextKey && breaks.length >= 2) end = breaks[1]!;
      // A comment starts where the token before it ends: kept when it starts before the cut.
      if (!hasComment) hasComment = comments.some((start) => start < end);
      if (hasComment) rangeEnd = end;
    }
    const at = this.base + pending.emptyAt;
    this.setValue(frame, { type: 'scalar', value: null, span: { start: at, end: at }, style: 'plain' }, rangeEnd);
    frame.lastHasEnd = false;
  }

  private pair(frame: Frame, key: ScalarNode, value: Node): Pair {
    return mappingPair((frame.node as MapNode).pairs, frame, key, value, (problem) => this.report(problem));
  }

  private report(problem: ParseProblem): void {
    const key = problemKey(problem);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.problems.push(problem);
  }

  /** `- ...` at `at`, in the sequence on top. */
  private seqItem(at: number, lineEnd: number, next: number): number {
    const frame = this.stack[this.stack.length - 1]!;
    const text = this.text;
    // Comment lines before the `-` are part of its item for the library: they count as its comments.
    const commentBefore = frame.trailing !== null && frame.trailing.deepestComment >= 0;
    const r = this.afterIndicator(frame, null, at + 1, lineEnd, next, commentBefore);
    if (r < 0) return next;
    if (keyColon(text, r, lineEnd) >= 0) {
      // `- key: value`: a mapping whose keys sit at this column.
      this.open('map', frame.indent + (r - at), r);
      if (this.stack.length > MAX_DEPTH) decline();
      return this.mapEntry(r, lineEnd, next);
    }
    return this.inlineValue(frame, r, lineEnd, next, frame.indent);
  }

  /** `key: ...` at `at`, in the mapping on top. */
  private mapEntry(at: number, lineEnd: number, next: number): number {
    const frame = this.stack[this.stack.length - 1]!;
    if (frame.kind !== 'map') decline();
    const text = this.text;
    const colon = keyColon(text, at, lineEnd);
    if (colon < 0 || colon - at > MAX_KEY) decline();
    const key = this.keyScalar(at, colon);
    const r = this.afterIndicator(frame, key, colon + 1, lineEnd, next, false);
    return r < 0 ? next : this.inlineValue(frame, r, lineEnd, next, frame.indent);
  }

  /**
   * After `-` or `key:` (ending at `from`): the entry waits for its value, which starts where the
   * function returns, or -1 when the line holds none (only spaces, or a comment).
   */
  private afterIndicator(
    frame: Frame,
    key: ScalarNode | null,
    from: number,
    lineEnd: number,
    next: number,
    comment: boolean,
  ): number {
    const text = this.text;
    const r = skipSpaces(text, from, lineEnd);
    frame.pending = { key, emptyAt: r, lineEnd, lineComment: comment, next, tokens: null };
    frame.trailing = null;
    if (r === lineEnd) return -1;
    const c = text.charCodeAt(r);
    if (c === HASH) {
      frame.pending.lineComment = true;
      return -1;
    }
    // `- - x` and `key: - x`: a sequence on the same line.
    if (c === DASH && (r + 1 === lineEnd || text.charCodeAt(r + 1) === SPACE)) decline();
    return r;
  }

  /** A key from `at` to its colon. */
  private keyScalar(at: number, colon: number): ScalarNode {
    const text = this.text;
    const c = text.charCodeAt(at);
    if (c === DOUBLE || c === SINGLE) {
      const end = quotedEnd(text, at, colon);
      if (end !== colon) decline(); // something between the closing quote and the colon
      return this.quoted(at, end);
    }
    if (!plainStart(text, at, colon) || text.charCodeAt(colon - 1) === SPACE) decline();
    return this.plain(at, colon);
  }

  /**
   * The value written after `key:` or `-` at `r`, up to the line's end (or, for a block scalar,
   * past it); `owner` is the column of the key or `-` it belongs to.
   */
  private inlineValue(frame: Frame, r: number, lineEnd: number, next: number, owner: number): number {
    const text = this.text;
    const c = text.charCodeAt(r);
    if (c === 124 || c === 62) return this.blockScalar(frame, r, lineEnd, next, owner); // | >
    let value: Node;
    let end: number;
    if (c === DOUBLE || c === SINGLE) {
      end = quotedEnd(text, r, lineEnd);
      if (end < 0) decline();
      value = this.quoted(r, end);
    } else if (c === 91 || c === 123) {
      // [ {
      ({ value, end } = this.flow(r, lineEnd, 1));
    } else {
      if (!plainStart(text, r, lineEnd)) decline();
      end = plainEnd(text, r, lineEnd);
      // `a: b: c` and `a: b:` are errors the library reports.
      if (keyColon(text, r, end) >= 0 || text.charCodeAt(end - 1) === COLON) decline();
      value = this.plain(r, end);
    }
    if (!isTail(text, end, lineEnd)) decline();
    this.setValue(frame, value, next);
    frame.lastHasEnd = true;
    return next;
  }

  private plain(start: number, end: number): ScalarNode {
    const value = plainScalarValue(this.text.slice(start, end));
    if (value === undefined) decline();
    return { type: 'scalar', value, span: { start: this.base + start, end: this.base + end }, style: 'plain' };
  }

  /** A quoted scalar from its opening quote at `start` to just after its closing one at `end`. */
  private quoted(start: number, end: number): ScalarNode {
    const text = this.text;
    const double = text.charCodeAt(start) === DOUBLE;
    let value: ScalarValue;
    const inner = text.slice(start + 1, end - 1);
    if (!double) value = inner.includes("''") ? inner.replace(/''/g, "'") : inner;
    else if (!inner.includes('\\')) value = inner;
    else {
      // Escapes are decoded by the library itself, on the token its parser would make.
      let failed = false;
      const token: CST.FlowScalar = {
        type: 'double-quoted-scalar',
        offset: start,
        indent: 0,
        source: text.slice(start, end),
      };
      const resolved = CST.resolveAsScalar(token, false, () => (failed = true));
      if (!resolved || failed) decline();
      value = resolved.value;
    }
    return {
      type: 'scalar',
      value,
      span: { start: this.base + start, end: this.base + end },
      style: double ? 'double' : 'single',
    };
  }

  /** A flow sequence or mapping on one line, from its bracket at `start`, of scalars and flow collections `depth` deep. */
  private flow(start: number, lineEnd: number, depth: number): { value: MapNode | SeqNode; end: number } {
    if (depth > MAX_FLOW_DEPTH) decline();
    const text = this.text;
    const isMap = text.charCodeAt(start) === 123;
    const close = isMap ? 125 : 93;
    const items: Node[] = [];
    const pairs: Pair[] = [];
    const keys: { keys?: Map<string, ScalarNode> } = {};
    let i = skipSpaces(text, start + 1, lineEnd);
    if (text.charCodeAt(i) === close) i++;
    else {
      for (;;) {
        if (isMap) {
          // `key: value`: a scalar key, the colon right after it and a space after that.
          const key = this.flowScalar(i, lineEnd);
          i = key.span.end - this.base;
          if (text.charCodeAt(i) !== COLON || text.charCodeAt(i + 1) !== SPACE) decline();
          const entry = this.flowEntry(skipSpaces(text, i + 1, lineEnd), lineEnd, depth);
          pairs.push(mappingPair(pairs, keys, key, entry.node, (problem) => this.report(problem)));
          i = skipSpaces(text, entry.end, lineEnd);
        } else {
          const entry = this.flowEntry(i, lineEnd, depth);
          items.push(entry.node);
          i = skipSpaces(text, entry.end, lineEnd);
        }
        const c = text.charCodeAt(i);
        if (c === close) {
          i++;
          break;
        }
        if (c !== 44) decline(); // , (anything else: `a: b` in a sequence, a second colon, the line's end)
        i = skipSpaces(text, i + 1, lineEnd);
        if (text.charCodeAt(i) === close) decline(); // a trailing comma
      }
    }
    const span = { start: this.base + start, end: this.base + i };
    const value: MapNode | SeqNode = isMap
      ? { type: 'map', pairs, span, flow: true }
      : { type: 'seq', items, span, flow: true };
    return { value, end: i };
  }

  /** An item or value inside a flow collection: a scalar or a flow collection. */
  private flowEntry(at: number, lineEnd: number, depth: number): { node: Node; end: number } {
    const c = this.text.charCodeAt(at);
    if (c === 91 || c === 123) {
      const { value, end } = this.flow(at, lineEnd, depth + 1);
      return { node: value, end };
    }
    const node = this.flowScalar(at, lineEnd);
    return { node, end: node.span.end - this.base };
  }

  /** A scalar inside a flow collection, at `at`. */
  private flowScalar(at: number, lineEnd: number): ScalarNode {
    const text = this.text;
    const c = text.charCodeAt(at);
    if (c === DOUBLE || c === SINGLE) {
      const end = quotedEnd(text, at, lineEnd);
      if (end < 0) decline();
      return this.quoted(at, end);
    }
    // Where the library's lexer ends a plain scalar in a flow collection: at a flow indicator, at
    // `:` before a space or one, and at a space before `#` (a comment, declined after).
    let end = at;
    for (let i = at; i < lineEnd; i++) {
      const d = text.charCodeAt(i);
      if (isFlowIndicator(d)) break;
      if (d === SPACE) {
        if (text.charCodeAt(i + 1) === HASH) break;
        continue;
      }
      if (d === COLON) {
        const after = text.charCodeAt(i + 1);
        if (i + 1 === lineEnd || after === SPACE || isFlowIndicator(after)) break;
      }
      end = i + 1;
    }
    while (end > at && text.charCodeAt(end - 1) === SPACE) end--;
    if (!plainStart(text, at, end)) decline();
    return this.plain(at, end);
  }

  /** `|` or `>` at `r`: the header, then the lines the library's lexer takes as its content. */
  private blockScalar(frame: Frame, r: number, lineEnd: number, next: number, owner: number): number {
    const text = this.text;
    // The lexer's rules for CR in block scalars are not replayed.
    if (this.crlf) decline();
    let h = r + 1;
    if (text.charCodeAt(h) === DASH) h++;
    // `+` (keep) and explicit indentation follow rules not replayed here.
    if (h < lineEnd && text.charCodeAt(h) !== SPACE) decline();
    const header = text.slice(r, h);
    const props: CST.SourceToken[] = [{ type: 'block-scalar-header', offset: r, indent: owner, source: header }];
    let i = h;
    while (i < lineEnd && text.charCodeAt(i) === SPACE) i++;
    if (i > h) props.push({ type: 'space', offset: h, indent: owner, source: text.slice(h, i) });
    if (i < lineEnd) {
      if (text.charCodeAt(i) !== HASH || i === h) decline();
      props.push({ type: 'comment', offset: i, indent: owner, source: text.slice(i, lineEnd) });
    }
    if (lineEnd === text.length) decline(); // a header with no line after it
    props.push({ type: 'newline', offset: lineEnd, indent: owner, source: '\n' });
    // The lexer's extent (parseBlockScalar), for content without tabs or CR and a first line
    // indented deeper than the owner: lines indented at least as deep as the first, and blank
    // lines, and then no blank lines at the end but those indented deeper than the content.
    const pos = next;
    const indent = countSpaces(text, pos);
    const firstEnd = pos + indent;
    if (firstEnd >= text.length || text.charCodeAt(firstEnd) === NEWLINE) decline(); // leading blank lines
    if (indent < owner + 1) decline();
    let nl = text.indexOf('\n', firstEnd);
    while (nl !== -1) {
      const lineIndent = countSpaces(text, nl + 1);
      const after = nl + 1 + lineIndent;
      const blank = after < text.length && text.charCodeAt(after) === NEWLINE;
      if (!blank && lineIndent < indent) break;
      nl = text.indexOf('\n', after);
    }
    if (nl === -1) nl = text.length;
    for (;;) {
      let i2 = nl - 1;
      let ch = text.charCodeAt(i2);
      const lastChar = i2;
      while (ch === SPACE) ch = text.charCodeAt(--i2);
      if (ch === NEWLINE && i2 >= pos && i2 + 1 + indent > lastChar) nl = i2;
      else break;
    }
    const sourceEnd = Math.min(nl + 1, text.length);
    const token: CST.BlockScalar = {
      type: 'block-scalar',
      offset: r,
      indent: owner,
      props,
      source: text.slice(pos, sourceEnd),
    };
    let failed = false;
    const resolved = CST.resolveAsScalar(token, false, () => (failed = true));
    if (!resolved || failed) decline();
    const [start, end] = resolved.range;
    const value: ScalarNode = {
      type: 'scalar',
      value: resolved.value,
      span: { start: this.base + start, end: this.base + end },
      style: header[0] === '|' ? 'literal' : 'folded',
    };
    this.setValue(frame, value, resolved.range[2]);
    frame.lastHasEnd = false;
    return sourceEnd;
  }
}

/** `,` `[` `]` `{` `}` */
function isFlowIndicator(c: number): boolean {
  return c === 44 || c === 91 || c === 93 || c === 123 || c === 125;
}

function countSpaces(text: string, at: number): number {
  let i = at;
  while (text.charCodeAt(i) === SPACE) i++;
  return i - at;
}

function skipSpaces(text: string, at: number, end: number): number {
  while (at < end && text.charCodeAt(at) === SPACE) at++;
  return at;
}

function isBlank(text: string, from: number, to: number): boolean {
  if (from < to && text.charCodeAt(from) !== SPACE) return false;
  const i = skipSpaces(text, from, to);
  // A comment after `---` and a space.
  return i === to || (text.charCodeAt(i) === HASH && i > from);
}

/** What may follow a value on its line: spaces, then a comment after a space, or nothing. */
function isTail(text: string, end: number, lineEnd: number): boolean {
  if (end === lineEnd) return true;
  if (text.charCodeAt(end) !== SPACE) return false;
  const i = skipSpaces(text, end, lineEnd);
  return i === lineEnd || text.charCodeAt(i) === HASH;
}

/**
 * Whether a plain scalar may start at `at`: not with an indicator, a quote, or `-`, `?`, `:`
 * before a space (those are collections or errors), nor with characters the library reports.
 */
function plainStart(text: string, at: number, end: number): boolean {
  if (at >= end) return false;
  switch (text.charCodeAt(at)) {
    case 33: // !
    case DOUBLE:
    case HASH:
    case 37: // %
    case 38: // &
    case SINGLE:
    case 42: // *
    case 44: // ,
    case COLON:
    case 62: // >
    case 63: // ?
    case 64: // @
    case 91: // [
    case 93: // ]
    case 96: // `
    case 123: // {
    case 124: // |
    case 125: // }
      return false;
    case DASH:
      return at + 1 < end && text.charCodeAt(at + 1) !== SPACE;
    default:
      return true;
  }
}

/** Where a plain scalar from `at` ends on its line: before a comment and the spaces before it. */
function plainEnd(text: string, at: number, lineEnd: number): number {
  let end = lineEnd;
  for (let i = at + 1; i < lineEnd; i++) {
    if (text.charCodeAt(i) === HASH && text.charCodeAt(i - 1) === SPACE) {
      end = i;
      break;
    }
  }
  while (end > at && text.charCodeAt(end - 1) === SPACE) end--;
  return end;
}

/**
 * The colon that makes the text from `at` a key (`key:` before a space or the line's end), or -1:
 * for a quoted key, right after its closing quote; for a plain one, the first such colon before
 * any comment.
 */
function keyColon(text: string, at: number, lineEnd: number): number {
  const c = text.charCodeAt(at);
  if (c === DOUBLE || c === SINGLE) {
    const end = quotedEnd(text, at, lineEnd);
    if (end < 0) return -1;
    return text.charCodeAt(end) === COLON && (end + 1 === lineEnd || text.charCodeAt(end + 1) === SPACE) ? end : -1;
  }
  if (c === 91 || c === 123) return -1; // a flow collection (as a key: declined when read as a value)
  for (let i = at; i < lineEnd; i++) {
    const d = text.charCodeAt(i);
    if (d === COLON && (i + 1 === lineEnd || text.charCodeAt(i + 1) === SPACE)) return i;
    if (d === HASH && i > at && text.charCodeAt(i - 1) === SPACE) return -1;
  }
  return -1;
}

/** Just after the closing quote of the quoted scalar at `at` on this line, or -1 if it does not close here. */
function quotedEnd(text: string, at: number, lineEnd: number): number {
  const quote = text.charCodeAt(at);
  for (let i = at + 1; i < lineEnd; i++) {
    const c = text.charCodeAt(i);
    if (quote === DOUBLE && c === BACKSLASH) {
      i++;
      continue;
    }
    if (c === quote) {
      if (quote === SINGLE && text.charCodeAt(i + 1) === SINGLE && i + 1 < lineEnd) {
        i++;
        continue;
      }
      return i + 1;
    }
  }
  return -1;
}

/**
 * The documents of a YAML text as the Composer build gives them, read in one pass over its lines; or
 * undefined where the text holds anything this reader leaves to the library (see above).
 */
export function documentsFromBlockYaml(text: string, base: number): ParsedYamlDocument[] | undefined {
  blockYamlDeclines.files++;
  if (UNHANDLED_CHARACTERS.test(text)) {
    blockYamlDeclines.declined++;
    return undefined;
  }
  try {
    return new Reader(text, base).read();
  } catch {
    // Declined, or anything unforeseen (this reader must never do worse than the library): read through it instead.
    blockYamlDeclines.declined++;
    return undefined;
  }
}
