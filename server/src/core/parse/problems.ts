import { LIMITS } from '../limits.js';
import type { Fix, Span } from '../types.js';

/**
 * A problem found while parsing, as data: which rule reports it, a code that says the case, and
 * the data its words need. The parsers word nothing: the `yaml/*` rules and `lens/declined` (for a
 * part not read) say each in their own message table.
 */
export type ParseProblem = ProblemCase & {
  span: Span;
  fixes?: Fix[];
  /** Other places the problem is about (a duplicate key's first writing). */
  related?: { span: Span }[];
  /**
   * A syntax error's: what the parser rebuilt by guessing past it, when that is more than `span`
   * (an unclosed `[` or `{`: the collection it composed up to where it gave up). No finding but
   * the parser's own is about what lies there (engine.ts).
   */
  recovered?: Span;
};

export type ProblemCase =
  /** One of the YAML library's errors: its code (`MISSING_CHAR`, `BAD_INDENT`, ...) and its text, without the code excerpt. */
  | { rule: 'yaml/syntax'; code: 'yamlError'; data: { code: string; text: string } }
  /** One of jsonc-parser's errors, by its name (`CommaExpected`, ...). */
  | { rule: 'yaml/syntax'; code: 'jsonError'; data: { code: string } }
  /** The TOML parser's error (it stops at the first): its sentence. */
  | { rule: 'yaml/syntax'; code: 'tomlError'; data: { text: string } }
  /** A quoted string the block reader ended on its own line, though a quote inside it is not escaped. */
  | { rule: 'yaml/syntax'; code: 'unpairedQuote'; data: { quote: "'" | '"' } }
  /** A key written twice in one mapping (`related` holds the first); `json`: in a JSON object. */
  | { rule: 'yaml/duplicate-key'; code: 'duplicateKey'; data: { key: string; json: boolean } }
  | { rule: 'lens/declined'; code: 'tooDeep'; data: { limit: number } }
  /** Aliases past the file's expansion budget: the first one left unexpanded and how many `more` follow it. */
  | { rule: 'lens/declined'; code: 'aliasesNotExpanded'; data: { more: number; limit: number } }
  | { rule: 'lens/declined'; code: 'fileTooLarge'; data: { bytes: number; limit: number } }
  | { rule: 'lens/declined'; code: 'fileTooManyValues'; data: { limit: number } }
  /** A document a parser could not read at all: it ran out of stack (`error` absent), or threw. */
  | { rule: 'lens/declined'; code: 'unreadable'; data: { error?: string } };

/** Deeper nesting than this is declined and cut off, so no later stage can overflow the stack. */
export const MAX_NESTING = LIMITS.nesting;

/** The parse-time decline of content nested too deep: the rest of the document is still checked. */
export function tooDeepToCheck(span: Span): ParseProblem {
  return { rule: 'lens/declined', code: 'tooDeep', data: { limit: MAX_NESTING }, span };
}

/**
 * The parse-time decline of YAML aliases past the document's expansion budget, once per document:
 * at the first alias left unexpanded, with how many more there are.
 */
export function aliasesNotExpanded(span: Span, more: number, limit: number = LIMITS.aliasNodes): ParseProblem {
  return { rule: 'lens/declined', code: 'aliasesNotExpanded', data: { more, limit }, span };
}

/** The decline of a whole file larger than LIMITS.fileBytes (or the workspace's `limit`): nothing in it is read. */
export function fileTooLarge(span: Span, bytes: number, limit: number = LIMITS.fileBytes): ParseProblem {
  return { rule: 'lens/declined', code: 'fileTooLarge', data: { bytes, limit }, span };
}

/** The decline of a whole file holding more than LIMITS.fileValues (or the workspace's `limit`) values: nothing in it is read. */
export function fileTooManyValues(span: Span, limit: number = LIMITS.fileValues): ParseProblem {
  return { rule: 'lens/declined', code: 'fileTooManyValues', data: { limit }, span };
}

/** The decline of a document a parser could not read at all (it ran out of stack, or threw). */
export function unreadable(span: Span, error: unknown): ParseProblem {
  return {
    rule: 'lens/declined',
    code: 'unreadable',
    data: error instanceof RangeError ? {} : { error: String(error) },
    span,
  };
}

/**
 * After a converter ran: each span of content not read (a region cut off before parsing, see
 * shallow.ts; a value the library ran out of stack on) that no decline covers, because it fell
 * inside a key (kept as text) or inside a scalar, is declined on its own: nothing cut is unsaid.
 */
export function declineUncovered(spans: readonly Span[], problems: ParseProblem[]): void {
  if (spans.length === 0) return;
  const declined = problems
    .filter((p) => p.rule === 'lens/declined')
    .map((p) => p.span)
    .sort((a, b) => a.start - b.start);
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
