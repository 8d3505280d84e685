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

/**
 * Every call of the method `name` of `owner` (a prototype, say) while `run` runs: the object it was
 * called on and its arguments. The method is put back afterwards, whatever `run` did.
 */
export async function methodCallsOf<Owner extends object>(
  owner: Owner,
  name: keyof Owner & string,
  run: () => Promise<void>,
): Promise<{ self: unknown; args: unknown[] }[]> {
  const original = owner[name] as unknown as (...args: unknown[]) => unknown;
  const calls: { self: unknown; args: unknown[] }[] = [];
  (owner as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
    calls.push({ self: this, args });
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    (owner as Record<string, unknown>)[name] = original;
  }
  return calls;
}
