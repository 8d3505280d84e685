// What the benchmark's LSP sections share about the server processes they start: none outlives
// the benchmark, and no wait on one is unbounded.

/** The server processes still running; each section adds its children and deletes them on exit. */
export const live = new Set();
// Whatever ends this process, no server outlives it.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** `promise`, or a rejection naming `what` after `ms`. */
export function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
