// JSON and JSONC (comments, trailing commas) to our node tree, using jsonc-parser, which recovers
// from errors so that a half-typed file still yields a tree to check. The comments are the ones
// jsonc-parser's scanner finds (the tokens its parser skips), never text inside a string.
import {
  createScanner,
  parseTree,
  printParseErrorCode,
  type Node as JsonNode,
  type ParseError,
  type SyntaxKind,
} from 'jsonc-parser';
import { bomLength } from '../text/source.js';
import type { Span } from '../types.js';
import type { Comment } from './nodes.js';
import type { MapNode, Node, Pair, ScalarNode } from './nodes.js';
import { declineUncovered, MAX_NESTING, tooDeepToCheck, unreadable, type ParseProblem } from './problems.js';
import { shallowJson, type Cut, type Regions } from './shallow.js';

export interface ParsedJsonDocument {
  root: Node | null;
  span: Span;
  problems: ParseProblem[];
}

/**
 * Parses one JSON text starting at `base` in the file (JSONL lines pass their offset). A BOM at
 * its start is no part of the JSON (jsonc-parser would call it an invalid symbol): the document
 * starts after it.
 */
export function parseJson(text: string, base = 0, options: { comments?: boolean; cut?: Cut } = {}): ParsedJsonDocument {
  if (bomLength(text)) return parseJson(text.slice(1), base + 1, options);
  const errors: ParseError[] = [];
  const problems: ParseProblem[] = [];
  const parseOptions = {
    allowTrailingComma: true,
    disallowComments: options.comments === false,
    allowEmptyContent: true,
  };
  let tree: JsonNode | undefined;
  let regions: Regions | undefined;
  try {
    if (options.cut === 'always') throw new RangeError('cut');
    tree = parseTree(text, errors, parseOptions);
  } catch (error) {
    // parseTree recurses once per level and ran out of stack: cut off what nests past the limit
    // (shallow.ts, offsets unchanged) and read the rest. Only here: a text that parses needs no scan.
    if (options.cut === 'never') {
      problems.push(unreadable({ start: base, end: base + Math.min(text.length, 1) }, error));
      return { root: null, span: { start: base, end: base + text.length }, problems };
    }
    const shallow = shallowJson(text);
    regions = shallow.regions;
    errors.length = 0;
    try {
      tree = parseTree(shallow.text, errors, parseOptions);
    } catch (error) {
      problems.push(unreadable({ start: base, end: base + Math.min(text.length, 1) }, error));
      return { root: null, span: { start: base, end: base + text.length }, problems };
    }
  }
  // An error at the very end (a missing "}") is shown on the last thing written, inside the text.
  const contentEnd = text.trimEnd().length;
  const unclosed = errors.some((e) => CLOSING[printParseErrorCode(e.error)])
    ? unclosedCollections(text, tree)
    : undefined;
  const closedAt = new Set<number>();
  for (const error of errors) {
    const code = printParseErrorCode(error.error);
    let start = error.offset;
    let end = start + Math.max(1, error.length);
    // A missing `]` or `}` is found where the parser stopped (the next token, or the end of the
    // text); the mistake is the bracket never closed, where its collection begins. The parser
    // stops each collection around it at the same place: that is the same slip, said once.
    const kind = CLOSING[code];
    if (kind && closedAt.has(error.offset)) continue;
    const opening = kind ? unclosed?.[kind].get(error.offset)?.shift() : undefined;
    if (kind) closedAt.add(error.offset);
    if (opening !== undefined) [start, end] = [opening, opening + 1];
    else if (start >= contentEnd) [start, end] = contentEnd > 0 ? [contentEnd - 1, contentEnd] : [0, 0];
    problems.push({
      rule: 'yaml/syntax',
      code: 'jsonError',
      data: { code },
      span: { start: base + start, end: base + Math.min(end, text.length) },
    });
  }
  const root = tree ? new JsonConverter(text, base, problems, regions).convert(tree, 0) : null;
  if (regions)
    declineUncovered(
      regions.within(0, text.length + 1).map(([start, end]) => ({ start: base + start, end: base + end })),
      problems,
    );
  return { root, span: { start: base, end: base + text.length }, problems };
}

/** The errors of a collection never closed, by their names, and the kind of that collection. */
const CLOSING: Partial<Record<string, 'array' | 'object'>> = {
  CloseBracketExpected: 'array',
  CloseBraceExpected: 'object',
};

