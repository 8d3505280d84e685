// "Did you mean ...?": pick the candidates closest to a misspelt word. Pure and deterministic: the
// same word and candidates give the same answer whatever order the candidates come in.

export interface SuggestOptions {
  /** Largest edit distance accepted; default max(1, floor(word.length / 3)). */
  maxDistance?: number;
  /**
   * Known wrong word -> right word, used when the right word is among the candidates. Covers
   * renames no edit distance can see (`maxRetries` -> `retryCount`). Keys match ignoring case,
   * underscores and hyphens.
   */
  synonyms?: Record<string, string>;
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

function score(word: string, candidates: Iterable<string>, opts: SuggestOptions | undefined): Scored[] {
  const maxDistance = opts?.maxDistance ?? Math.max(1, Math.floor(word.length / 3));
  const synonym = lookupSynonym(word, opts?.synonyms);
  const lowerWord = word.toLowerCase();
  const normWord = normalize(word);
  const seen = new Set<string>();
  const out: Scored[] = [];
  for (const candidate of candidates) {
    if (seen.has(candidate)) continue;
    seen.add(candidate);
    const lower = candidate.toLowerCase();
    const distance = editDistance(lowerWord, lower);
    const exactDistance = editDistance(word, candidate);
    const push = (kind: Kind) => out.push({ candidate, kind, distance, exactDistance });
    if (candidate === word) push(Kind.Exact);
    else if (synonym !== undefined && (candidate === synonym || normalize(candidate) === normalize(synonym)))
      push(Kind.Synonym);
    else if (normWord !== '' && normalize(candidate) === normWord) push(Kind.SameWord);
    // Never suggest a word that shares nothing with the input (distance as long as the shorter one).
    else if (distance <= maxDistance && distance < Math.min(word.length, candidate.length)) push(Kind.Edit);
    else if (contains(lowerWord, lower)) push(Kind.Contains);
  }
  return out.sort(
    (x, y) =>
      x.kind - y.kind ||
      x.distance - y.distance ||
      x.exactDistance - y.exactDistance ||
      // Code-unit order, not localeCompare, so the answer does not depend on the locale.
      (x.candidate < y.candidate ? -1 : x.candidate > y.candidate ? 1 : 0),
  );
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
  return score(word, candidates, opts)[0]?.candidate;
}

/** Up to `n` candidates, best first. */
export function closestN(word: string, candidates: Iterable<string>, n: number, opts?: SuggestOptions): string[] {
  return score(word, candidates, opts)
    .slice(0, Math.max(0, n))
    .map((s) => s.candidate);
}
