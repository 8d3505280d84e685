// YAML (multi-document) to our node tree, using eemeli/yaml for the syntax. Duplicate keys are
// detected here rather than by the library, so that the document still gets every other check.
// Comments are read from the library's own syntax tokens (`# ...` only where its lexer sees a
// comment, never inside a scalar), on demand: `yamlComments`.
import {
  Alias,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  parseAllDocuments,
  Parser,
  type CST,
  type Document,
  type Node as YamlNode,
  type Scalar,
} from 'yaml';
import type { Span } from '../types.js';
import type { Comment } from './nodes.js';
import type { MapNode, Node, Pair, ScalarNode, ScalarStyle, ScalarValue } from './nodes.js';
import { MAX_NESTING, tooDeepToCheck, type ParseProblem } from './problems.js';

export interface ParsedYamlDocument {
  root: Node | null;
  span: Span;
  problems: ParseProblem[];
  /**
   * No anchor, alias or explicit tag anywhere: each part of the document means the same read
   * alone, so an edit inside one part may re-parse just that part (see incremental.ts).
   */
  selfContained: boolean;
}

const STYLE: Record<string, ScalarStyle> = {
  PLAIN: 'plain',
  QUOTE_SINGLE: 'single',
  QUOTE_DOUBLE: 'double',
  BLOCK_LITERAL: 'literal',
  BLOCK_FOLDED: 'folded',
};

/**
 * The documents of a YAML stream. `base` is where `text` starts in its file when it is a part
 * re-parsed alone: every span is shifted by it.
 */
export function parseYaml(text: string, base = 0): ParsedYamlDocument[] {
  let docs: Document.Parsed[];
  try {
    const parsed = parseAllDocuments(text, { uniqueKeys: false, prettyErrors: false, strict: false });
    docs = Array.isArray(parsed) ? parsed : [];
  } catch (error) {
    // The library recurses on nesting; absurd depth can exhaust the stack. Say so, keep the file.
    const span = { start: base, end: base + text.length };
    return [{ root: null, span, problems: [tooDeep({ start: base, end: base + Math.min(text.length, 1) }, error)], selfContained: false }];
  }
  return docs.map((doc) => convertDocument(doc, text, base));
}

/**
 * Every comment of a YAML text, in order (also those outside any document's content). Read on
 * demand, since only suppressions need them: a second pass of the library's parser, without the
 * composer.
 */
export function yamlComments(text: string): Comment[] {
  const comments: Comment[] = [];
  try {
    for (const token of new Parser().parse(text)) collectComments(token, comments);
  } catch {
    // The parser gave up (it should not: it reads any text); the comments read up to there stand.
  }
  return comments.sort((a, b) => a.span.start - b.span.start);
}

type CstPart = CST.Token | CST.CollectionItem;

// Array.isArray does not narrow a readonly array (it says any[]).
function isPartList(part: CstPart | readonly CstPart[]): part is readonly CstPart[] {
  return Array.isArray(part);
}

/**
 * The comment tokens anywhere in a CST token: they sit in the `start`, `sep` and `end` token lists
 * of documents, collection items and flow collections, and in a block scalar's header. A loop
 * rather than recursion: the tree may nest as deep as the text does.
 */
function collectComments(token: CST.Token, out: Comment[]): void {
  const stack: CstPart[] = [token];
  const push = (part: CstPart | readonly CstPart[] | null | undefined) => {
    if (!part) return;
    if (isPartList(part)) for (const p of part) stack.push(p);
    else stack.push(part);
  };
  while (stack.length) {
    const part = stack.pop()!;
    if ('type' in part && part.type === 'comment') {
      // A CRLF file's `\r` is not part of the comment.
      const source = part.source.endsWith('\r') ? part.source.slice(0, -1) : part.source;
      out.push({ span: { start: part.offset, end: part.offset + source.length }, text: source });
      continue;
    }
    if ('start' in part) push(part.start);
    if ('props' in part) push(part.props);
    if ('key' in part) push(part.key);
    if ('sep' in part) push(part.sep);
    if ('value' in part) push(part.value);
    if ('items' in part) push(part.items);
    if ('end' in part) push(part.end);
  }
}

