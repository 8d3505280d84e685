// Work an analysis declined because a limit (limits.ts) applies: typed data, collected per
// document as the analyses run and said by the `lens/declined` rule, which runs after every other
// rule. Parse-time declines travel as parse problems of that rule instead (parse/problems.ts).
import type { DocumentContext } from './context.js';
import type { LimitName } from './limits.js';
import { memoKey } from './memo.js';
import type { Span } from './types.js';

export interface Declined {
  limit: LimitName;
  /** The part not checked. */
  span: Span;
  /** What was not checked, in a few words the rule's message can hold: `the pattern "^(a+)+$"`. */
  what: string;
}

const KEY = memoKey<Map<string, Declined>>('declined');

/** Records that part of this document was not checked; the same decline twice is one. */
export function decline(ctx: DocumentContext, declined: Declined): void {
  const all = ctx.memo.get(KEY, () => new Map<string, Declined>());
  const key = `${declined.limit}\0${declined.span.start}\0${declined.span.end}\0${declined.what}`;
  if (!all.has(key)) all.set(key, declined);
}

/** What the analyses that ran over this document declined, in document order. */
export function declinedOf(ctx: DocumentContext): Declined[] {
  return [...ctx.memo.get(KEY, () => new Map<string, Declined>()).values()].sort((a, b) => a.span.start - b.span.start);
}