/**
 * The arrays and objects whose closing bracket is missing, by where the parser stopped reading
 * them: their opening offsets, innermost first (the order the parser reports them in).
 */
function unclosedCollections(
  text: string,
  tree: JsonNode | undefined,
): Record<'array' | 'object', Map<number, number[]>> {
  const out = { array: new Map<number, number[]>(), object: new Map<number, number[]>() };
  const visit = (node: JsonNode, depth: number): void => {
    if (depth > MAX_NESTING) return;
    for (const child of node.children ?? []) visit(child, depth + 1);
    if (node.type !== 'array' && node.type !== 'object') return;
    const end = node.offset + node.length;
    if (text[end - 1] === (node.type === 'array' ? ']' : '}') && node.length > 1) return;
    const list = out[node.type].get(end) ?? [];
    list.push(node.offset);
    out[node.type].set(end, list);
  };
  if (tree) visit(tree, 0);
  return out;
}

// jsonc-parser's SyntaxKind is a const enum, which isolated modules cannot read: its values here.
const LINE_COMMENT = 12 as SyntaxKind.LineCommentTrivia;
const BLOCK_COMMENT = 13 as SyntaxKind.BlockCommentTrivia;
const EOF = 17 as SyntaxKind.EOF;

/**
 * The comment tokens of a JSON text, as the parser's own scanner reads them (also where comments
 * are not allowed: then each is a syntax problem too). `base` is where the text starts in its file.
 */
export function jsonComments(text: string, base: number): Comment[] {
  const comments: Comment[] = [];
  // Every comment starts with `//` or `/*`: a text with neither needs no second scan.
  if (!text.includes('//') && !text.includes('/*')) return comments;
  const scanner = createScanner(text, false);
  for (let kind = scanner.scan(); kind !== EOF; kind = scanner.scan()) {
    if (kind !== LINE_COMMENT && kind !== BLOCK_COMMENT) continue;
    const start = scanner.getTokenOffset();
    const end = start + scanner.getTokenLength();
    comments.push({ span: { start: base + start, end: base + end }, text: text.slice(start, end) });
  }
  return comments;
}

class JsonConverter {
  constructor(
    private readonly text: string,
    private readonly base: number,
    private readonly problems: ParseProblem[],
    /** The regions cut off before parsing, if any: each is one placeholder `0` there. */
    private readonly regions: Regions | undefined,
  ) {}

  private span(node: JsonNode): Span {
    return { start: this.base + node.offset, end: this.base + node.offset + node.length };
  }

  convert(node: JsonNode, depth: number): Node {
    const span = this.span(node);
    if (depth > MAX_NESTING) {
      // A region's placeholder stands for the whole region.
      const regionEnd = this.regions?.endAt(node.offset);
      if (regionEnd !== undefined) span.end = this.base + regionEnd;
      this.problems.push(tooDeepToCheck(span));
      return { type: 'scalar', value: null, span, style: 'json' };
    }
    switch (node.type) {
      case 'object': {
        const map: MapNode = { type: 'map', pairs: [], span, flow: true };
        const seen = new Map<string, ScalarNode>();
        for (const property of node.children ?? []) {
          const [keyNode, valueNode] = property.children ?? [];
          if (!keyNode) continue;
          const key: ScalarNode = {
            type: 'scalar',
            value: String(keyNode.value ?? ''),
            span: this.span(keyNode),
            style: 'json',
          };
          const value = valueNode ? this.convert(valueNode, depth + 1) : null;
          const pair: Pair = {
            key,
            value,
            span: { start: key.span.start, end: value ? value.span.end : key.span.end },
          };
          const name = key.value as string;
          const earlier = seen.get(name);
          if (earlier) {
            this.problems.push({
              rule: 'yaml/duplicate-key',
              code: 'duplicateKey',
              data: { key: name, json: true },
              span: key.span,
              related: [{ span: earlier.span }],
            });
          } else seen.set(name, key);
          map.pairs.push(pair);
        }
        return map;
      }
      case 'array':
        return {
          type: 'seq',
          items: (node.children ?? []).map((child) => this.convert(child, depth + 1)),
          span,
          flow: true,
        };
      case 'string':
      case 'number':
      case 'boolean':
        return { type: 'scalar', value: node.value as string | number | boolean, span, style: 'json' };
      case 'null':
        return { type: 'scalar', value: null, span, style: 'json' };
      default:
        return { type: 'scalar', value: this.text.slice(node.offset, node.offset + node.length), span, style: 'json' };
    }
  }
}