function tooDeep(span: Span, error: unknown): ParseProblem {
  const why = error instanceof RangeError ? 'it nests too deeply to be read' : `it could not be read (${String(error)})`;
  return { rule: 'yaml/syntax', message: `This document is not checked: ${why}.`, span };
}

function convertDocument(doc: Document.Parsed, text: string, base: number): ParsedYamlDocument {
  const problems: ParseProblem[] = [];
  // An error at the very end (an unclosed bracket) is shown on the last thing written, not on an empty line.
  const contentEnd = text.trimEnd().length;
  for (const error of doc.errors) {
    let [start, end] = error.pos;
    if (start >= contentEnd) [start, end] = contentEnd > 0 ? [contentEnd - 1, contentEnd] : [0, 0];
    end = Math.min(Math.max(end, start + 1), text.length);
    problems.push({ rule: 'yaml/syntax', message: yamlMessage(error.message), span: { start: base + start, end: base + end } });
  }
  const [docStart, , docEnd] = doc.range;
  const converter = new Converter(doc, text, base, problems);
  let root: Node | null = null;
  try {
    root = doc.contents ? converter.convert(doc.contents, 0) : null;
  } catch (error) {
    problems.push(tooDeep({ start: base + docStart, end: base + Math.min(docEnd, docStart + 1) }, error));
  }
  const selfContained = !converter.sawReferenceOrTag && doc.directives.yaml.explicit !== true && !hasTagDirective(doc);
  return { root, span: { start: base + docStart, end: base + docEnd }, problems, selfContained };
}

/** A `%TAG` directive changes what tags mean in the whole document. */
function hasTagDirective(doc: Document.Parsed): boolean {
  const tags = doc.directives.tags;
  return Object.keys(tags).some((handle) => handle !== '!' && handle !== '!!');
}

/** The library's message without its trailing code excerpt (we show our own source line). */
function yamlMessage(message: string): string {
  const first = message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  return first.endsWith('.') ? first : `${first}.`;
}

class Converter {
  private readonly aliasesInProgress = new Set<unknown>();
  /** Aliases of aliases can expand exponentially ("billion laughs"): bound the work. */
  private aliasBudget = 10_000;
  /** An anchor, an alias or an explicit tag was met (see `selfContained`). */
  sawReferenceOrTag = false;

  constructor(
    private readonly doc: Document.Parsed,
    private readonly text: string,
    /** Offset of `text` in its file: added to every span. */
    private readonly base: number,
    private readonly problems: ParseProblem[],
  ) {}

  convert(node: YamlNode | Alias | null | undefined, depth: number, fallbackAt = this.base): Node {
    const base = this.base;
    if (depth > MAX_NESTING) {
      const span = node?.range ? { start: base + node.range[0], end: base + node.range[1] } : { start: fallbackAt, end: fallbackAt };
      this.problems.push(tooDeepToCheck({ start: span.start, end: Math.max(span.end, span.start + 1) }));
      return { type: 'scalar', value: null, span, style: 'plain' };
    }
    if (!node) return { type: 'scalar', value: null, span: { start: fallbackAt, end: fallbackAt }, style: 'plain' };
    if (isAlias(node)) return this.convertAlias(node, depth);
    if (node.anchor || node.tag) this.sawReferenceOrTag = true;
    const span = node.range ? { start: base + node.range[0], end: base + node.range[1] } : { start: fallbackAt, end: fallbackAt };
    const start = span.start;
    if (isScalar(node)) return this.scalar(node, span);
    if (isMap(node)) {
      const map: MapNode = { type: 'map', pairs: [], span, flow: Boolean(node.flow) };
      const seen = new Map<string, ScalarNode>();
      for (const item of node.items) {
        if (!isPair(item)) continue;
        const key = this.key(item.key as YamlNode | null, start);
        const value = this.convert(item.value as YamlNode | null, depth + 1, key.span.end);
        const pair: Pair = { key, value, span: { start: key.span.start, end: Math.max(value.span.end, key.span.end) } };
        const name = String(key.value);
        const earlier = seen.get(name);
        if (earlier) {
          this.problems.push({
            rule: 'yaml/duplicate-key',
            message: `The key "${name}" appears twice in this mapping; most readers keep only one of the two values, so one of them is silently lost.`,
            // Own copies: a re-parse may move node spans in place (incremental.ts).
            span: { ...key.span },
            related: [{ span: { ...earlier.span }, message: 'first occurrence' }],
          });
        } else seen.set(name, key);
        map.pairs.push(pair);
      }
      return map;
    }
    if (isSeq(node)) {
      return {
        type: 'seq',
        items: node.items.map((item) => this.convert(item as YamlNode, depth + 1, start)),
        span,
        flow: Boolean(node.flow),
      };
    }
    return { type: 'scalar', value: null, span, style: 'plain' };
  }

