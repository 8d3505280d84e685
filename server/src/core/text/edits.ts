import type { Fix, Span, TextEdit } from '../types.js';

function spansOverlap(a: Span, b: Span): boolean {
  // Two insertions at the same point count as overlapping: their order would be arbitrary.
  if (a.start === a.end && b.start === b.end) return a.start === b.start;
  return a.start < b.end && b.start < a.end;
}

/** Applies non-overlapping edits, all computed against `text`. Throws on overlap: a caller bug. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  let out = '';
  let cursor = 0;
  for (const edit of sorted) {
    if (edit.span.start < cursor) throw new Error('overlapping text edits');
    out += text.slice(cursor, edit.span.start) + edit.newText;
    cursor = edit.span.end;
  }
  return out + text.slice(cursor);
}

/**
 * Picks, in order, the fixes whose edits overlap neither each other nor an already chosen fix,
 * so that all of them can be applied in one pass. Returns the chosen fixes and how many were left.
 */
export function chooseCompatibleFixes(fixes: readonly Fix[]): { chosen: Fix[]; skipped: number } {
  const chosen: Fix[] = [];
  const taken: Span[] = [];
  let skipped = 0;
  for (const fix of fixes) {
    const clash = fix.edits.some((e) => taken.some((t) => spansOverlap(e.span, t)));
    const selfClash = fix.edits.some((e, i) => fix.edits.some((o, j) => i < j && spansOverlap(e.span, o.span)));
    if (clash || selfClash) {
      skipped++;
      continue;
    }
    chosen.push(fix);
    for (const e of fix.edits) taken.push(e.span);
  }
  return { chosen, skipped };
}
