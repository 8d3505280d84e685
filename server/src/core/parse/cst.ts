// YAML to our node tree straight from the `yaml` library's CST (its `Parser` tokens, with exact
// offsets), without its Composer and the `Document` objects it builds: the same tree, spans, values
// and problems as the Composer-based build (yaml.ts, `convertDocument`), for less work.
//
// It replays what the Composer does over the same tokens (compose-doc, compose-node,
// resolve-props, resolve-block-map, resolve-block-seq, resolve-flow-collection, resolve-end,
// compose-scalar with the core schema's tags; scalars are decoded by the library's own
// `CST.resolveAsScalar`), and what yaml.ts's Converter then makes of the result (alias expansion
// under the file's budget, shared marks, references, duplicate keys), in one pass. Wherever the
// Composer would say anything (an error or a warning) and wherever a construct is rare enough not
// to be worth replaying (directives, tags, explicit `?` keys, keys that are collections, aliases
// or anchored, content nested past the limit or cut off by shallow.ts), it gives up on the whole
// file (`undefined`) and the caller composes it as before: so a file with a syntax error gets
// exactly the library's messages and ranges. A differential test (test/unit/cst.test.ts) holds
// both builds to the same output on every YAML file of the repository and on generated and
// mutated documents.
import { CST, Document, isScalar as isLibraryScalar } from 'yaml';
import type { Span } from '../types.js';
import type { AnchorUse, MapNode, Node, Pair, References, ScalarNode, ScalarValue, SeqNode } from './nodes.js';
import { MAX_NESTING, aliasesNotExpanded, tooDeepToCheck, type ParseProblem } from './problems.js';
import { mappingPair, markShared, OVER_BUDGET, problemKey, relocate, scalarValue, STYLE, type AliasBudget, type ParsedYamlDocument } from './yamlShared.js';

/** Thrown where the Composer would report something, or the construct is not replayed: the file is composed instead. */
class GiveUp extends Error {}
const GIVE_UP = new GiveUp('composed instead');
function giveUp(): never {
  throw GIVE_UP;
}

/** How often the CST build gave up on a file, and for what (read by the differential test). */
export const cstFallbacks = { files: 0, fellBack: 0 };

// The core schema's scalar tags, from the library itself, as the Composer uses them for a plain
// scalar without a tag (compose-scalar's findScalarTagByTest: the first default tag whose test matches).
const LIBRARY_DOCUMENT = new Document(undefined, { uniqueKeys: false, prettyErrors: false, strict: false });
const SCHEMA_OPTIONS = LIBRARY_DOCUMENT.options;
interface ScalarTag {
  test: RegExp;
  resolve: (value: string, onError: (message: string) => void, options: unknown) => unknown;
}
const TESTED_TAGS: ScalarTag[] = (LIBRARY_DOCUMENT.schema.tags as unknown as (ScalarTag & { default?: unknown; collection?: unknown })[]).filter(
  (tag) => tag.default === true && !tag.collection && tag.test instanceof RegExp,
);
/** The first characters any of those tests can match (null, bool, int and float of the core schema); anything else is a string. */
const TESTED_FIRST = /^[~nNtTfF0-9+\-.]/;
// Were the library's core schema to change, the shortcut above could be wrong: then every plain scalar is tested.
const SHORTCUT = LIBRARY_DOCUMENT.schema.name === 'core' && TESTED_TAGS.length === 8;

/**
 * What a plain scalar without a tag means under the core schema, as the Composer resolves it
 * (compose-scalar: the first default tag whose test matches); undefined where that tag reports an
 * error, which the Composer would show.
 */
