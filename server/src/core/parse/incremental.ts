// Re-parsing a YAML file after an edit by reading again only the smallest entry of a block
// collection (a `- item` or a `key: value` with everything below it) that holds the edit, and
// keeping the rest of the tree, shifted past the edit. Even with the block reader (blockYaml.ts)
// a keystroke in a 2,000-line workflow is cheaper this way: about a quarter of a full parse's time,
// and a new tree less to collect (in the editor's edit loop, `bench lsp` and `lsp-push`: 2 to 3 ms of
// server CPU less per edit, of 10 to 13, December 2026).
//
// The result must always be exactly what a full parse gives (a differential test holds it to
// that). So the entry is re-read alone only where it cannot read differently than in its file;
// anywhere else (anchors, aliases, tags or directives in the document, a syntax error anywhere in
// it, tabs, an edit that crosses entries, an entry that no longer parses as one entry) the next
// larger entry is tried, and in the end `undefined` tells the caller to parse the whole file.
//
// Everything after the edit moves by the length the edit added (comments are read from the new
// text on first use, like a full parse's). By default those nodes are
// copied, so the previous parse stays intact. A caller that drops the previous parse anyway (the
// language server, on each keystroke) may let it be *consumed*: the nodes after the edit are then
// moved in place and shared with the new tree, which saves copying half a document and, more,
// the garbage collection of it. A consumed parse, and any other parse that shares its nodes, must
// not be used again; it is marked, and a second re-parse from it is refused.
import { DEFAULT_LIMITS, type ParseLimits } from '../limits.js';
import type { DocumentKind, Span } from '../types.js';
import { SourceText } from '../text/source.js';
import { fileWithComments, markPartial, type ParsedDocument, type ParsedFile } from './file.js';
import { embeddedDocuments } from './embedded.js';
import { detectKind } from './kinds.js';
import type { MapNode, Node, Pair, SeqNode } from './nodes.js';
import type { ParseProblem } from './problems.js';
import { tooLarge, valueStarts } from './size.js';
import { parseYaml } from './yaml.js';

/** The edit as a diff of the two texts: `[start, oldEnd)` of the old text became `[start, oldEnd + delta)`. */
interface Change {
  start: number;
  oldEnd: number;
  delta: number;
}

/** One step from a collection to the child on the way to the re-read entry. */
interface Step {
  collection: MapNode | SeqNode;
  index: number;
}

/** An entry that may be re-read alone: its lines `[from, to)` and the column it starts at. */
interface Candidate {
  steps: Step[];
  from: number;
  to: number;
  column: number;
}

export interface ReparseOptions {
  /** The caller never uses `previous` again: its nodes may be moved into the new tree. */
  consume?: boolean;
  /** The workspace's limits, which `previous` must have been parsed under too; LIMITS by default. */
  limits?: ParseLimits;
}

/** Parses whose nodes were moved into a newer tree (see above). */
const consumed = new WeakSet<ParsedFile>();

/**
 * The file for `text`, re-using `previous` (the same file before an edit), or undefined when only
 * a full parse can give the right result.
 */
