// V8's heap sizing for the `tool-lens` process, which holds little for long (the catalog; each file
// is parsed, checked and let go in turn) but makes much short-lived garbage, some of it promoted to
// the old generation while its file is checked. Left to its heuristics, V8 lets a heap this small
// grow several times over before it collects the old generation: the peak RSS of a check was half
// again that of a bare YAML parse of the same files. Set at run time (a shebang cannot pass flags),
// and only by the command (main.ts, run as the program), never in a process that imports its modules.
//
// Measured on test/bench's two workspaces: about 45 MB less peak RSS, no more GC time (a few more
// mark-compacts of a ~20 MB heap). A smaller young generation would save more (a semi-space capped
// at 8 MB: another 25 MB) but costs a scavenge per 8 MB allocated, each copying the live trees of
// the file being checked: GC time doubled there, so it is not done.
import { setFlagsFromString } from 'node:v8';

export function tuneHeapForCli(): void {
  // Collect the old generation when it has grown by a fifth (V8 adds the young generation's size
  // to that limit, and its own minimum step), not the 1.1x to 4x its heuristics choose.
  setFlagsFromString('--heap-growing-percent=20');
}