export function plainScalarValue(source: string): ScalarValue | undefined {
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

type Token = CST.Token;
type SourceToken = CST.SourceToken;

/** What resolve-props finds before a node (its indicator, anchor, and where it ends). */
interface Props {
  found: SourceToken | null;
  comma: SourceToken | null;
  hasNewline: boolean;
  hasComment: boolean;
  anchor: SourceToken | null;
  newlineAfterProp: SourceToken | null;
  end: number;
  start: number;
}

/** resolve-props, giving up wherever it reports anything (or meets a tag). */
function resolveProps(
  tokens: readonly SourceToken[],
  flow: boolean,
  indicator: string,
  next: Token | SourceToken | undefined,
  offset: number,
  parentIndent: number,
  startOnNewline: boolean,
): Props {
  let atNewline = startOnNewline;
  let hasSpace = startOnNewline;
  let hasNewline = false;
  let hasComment = false;
  let reqSpace = false;
  let tab: SourceToken | null = null;
  let anchor: SourceToken | null = null;
  let newlineAfterProp: SourceToken | null = null;
  let comma: SourceToken | null = null;
  let found: SourceToken | null = null;
  let start: number | null = null;
  for (const token of tokens) {
    const type = token.type;
    if (reqSpace) {
      if (type !== 'space' && type !== 'newline' && type !== 'comma') giveUp();
      reqSpace = false;
    }
    if (tab) {
      if (atNewline && type !== 'comment' && type !== 'newline') giveUp();
      tab = null;
    }
    if (type === 'space') {
      if (!flow && (indicator !== 'doc-start' || next?.type !== 'flow-collection') && token.source.includes('\t')) tab = token;
      hasSpace = true;
    } else if (type === 'comment') {
      if (!hasSpace) giveUp();
      hasComment = true;
      atNewline = false;
    } else if (type === 'newline') {
      atNewline = true;
      hasNewline = true;
      if (anchor) newlineAfterProp = token;
      hasSpace = true;
    } else if (type === 'anchor') {
      if (anchor || token.source.endsWith(':')) giveUp();
      anchor = token;
      start ??= token.offset;
      atNewline = false;
      hasSpace = false;
      reqSpace = true;
    } else if (type === indicator) {
      if (anchor || found) giveUp();
      found = token;
      atNewline = indicator === 'seq-item-ind' || indicator === 'explicit-key-ind';
      hasSpace = false;
    } else if (type === 'comma' && flow) {
      if (comma) giveUp();
      comma = token;
      atNewline = false;
      hasSpace = false;
    } else giveUp(); // a tag (not replayed), or a token out of place
  }
  const last = tokens[tokens.length - 1];
  const end = last ? last.offset + last.source.length : offset;
  if (reqSpace && next && next.type !== 'space' && next.type !== 'newline' && next.type !== 'comma' && (next.type !== 'scalar' || (next).source !== '')) giveUp();
  if (tab && ((atNewline && tab.indent <= parentIndent) || next?.type === 'block-map' || next?.type === 'block-seq')) giveUp();
  return { found, comma, hasNewline, hasComment, anchor, newlineAfterProp, end, start: start ?? end };
}

/** resolve-end: where a node's trailing spaces and comments end. */
function resolveEnd(end: readonly SourceToken[] | undefined, offset: number): number {
  if (end) {
    for (const token of end) {
      const type = token.type;
      if (type !== 'space' && type !== 'comment' && type !== 'newline') giveUp();
      offset += token.source.length;
    }
  }
  return offset;
}

/** util-empty-scalar-position: where an empty node sits, after the tokens before it. */
function emptyScalarPosition(offset: number, before: readonly SourceToken[] | undefined): number {
  if (before) {
    for (let i = before.length - 1; i >= 0; --i) {
      let st = before[i]!;
      const type = st.type;
      if (type === 'space' || type === 'comment' || type === 'newline') {
        offset -= st.source.length;
        continue;
      }
      st = before[++i]!;
      while (st?.type === 'space') {
        offset += st.source.length;
        st = before[++i]!;
      }
      break;
    }
  }
  return offset;
}

/** util-contains-newline, for the keys replayed here (scalars). */
function containsNewline(key: Token | null | undefined): boolean {
  if (!key) return false;
  switch (key.type) {
    case 'alias':
    case 'scalar':
    case 'double-quoted-scalar':
    case 'single-quoted-scalar':
      if (key.source.includes('\n')) return true;
      if (key.end) for (const st of key.end) if (st.type === 'newline') return true;
      return false;
    default:
      return true;
  }
}

/**
 * The value of a flow scalar on one line that needs no decoding but its quotes (resolve-flow-scalar
 * gives the same), or undefined: a plain scalar that may start with no reserved character, a
 * single-quoted one closed, a double-quoted one closed and without escapes.
 */
function singleLine(token: CST.FlowScalar): string | undefined {
  const source = token.source;
  if (source.includes('\n')) return undefined;
  switch (token.type) {
    case 'scalar': {
      const first = source[0];
      return first === '\t' || first === ',' || first === '%' || first === '|' || first === '>' || first === '@' || first === '`' ? undefined : source;
    }
    case 'single-quoted-scalar': {
      if (source.length < 2 || source[source.length - 1] !== "'") return undefined;
      const inner = source.slice(1, -1);
      return inner.includes("''") ? inner.replace(/''/g, "'") : inner;
    }
    case 'double-quoted-scalar':
      return source.length < 2 || source[source.length - 1] !== '"' || source.includes('\\') ? undefined : source.slice(1, -1);
    default:
      return undefined;
  }
}

function onScalarError(): void {
  giveUp();
}

/** The pairs a map token composes to (for the alias budget, before its pairs are read again). */
function pairCount(token: CST.BlockMap | CST.FlowCollection): number {
  let count = 0;
  if (token.type === 'block-map') {
    for (const item of token.items) if (item.sep) count++;
    return count;
  }
  for (const item of token.items) if (item.sep || item.value || item.start.some((st) => st.type === 'anchor')) count++;
  return count;
}

/** An anchored node as written, for the aliases after it: its token (null: an empty node), the props before it, where it starts. */
interface Anchored {
  start: number;
  token: Token | null;
  props: Props;
  /** Where an empty node sits. */
  emptyAt: number;
  /** Its first build is over (an alias inside it that would expand it gives up: see `alias`). */
  done: boolean;
}

/** A node to build: a token (or an empty node at `emptyAt`), or nothing at all (a flow pair without value). */
const NO_NODE = null;

class Builder {
  /** Where the last node built ends, trailing comments included (the library's `range[2]`). */
  private rangeEnd = 0;
  private readonly problems: ParseProblem[] = [];
  private readonly seen = new Set<string>();
  private readonly aliasesInProgress = new Set<Anchored>();
  private readonly expanding: Span[] = [];
  private readonly notExpanded: Span[] = [];
  private anchored = 0;
  private sawReference = false;
  private readonly anchors = new Map<string, Anchored[]>();
  private readonly anchorUses = new Map<Anchored, AnchorUse>();
  private readonly aliasTokens: Span[] = [];
  /** Each collection's span as first built, once the document has an anchor (for a decline inside an alias's expansion). */
  private readonly spans = new Map<Token, Span>();

  constructor(
    private readonly base: number,
    private readonly budget: AliasBudget,
  ) {}

  document(token: CST.Document): ParsedYamlDocument {
    const { offset, start, value, end } = token;
    const props = resolveProps(start, false, 'doc-start', value ?? end?.[0], offset, 0, true);
    if (props.found && value && (value.type === 'block-map' || value.type === 'block-seq') && !props.hasNewline) giveUp();
    const root = this.convert(value ?? null, props, 0, value ? 0 : emptyScalarPosition(props.end, start), this.base);
    const contentEnd = this.rangeEnd;
    const rangeEnd = resolveEnd(end, contentEnd);
    const problems = this.problems;
    const notExpanded = this.notExpanded;
    if (notExpanded.length > 0) problems.push(aliasesNotExpanded({ ...notExpanded[0]! }, notExpanded.length - 1, this.budget.limit));
    const references = this.references();
    return { root, span: { start: this.base + offset, end: this.base + rangeEnd }, problems, selfContained: !this.sawReference, ...(references ? { references } : {}) };
  }

  private references(): References | undefined {
    if (this.anchorUses.size === 0 && this.aliasTokens.length === 0) return undefined;
    const anchors = [...this.anchorUses.values()].sort((a, b) => a.span.start - b.span.start || b.span.end - a.span.end);
    return { anchors, aliases: [...this.aliasTokens].sort((a, b) => a.start - b.start) };
  }

  private report(problem: ParseProblem): void {
    const key = problemKey(problem);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.problems.push(problem);
  }

  /**
   * compose-node and the Converter's `convert`: our node for `token` (null: an empty node at
   * `emptyAt`; NO_NODE with `fallbackAt`: no node at all) with the props before it.
   */
  private convert(token: Token | null, props: Props | null, depth: number, emptyAt: number, fallbackAt: number): Node {
    const anchor = props?.anchor;
    if (!anchor) return this.convertNode(token, props, depth, emptyAt, fallbackAt);
    if (token?.type === 'alias' || anchor.source.length === 1) giveUp(); // props on an alias, an empty anchor
    let entry: Anchored | undefined;
    if (this.expanding.length === 0) {
      // Registered before its content is read: an alias inside it stands for it (as far as it goes).
      entry = { start: token ? token.offset : emptyAt, token, props: props, emptyAt, done: false };
      const name = anchor.source.substring(1);
      const list = this.anchors.get(name);
      if (list) list.push(entry);
      else this.anchors.set(name, [entry]);
    }
    this.anchored++;
    let converted: Node;
    try {
      converted = this.convertNode(token, props, depth, emptyAt, fallbackAt);
    } finally {
      this.anchored--;
    }
    if (this.anchored === 0) markShared(converted, 'anchor');
    if (entry) entry.done = true;
    if (entry && !this.anchorUses.has(entry)) this.anchorUses.set(entry, { name: anchor.source.substring(1), span: { ...converted.span }, aliases: [] });
    return converted;
  }

  private convertNode(token: Token | null, props: Props | null, depth: number, emptyAt: number, fallbackAt: number): Node {
    const expanding = this.expanding.length > 0;
    if (expanding && --this.budget.left < 0) throw OVER_BUDGET;
    if (props === NO_NODE) {
      // A flow pair without a value (`{a}`): the library has no node there.
      if (depth > MAX_NESTING) this.report(tooDeepToCheck({ start: fallbackAt, end: fallbackAt + 1 }));
      return { type: 'scalar', value: null, span: { start: fallbackAt, end: fallbackAt }, style: 'plain' };
    }
    if (depth > MAX_NESTING) {
      // Only inside an alias's expansion: past the limit as written, the Composer's build is kept.
      if (!expanding) giveUp();
      const span = this.spanOf(token, emptyAt);
      this.report(tooDeepToCheck({ start: span.start, end: Math.max(span.end, span.start + 1) }));
      return { type: 'scalar', value: null, span, style: 'plain' };
    }
    if (props.anchor) this.sawReference = true;
    if (!token) {
      // composeEmptyNode: an empty plain scalar, which the core schema reads as null.
      this.rangeEnd = props.hasComment ? props.end : emptyAt;
      const at = this.base + emptyAt;
      return { type: 'scalar', value: null, span: { start: at, end: at }, style: 'plain' };
    }
    switch (token.type) {
      case 'alias':
        return this.alias(token, depth);
      case 'scalar':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
      case 'block-scalar':
        return this.scalar(token);
      case 'block-map':
        return this.blockMap(token, depth);
      case 'block-seq':
        return this.blockSeq(token, props, depth);
      case 'flow-collection':
        return this.flow(token, depth);
      default:
        return giveUp();
    }
  }

  /** A node's span as first built (inside an alias's expansion, for a decline), without building it. */
  private spanOf(token: Token | null, emptyAt: number): Span {
    const base = this.base;
    if (!token) return { start: base + emptyAt, end: base + emptyAt };
    if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      const span = this.spans.get(token);
      if (!span) giveUp();
      return { ...span };
    }
    if (token.type === 'alias') return { start: base + token.offset, end: base + token.offset + token.source.length };
    const resolved = CST.resolveAsScalar(token, false, onScalarError);
    if (!resolved) return giveUp();
    return { start: base + resolved.range[0], end: base + resolved.range[1] };
  }

  /** compose-scalar, without a tag. */
  private scalar(token: CST.FlowScalar | CST.BlockScalar): ScalarNode {
    const base = this.base;
    const fast = token.type === 'block-scalar' ? undefined : singleLine(token);
    let source: string;
    let style: ScalarNode['style'];
    let start: number;
    let end: number;
    if (fast !== undefined) {
      source = fast;
      style = token.type === 'scalar' ? 'plain' : token.type === 'single-quoted-scalar' ? 'single' : 'double';
      const flowToken = token as CST.FlowScalar;
      start = flowToken.offset;
      end = start + flowToken.source.length;
      this.rangeEnd = resolveEnd(flowToken.end, end);
    } else {
      const resolved = CST.resolveAsScalar(token, false, onScalarError);
      if (!resolved) return giveUp();
      source = resolved.value;
      style = STYLE[resolved.type ?? 'PLAIN'] ?? 'plain';
      [start, end] = resolved.range;
      this.rangeEnd = resolved.range[2];
    }
    const value = token.type === 'scalar' ? plainScalarValue(source) : source;
    if (value === undefined) giveUp();
    return { type: 'scalar', value, span: { start: base + start, end: base + end }, style };
  }

  /** A key of a mapping: a scalar as written (anything else is composed instead). */
  private key(key: Token | null | undefined, props: Props, start: readonly SourceToken[]): ScalarNode {
    if (!key) {
      const at = emptyScalarPosition(props.end, start);
      this.rangeEnd = props.hasComment ? props.end : at;
      return { type: 'scalar', value: null, span: { start: this.base + at, end: this.base + at }, style: 'plain' };
    }
    if (key.type !== 'scalar' && key.type !== 'single-quoted-scalar' && key.type !== 'double-quoted-scalar') giveUp();
    return this.scalar(key);
  }

  private pair(pairs: Pair[], index: { keys?: Map<string, ScalarNode> }, key: ScalarNode, value: Node): Pair {
    return mappingPair(pairs, index, key, value, (problem) => this.report(problem));
  }

  /** resolve-block-map. */
  private blockMap(bm: CST.BlockMap, depth: number): MapNode {
    if (this.expanding.length > 0 && (this.budget.left -= pairCount(bm)) < 0) throw OVER_BUDGET;
    const pairs: Pair[] = [];
    const keys: { keys?: Map<string, ScalarNode> } = {};
    let offset = bm.offset;
    let commentEnd: number | null = null;
    for (const { start, key, sep, value } of bm.items) {
      const keyProps = resolveProps(start, false, 'explicit-key-ind', key ?? sep?.[0], offset, bm.indent, true);
      if (keyProps.found) giveUp(); // an explicit key
      if (key && (key.type === 'block-seq' || ('indent' in key && key.indent !== bm.indent))) giveUp();
      if (!keyProps.anchor && !sep) {
        commentEnd = keyProps.end;
        continue;
      }
      if (keyProps.anchor || !sep || containsNewline(key)) giveUp();
      const keyNode = this.key(key, keyProps, start);
      const valueProps = resolveProps(sep, false, 'map-value-ind', value, this.rangeEnd, bm.indent, !key || key.type === 'block-scalar');
      offset = valueProps.end;
      if (!valueProps.found || (value?.type === 'block-map' && !valueProps.hasNewline)) giveUp();
      const valueNode = this.convert(value ?? null, valueProps, depth + 1, value ? 0 : emptyScalarPosition(offset, sep), keyNode.span.end);
      offset = this.rangeEnd;
      pairs.push(this.pair(pairs, keys, keyNode, valueNode));
    }
    if (commentEnd && commentEnd < offset) giveUp();
    this.rangeEnd = commentEnd ?? offset;
    const span = { start: this.base + bm.offset, end: this.base + offset };
    if (this.anchors.size) this.spans.set(bm, { ...span });
    return { type: 'map', pairs, span, flow: false };
  }

  /** resolve-block-seq. */
  private blockSeq(bs: CST.BlockSequence, props: Props, depth: number): SeqNode {
    // compose-collection: an anchor on a block sequence needs a line break after it.
    if (props.anchor && (!props.newlineAfterProp || props.newlineAfterProp.offset < props.anchor.offset)) giveUp();
    const items: Node[] = [];
    let offset = bs.offset;
    let commentEnd: number | null = null;
    for (const { start, value } of bs.items) {
      const itemProps = resolveProps(start, false, 'seq-item-ind', value, offset, bs.indent, true);
      if (!itemProps.found) {
        if (itemProps.anchor || value) giveUp();
        commentEnd = itemProps.end;
        continue;
      }
      items.push(this.convert(value ?? null, itemProps, depth + 1, value ? 0 : emptyScalarPosition(itemProps.end, start), this.base + bs.offset));
      offset = this.rangeEnd;
    }
    this.rangeEnd = commentEnd ?? offset;
    const span = { start: this.base + bs.offset, end: this.base + offset };
    if (this.anchors.size) this.spans.set(bs, { ...span });
    return { type: 'seq', items, span, flow: false };
  }

  /** resolve-flow-collection. */
  private flow(fc: CST.FlowCollection, depth: number): MapNode | SeqNode {
    const isMap = fc.start.source === '{';
    const expanding = this.expanding.length > 0;
    if (isMap && expanding && (this.budget.left -= pairCount(fc)) < 0) throw OVER_BUDGET;
    const pairs: Pair[] = [];
    const items: Node[] = [];
    const keys: { keys?: Map<string, ScalarNode> } = {};
    const base = this.base;
    let offset = fc.offset + fc.start.source.length;
    const count = fc.items.length;
    for (let i = 0; i < count; ++i) {
      const { start, key, sep, value } = fc.items[i]!;
      const props = resolveProps(start, true, 'explicit-key-ind', key ?? sep?.[0], offset, fc.indent, false);
      if (props.found) giveUp(); // an explicit key
      if (!props.anchor && !sep && !value) {
        if ((i === 0 && props.comma) || i < count - 1) giveUp();
        offset = props.end;
        continue;
      }
      if (i === 0 ? props.comma : !props.comma) giveUp();
      if (!isMap && !sep) {
        if (value?.type === 'block-map' || value?.type === 'block-seq') giveUp();
        items.push(this.convert(value ?? null, props, depth + 1, value ? 0 : emptyScalarPosition(props.end, sep), base + fc.offset));
        offset = this.rangeEnd;
        continue;
      }
      // A pair: of the flow map, or a flow sequence's single-pair map (`[a: 1]`), itself one node deeper.
      let pairDepth = depth;
      if (!isMap) {
        pairDepth = depth + 1;
        if (expanding && --this.budget.left < 0) throw OVER_BUDGET;
        if (pairDepth > MAX_NESTING) giveUp();
        if (expanding && --this.budget.left < 0) throw OVER_BUDGET;
        // The library's strict mode alone checks these keys further; it is off.
      }
      if (props.anchor) giveUp();
      const keyNode = this.key(key, props, start);
      const valueProps = resolveProps(sep ?? [], true, 'map-value-ind', value, this.rangeEnd, fc.indent, false);
      if (!valueProps.found && value) giveUp();
      if (value?.type === 'block-map' || value?.type === 'block-seq') giveUp();
      let valueNode: Node;
      if (value || valueProps.found) {
        valueNode = this.convert(value ?? null, valueProps, pairDepth + 1, value ? 0 : emptyScalarPosition(valueProps.end, sep), keyNode.span.end);
        offset = this.rangeEnd;
      } else {
        valueNode = this.convert(null, NO_NODE, pairDepth + 1, 0, keyNode.span.end);
        offset = valueProps.end;
      }
      if (isMap) pairs.push(this.pair(pairs, keys, keyNode, valueNode));
      else {
        // Its span: from the key to the end of the value written (or of the key, without one).
        const end = value || valueProps.found ? valueNode.span.end : keyNode.span.end;
        items.push({ type: 'map', pairs: [this.pair([], {}, keyNode, valueNode)], span: { start: keyNode.span.start, end }, flow: true });
      }
    }
    const [ce, ...ee] = fc.end;
    if (ce?.source !== (isMap ? '}' : ']')) giveUp();
    const cePos = ce.offset + ce.source.length;
    this.rangeEnd = ee.length > 0 ? resolveEnd(ee, cePos) : cePos;
    const span = { start: base + fc.offset, end: base + cePos };
    if (this.anchors.size) this.spans.set(fc, { ...span });
    return isMap ? { type: 'map', pairs, span, flow: true } : { type: 'seq', items, span, flow: true };
  }

  private alias(token: CST.FlowScalar, depth: number): Node {
    this.sawReference = true;
    const name = token.source.substring(1);
    if (name === '' || name.endsWith(':')) giveUp();
    const valueEnd = token.offset + token.source.length;
    this.rangeEnd = resolveEnd(token.end, valueEnd);
    const start = this.base + token.offset;
    const end = this.base + valueEnd;
    const unexpanded = (): Node => ({ type: 'scalar', value: null, span: { start, end }, style: 'plain', shared: 'alias' });
    const target = this.resolve(name, token.offset);
    const rangeEnd = this.rangeEnd;
    if (this.expanding.length === 0) {
      this.aliasTokens.push({ start, end });
      if (target) this.anchorUses.get(target)?.aliases.push({ start, end });
    }
    if (!target || this.aliasesInProgress.has(target)) return unexpanded();
    // An alias inside the node it stands for, met while that node is first read: its expansion
    // could hold aliases to anchors written after this point, which the Composer's index has and
    // this single pass has not met yet.
    if (!target.done) giveUp();
    const outermost = this.expanding.length === 0;
    if (this.budget.left <= 0) {
      const at = outermost ? { start, end: Math.max(end, start + 1) } : this.expanding[0]!;
      if (this.notExpanded[this.notExpanded.length - 1] !== at) this.notExpanded.push(at);
      return unexpanded();
    }
    const problemsBefore = this.problems.length;
    this.aliasesInProgress.add(target);
    this.expanding.push({ start, end: Math.max(end, start + 1) });
    try {
      return relocate(this.convert(target.token, target.props, depth + 1, target.emptyAt, start), { start, end });
    } catch (error) {
      if (error !== OVER_BUDGET || !outermost) throw error;
      for (const problem of this.problems.splice(problemsBefore)) this.seen.delete(problemKey(problem));
      if (this.notExpanded[this.notExpanded.length - 1] !== this.expanding[0]) this.notExpanded.push(this.expanding[0]!);
      return unexpanded();
    } finally {
      this.aliasesInProgress.delete(target);
      this.expanding.pop();
      // What follows the alias goes on from where it ends, not from where its expansion did.
      this.rangeEnd = rangeEnd;
    }
  }

  /** The anchored node an alias at `at` stands for: the last one before it with its name. */
  private resolve(name: string, at: number): Anchored | undefined {
    const candidates = this.anchors.get(name);
    if (!candidates) return undefined;
    let low = 0;
    let high = candidates.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (candidates[mid]!.start < at) low = mid + 1;
      else high = mid;
    }
    return candidates[low - 1];
  }
}

/**
 * The documents of a YAML stream as the Composer-based build gives them, from the library's CST
 * tokens of the same text; undefined where only the Composer can tell (see above).
 */
export function documentsFromCst(tokens: readonly Token[], base: number, budget: AliasBudget): ParsedYamlDocument[] | undefined {
  cstFallbacks.files++;
  try {
    const documents: ParsedYamlDocument[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      switch (token.type) {
        case 'document':
          documents.push(new Builder(base, budget).document(token));
          break;
        case 'doc-end': {
          // A `...` sets where the document before it ends (compose: `doc.range[2]`).
          const last = documents[documents.length - 1];
          if (!last) giveUp();
          last.span.end = base + resolveEnd(token.end, token.offset + token.source.length);
          break;
        }
        case 'byte-order-mark':
        case 'space':
        case 'comment':
        case 'newline':
          break;
        default:
          giveUp(); // a directive, an error
      }
    }
    return documents;
  } catch {
    // Giving up, or anything unforeseen (this build must never do worse than the Composer's): composed instead.
    cstFallbacks.fellBack++;
    return undefined;
  }
}