export function reparseFile(
  previous: ParsedFile,
  text: string,
  forcedKind: DocumentKind | null,
  options: ReparseOptions = {},
): ParsedFile | undefined {
  if (previous.language !== 'yaml' || consumed.has(previous)) return undefined;
  const oldText = previous.source.text;
  if (oldText === text) {
    if (options.consume) consumed.add(previous);
    return withDocuments(
      previous,
      text,
      ownDocuments(previous).map((doc) => ({ ...doc })),
      forcedKind,
    );
  }
  const change = diff(oldText, text);
  // A file grown past LIMITS.fileBytes, or by an insertion that may hold many values (a paste),
  // goes through the full parse, which declines it whole when it is past LIMITS.fileValues.
  const inserted = text.slice(change.start, change.oldEnd + change.delta);
  const limits = options.limits ?? DEFAULT_LIMITS;
  if (tooLarge(text, limits.fileBytes) !== undefined || valueStarts(inserted, true) > limits.fileValues / 4)
    return undefined;
  const own = ownDocuments(previous);
  const index = own.findIndex((doc) => doc.span.start <= change.start && change.oldEnd <= doc.span.end);
  const doc = own[index];
  if (!doc?.root || !doc.selfContained || doc.problems.length > 0) return undefined;
  const shift = options.consume ? moveBy(change.delta) : copyBy(change.delta);
  for (const candidate of candidates(doc, oldText, change).reverse()) {
    const atDocumentEnd = candidate.to === doc.span.end;
    const result = reread(candidate, text, change, shift, atDocumentEnd);
    if (!result) continue;
    if (options.consume) consumed.add(previous);
    // Where the entry runs to the end of the document, the document ends where the entry read alone does.
    const end = atDocumentEnd ? result.end : doc.span.end + change.delta;
    const documents = own.map((other, i): ParsedDocument => {
      if (i < index) return { ...other };
      if (i > index) return shiftDocument(other, shift);
      return { ...doc, root: result.root, span: { start: doc.span.start, end } };
    });
    return withDocuments(previous, text, documents, forcedKind);
  }
  return undefined;
}

/** The file's own documents, without those embedded in them (they are found again in the new tree). */
function ownDocuments(file: ParsedFile): ParsedDocument[] {
  return file.documents.filter((doc) => !doc.embedded);
}

function withDocuments(
  previous: ParsedFile,
  text: string,
  documents: ParsedDocument[],
  forcedKind: DocumentKind | null,
): ParsedFile {
  for (const doc of documents) doc.kind = detectKind(previous.path, doc.root, forcedKind);
  documents.push(...embeddedDocuments(documents));
  markPartial(documents);
  const kind = documents.find((d) => d.kind)?.kind ?? null;
  return fileWithComments({
    path: previous.path,
    source: new SourceText(text),
    language: previous.language,
    documents,
    kind,
  });
}

function diff(oldText: string, newText: string): Change {
  const shorter = Math.min(oldText.length, newText.length);
  let start = 0;
  while (start < shorter && oldText.charCodeAt(start) === newText.charCodeAt(start)) start++;
  let suffix = 0;
  while (
    suffix < shorter - start &&
    oldText.charCodeAt(oldText.length - 1 - suffix) === newText.charCodeAt(newText.length - 1 - suffix)
  )
    suffix++;
  return { start, oldEnd: oldText.length - suffix, delta: newText.length - oldText.length };
}

// ---- finding the entries that hold the edit ---------------------------------------------------------

/** The entries that hold the whole edit, outermost first. */
function candidates(doc: ParsedDocument, text: string, change: Change): Candidate[] {
  const out: Candidate[] = [];
  const steps: Step[] = [];
  let node: Node | null = doc.root;
  let end = doc.span.end;
  while (node && node.type !== 'scalar' && !node.flow) {
    const starts =
      node.type === 'map' ? node.pairs.map((pair) => pair.key.span.start) : node.items.map((item) => item.span.start);
    const collection: MapNode | SeqNode = node;
    const lines = starts.map((start) => entryLine(text, start, collection.type));
    let child: Node | null = null;
    for (let i = 0; i < starts.length; i++) {
      const line = lines[i];
      const from = line?.from;
      const next = i + 1 < starts.length ? lines[i + 1]?.from : end;
      if (line === undefined || from === undefined || next === undefined) continue;
      const to = withoutTrailingComments(text, from, next, line.column, doc.span.end);
      if (from > change.start || change.oldEnd > to) continue;
      if (!isLineStart(text, to)) return out;
      steps.push({ collection, index: i });
      out.push({ steps: [...steps], from, to, column: line.column });
      end = to;
      child = collection.type === 'map' ? collection.pairs[i]!.value : collection.items[i]!;
      break;
    }
    node = child;
  }
  return out;
}

