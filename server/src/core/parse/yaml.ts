// YAML (multi-document) to our node tree, using eemeli/yaml for the syntax. Duplicate keys are
// detected here rather than by the library, so that the document still gets every other check.
// Comments are read from the library's own lexer tokens (`# ...` only where its lexer sees a
// comment, never inside a scalar), on demand: `yamlComments`.
import {
  Alias,
  Composer,
  CST,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  Lexer,
  Parser,
  visit,
  type Document,
  type Node as YamlNode,
  type Scalar,
} from 'yaml';
import { LIMITS } from '../limits.js';
import { loneCrAsLf, wholeCharacters } from '../text/source.js';
import type { Span } from '../types.js';
import type { Comment } from './nodes.js';
import type { AnchorUse, MapNode, Node, References, ScalarNode, ScalarStyle, Shared } from './nodes.js';
import {
  aliasesNotExpanded,
  declineUncovered,
  MAX_NESTING,
  tooDeepToCheck,
  unreadable,
  type ParseProblem,
} from './problems.js';
import { shallowTokens, shallowYaml, type Cut, type Regions } from './shallow.js';
import { documentsFromBlockYaml } from './blockYaml.js';
import { mappingPair, problemKey, scalarValue, type ParsedYamlDocument } from './yamlShared.js';

export type { ParsedYamlDocument } from './yamlShared.js';

const STYLE: Record<string, ScalarStyle> = {
  PLAIN: 'plain',
  QUOTE_SINGLE: 'single',
  QUOTE_DOUBLE: 'double',
  BLOCK_LITERAL: 'literal',
  BLOCK_FOLDED: 'folded',
};

/** What alias expansion may still add in this file (LIMITS.aliasNodes), shared by its documents. */
interface AliasBudget {
  left: number;
  /** What it started with, for the message. */
  readonly limit: number;
}

/** Thrown inside an alias's expansion when the file's alias budget runs out: the outermost alias then stays unexpanded. */
class OverBudget extends Error {}
const OVER_BUDGET = new OverBudget('the alias budget ran out');

/**
 * A copy of a subtree whose every span is the alias's, so nothing points into the anchor. Each
 * node gets its own span object: no two nodes of a parse share one (incremental.ts relies on it).
 */
function relocate(node: Node, span: Span): Node {
  switch (node.type) {
    case 'scalar':
      return { ...node, span: { ...span }, shared: 'alias' };
    case 'seq':
      return { ...node, span: { ...span }, items: node.items.map((item) => relocate(item, span)), shared: 'alias' };
    case 'map':
      return {
        ...node,
        span: { ...span },
        pairs: node.pairs.map((pair) => ({
          key: { ...pair.key, span: { ...span }, shared: 'alias' },
          value: pair.value ? relocate(pair.value, span) : null,
          span: { ...span },
        })),
        shared: 'alias',
      };
  }
}

/** Marks a subtree (its keys too) shared, where it is not marked yet. A loop: the tree may nest deep. */
function markShared(node: Node, mark: Shared): void {
  const stack: Node[] = [node];
  while (stack.length) {
    const current = stack.pop()!;
    current.shared ??= mark;
    if (current.type === 'map') {
      for (const pair of current.pairs) {
        pair.key.shared ??= mark;
        if (pair.value) stack.push(pair.value);
      }
    } else if (current.type === 'seq') for (const item of current.items) stack.push(item);
  }
}

export interface YamlParseOptions {
  cut?: Cut;
  /** LIMITS.aliasNodes unless the workspace sets it. */
  aliasNodes?: number;
  /**
   * `block` (the default): read straight from the text where it is plain block YAML
   * (blockYaml.ts), else through the library's Composer; `composer`: always through the Composer,
   * for the test that holds the block reader to it.
   */
  builder?: 'block' | 'composer';
}

/**
 * The documents of a YAML stream. `base` is where `text` starts in its file when it is a part
 * re-parsed alone: every span is shifted by it.
 */
