import type { Fix, Span } from '../types.js';

/** A problem found while parsing, reported later by the `yaml/*` rules. */
export interface ParseProblem {
  rule: 'yaml/syntax' | 'yaml/duplicate-key';
  message: string;
  span: Span;
  fixes?: Fix[];
  related?: { span: Span; message: string }[];
}

/** Deeper nesting than this is reported and cut off, so no later stage can overflow the stack. */
export const MAX_NESTING = 400;