/**
 * The end of an entry's lines without the comment lines (and blank lines) between its last content
 * and what follows it, when they sit at the entry's column or outside it and no deeper than the
 * next line of content: such comments belong to neither the entry nor its collections, and leave
 * every range the same (a comment written deeper may be counted into the entry's collections,
 * depending on what follows; those stay in the entry, where `readsAlone` refuses them). Before the
 * end of the document only: there a comment can stretch an outer collection.
 */
function withoutTrailingComments(text: string, from: number, to: number, column: number, documentEnd: number): number {
  if (to >= documentEnd) return to;
  const nextIndent = indentAt(text, to);
  let end = to;
  // Blank lines before the first of those comments stay: a `|+` block scalar keeps them.
  let firstComment = to;
  while (end > from) {
    const lineStart = text.lastIndexOf('\n', end - 2) + 1;
    if (lineStart <= from) break;
    const indent = indentAt(text, lineStart);
    const first = text[lineStart + indent];
    const blank = first === '\n' || first === '\r' || first === undefined;
    if (!blank) {
      if (first !== '#' || indent > column || indent < nextIndent) break;
      firstComment = lineStart;
    }
    end = lineStart;
  }
  return firstComment;
}

function indentAt(text: string, lineStart: number): number {
  let i = lineStart;
  while (text.charCodeAt(i) === 32) i++;
  return i - lineStart;
}

/**
 * Where the line of an entry starts and the entry's column, when nothing but indentation (and, for
 * a sequence item, its `- `) comes before the entry on its line; undefined otherwise.
 */
function entryLine(text: string, start: number, type: 'map' | 'seq'): { from: number; column: number } | undefined {
  let from = start;
  while (from > 0 && text.charCodeAt(from - 1) !== 10) from--;
  const before = text.slice(from, start);
  if (type === 'map') return /^ *$/.test(before) ? { from, column: before.length } : undefined;
  const item = /^( *)- +$/.exec(before);
  return item ? { from, column: item[1]!.length } : undefined;
}

function isLineStart(text: string, offset: number): boolean {
  return offset === 0 || offset === text.length || text.charCodeAt(offset - 1) === 10;
}

// ---- reading one entry again --------------------------------------------------------------------------

/**
 * The document's new root with the candidate entry read again, where the entry read alone ends as
 * a document, and its comments; undefined when it cannot be read alone.
 */
function reread(
  candidate: Candidate,
  text: string,
  change: Change,
  shift: Shifter,
  atDocumentEnd: boolean,
): { root: Node; end: number } | undefined {
  const { from, column, steps } = candidate;
  const to = candidate.to + change.delta;
  if (to < from || !isLineStart(text, to)) return undefined;
  const region = text.slice(from, to);
  const last = steps[steps.length - 1]!;
  if (!readsAlone(region, column, last.collection.type, atDocumentEnd)) return undefined;
  const docs = parseYaml(region, from);
  const alone = docs[0];
  if (docs.length !== 1 || !alone?.root || !alone.selfContained || alone.problems.length > 0) return undefined;
  const entryRoot = alone.root;
  if (entryRoot.type !== last.collection.type || entryRoot.flow || entryRoot.span.start !== from + column)
    return undefined;
  let entry: Pair | Node;
  if (entryRoot.type === 'map') {
    if (entryRoot.pairs.length !== 1) return undefined;
    entry = entryRoot.pairs[0]!;
    // A key that another entry of the mapping already has: the full parse reports it.
    const name = String(entry.key.value);
    const collection = last.collection as MapNode;
    if (collection.pairs.some((pair, i) => i !== last.index && String(pair.key.value) === name)) return undefined;
  } else {
    if (entryRoot.items.length !== 1) return undefined;
    entry = entryRoot.items[0]!;
  }
  if (!spansFollow(steps, change) || hasEmptyKey(entry)) return undefined;
  return { root: rebuild(steps, 0, entry, entryRoot.span.end, change, shift), end: alone.span.end };
}

