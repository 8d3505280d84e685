// Temporary folders that the test process removes when it exits, whatever the tests did: a test
// that builds a workspace (a git repository, a copy of examples/) takes one from here and needs no
// cleanup of its own. scripts/run-tests.mjs fails a run that leaves a tool-lens-* entry behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

process.once('exit', () => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});

/** `path` (a folder or file the test made), removed when the test process exits; returns `path`. */
export function removeAtExit(path: string): string {
  made.push(path);
  return path;
}

/** A new empty folder under the temporary folder, named `prefix` and a random tail; removed at exit. */
export function temporaryDir(prefix: string): string {
  return removeAtExit(mkdtempSync(join(tmpdir(), prefix)));
}
