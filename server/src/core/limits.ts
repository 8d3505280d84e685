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

/** A bound a project may set in `.toollens.yaml`, and the range it may be set within. */
export interface LimitBound {
  min: number;
  max: number;
  /** What the limit bounds, in a line (the configuration schema's hover). */
  summary: string;
  /** How a value is written in words: a count, bytes, milliseconds. */
  unit: 'count' | 'bytes' | 'ms';
}

/**
 * The limits a project may set under `limits:` in `.toollens.yaml`, and the range each may take
 * (docs/limits.md says why each end is where it is). A project may raise one for a big repository
 * and lower one for a slow machine, but even at its maximum the worst file a hostile repository can
 * hold is checked in bounded time and memory: the configuration may come with that repository.
 * The other limits are fixed (FIXED_LIMITS says why).
 */
export const LIMIT_BOUNDS = {
  fileBytes: {
    min: 256 * 1024,
    max: 16 * 1024 * 1024,
    unit: 'bytes',
    summary: 'Bytes (UTF-8) of the largest file read; a larger one is declined whole.',
  },
  fileValues: {
    min: 10_000,
    max: 1_000_000,
    unit: 'count',
    summary: 'Values (scalars, collections, aliases) of the largest file read; a file with more is declined whole.',
  },
  aliasNodes: {
    min: 1_000,
    max: 1_000_000,
    unit: 'count',
    summary: 'Values YAML alias expansion may add in one file; aliases past it are not expanded.',
  },
  regexWork: {
    min: 1_000_000,
    max: 250_000_000,
    unit: 'count',
    summary: 'Pattern work on one document (RE2 instructions times characters); strings past it are not matched.',
  },
  suggestionCandidates: {
    min: 0,
    max: 10_000_000,
    unit: 'count',
    summary: 'Names the "did you mean" searches of one document compare; past it nothing more is suggested.',
  },
  editorCheckMs: {
    min: 200,
    max: 10_000,
    unit: 'ms',
    summary: 'Milliseconds of rule work on one file in the editor before the remaining rules are declined.',
  },
} as const satisfies Partial<Record<LimitName, LimitBound>>;

export type ConfigurableLimit = keyof typeof LIMIT_BOUNDS;

/** The value of every configurable limit that one workspace works under. */
export type Limits = { readonly [K in ConfigurableLimit]: number };

export const DEFAULT_LIMITS: Limits = {
  fileBytes: LIMITS.fileBytes,
  fileValues: LIMITS.fileValues,
  aliasNodes: LIMITS.aliasNodes,
  regexWork: LIMITS.regexWork,
  suggestionCandidates: LIMITS.suggestionCandidates,
  editorCheckMs: LIMITS.editorCheckMs,
};

/** The limits no configuration sets, and why, for the configuration problem that names one. */
export const FIXED_LIMITS: Readonly<Record<Exclude<LimitName, ConfigurableLimit>, string>> = {
  nesting: 'it is set by the stack the parsers recurse on, not by the size of a repository',
  globLength: 'it bounds the configuration itself',
  globCount: 'it bounds the configuration itself',
  regexEngine: 'patterns always run on RE2, so that no pattern can stall a check',
  regexProgram: 'a pattern is compiled once for every workspace of the process that reads its catalog',
  messageItems: 'messages read the same in every project',
  schemaWork:
    'ordinary schemas stay far below it whatever the size of the value, so only references that fan out reach it',
};

/** The limits that decide how a file is parsed (the others apply once it is). */
export type ParseLimits = Pick<Limits, 'fileBytes' | 'fileValues' | 'aliasNodes'>;
