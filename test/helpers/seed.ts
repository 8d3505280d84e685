// The seed of every seeded test: the property tests (fast-check), the differential tests over the
// YAML corpus generators (test/helpers/yamlCorpus.ts) and the fuzzer (test/fuzz). Each has a fixed
// seed, so that a run checks the same cases every time and a failure in CI fails again at home;
// the tests print the seed they ran with. TOOL_LENS_SEED=N runs every one of them with seed N
// instead: to replay a printed seed, or to explore cases the fixed seeds never reach.
import fc from 'fast-check';

/** The environment variable that sets the seed of every seeded test. */
export const SEED_VARIABLE = 'TOOL_LENS_SEED';

const given = process.env[SEED_VARIABLE];
const chosen = given === undefined || given.trim() === '' ? undefined : Number(given);
if (chosen !== undefined && !Number.isSafeInteger(chosen))
  throw new Error(`${SEED_VARIABLE} must be an integer, got ${JSON.stringify(given)}`);

/**
 * The seed of a test whose fixed seed is `fixed`: TOOL_LENS_SEED's when it is set. With `what`,
 * the seed is printed, saying what it seeds.
 */
export function seedFor(fixed: number, what?: string): number {
  const seed = chosen ?? fixed;
  if (what !== undefined) console.log(`${what}: ${seedNote(seed)}`);
  return seed;
}

/** How a test names its seed in what it prints. */
export function seedNote(seed: number): string {
  return chosen === undefined
    ? `seed ${seed} (fixed; ${SEED_VARIABLE}=N runs another)`
    : `seed ${seed} (from ${SEED_VARIABLE})`;
}

/**
 * The seed of the properties that give none of their own: fast-check's global setting, made here
 * for every test file that imports this module (fast-check would otherwise draw a new seed on
 * each run).
 */
export const DEFAULT_SEED = seedFor(20261207);
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: DEFAULT_SEED });
