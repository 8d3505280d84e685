// What a fix's edits do to the text other places share through YAML anchors and aliases, from the
// parse's record of them (`References`): the one check every fix passes (engine.ts), whichever way
// its edits were built. An alias token (`*env`) has no text of its own to edit: an edit that
// overlaps one without taking it whole as part of something larger (a pair removed, a value
// replaced around it) edits what it stands for in the wrong place, and the fix is withdrawn. An
// edit inside an anchored node changes every alias of it too: the fix is no longer safe, and its
// title must say which places it also changes. An edit that takes away part of an anchored node
// that aliases use, or the whole of one, would leave them changed or unresolved: withdrawn.
//
// The mapping edits (mappingEdits.ts) already give none of these; this is what holds the rest
// (edits inside template strings, envelope rewrites, schema fixes) to the same promise.
import type { ParsedFile } from '../parse/file.js';
import type { AnchorUse } from '../parse/nodes.js';
import type { Span, TextEdit } from '../types.js';

/** The anchors and alias tokens of a file, indexed for the check. */
export interface SharedIndex {
  /** Anchored nodes by start (outermost first where two start together). */
  readonly anchors: readonly AnchorUse[];
  /** For each anchor, the index of the innermost anchor holding it, or -1. */
  readonly parents: readonly number[];
  /** Alias tokens by start. */
  readonly aliases: readonly Span[];
}

/** The file's anchors and aliases (its own documents'), or undefined when it has none. */
export function sharedIndexOf(file: ParsedFile): SharedIndex | undefined {
  const anchors: AnchorUse[] = [];
  const aliases: Span[] = [];
  for (const doc of file.documents) {
    if (!doc.references) continue;
    anchors.push(...doc.references.anchors);
    aliases.push(...doc.references.aliases);
  }
  if (!anchors.length && !aliases.length) return undefined;
  anchors.sort((a, b) => a.span.start - b.span.start || b.span.end - a.span.end);
  aliases.sort((a, b) => a.start - b.start);
  // Anchored nodes nest or are apart: each one's holder is on the stack of those still open.
  const parents: number[] = [];
  const open: number[] = [];
  anchors.forEach((anchor, i) => {
    while (open.length && anchors[open[open.length - 1]!]!.span.end <= anchor.span.start) open.pop();
    parents.push(open.length ? open[open.length - 1]! : -1);
    open.push(i);
  });
  return { anchors, parents, aliases };
}

/** What a fix's edits do to shared text. */
export type SharedEffect =
  /** Nothing shared is touched. */
  | { kind: 'none' }
  /** The fix must not be offered: it edits an alias token, or takes away (part of) an anchored node that aliases use. */
  | { kind: 'withdraw'; why: 'alias' | 'anchor' }
  /** The fix edits inside anchored nodes: it also changes the places that use them (`uses`, alias tokens, by start). */
  | { kind: 'shared'; names: string[]; uses: Span[] };

/** The first index whose start is at or after `offset` (`starts` sorted). */
function firstAtOrAfter<T>(items: readonly T[], startOf: (item: T) => number, offset: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (startOf(items[mid]!) < offset) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Whether an edit edits an alias token: overlaps it without taking it whole with more around it, or inserts inside it. */
function editsAlias(edit: TextEdit, token: Span): boolean {
  const { start, end } = edit.span;
  if (start === end) return token.start < start && start < token.end;
  if (!(start < token.end && token.start < end)) return false;
  const takesWhole = start <= token.start && token.end <= end && end - start > token.end - token.start;
  return !takesWhole;
}

/** The anchors an edit overlaps (or inserts into, at their start or inside): those holding it, and those it reaches into. */
function anchorsReached(index: SharedIndex, edit: TextEdit): number[] {
  const { start, end } = edit.span;
  const { anchors, parents } = index;
  const out: number[] = [];
  // Those that start within the edit (after its start, before its end).
  const from = firstAtOrAfter(anchors, (a) => a.span.start, start === end ? start + 1 : start);
  for (let i = from; i < anchors.length && anchors[i]!.span.start < end; i++) out.push(i);
  // Those that hold the edit's start: the innermost one starting at or before it, then its holders.
  let i = firstAtOrAfter(anchors, (a) => a.span.start, start + 1) - 1;
  while (i >= 0 && !holdsOffset(anchors[i]!.span, start)) i = parents[i]!;
  for (; i >= 0; i = parents[i]!) if (holdsOffset(anchors[i]!.span, start)) out.push(i);
  return out;
}

/** An edit starting at `offset` reaches into a span from its start to before its end (an insertion at its end is after it). */
function holdsOffset(span: Span, offset: number): boolean {
  return span.start <= offset && offset < span.end;
}

/** What the edits of one fix do to shared text. */
export function sharedEffectOf(index: SharedIndex | undefined, edits: readonly TextEdit[]): SharedEffect {
  if (!index) return { kind: 'none' };
  const names = new Set<string>();
  const uses = new Map<number, Span>();
  for (const edit of edits) {
    const { start, end } = edit.span;
    // Alias tokens never overlap one another: only those from the one before the edit on can touch it.
    for (
      let i = Math.max(0, firstAtOrAfter(index.aliases, (a) => a.start, start) - 1);
      i < index.aliases.length && index.aliases[i]!.start <= end;
      i++
    ) {
      if (editsAlias(edit, index.aliases[i]!)) return { kind: 'withdraw', why: 'alias' };
    }
    for (const i of anchorsReached(index, edit)) {
      const anchor = index.anchors[i]!;
      const within =
        anchor.span.start <= start && end <= anchor.span.end && !(start === end && start === anchor.span.end);
      if (!anchor.aliases.length) continue; // Nothing else stands for it.
      if (!within) return { kind: 'withdraw', why: 'anchor' };
      names.add(anchor.name);
      for (const use of anchor.aliases) uses.set(use.start, use);
    }
  }
  if (!uses.size) return { kind: 'none' };
  return { kind: 'shared', names: [...names], uses: [...uses.values()].sort((a, b) => a.start - b.start) };
}