export function parseYaml(text: string, base = 0, options: YamlParseOptions = {}): ParsedYamlDocument[] {
  // Most files are plain block YAML, which is read straight from the text; anything else (and
  // a text whose nesting is cut for a test) goes through the library.
  if ((options.builder ?? 'block') === 'block' && (options.cut ?? 'auto') === 'auto') {
    const read = documentsFromBlockYaml(text, base);
    if (read) return read;
  }
  // Flow collections and compact block ones nested past the limit are cut off first (shallow.ts):
  // the library would spend seconds and gigabytes on them before anything is checked. The library
  // reads a lone CR as `\n` (loneCrAsLf: the same offsets), so its lines are the editor's.
  const shallow = shallowYaml(loneCrAsLf(text), options.cut);
  const limit = options.aliasNodes ?? LIMITS.aliasNodes;
  let docs: Document.Parsed[];
  let unpaired: Span[] = [];
  try {
    // The library's CST, with the collections nested too deep for the composer cut from it.
    const tokens = Array.from(shallowTokens(new Parser().parse(shallow.text), shallow, options.cut));
    // A quoted string the library ended early is a syntax error of its own (unpairedQuotes).
    unpaired = unpairedQuotes(tokens);
    const composer = new Composer({ uniqueKeys: false, prettyErrors: false, strict: false });
    docs = Array.from(composer.compose(tokens));
  } catch (error) {
    // The library gave up on the whole text (it should not: it catches its own stack overflows). Say so, keep the file.
    const span = { start: base, end: base + text.length };
    return [
      {
        root: null,
        span,
        problems: [unreadable({ start: base, end: base + Math.min(text.length, 1) }, error)],
        selfContained: false,
      },
    ];
  }
  // One alias budget for the whole file: a stream of many documents must not multiply it.
  const budget = { left: limit, limit };
  return docs.map((doc) => convertDocument(doc, text, base, shallow.regions, budget, unpaired));
}

/**
 * Quoted scalars whose quotes inside are not paired: `'a''b'` is one string, but `'''` (an odd run)
 * or `"a\"` at the end of a line never closes. The library's lexer then looks for the closing quote
 * further on and, when the lines between cannot continue the string, ends it at its own line
 * without a word, so the text reads as a string that YAML does not allow, and whether it does
 * depends on a quote far away: a fix that removes that quote would break the file.
 */
function unpairedQuotes(tokens: readonly CST.Token[]): Span[] {
  const found: Span[] = [];
  const check = (token: CST.Token | undefined): void => {
    if (token?.type === 'single-quoted-scalar') {
      const inner = token.source.slice(1, -1).replace(/''/g, '');
      if (token.source.length >= 2 && token.source.endsWith("'") && inner.includes("'"))
        found.push({ start: token.offset, end: token.offset + token.source.length });
    } else if (token?.type === 'double-quoted-scalar') {
      const inner = token.source.slice(1, -1).replace(/\\[\s\S]/g, '');
      if (token.source.length >= 2 && token.source.endsWith('"') && (inner.includes('"') || inner.endsWith('\\')))
        found.push({ start: token.offset, end: token.offset + token.source.length });
    }
  };
  for (const token of tokens) {
    if (token.type !== 'document') continue;
    check(token.value);
    CST.visit(token, (item) => {
      check(item.key ?? undefined);
      check(item.value);
    });
  }
  return found;
}

/**
 * Every comment of a YAML text, in order (also those outside any document's content). Read on
 * demand, since only suppressions need them: a pass of the library's lexer, whose `#` tokens are
 * exactly the comments its parser keeps, and which builds no tree, so no nesting costs it more.
 */
export function yamlComments(text: string): Comment[] {
  const comments: Comment[] = [];
  let offset = 0;
  let scalarNext = false;
  for (const lexeme of new Lexer().lex(loneCrAsLf(text))) {
    // Offsets advance as the library's parser advances them: control lexemes take no room, and
    // the lexeme after a scalar marker is the scalar's source, whatever its first character.
    if (scalarNext) {
      scalarNext = false;
      offset += lexeme.length;
      continue;
    }
    const type = CST.tokenType(lexeme);
    if (type === 'scalar') scalarNext = true;
    if (type === 'scalar' || type === 'doc-mode' || type === 'flow-error-end') continue;
    if (type === 'comment') {
      // A CRLF file's `\r` is not part of the comment.
      const source = lexeme.endsWith('\r') ? lexeme.slice(0, -1) : lexeme;
      comments.push({ span: { start: offset, end: offset + source.length }, text: source });
    }
    offset += lexeme.length;
  }
  return comments;
}