/**
 * Whether the entry's lines read the same alone as in their file: no tab, no line break but `\n`
 * (and `\r\n`), no document marker or directive, every line after the first either blank, a
 * comment, or indented deeper than the entry (a key's sequence may also sit at the key's column),
 * and no comment after the entry's last content, on its line or below it. The YAML library stretches the
 * range of a collection over comment lines that follow it depending on what comes after them (the
 * next entry, an outer key, the end of the text), which the entry read alone cannot see. At the
 * end of the document a comment counts like any other line, for the same reason.
 */
function readsAlone(region: string, column: number, type: 'map' | 'seq', atDocumentEnd: boolean): boolean {
  if (region.includes('\t') || /\r(?!\n)/.test(region)) return false;
  if (column === 0 && /^(---|\.\.\.|%)/.test(region)) return false;
  const firstBreak = region.indexOf('\n');
  // A ` #` on the last line of content may start a comment (or sit in a string: reading it all is not worth it here).
  let trailingComment = region.slice(0, firstBreak < 0 ? region.length : firstBreak).includes(' #');
  let lineStart = firstBreak + 1;
  while (lineStart > 0 && lineStart < region.length) {
    const nextBreak = region.indexOf('\n', lineStart);
    const lineEnd = nextBreak < 0 ? region.length : nextBreak;
    let indent = lineStart;
    while (indent < lineEnd && region.charCodeAt(indent) === 32) indent++;
    const first = region[indent];
    const blank = indent === lineEnd || first === '\r';
    if (!blank) trailingComment = first === '#' || region.slice(indent, lineEnd).includes(' #');
    if (!blank && (first !== '#' || atDocumentEnd) && indent - lineStart <= column) {
      const keysSequence =
        type === 'map' &&
        indent - lineStart === column &&
        first === '-' &&
        /^-( |\r?$)/.test(region.slice(indent, lineEnd));
      if (!keysSequence) return false;
    }
    lineStart = nextBreak + 1;
  }
  return !trailingComment;
}

/**
 * A key left empty (`: value`) has no text of its own: the YAML library places it after whatever
 * came before it, which differs when the entry is read alone.
 */
function hasEmptyKey(entry: Pair | Node): boolean {
  const stack: (Pair | Node | null)[] = [entry];
  while (stack.length) {
    const current = stack.pop();
    if (!current) continue;
    if ('key' in current) {
      if (current.key.span.start === current.key.span.end) return true;
      stack.push(current.value);
    } else if (current.type === 'map') stack.push(...current.pairs);
    else if (current.type === 'seq') stack.push(...current.items);
  }
  return false;
}

// ---- putting the tree together again ------------------------------------------------------------------

/**
 * Whether the collections on the way down end where `rebuild` can tell: after a later entry the
 * edit did not touch, or where their last entry ends.
 */
function spansFollow(steps: Step[], change: Change): boolean {
  return steps.every(({ collection, index }, level) => {
    const entries: readonly (Pair | Node)[] = collection.type === 'map' ? collection.pairs : collection.items;
    if (index < entries.length - 1) return collection.span.end >= change.oldEnd;
    return level === steps.length - 1 || collection.span.end === entries[index]!.span.end;
  });
}

/**
 * New collections on the way down, with the new entry in place and later entries shifted.
 * `aloneEnd` is where the one-entry collection read alone ends: the end of the entry's own
 * collection when the entry is its last. `spansFollow` has checked the spans.
 */
