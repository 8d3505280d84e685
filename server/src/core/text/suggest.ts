// "Did you mean ...?": pick the candidates closest to a misspelt word. Pure and deterministic: the
// same word and candidates give the same answer whatever order the candidates come in. Bounded:
// see `score` and LIMITS.suggestionCandidates.
import { LIMITS } from '../limits.js';

export interface SuggestOptions {
  /** Largest edit distance accepted; default max(1, floor(word.length / 3)). */
  maxDistance?: number;
  /**
   * Known wrong word -> right word, used when the right word is among the candidates. Covers
   * renames no edit distance can see (`maxRetries` -> `retryCount`). Keys match ignoring case,
   * underscores and hyphens.
   */
  synonyms?: Record<string, string>;
  /**
   * What the searches of one document may still compare (`suggestionBudgetOf` in context.ts): a
   * search among more candidates than are left suggests nothing, and one that runs spends them.
   */
  budget?: SuggestionBudget;
}

/**
 * The candidates the "did you mean" searches over one document may compare, all together
 * (LIMITS.suggestionCandidates): past it a search suggests nothing. One search is cheap, but a
 * document can hold thousands of misspellings, each searching thousands of names.
 */
export class SuggestionBudget {
  constructor(public left: number = LIMITS.suggestionCandidates) {}
}

/**
 * Optimal string alignment distance (Damerau-Levenshtein where each substring is edited once):
 * insertions, deletions, substitutions and transpositions of adjacent characters cost 1.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  // Three rolling rows: the transposition looks two rows back.
  let prev2 = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[b.length]!;
}

/** The word as people think of it: case, underscores and hyphens do not matter. */
function normalize(s: string): string {
  return s.toLowerCase().replace(/[_-]/g, '');
}

// How a candidate matched, best first. Ranked before distance so a sure match always wins.
const Kind = {
  Exact: 0,
  Synonym: 1,
  SameWord: 2, // equal ignoring case/underscores/hyphens
  Edit: 3,
  Contains: 4,
} as const;
type Kind = (typeof Kind)[keyof typeof Kind];

interface Scored {
  candidate: string;
  kind: Kind;
  /** Distance ignoring case (the main measure), then with case (tie-break). */
  distance: number;
  exactDistance: number;
}

/**
 * The distance of `a` and `b` when it is at most `max`, otherwise some number above `max`. Only
 * the band of cells within `max` of the diagonal is computed (no cell outside it can be within
 * `max`), and the walk stops once two rows are past `max`: a word compared with a long name costs
 * about its length times `2 * max + 1`, not the product of both lengths.
 */
