// Every bound Tool Lens puts on its own work, in one place (docs/limits.md says why each is where it
// is). Past a bound the work is declined, never cut short in silence: the part not checked gets a
// `lens/declined` info that says what and why, and everything else is checked as usual.

export const LIMITS = {
  /** Nesting levels of a document; deeper content is not checked (the library recurses on it). */
  nesting: 400,
  /**
   * Candidates one "did you mean" search compares with the misspelt word; a search among more
   * suggests nothing (suggestions are a courtesy: the finding is the same without one).
   */
  suggestionCandidates: 1_000_000,
  /** Entries a message lists (allowed values, known fields, step ids, ...): the first ones, then `and N more`. */
  messageItems: 20,
} as const;

export type LimitName = keyof typeof LIMITS;
