// V8's heap sizing (and, at the end of tuneHeapForCli, its tiering) for the `tool-lens` process,
// which holds little for long (the catalog; each file is parsed, checked and let go in turn) but
// makes much short-lived garbage, some of it promoted to the old generation while its file is
// checked. Left to its heuristics, V8 lets a heap this small grow several times over before it
// collects the old generation: the peak RSS of a check was half again that of a bare YAML parse of
// the same files. Set at run time (a shebang cannot pass flags), and only by the command (main.ts,
// run as the program), never in a process that imports its modules.
//
// Measured on test/bench's two workspaces: the old generation's growth alone is about 40 MB less
// peak RSS; the young generation held at 8 MB another 25 MB, with no more time (since the YAML is
// read without the library's Composer, a file's check leaves little for each scavenge to copy).
// The young generation must be held before the load, not after the first file: reading the files
// and joining the catalog alone doubles it from 4 to 8 MB, and the first file's check then to 16,
// which cost 12 MB of peak RSS on both workspaces (the live heap of a check is under 20 MB).
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** Set by the program alone: a process that only imports the CLI's modules keeps V8's defaults. */
let tuned = false;

export function tuneHeapForCli(): void {
  tuned = true;
  // Collect the old generation when it has grown by a fifth (V8 adds the young generation's size
  // to that limit, and its own minimum step), not the 1.1x to 4x its heuristics choose.
  setFlagsFromString('--heap-growing-percent=20');
  // See TIERING_BUDGET.
  setFlagsFromString(`--interrupt-budget=${TIERING_BUDGET}`);
  capYoungGeneration();
}

/**
 * How much a function runs (V8 counts the bytecode it executes; 66 KB by default in Node 20, and
 * three such budgets spent) before V8 weighs optimizing it. A check runs for under a second
 * through hundreds of functions that are hot only for a while; at the default, V8's optimizing
 * compiler ran on about 200 of them on its background threads, which on test/bench's many-files
 * workspace took as much CPU as the main thread's whole check (with its recompiles after
 * deoptimization). At this budget the functions hot throughout a check still get optimized, a
 * little later; the rest stay in the lower tiers. Measured on test/bench's two workspaces: about
 * 0.25 s less CPU and 0.1 s less wall time on each (the commit that set it has the figures). Read
 * by V8 each time it resets a function's budget, so it holds from here on.
 */
const TIERING_BUDGET = 300 * 1024;

/**
 * The young generation's size (V8's `new_space`, both of its halves) past which it grows no more
 * (V8 doubles it from 1 MB while it can).
 */
const YOUNG_CAP_BYTES = 8 * 1024 * 1024;
let youngCapped = false;

/**
 * Called at each step of a check (once tuned, once the files are planned, once the catalog is
 * joined, after each file): once the young generation has grown to YOUNG_CAP_BYTES, it stops
 * growing (its cap cannot be set once the process runs, its growth can). One step may still grow
 * it past the cap before the next call sees it.
 */
export function capYoungGeneration(): void {
  if (!tuned || youngCapped) return;
  const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  if (young && young.space_size >= YOUNG_CAP_BYTES) {
    setFlagsFromString('--semi-space-growth-factor=1');
    youngCapped = true;
  }
}
