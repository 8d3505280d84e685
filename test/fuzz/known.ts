// Product bugs the fuzzer found and that are not fixed yet. Each has the smallest input found that
// shows it, checked alone by its `todo` test in found.test.ts (it runs, and does not fail the suite
// while the bug is there), and a test `is` that recognises the failure it causes, so that the
// properties can go on past a known bug instead of stopping at it on every run. A known hang (a
// check that would run for hours) cannot be waited for: an input that may meet it is not checked.
//
// A known bug masks failures only while its input still fails (a hang: while its input still costs
// what it did): once the product is fixed, its mask is off by itself, the fuzzer enforces the
// invariant again, and the todo test passes (remove the `todo` then, and the entry with it, keeping
// the case as a regression test).
import { failureAlone, FuzzFailure } from './harness.js';

export interface KnownBug {
  /** The todo test's name. */
  name: string;
  /** What happens and what should: the todo's reason. */
  todo: string;
  /** The smallest input found, checked alone (with `catalog`, if any, as its one catalog); `seed` says where the fuzzer met it. */
  path: string;
  text: string;
  catalog?: { path: string; text: string };
  seed: string;
  /** Whether a failure is this bug. */
  is(failure: FuzzFailure): boolean;
}

// Every bug the fuzzer found so far is fixed; each case is kept as a regression test (fixed.test.ts,
// found.test.ts). A new one goes here, with its todo test, until it is fixed.
export const KNOWN_BUGS: readonly KnownBug[] = [];

/** The known bugs whose input still fails the way they describe (the others are fixed: no mask). */
export const ACTIVE_BUGS: readonly KnownBug[] = KNOWN_BUGS.filter((bug) => {
  const failure = failureAlone(bug.path, bug.text, bug.catalog);
  return failure !== undefined && bug.is(failure);
});

/** How many cases each known bug masked in this process. */
export const masked = new Map<string, number>();

/** Runs `check`; a failure one of the active known bugs explains is counted instead of thrown. */
export function unlessKnown(check: () => void): void {
  try {
    check();
  } catch (error) {
    const bug = error instanceof FuzzFailure ? ACTIVE_BUGS.find((b) => b.is(error)) : undefined;
    if (!bug) throw error;
    masked.set(bug.name, (masked.get(bug.name) ?? 0) + 1);
  }
}

/**
 * A known bug that makes a check run for hours rather than fail: the properties cannot wait for it,
 * so an input it would catch is not checked at all (and counted) while the bug's own input still
 * shows it.
 */
export interface KnownHang {
  name: string;
  todo: string;
  /** The bug's input, small enough to check in a moment, and the work it costs while the bug lasts. */
  path: string;
  text: string;
  seed: string;
  /** Whether the bug is still there, measured on its input without waiting for it. */
  stillThere(): boolean;
  /** Whether an input may meet it. */
  matches(text: string): boolean;
}

// None now: the one found (ajv's walk of a `$ref`'s target, doubling per nested array) is fixed, and
// found.test.ts keeps its case.
export const KNOWN_HANGS: readonly KnownHang[] = [];

/** The known hangs still there. */
export const ACTIVE_HANGS: readonly KnownHang[] = KNOWN_HANGS.filter((hang) => hang.stillThere());

/** Whether an input may meet an active known hang; if so it is counted as masked and not checked. */
export function knownHang(text: string): boolean {
  const hang = ACTIVE_HANGS.find((h) => h.matches(text));
  if (!hang) return false;
  masked.set(hang.name, (masked.get(hang.name) ?? 0) + 1);
  return true;
}