/** The library's sentence for a flow collection its closing bracket never came to. */
const UNCLOSED_FLOW = /^Flow (sequence|map|mapping) in block collection must be sufficiently indented/;

/** The library's sentence for a mapping entry not aligned with the ones before it. */
const MISALIGNED_ENTRY = /^All mapping items must start at the same column/;

/** Every pair of a document as [key start, end of its value], by key start. */
function pairSpans(doc: Document.Parsed): [number, number][] {
  const out: [number, number][] = [];
  visit(doc, {
    Pair(_, pair) {
      const key = pair.key as YamlNode | null;
      if (!key?.range) return;
      const value = pair.value as YamlNode | null;
      out.push([key.range[0], value?.range?.[1] ?? key.range[1]]);
    },
  });
  return out.sort((a, b) => a[0] - b[0]);
}

/** The pair whose key is the first thing written on the line `from` is on, from `from` on. */
function pairStartingOnLine(pairs: readonly [number, number][], text: string, from: number): Span | undefined {
  const lineEnd = text.indexOf('\n', from);
  const limit = lineEnd < 0 ? text.length : lineEnd;
  let low = 0;
  let high = pairs.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (pairs[middle]![0] < from) low = middle + 1;
    else high = middle;
  }
  const pair = pairs[low];
  return pair && pair[0] < limit ? { start: pair[0], end: pair[1] } : undefined;
}

/**
 * The start of each flow collection by where the library stopped composing it: an unclosed one
 * ends where its error is reported. The outermost wins where several end at one place.
 */
function unclosedFlowStarts(doc: Document.Parsed): Map<number, number> {
  const starts = new Map<number, number>();
  visit(doc, {
    Collection(_, node) {
      if (!node.flow || !node.range) return;
      const [start, end] = node.range;
      if (!starts.has(end)) starts.set(end, start);
    },
  });
  return starts;
}

