import { LIMITS } from '../limits.js';
import type { Fix, Span } from '../types.js';

/** A problem found while parsing, reported later by the `yaml/*` rules (and `lens/declined`, for a part not read). */
export interface ParseProblem {
  rule: 'yaml/syntax' | 'yaml/duplicate-key' | 'lens/declined';
  message: string;
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