function rebuild(
  steps: Step[],
  level: number,
  entry: Pair | Node,
  aloneEnd: number,
  change: Change,
  shift: Shifter,
): Node {
  const { collection, index } = steps[level]!;
  const deepest = level === steps.length - 1;
  const entries: readonly (Pair | Node)[] = collection.type === 'map' ? collection.pairs : collection.items;
  const old = entries[index]!;
  let replacement: Pair | Node;
  if (deepest) replacement = entry;
  else {
    const value = rebuild(steps, level + 1, entry, aloneEnd, change, shift);
    replacement =
      collection.type === 'map'
        ? {
            key: (old as Pair).key,
            value,
            span: { start: old.span.start, end: Math.max((old as Pair).key.span.end, value.span.end) },
          }
        : value;
  }
  const last = index === entries.length - 1;
  const end = !last ? collection.span.end + change.delta : deepest ? aloneEnd : replacement.span.end;
  const span = { start: collection.span.start, end };
  if (collection.type === 'map') {
    const pairs = collection.pairs.map((p, i) => (i < index ? p : i === index ? (replacement as Pair) : shift.pair(p)));
    return { type: 'map', pairs, span, flow: false };
  }
  const items = collection.items.map((it, i) =>
    i < index ? it : i === index ? (replacement as Node) : shift.node(it),
  );
  return { type: 'seq', items, span, flow: false };
}

function shiftDocument(doc: ParsedDocument, shift: Shifter): ParsedDocument {
  // Problems first: they are copied from their spans as they are now.
  const problems = doc.problems.map((problem) => shiftProblem(problem, shift.delta));
  const references = doc.references && {
    anchors: doc.references.anchors.map((a) => ({
      name: a.name,
      span: shiftSpan(a.span, shift.delta),
      aliases: a.aliases.map((s) => shiftSpan(s, shift.delta)),
    })),
    aliases: doc.references.aliases.map((s) => shiftSpan(s, shift.delta)),
  };
  return {
    ...doc,
    root: doc.root ? shift.node(doc.root) : null,
    span: shiftSpan(doc.span, shift.delta),
    problems,
    ...(references ? { references } : {}),
  };
}

function shiftProblem(problem: ParseProblem, delta: number): ParseProblem {
  return {
    ...problem,
    span: shiftSpan(problem.span, delta),
    ...(problem.recovered ? { recovered: shiftSpan(problem.recovered, delta) } : {}),
    ...(problem.related ? { related: problem.related.map((r) => ({ ...r, span: shiftSpan(r.span, delta) })) } : {}),
    ...(problem.fixes
      ? {
          fixes: problem.fixes.map((fix) => ({
            ...fix,
            edits: fix.edits.map((edit) => ({ ...edit, span: shiftSpan(edit.span, delta) })),
          })),
        }
      : {}),
  };
}

function shiftSpan(span: Span, delta: number): Span {
  return { start: span.start + delta, end: span.end + delta };
}

/** Moves subtrees past the edit: as copies, or in place when the previous parse is consumed. */
interface Shifter {
  delta: number;
  node: (node: Node) => Node;
  pair: (pair: Pair) => Pair;
}

function copyBy(delta: number): Shifter {
  const shifter: Shifter = {
    delta,
    pair: (pair) => ({
      key: { ...pair.key, span: shiftSpan(pair.key.span, delta) },
      value: pair.value ? shifter.node(pair.value) : null,
      span: shiftSpan(pair.span, delta),
    }),
    node: (node) => {
      switch (node.type) {
        case 'scalar':
          return { ...node, span: shiftSpan(node.span, delta) };
        case 'seq':
          return { ...node, span: shiftSpan(node.span, delta), items: node.items.map(shifter.node) };
        case 'map':
          return { ...node, span: shiftSpan(node.span, delta), pairs: node.pairs.map(shifter.pair) };
      }
    },
  };
  return shifter;
}

/** In place. Safe because a parse's spans are never shared between nodes (see yaml.ts). */
function moveBy(delta: number): Shifter {
  const move = (span: Span) => {
    span.start += delta;
    span.end += delta;
  };
  const shifter: Shifter = {
    delta,
    pair: (pair) => {
      move(pair.key.span);
      if (pair.value) shifter.node(pair.value);
      move(pair.span);
      return pair;
    },
    node: (node) => {
      move(node.span);
      if (node.type === 'seq') for (const item of node.items) shifter.node(item);
      else if (node.type === 'map') for (const pair of node.pairs) shifter.pair(pair);
      return node;
    },
  };
  return shifter;
}
