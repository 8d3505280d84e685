// The safety floor of a composite tool (docs/toolhive.md#the-safety-floor), as pure functions over one
// entry per tool step. Nothing here knows about documents or catalogs: callers resolve the steps.

import { byCount, capitalize, joinWords } from '../text/words.js';
import { HINT_NAMES, type HintName, type ToolAnnotations } from '../types.js';

/** One entry per tool step (in step order, including forEach inner tool steps). */
export type StepEntry<S = unknown> =
  { known: true; annotations: ToolAnnotations; step: S } | { known: false; reason: string; step: S }; // unresolved step, tool without annotations, ...

/** The hints the floor derives; idempotentHint and title are never derived. */
export type FloorHint = 'readOnlyHint' | 'destructiveHint' | 'openWorldHint';
export const FLOOR_HINTS: readonly FloorHint[] = ['readOnlyHint', 'destructiveHint', 'openWorldHint'];

export interface Floor {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  openWorldHint: boolean;
}

export interface Contradiction {
  hint: FloorHint;
  explicit: boolean;
  floor: boolean;
}

/** A tool's annotations with MCP defaults filled in; undefined = not applicable (read-only tool). */
export interface EffectiveAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint: boolean | undefined;
  idempotentHint: boolean | undefined;
  openWorldHint: boolean;
}

interface FloorRow<S = unknown> {
  hint: HintName;
  /** undefined when there is no floor, and always for idempotentHint (never derived). */
  floor: boolean | undefined;
  explicit: boolean | undefined;
  advertised: boolean | undefined;
  deciding: StepEntry<S>[];
  why: string;
  /** `why` without the sentence on what the explicit value does (for a hover beside the contradiction's diagnostic). */
  floorWhy: string;
}

export interface FloorTable<S = unknown> {
  floor: Floor | undefined;
  advertised: ToolAnnotations | undefined;
  rows: FloorRow<S>[];
  contradictions: Contradiction[];
}

/** MCP defaults for absent hints (docs/mcp.md#tool-annotations); destructive/idempotent mean nothing on a read-only tool. */
export function effectiveAnnotations(a: ToolAnnotations | undefined): EffectiveAnnotations {
  const readOnly = a?.readOnlyHint ?? false;
  const out: EffectiveAnnotations = {
    readOnlyHint: readOnly,
    destructiveHint: readOnly ? undefined : (a?.destructiveHint ?? true),
    idempotentHint: readOnly ? undefined : (a?.idempotentHint ?? false),
    openWorldHint: a?.openWorldHint ?? true,
  };
  if (a?.title !== undefined) out.title = a.title;
  return out;
}

// The value a step must declare for the floor to be on the "safe" side of a hint.
const SAFE_VALUE: Record<FloorHint, boolean> = {
  readOnlyHint: true,
  destructiveHint: false,
  openWorldHint: false,
};

/** Whether this entry keeps the hint on its safe side; absent and unknown are never safe. */
function declaresSafe(entry: StepEntry<unknown>, hint: FloorHint): boolean {
  return entry.known && entry.annotations[hint] === SAFE_VALUE[hint];
}

/** Fail-closed derivation; undefined when there are no tool steps (explicit annotations pass through). */
export function deriveFloor(entries: readonly StepEntry<unknown>[]): Floor | undefined {
  if (entries.length === 0) return undefined;
  let readOnly = true;
  let destructive = false;
  let openWorld = false;
  for (const entry of entries) {
    if (!declaresSafe(entry, 'readOnlyHint')) readOnly = false;
    if (!declaresSafe(entry, 'destructiveHint')) destructive = true;
    if (!declaresSafe(entry, 'openWorldHint')) openWorld = true;
  }
  return { readOnlyHint: readOnly, destructiveHint: destructive, openWorldHint: openWorld };
}

/**
 * Every explicit hint that claims the safe side while the floor is not there. ToolHive stops at the
 * first one (and drops the tool); we report each so the user can fix them all at once.
 */
export function findContradictions(explicit: ToolAnnotations | undefined, floor: Floor | undefined): Contradiction[] {
  if (!explicit || !floor) return [];
  const out: Contradiction[] = [];
  for (const hint of FLOOR_HINTS) {
    const safe = SAFE_VALUE[hint];
    if (explicit[hint] === safe && floor[hint] !== safe) out.push({ hint, explicit: safe, floor: floor[hint] });
  }
  return out;
}

