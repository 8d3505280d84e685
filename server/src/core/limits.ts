// Every bound Tool Lens puts on its own work, in one place (docs/limits.md says why each is where it
// is). Past a bound the work is declined, never cut short in silence: the part not checked gets a
// `lens/declined` info that says what and why, and everything else is checked as usual.

export const LIMITS = {
  /** Nesting levels of a document; deeper content is not checked (the library recurses on it). */
  nesting: 400,
  /** Nodes YAML alias expansion may add in one file; aliases past it are not expanded. */
  aliasNodes: 100_000,
  /** Bytes (UTF-8) of the largest file read; a larger one is declined whole, unparsed. */
  fileBytes: 8 * 1024 * 1024,
  /** Values (scalars, collections, aliases) of the largest file read; one with more is declined whole, unparsed. */
  fileValues: 500_000,
} as const;

export type LimitName = keyof typeof LIMITS;