function convertDocument(
  doc: Document.Parsed,
  text: string,
  base: number,
  regions: Regions,
  budget: AliasBudget,
  unpaired: readonly Span[],
): ParsedYamlDocument {
  const problems: ParseProblem[] = [];
  /** Values not read: the regions cut off in this document, and where the library ran out of stack. */
  const unread: Span[] = [];
  const [docStart, , docEnd] = doc.range;
  for (const [start, end] of regions.within(docStart, docEnd)) unread.push({ start: base + start, end: base + end });
  // An error at the very end (an unclosed bracket) is shown on the last thing written, not on an empty line.
  const contentEnd = text.trimEnd().length;
  let unclosed: Map<number, number> | undefined;
  let pairs: [number, number][] | undefined;
  for (const error of doc.errors) {
    let [start, end] = error.pos;
    let recovered: Span | undefined;
    if (error.code === 'BAD_INDENT' && UNCLOSED_FLOW.test(error.message)) {
      // The library says where it gave up on an unclosed `[` or `{` (the next key, or the end of
      // the text); the mistake is the bracket, where the collection it composed begins, and what
      // it holds up to there is the library's guess.
      unclosed ??= unclosedFlowStarts(doc);
      const opening = unclosed.get(start);
      if (opening !== undefined) {
        recovered = { start: base + opening, end: base + Math.max(start, opening + 1) };
        [start, end] = [opening, opening + 1];
      }
    } else if (error.code === 'BAD_INDENT' && MISALIGNED_ENTRY.test(error.message)) {
      // The entry on the misaligned line was placed where the library guessed it belongs.
      pairs ??= pairSpans(doc);
      const entry = pairStartingOnLine(pairs, text, start);
      if (entry) recovered = { start: base + entry.start, end: base + entry.end };
    }
    if (error.code === 'RESOURCE_EXHAUSTION') {
      // The library ran out of stack composing a collection nested too deep (by indentation) and
      // left it empty: not a syntax error, a value not read, which the nesting limit mostly covers already.
      unread.push({ start: base + start, end: base + Math.max(end, start + 1) });
      continue;
    }
    // What the parser says inside a region cut off is about our placeholder, not the user's text.
    if (regions.contains(start)) continue;
    if (start >= contentEnd) [start, end] = contentEnd > 0 ? [contentEnd - 1, contentEnd] : [0, 0];
    end = Math.min(Math.max(end, start + 1), text.length);
    // The library's position may be the CR of a CRLF, or half of an astral character.
    const at = wholeCharacters(text, { start, end });
    problems.push({
      rule: 'yaml/syntax',
      code: 'yamlError',
      data: { code: error.code, text: yamlMessage(error.message) },
      span: { start: base + at.start, end: base + at.end },
      ...(recovered ? { recovered } : {}),
    });
  }
  for (const span of unpaired) {
    if (span.start < docStart || span.start >= docEnd) continue;
    const at = wholeCharacters(text, span);
    problems.push({
      rule: 'yaml/syntax',
      code: 'unpairedQuote',
      data: { quote: text[span.start] === "'" ? "'" : '"' },
      span: { start: base + at.start, end: base + at.end },
    });
  }
  const converter = new Converter(doc, text, base, problems, regions, budget);
  let root: Node | null = null;
  try {
    root = doc.contents ? converter.convert(doc.contents, 0) : null;
  } catch (error) {
    problems.push(unreadable({ start: base + docStart, end: base + Math.min(docEnd, docStart + 1) }, error));
  }
  declineUncovered(unread, problems);
  const notExpanded = converter.notExpanded;
  if (notExpanded.length > 0)
    problems.push(aliasesNotExpanded({ ...notExpanded[0]! }, notExpanded.length - 1, budget.limit));
  const selfContained = !converter.sawReferenceOrTag && doc.directives.yaml.explicit !== true && !hasTagDirective(doc);
  const references = converter.references();
  return {
    root,
    span: { start: base + docStart, end: base + docEnd },
    problems,
    selfContained,
    ...(references ? { references } : {}),
  };
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
  /** Aliases being expanded, outermost first: nodes made meanwhile count against the alias budget. */
  private readonly expanding: Span[] = [];
  /** The problems already pushed, so an anchor's problems are not pushed again for each of its aliases. */
  private readonly seen = new Set<string>();
  /** An anchor, an alias or an explicit tag was met (see `selfContained`). */
  sawReferenceOrTag = false;
  /** The outermost aliases left unexpanded for the budget, in document order. */
  readonly notExpanded: Span[] = [];
  /** How many anchored nodes hold the node being converted. */
  private anchored = 0;
  /** The anchored nodes of the document by anchor name, in document order (read on the first alias). */
  private anchors: Map<string, { start: number; node: YamlNode }[]> | undefined;
  /** Each anchored node as written (not inside an alias's expansion), with the aliases that stand for it. */
  private readonly anchorUses = new Map<unknown, AnchorUse>();
  /** Every alias token as written, resolved or not. */
  private readonly aliasTokens: Span[] = [];

  constructor(
    private readonly doc: Document.Parsed,
    /** The file's text (the library parsed it with deep regions cut off: shallow.ts). */
    private readonly text: string,
    /** Offset of `text` in its file: added to every span. */
    private readonly base: number,
    private readonly problems: ParseProblem[],
    private readonly regions: Regions,
    /** What alias expansion may still add (aliases of aliases can expand exponentially: "billion laughs"). */
    private readonly budget: AliasBudget,
  ) {}

  /**
   * Our node for a library node. An anchored node and everything in it are marked `anchor` (once,
   * by the outermost anchored node: nested anchors add no walk), the nodes an alias stands for
   * `alias` (`relocate`), so that no fix edits through them (see `Shared`).
   */
  convert(node: YamlNode | Alias | null | undefined, depth: number, fallbackAt = this.base): Node {
    if (!node || isAlias(node) || !node.anchor) return this.convertNode(node, depth, fallbackAt);
    this.anchored++;
    let converted: Node;
    try {
      converted = this.convertNode(node, depth, fallbackAt);
    } finally {
      this.anchored--;
    }
    if (this.anchored === 0) markShared(converted, 'anchor');
    if (this.expanding.length === 0 && !this.anchorUses.has(node))
      this.anchorUses.set(node, { name: node.anchor, span: { ...converted.span }, aliases: [] });
    return converted;
  }

  /** The anchors and alias tokens met, in document order; undefined when there were none. */
  references(): References | undefined {
    if (this.anchorUses.size === 0 && this.aliasTokens.length === 0) return undefined;
    const anchors = [...this.anchorUses.values()].sort(
      (a, b) => a.span.start - b.span.start || b.span.end - a.span.end,
    );
    return { anchors, aliases: [...this.aliasTokens].sort((a, b) => a.start - b.start) };
  }

  private convertNode(node: YamlNode | Alias | null | undefined, depth: number, fallbackAt: number): Node {
    const base = this.base;
    if (this.expanding.length > 0 && --this.budget.left < 0) throw OVER_BUDGET;
    if (depth > MAX_NESTING) {
      const span = node?.range ? this.rangeSpan(node.range) : { start: fallbackAt, end: fallbackAt };
      this.report(tooDeepToCheck({ start: span.start, end: Math.max(span.end, span.start + 1) }));
      return { type: 'scalar', value: null, span, style: 'plain' };
    }
    if (!node) return { type: 'scalar', value: null, span: { start: fallbackAt, end: fallbackAt }, style: 'plain' };
    if (isAlias(node)) return this.convertAlias(node, depth);
    if (node.anchor || node.tag) this.sawReferenceOrTag = true;
    const span = !node.range
      ? { start: fallbackAt, end: fallbackAt }
      : this.regions.size
        ? this.rangeSpan(node.range)
        : { start: base + node.range[0], end: base + node.range[1] };
    const start = span.start;
    if (isScalar(node)) return this.scalar(node, span);
    if (isMap(node)) {
      const map: MapNode = { type: 'map', pairs: [], span, flow: Boolean(node.flow) };
      const keyIndex = {};
      if (this.expanding.length > 0 && (this.budget.left -= node.items.length) < 0) throw OVER_BUDGET;
      for (const item of node.items) {
        if (!isPair(item)) continue;
        const key = this.key(item.key as YamlNode | null, start);
        const value = this.convert(item.value as YamlNode | null, depth + 1, key.span.end);
        map.pairs.push(mappingPair(map.pairs, keyIndex, key, value, (problem) => this.report(problem)));
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

  /**
   * A problem, once: an alias's expansion converts its anchor again, whose problems were pushed
   * where the anchor is written.
   */
  private report(problem: ParseProblem): void {
    const key = problemKey(problem);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.problems.push(problem);
  }

  private convertAlias(alias: Alias, depth: number): Node {
    this.sawReferenceOrTag = true;
    const [start, end] = alias.range
      ? [this.base + alias.range[0], this.base + alias.range[1]]
      : [this.base, this.base];
    const unexpanded = (): Node => ({
      type: 'scalar',
      value: null,
      span: { start, end },
      style: 'plain',
      shared: 'alias',
    });
    const target = this.resolve(alias);
    // As written: an alias met again inside another alias's expansion is that one's text.
    if (this.expanding.length === 0) {
      this.aliasTokens.push({ start, end });
      if (target) this.anchorUses.get(target)?.aliases.push({ start, end });
    }
    if (!target || this.aliasesInProgress.has(target)) return unexpanded();
    const outermost = this.expanding.length === 0;
    if (this.budget.left <= 0) {
      // Said once per document, at the outermost alias: the one the user sees used.
      const at = outermost ? { start, end: Math.max(end, start + 1) } : this.expanding[0]!;
      if (this.notExpanded[this.notExpanded.length - 1] !== at) this.notExpanded.push(at);
      return unexpanded();
    }
    const problemsBefore = this.problems.length;
    this.aliasesInProgress.add(target);
    this.expanding.push({ start, end: Math.max(end, start + 1) });
    try {
      // The alias stands for its anchor's value, but findings belong where the alias is written.
      return relocate(this.convert(target, depth + 1, start), { start, end });
    } catch (error) {
      if (error !== OVER_BUDGET || !outermost) throw error;
      // The budget ran out inside this expansion: the alias stays unexpanded, and what its partial
      // expansion found goes with it.
      for (const problem of this.problems.splice(problemsBefore)) {
        this.seen.delete(problemKey(problem));
      }
      if (this.notExpanded[this.notExpanded.length - 1] !== this.expanding[0])
        this.notExpanded.push(this.expanding[0]!);
      return unexpanded();
    } finally {
      this.aliasesInProgress.delete(target);
      this.expanding.pop();
    }
  }

  /**
   * The node an alias stands for: the last node before it anchored with its name. Not the
   * library's `Alias.resolve`, which walks the whole document for each alias (9,000 aliases of a
   * 37 KB file took seconds): every anchor is indexed once, on the first alias.
   */
  private resolve(alias: Alias): YamlNode | undefined {
    this.anchors ??= anchorsOf(this.doc);
    const candidates = this.anchors.get(alias.source);
    const at = alias.range?.[0] ?? 0;
    if (!candidates) return undefined;
    let low = 0;
    let high = candidates.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (candidates[mid]!.start < at) low = mid + 1;
      else high = mid;
    }
    return candidates[low - 1]?.node;
  }

  /**
   * A node's span, over the regions cut off before parsing that start in it: a region is a
   * placeholder there (at the node's start, or after the indicators of a compact collection),
   * and what it stands for belongs to the node.
   */
  private rangeSpan(range: readonly [number, number, number]): Span {
    let end = range[1];
    for (const [, regionEnd] of this.regions.within(range[0], Math.max(range[1], range[0] + 1)))
      end = Math.max(end, regionEnd);
    return { start: this.base + range[0], end: this.base + end };
  }

  private key(key: YamlNode | null, fallbackAt: number): ScalarNode {
    const base = this.base;
    if (key && isScalar(key) && !(key.range && this.regions.endAt(key.range[0]) !== undefined)) {
      if (key.anchor || key.tag) this.sawReferenceOrTag = true;
      const span = key.range
        ? { start: base + key.range[0], end: base + key.range[1] }
        : { start: fallbackAt, end: fallbackAt };
      const scalar = this.scalar(key, span);
      if (key.anchor) {
        scalar.shared = 'anchor';
        if (this.expanding.length === 0 && !this.anchorUses.has(key))
          this.anchorUses.set(key, { name: key.anchor, span: { ...span }, aliases: [] });
      }
      return scalar;
    }
    if (key?.range) {
      // A collection or an alias as a key: kept as its text (rules compare keys as strings).
      this.sawReferenceOrTag = true;
      const span = this.rangeSpan(key.range);
      const scalar: ScalarNode = {
        type: 'scalar',
        value: this.text.slice(span.start - base, span.end - base),
        span,
        style: 'plain',
      };
      if (isAlias(key) || key.anchor) scalar.shared = isAlias(key) ? 'alias' : 'anchor';
      if (this.expanding.length === 0) {
        if (isAlias(key)) {
          this.aliasTokens.push({ ...span });
          const target = this.resolve(key);
          if (target) this.anchorUses.get(target)?.aliases.push({ ...span });
        } else if (key.anchor && !this.anchorUses.has(key))
          this.anchorUses.set(key, { name: key.anchor, span: { ...span }, aliases: [] });
      }
      return scalar;
    }
    return { type: 'scalar', value: '', span: { start: fallbackAt, end: fallbackAt }, style: 'plain' };
  }

  private scalar(node: Scalar, span: Span): ScalarNode {
    const value = scalarValue(node.value);
    return { type: 'scalar', value, span, style: STYLE[node.type ?? 'PLAIN'] ?? 'plain' };
  }
}

/**
 * Every anchored node of a document by anchor name, sorted by where each starts. A loop rather
 * than recursion: the tree may nest as deep as the library read it.
 */
function anchorsOf(doc: Document.Parsed): Map<string, { start: number; node: YamlNode }[]> {
  const anchors = new Map<string, { start: number; node: YamlNode }[]>();
  const stack: unknown[] = [doc.contents];
  while (stack.length) {
    const node = stack.pop();
    if (isPair(node)) {
      stack.push(node.key, node.value);
      continue;
    }
    if (!isScalar(node) && !isMap(node) && !isSeq(node)) continue;
    if (node.anchor) {
      const list = anchors.get(node.anchor) ?? [];
      list.push({ start: node.range?.[0] ?? 0, node });
      anchors.set(node.anchor, list);
    }
    if (isMap(node) || isSeq(node)) for (const item of node.items) stack.push(item);
  }
  for (const list of anchors.values()) list.sort((a, b) => a.start - b.start);
  return anchors;
}