/** The advertised annotations: the floor with explicit hints and a non-empty title laid over it. */
export function mergeAnnotations(
  floor: Floor | undefined,
  explicit: ToolAnnotations | undefined,
): ToolAnnotations | undefined {
  if (!floor && !explicit) return undefined;
  const merged: ToolAnnotations = floor ? { ...floor } : {};
  if (explicit) {
    // ToolHive's title is a Go string, so an empty title is the same as none.
    if (explicit.title !== undefined && explicit.title !== '') merged.title = explicit.title;
    for (const hint of HINT_NAMES) {
      const value = explicit[hint];
      if (value !== undefined) merged[hint] = value;
    }
  }
  return merged;
}

/**
 * The entries that make the floor's hint what it is. On the unsafe side (readOnly false,
 * destructive/openWorld true) that is each entry that does not declare the safe value; on the safe
 * side every entry holds the hint there, so all of them decide it.
 */
export function decidingEntries<S>(entries: readonly StepEntry<S>[], hint: FloorHint): StepEntry<S>[] {
  return decidingUnder(entries, deriveFloor(entries), hint);
}

function decidingUnder<S>(entries: readonly StepEntry<S>[], floor: Floor | undefined, hint: FloorHint): StepEntry<S>[] {
  if (!floor) return [];
  if (floor[hint] === SAFE_VALUE[hint]) return [...entries];
  return entries.filter((entry) => !declaresSafe(entry, hint));
}

/** The hover / code-lens table: one row per hint with the floor, explicit and advertised values. */
export function floorTable<S>(
  entries: readonly StepEntry<S>[],
  explicit: ToolAnnotations | undefined,
  describeStep: (s: S) => string,
): FloorTable<S> {
  const floor = deriveFloor(entries);
  const advertised = mergeAnnotations(floor, explicit);
  const contradictions = findContradictions(explicit, floor);
  const rows: FloorRow<S>[] = HINT_NAMES.map((hint) => {
    const explicitValue = explicit?.[hint];
    const advertisedValue = advertised?.[hint];
    if (hint === 'idempotentHint') {
      return {
        hint,
        floor: undefined,
        explicit: explicitValue,
        advertised: advertisedValue,
        deciding: [],
        why: idempotentWhy(explicitValue),
        floorWhy: idempotentWhy(explicitValue),
      };
    }
    const deciding = decidingUnder(entries, floor, hint);
    return new WordedRow(hint, floor, explicitValue, advertisedValue, deciding, describeStep);
  });
  return { floor, advertised, rows, contradictions };
}

/**
 * A derived hint's row. Its words are for the hover and the code lens, while the rules read only
 * the values: the words are made on first read (every workflow of every document gets a table).
 */
class WordedRow<S> implements FloorRow<S> {
  readonly floor: boolean | undefined;
  #words: { why: string; floorWhy: string } | undefined;
  readonly #derived: Floor | undefined;
  readonly #describe: (s: S) => string;

  constructor(
    readonly hint: FloorHint,
    derived: Floor | undefined,
    readonly explicit: boolean | undefined,
    readonly advertised: boolean | undefined,
    readonly deciding: StepEntry<S>[],
    describe: (s: S) => string,
  ) {
    this.floor = derived?.[hint];
    this.#derived = derived;
    this.#describe = describe;
  }

  get why(): string {
    return this.#wordsOf().why;
  }

  get floorWhy(): string {
    return this.#wordsOf().floorWhy;
  }