export function editDistanceWithin(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const la = a.length;
  const lb = b.length;
  const over = max + 1;
  if (Math.abs(la - lb) > max) return over;
  if (la === 0 || lb === 0) return Math.max(la, lb);
  if (rows[0]!.length <= lb) rows = [0, 1, 2].map(() => new Int32Array(2 * (lb + 1)));
  let [prev2, prev, cur] = rows as [Int32Array, Int32Array, Int32Array];
  prev2.fill(over, 0, lb + 1);
  for (let j = 0; j <= lb; j++) prev[j] = j <= max ? j : over;
  let prevMin = 0;
  for (let i = 1; i <= la; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(lb, i + max);
    cur[0] = i <= max ? i : over;
    let rowMin = cur[0];
    if (lo > 1) cur[lo - 1] = over;
    for (let j = lo; j <= hi; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      if (d > over) d = over;
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (hi < lb) cur[hi + 1] = over;
    // A cell is at least the smaller of the row above and (transposition) the row before that plus one.
    if (Math.min(rowMin, prevMin + 1) > max) return over;
    prevMin = rowMin;
    const oldest = prev2;
    prev2 = prev;
    prev = cur;
    cur = oldest;
  }
  return Math.min(prev[lb]!, over);
}

/**
 * A word of at most 32 characters made ready for `distanceTo`: one bit mask per character, the
 * set of its positions. The masks live in tables shared by every search (a search runs to its end
 * before the next begins; each of its two patterns, with and without case, has its own table),
 * and `release` clears them.
 */
class BitPattern {
  private static readonly tables = [new Int32Array(65536), new Int32Array(65536)];
  private readonly masks: Int32Array;
  private readonly last: number;

  constructor(
    private readonly word: string,
    table: 0 | 1,
  ) {
    this.masks = BitPattern.tables[table]!;
    for (let i = 0; i < word.length; i++) this.masks[word.charCodeAt(i)]! |= 1 << i;
    this.last = 1 << (word.length - 1);
  }

  /**
   * The optimal string alignment distance between the word and `text`, exactly, in one pass over
   * `text` with a few word operations per character: Myers' bit-vector algorithm with Hyyrö's
   * transposition term (2002). Equal to `editDistance(word, text)`.
   */
  distanceTo(text: string): number {
    const masks = this.masks;
    const last = this.last;
    let pv = -1;
    let mv = 0;
    let score = this.word.length;
    let d0 = 0;
    let previous = 0;
    for (let j = 0; j < text.length; j++) {
      const eq = masks[text.charCodeAt(j)]!;
      const transposed = ((~d0 & eq) << 1) & previous;
      d0 = (((eq & pv) + pv) ^ pv) | eq | mv | transposed;
      let hp = mv | ~(d0 | pv);
      let hn = pv & d0;
      if (hp & last) score++;
      else if (hn & last) score--;
      hp = (hp << 1) | 1;
      hn <<= 1;
      pv = hn | ~(d0 | hp);
      mv = hp & d0;
      previous = eq;
    }
    return score;
  }

  release(): void {
    for (let i = 0; i < this.word.length; i++) this.masks[this.word.charCodeAt(i)] = 0;
  }
}

/** The three rows editDistanceWithin works in, kept between calls (it allocates nothing per comparison). */
let rows: Int32Array[] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** Whether `lower` is `norm` once underscores and hyphens are left out, without building a string. */
function sameWord(lower: string, norm: string): boolean {
  let k = 0;
  for (let i = 0; i < lower.length; i++) {
    const c = lower[i]!;
    if (c === '_' || c === '-') continue;
    if (k >= norm.length || c !== norm[k]) return false;
    k++;
  }
  return k === norm.length;
}

/** How many candidates there are without walking them, when the collection says. */
function sizeOf(candidates: Iterable<string>): number | undefined {
  if (Array.isArray(candidates)) return candidates.length;
  if (candidates instanceof Set) return candidates.size;
  return undefined;
}

/**
 * The candidates that match, best first (at most `n`). A search among more candidates than the
 * budget has left is declined and finds nothing: a suggestion is a courtesy. A candidate costs one
 * pass over its characters with a few word operations each (a word of more than 32 characters
 * computes only the band of cells within the distance), and one whose length is too far from the
 * word's is not measured at all; so a misspelling against a 20,000-tool catalog takes a few
 * milliseconds, not the product of every pair of lengths.
 */
function score(word: string, candidates: Iterable<string>, n: number, opts: SuggestOptions | undefined): Scored[] {
  if (n <= 0) return [];
  const budget = opts?.budget;
  // Without a budget (our own small vocabularies), no search is larger than the limit itself.
  const limit = budget ? budget.left : LIMITS.suggestionCandidates;
  const size = sizeOf(candidates);
  if (size !== undefined && size > limit) return [];
  const maxDistance = opts?.maxDistance ?? Math.max(1, Math.floor(word.length / 3));
  const synonym = lookupSynonym(word, opts?.synonyms);
  const normSynonym = synonym === undefined ? undefined : normalize(synonym);
  const lowerWord = word.toLowerCase();
  const normWord = normalize(word);
  const best: Scored[] = [];
  // Distances without and with case: exact when the word fits one bit vector, otherwise exact up to `bound`.
  const pattern = lowerWord.length > 0 && lowerWord.length <= 32 ? new BitPattern(lowerWord, 0) : undefined;
  const exactPattern = word.length > 0 && word.length <= 32 ? new BitPattern(word, 1) : undefined;
  const measure = (lower: string, bound: number) =>
    pattern ? pattern.distanceTo(lower) : editDistanceWithin(lowerWord, lower, bound);
  let walked = 0;
  try {
    for (const candidate of candidates) {
      if (++walked > limit) return [];
      const lower = candidate.toLowerCase();
      const gap = Math.abs(lower.length - lowerWord.length);
      let kind: Kind;
      let distance: number;
      if (candidate === word) {
        kind = Kind.Exact;
        distance = 0;
      } else if (synonym !== undefined && (candidate === synonym || sameWord(lower, normSynonym!))) {
        kind = Kind.Synonym;
        distance = measure(lower, gap + maxDistance);
      } else if (normWord !== '' && sameWord(lower, normWord)) {
        kind = Kind.SameWord;
        distance = measure(lower, gap + maxDistance);
      } else {
        // Never suggest a word that shares nothing with the input (distance as long as the shorter one).
        const edit = gap <= maxDistance ? measure(lower, maxDistance) : maxDistance + 1;
        if (edit <= maxDistance && edit < Math.min(word.length, candidate.length)) {
          kind = Kind.Edit;
          distance = edit;
        } else if (contains(lowerWord, lower)) {
          kind = Kind.Contains;
          distance = gap; // the edit distance of a word and a string that holds it
        } else continue;
      }
      // With case the distance is at least the one without. For a word of more than 32 characters,
      // past `distance + maxDistance` it only breaks ties by code units.
      const exactDistance =
        kind === Kind.Exact
          ? 0
          : exactPattern
            ? exactPattern.distanceTo(candidate)
            : editDistanceWithin(word, candidate, distance + maxDistance);
      insertBest(best, { candidate, kind, distance, exactDistance }, n);
    }
  } finally {
    pattern?.release();
    exactPattern?.release();
    if (budget) budget.left = Math.max(0, budget.left - walked);
  }
  return best;
}

function compareScored(x: Scored, y: Scored): number {
  return (
    x.kind - y.kind ||
    x.distance - y.distance ||
    x.exactDistance - y.exactDistance ||
    // Code-unit order, not localeCompare, so the answer does not depend on the locale.
    (x.candidate < y.candidate ? -1 : x.candidate > y.candidate ? 1 : 0)
  );
}

/** Keeps the `n` best, in order, as they come; a candidate seen before is not taken twice. */
function insertBest(best: Scored[], scored: Scored, n: number): void {
  if (best.length === n && compareScored(scored, best[n - 1]!) >= 0) return;
  if (best.some((b) => b.candidate === scored.candidate)) return;
  let at = best.length;
  while (at > 0 && compareScored(scored, best[at - 1]!) < 0) at--;
  best.splice(at, 0, scored);
  if (best.length > n) best.pop();
}

function lookupSynonym(word: string, synonyms: Record<string, string> | undefined): string | undefined {
  if (!synonyms) return undefined;
  // Own keys only: a word like "constructor" must not find Object.prototype members.
  if (Object.hasOwn(synonyms, word)) return synonyms[word];
  const norm = normalize(word);
  for (const [wrong, right] of Object.entries(synonyms)) if (normalize(wrong) === norm) return right;
  return undefined;
}

/** One contains the other and the shorter is long enough to mean something (≥ 4 chars). */
function contains(a: string, b: string): boolean {
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  return shorter.length >= 4 && longer.includes(shorter);
}

/** The best candidate for `word`, or undefined when nothing is close enough. */
export function closest(word: string, candidates: Iterable<string>, opts?: SuggestOptions): string | undefined {
  return score(word, candidates, 1, opts)[0]?.candidate;
}

/** Up to `n` candidates, best first. */
export function closestN(word: string, candidates: Iterable<string>, n: number, opts?: SuggestOptions): string[] {
  return score(word, candidates, Math.max(0, n), opts).map((s) => s.candidate);
}
