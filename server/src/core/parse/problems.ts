import { LIMITS } from '../limits.js';
import type { Fix, Span } from '../types.js';

/** A problem found while parsing, reported later by the `yaml/*` rules (and `lens/declined`, for a part not read). */
export interface ParseProblem {
  rule: 'yaml/syntax' | 'yaml/duplicate-key' | 'lens/declined';
  message: string;
  /** For a YAML syntax error, the YAML library's error code (`MISSING_CHAR`, `BAD_INDENT`, ...): rules/yaml/syntax.ts words it. */
  code?: string;
  span: Span;
  fixes?: Fix[];
  related?: { span: Span; message: string }[];
}

/** Deeper nesting than this is declined and cut off, so no later stage can overflow the stack. */
export const MAX_NESTING = LIMITS.nesting;

/** The parse-time decline of content nested too deep: the rest of the document is still checked. */
export function tooDeepToCheck(span: Span): ParseProblem {
  return {
    rule: 'lens/declined',
    message: `This value nests deeper than ${MAX_NESTING} levels, so Tool Lens does not check it; the rest of the document is checked.`,
    span,
  };
}

/**
 * The parse-time decline of YAML aliases past the document's expansion budget, once per document:
 * at the first alias left unexpanded, with how many more there are.
 */
export function aliasesNotExpanded(span: Span, more: number, limit: number = LIMITS.aliasNodes): ParseProblem {
  const which = more > 0 ? `This alias and the ${more.toLocaleString('en-US')} after it in this document are` : 'This alias is';
  const they = more > 0 ? 'they stand' : 'it stands';
  const them = more > 0 ? 'them' : 'it';
  return {
    rule: 'lens/declined',
    message: `${which} not expanded, so what ${they} for is not checked where used: Tool Lens builds at most ${limit.toLocaleString('en-US')} values from aliases in one file, and ${more > 0 ? 'these' : 'this one'} would go past that. To have ${them} checked, write large repeated content out or alias smaller anchors; the rest of the document is checked.`,
    span,
  };
}

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** The decline of a whole file larger than LIMITS.fileBytes (or the workspace's `limit`): nothing in it is read. */
export function fileTooLarge(span: Span, bytes: number, limit: number = LIMITS.fileBytes): ParseProblem {
  // Rounded up, so that a file just past the limit does not read as the limit itself.
  const unit = bytes >= GB ? { size: GB, name: 'GB' } : bytes >= MB ? { size: MB, name: 'MB' } : { size: 1024, name: 'KB' };
  const size = `${(Math.ceil((bytes / unit.size) * 10) / 10).toFixed(1)} ${unit.name}`;
  const most = limit % MB === 0 ? `${limit / MB} MB` : limit % 1024 === 0 ? `${limit / 1024} KB` : `${limit.toLocaleString('en-US')} bytes`;
  return {
    rule: 'lens/declined',
    message: `This file is ${size}, more than the ${most} Tool Lens reads, so none of it is checked; split it into smaller files to have them checked.`,
    span,
  };
}

/** The decline of a whole file holding more than LIMITS.fileValues (or the workspace's `limit`) values: nothing in it is read. */
export function fileTooManyValues(span: Span, limit: number = LIMITS.fileValues): ParseProblem {
  return {
    rule: 'lens/declined',
    message: `This file holds more than the ${limit.toLocaleString('en-US')} values Tool Lens reads in one file, so none of it is checked; split it into smaller files to have them checked.`,
    span,
  };
}

/** The decline of a document a parser could not read at all (it ran out of stack, or threw). */
export function unreadable(span: Span, error: unknown): ParseProblem {
  const why = error instanceof RangeError ? 'it nests too deeply to be read' : `it could not be read (${String(error)})`;
  return { rule: 'lens/declined', message: `This document is not checked: ${why}.`, span };
}

/**
 * After a converter ran: each span of content not read (a region cut off before parsing, see
 * shallow.ts; a value the library ran out of stack on) that no decline covers, because it fell
 * inside a key (kept as text) or inside a scalar, is declined on its own: nothing cut is unsaid.
 */
export function declineUncovered(spans: readonly Span[], problems: ParseProblem[]): void {
  if (spans.length === 0) return;
  const declined = problems.filter((p) => p.rule === 'lens/declined').map((p) => p.span).sort((a, b) => a.start - b.start);
  // Declines may overlap (an alias's expansion declines inside its anchor): a region is covered
  // when one starting at or before it ends at or after it, so the furthest end of each prefix decides.
  const furthest: number[] = [];
  for (const span of declined) furthest.push(Math.max(span.end, furthest[furthest.length - 1] ?? -1));
  for (const at of spans) {
    let low = 0;
    let high = declined.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (declined[mid]!.start <= at.start) low = mid + 1;
      else high = mid;
    }
    if (low === 0 || furthest[low - 1]! < at.end) problems.push(tooDeepToCheck(at));
  }
}