  #wordsOf(): { why: string; floorWhy: string } {
    if (this.#words) return this.#words;
    const { hint, explicit } = this;
    const floor = this.#derived;
    const base = floor ? floorWhy(hint, floor[hint], this.deciding, this.#describe) : noFloorWhy(hint, explicit);
    const note = floor ? explicitNote(hint, floor[hint], explicit) : '';
    return (this.#words = { why: note ? `${base} ${note}` : base, floorWhy: base });
  }
}

// ---------------------------------------------------------------------------------------------
// Wording. Kept next to the derivation so the explanation cannot drift from the rule.

const ADJECTIVE: Record<FloorHint, { safe: string; unsafe: string }> = {
  readOnlyHint: { safe: 'read-only', unsafe: 'not read-only' },
  destructiveHint: { safe: 'non-destructive', unsafe: 'destructive' },
  openWorldHint: { safe: 'closed-world', unsafe: 'open-world' },
};

function idempotentWhy(explicit: boolean | undefined): string {
  const tail =
    explicit === undefined
      ? 'the workflow does not declare it, so it is not advertised.'
      : `advertised as the workflow declares it (${explicit}).`;
  return `Never derived from the steps; ${tail}`;
}

function noFloorWhy(hint: FloorHint, explicit: boolean | undefined): string {
  const tail =
    explicit === undefined
      ? 'the workflow does not declare it, so it is not advertised.'
      : `the workflow's value (${explicit}) is advertised as is.`;
  return `No tool steps, so there is no floor for ${hint}; ${tail}`;
}

/** "a", "a and b", "a, b and c", without repeats (the same tool may back several steps). */
function list(names: string[]): string {
  return joinWords([...new Set(names)]);
}

function floorWhy<S>(
  hint: FloorHint,
  value: boolean,
  deciding: readonly StepEntry<S>[],
  describe: (s: S) => string,
): string {
  const safe = SAFE_VALUE[hint];
  const adjective = ADJECTIVE[hint];
  const names = (es: readonly StepEntry<S>[]) => list(es.map((e) => describe(e.step)));
  if (value === safe) {
    // On the safe side every step holds the hint there.
    return `Every step tool (${names(deciding)}) declares ${hint}: ${safe}, so the floor is ${adjective.safe}.`;
  }

  const unknown = deciding.filter((e): e is Extract<StepEntry<S>, { known: false }> => !e.known);
  const known = deciding.filter((e): e is Extract<StepEntry<S>, { known: true }> => e.known);
  const unsafeDeclared = known.filter((e) => e.annotations[hint] === !safe);
  const omitted = known.filter((e) => e.annotations[hint] === undefined);

  const parts: string[] = [];
  if (unsafeDeclared.length > 0) {
    const verb = byCount(unsafeDeclared.length, 'declares', 'declare');
    parts.push(`${names(unsafeDeclared)} ${verb} ${hint}: ${!safe}`);
  }
  if (omitted.length > 0) parts.push(omittedPart(hint, omitted, names));
  for (const entry of unknown) {
    parts.push(`${describe(entry.step)} is unknown (${entry.reason}), so the floor assumes the worst`);
  }
  return `${capitalize(adjective.unsafe)}: ${parts.join('; ')}.`;
}

function omittedPart<S>(
  hint: FloorHint,
  omitted: readonly Extract<StepEntry<S>, { known: true }>[],
  names: (es: readonly StepEntry<S>[]) => string,
): string {
  const one = omitted.length === 1;
  const who = names(omitted);
  if (hint === 'readOnlyHint') {
    return `${who} ${one ? 'does' : 'do'} not declare readOnlyHint: true (an absent hint does not count as read-only)`;
  }
  const safe = SAFE_VALUE[hint];
  const counted = hint === 'destructiveHint' ? 'destructive' : 'open-world';
  // The surprising case: read tools that declare only readOnlyHint still count against the floor.
  const readOnly = omitted.filter((e) => e.annotations.readOnlyHint === true);
  const despite =
    readOnly.length === omitted.length
      ? `, even though ${one ? 'it declares' : 'they declare'} readOnlyHint: true (the floor reads ${hint} itself)`
      : '';
  return (
    `${who} ${one ? 'omits' : 'omit'} ${hint}, and an absent ${hint} counts as ${counted}${despite}; ` +
    `to lower it, declare ${hint}: ${safe} on ${one ? 'that tool' : 'those tools'}, or add an annotation ` +
    `override in the gateway's aggregation.tools[].overrides (with a description: ToolHive refuses one without a name or description)`
  );
}

/** What the explicit value does to the advertised one, if the workflow declares the hint. */
function explicitNote(hint: FloorHint, floorValue: boolean, explicit: boolean | undefined): string {
  if (explicit === undefined || explicit === floorValue) return '';
  if (explicit === SAFE_VALUE[hint]) {
    return `The workflow declares ${hint}: ${explicit}, which contradicts the floor: ToolHive will drop the composite tool when it lists tools.`;
  }
  return `The workflow declares ${hint}: ${explicit}, more conservative than the floor: allowed, and advertised as declared.`;
}
