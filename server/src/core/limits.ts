// Every bound Tool Lens puts on its own work, in one place (docs/limits.md says why each is where it
// is). Past a bound the work is declined, never cut short in silence: the part not checked gets a
// `lens/declined` info that says what and why, and everything else is checked as usual.

export const LIMITS = {
  /** Nesting levels of a document; deeper content is not checked (the library recurses on it). */
  nesting: 400,
  /** Milliseconds of rule work on one file in the editor before the remaining rules are declined (the CLI has no such bound). */
  editorCheckMs: 2000,
  /** Characters of one glob from the configuration (a match costs up to glob length × path length). */
  globLength: 256,
  /** Globs in one configuration (`catalogs`, `overrides[].files`, `kinds`), each matched against every file. */
  globCount: 100,
  /** The one engine tool-schema patterns run on (linear time); a pattern it cannot run is not evaluated. */
  regexEngine: 'RE2',
  /** RE2 instructions one tool-schema pattern may compile to (estimated before compiling); a larger one is not evaluated. */
  regexProgram: 10_000,
  /** Pattern work on one document: instructions × characters of every string a tool-schema pattern runs over. */
  regexWork: 50_000_000,
  /**
   * Candidates one "did you mean" search compares with the misspelt word; a search among more
   * suggests nothing (suggestions are a courtesy: the finding is the same without one).
   */
  suggestionCandidates: 1_000_000,
  /** Entries a message lists (allowed values, known fields, step ids, ...): the first ones, then `and N more`. */
  messageItems: 20,
  /** Nodes YAML alias expansion may add in one file; aliases past it are not expanded. */
  aliasNodes: 100_000,
  /** Bytes (UTF-8) of the largest file read; a larger one is declined whole, unparsed. */
  fileBytes: 8 * 1024 * 1024,
  /** Values (scalars, collections, aliases) of the largest file read; one with more is declined whole, unparsed. */
  fileValues: 500_000,
  /** Calls of a tool schema's generated validators (the schema and each `$ref`) while validating one value; past it the value is not checked against the schema. */
  schemaWork: 200_000,
} as const;

export type LimitName = keyof typeof LIMITS;
