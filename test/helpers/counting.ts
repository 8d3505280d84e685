// Counting calls instead of timing: a test that a walk is not exponential counts the calls the walk
// makes on a small case, so it fails in a moment (and on any machine) rather than hanging or
// depending on the clock.

/** How many times Array.prototype.some is called while `run` runs (ajv's hasRef called it once per array it walked). */
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
