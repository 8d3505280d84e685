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
import { checkFile } from '../../server/src/core/engine.js';
import { Workspace } from '../../server/src/core/workspace.js';
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

/**
 * catalog/invalid-schema remembers its verdict per schema text for the life of the process, so the
 * inputs of the schema bugs below number each look at them: a schema is compiled, and its bug
 * shows, only the first time its text is seen.
 */
let looks = 0;

export const KNOWN_BUGS: readonly KnownBug[] = [
  {
    name: 'yaml/syntax: valid YAML nested 3,000 levels deep in flow style reports "Maximum call stack size exceeded."',
    todo: 'the YAML library overflows the stack on deep flow nesting and the parse reports the RangeError as a yaml/syntax error on a valid file (how deep depends on the stack in use, so the findings differ between runs); the file should get only the lens/declined info of LIMITS.nesting',
    path: 'deep.vmcp.yaml',
    text: `compositeTools: []\nx: ${'['.repeat(3000)}${']'.repeat(3000)}\n`,
    seed: '20261201, "hostile values", test/fixtures/template/condition-not-boolean/block.yaml (35,611 characters of "{{")',
    is: (failure) => /Maximum call stack size exceeded/.test(failure.message),
  },
  {
    name: 'catalog/invalid-schema: ajv writes "unknown format ... ignored" to the console',
    todo: 'a tool schema with a format ajv does not know makes ajv warn through console.warn (its default logger), outside any finding or the workspace log; the core should give ajv a logger of its own (or none)',
    path: 'format.catalog.yaml',
    // A schema not seen before each time: catalog/invalid-schema remembers its verdict per schema text.
    get text() {
      return `catalog: 1\nservers:\n  - name: s\n    tools:\n      - name: t\n        inputSchema: {type: object, description: "look ${++looks}", properties: {d: {type: string, format: date-tim~e}}}\n`;
    },
    seed: '1658756245, "damaged catalog", test/fixtures (a format name damaged to "date-tim~e")',
    is: (failure) => /wrote to the console/.test(failure.what) && /unknown format .* ignored in schema/.test(failure.what),
  },
];

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

/** How many times Array.prototype.some is called while `run` runs: ajv's hasRef calls it once per array it walks. */
export function someCallsOf(run: () => void): number {
  const some = Array.prototype.some;
  let calls = 0;
  Array.prototype.some = function (this: unknown[], ...args: Parameters<typeof some>) {
    calls++;
    return some.apply(this, args);
  };
  try {
    run();
  } finally {
    Array.prototype.some = some;
  }
  return calls;
}

/** The deepest nesting of `[` in a text (strings and all: an over-estimate is fine here). */
function arrayDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91) deepest = Math.max(deepest, ++depth);
    else if (c === 93 && depth > 0) depth--;
  }
  return deepest;
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

/** A tool schema with `arrays` levels of `{k: [...]}` before a `$ref` to itself; a new one each time (see `looks`). */
const selfReference = (arrays: number) => {
  let open = '';
  let close = '';
  for (let i = 0; i < arrays; i++) {
    open += '{k: [';
    close = ']}' + close;
  }
  return `catalog: 1\nservers:\n  - name: s\n    tools:\n      - name: t\n        inputSchema: {type: object, description: "look ${++looks}", x: ${open}${close}, items: {$ref: "#"}}\n`;
};

export const KNOWN_HANGS: readonly KnownHang[] = [
  {
    name: 'catalog/invalid-schema: a tool schema with a $ref and arrays nested in a value costs 2^(arrays)',
    todo: "ajv's hasRef walks every array twice (through .some and again as an object) before it meets the $ref, so each level of arrays nested in a value before the $ref doubles the work: 24 levels in a 288-character catalog take 1.4 s, 26 take 5.4 s, 30 about a minute and a half, and the 200 of a 400-level value never end (the editor's time budget cannot stop a rule that is running); the core should bound what it gives ajv",
    path: 'tree.catalog.yaml',
    get text() {
      return selfReference(18);
    },
    seed: '1658756246, "hostile values", test/fixtures/result/schema-mismatch/tree.catalog.yaml (a value nested 400 deep beside `items: {$ref: "#"}`); the run never finished',
    stillThere() {
      const workspace = new Workspace('/fuzz');
      const file = workspace.parse(this.path, this.text);
      return someCallsOf(() => checkFile(file, workspace)) > HASREF_BOUND;
    },
    matches: (text) => text.includes('$ref') && arrayDepth(text) >= 20,
  },
];

/** More calls of Array.prototype.some than this on the 18 levels of the hang's input: the walk doubles per level (2^18 = 262,144). */
export const HASREF_BOUND = 20_000;

/** The known hangs still there. */
export const ACTIVE_HANGS: readonly KnownHang[] = KNOWN_HANGS.filter((hang) => hang.stillThere());

/** Whether an input may meet an active known hang; if so it is counted as masked and not checked. */
export function knownHang(text: string): boolean {
  const hang = ACTIVE_HANGS.find((h) => h.matches(text));
  if (!hang) return false;
  masked.set(hang.name, (masked.get(hang.name) ?? 0) + 1);
  return true;
}