  private convertAlias(alias: Alias, depth: number): Node {
    this.sawReferenceOrTag = true;
    const [start, end] = alias.range ? [this.base + alias.range[0], this.base + alias.range[1]] : [this.base, this.base];
    const target = alias.resolve(this.doc);
    if (this.aliasBudget-- === 0) {
      this.problems.push({ rule: 'yaml/syntax', message: 'Aliases expand to too much data; the rest of them are not followed.', span: { start, end: Math.max(end, start + 1) } });
    }
    if (!target || this.aliasesInProgress.has(target) || this.aliasBudget < 0) {
      return { type: 'scalar', value: null, span: { start, end }, style: 'plain' };
    }
    // The alias stands for its anchor's value, but findings belong where the alias is written.
    this.aliasesInProgress.add(target);
    try {
      return relocate(this.convert(target, depth + 1, start), { start, end });
    } finally {
      this.aliasesInProgress.delete(target);
    }
  }

  private key(key: YamlNode | null, fallbackAt: number): ScalarNode {
    const base = this.base;
    if (key && isScalar(key)) {
      if (key.anchor || key.tag) this.sawReferenceOrTag = true;
      const span = key.range ? { start: base + key.range[0], end: base + key.range[1] } : { start: fallbackAt, end: fallbackAt };
      return this.scalar(key, span);
    }
    if (key?.range) {
      // A collection or an alias as a key: kept as its text (rules compare keys as strings).
      this.sawReferenceOrTag = true;
      const [start, end] = key.range;
      return { type: 'scalar', value: this.text.slice(start, end), span: { start: base + start, end: base + end }, style: 'plain' };
    }
    return { type: 'scalar', value: '', span: { start: fallbackAt, end: fallbackAt }, style: 'plain' };
  }

  private scalar(node: Scalar, span: Span): ScalarNode {
    const raw = node.value;
    let value: ScalarValue;
    if (raw === null || raw === undefined) value = null;
    else if (typeof raw === 'string' || typeof raw === 'boolean') value = raw;
    else if (typeof raw === 'number') value = raw;
    else if (typeof raw === 'bigint') value = Number(raw);
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- only yaml's own YAML 1.1 values are left here, a Date (!!timestamp), a Buffer (!!binary) or the merge key's symbol, each with its own string form; TypeScript calls them {}
    else value = String(raw);
    return { type: 'scalar', value, span, style: STYLE[node.type ?? 'PLAIN'] ?? 'plain' };
  }
}

/**
 * A copy of a subtree whose every span is the alias's, so nothing points into the anchor. Each
 * node gets its own span object: no two nodes of a parse share one (incremental.ts relies on it).
 */
function relocate(node: Node, span: Span): Node {
  switch (node.type) {
    case 'scalar':
      return { ...node, span: { ...span } };
    case 'seq':
      return { ...node, span: { ...span }, items: node.items.map((item) => relocate(item, span)) };
    case 'map':
      return {
        ...node,
        span: { ...span },
        pairs: node.pairs.map((pair) => ({
          key: { ...pair.key, span: { ...span } },
          value: pair.value ? relocate(pair.value, span) : null,
          span: { ...span },
        })),
      };
  }
}
