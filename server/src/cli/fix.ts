// `--fix`: applies the safe fixes of every file in place, in one pass. Fixes whose edits overlap an
// already chosen one wait for the next run. A file without a safe fix is never opened for writing,
// and a file is written back exactly as the edited text: line endings, BOM and everything the edits
// do not cover stay byte for byte. Nothing is written outside the workspace (the folder the command
// runs in): a file whose real path, every symbolic link resolved, lies outside it is not fixed,
// and the run says so and fails.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { confinedTarget, OutsideWorkspace } from '../node/confine.js';
import { applyEdits, chooseCompatibleFixes } from '../core/text/edits.js';
import type { Fix } from '../core/types.js';
import type { Logger } from '../core/workspace.js';
import type { CheckedFile } from './result.js';

export interface FixedFile {
  path: string;
  /** Fixes written. */
  applied: number;
  /** Safe fixes left for another run because they overlap a chosen one. */
  skipped: number;
}

/** The safe fix of each finding (a finding's fixes are alternatives: at most one is applied). */
function safeFixes(file: CheckedFile): Fix[] {
  const out: Fix[] = [];
  for (const finding of file.findings) {
    const fix = finding.fixes?.find((candidate) => candidate.safe);
    if (fix) out.push(fix);
  }
  return out;
}

/** The file's text with its safe fixes applied (one pass), or undefined when none changes it. */
export function fixedText(file: CheckedFile): { text: string; applied: number; skipped: number } | undefined {
  const fixes = safeFixes(file);
  if (fixes.length === 0) return undefined;
  const { chosen, skipped } = chooseCompatibleFixes(fixes);
  const before = file.source.text;
  const after = applyEdits(
    before,
    chosen.flatMap((fix) => fix.edits),
  );
  return after === before ? undefined : { text: after, applied: chosen.length, skipped };
}

export interface FixRun {
  fixed: FixedFile[];
  /** Files with safe fixes that were not written because they lie outside the workspace (a link leads there). */
  refused: string[];
}

/** Writes each file's safe fixes; paths are relative to `cwd`, and nothing is written outside `root` (the run's workspace; `cwd` when not given). */
export function applySafeFixes(files: readonly CheckedFile[], cwd: string, log: Logger, root = cwd): FixRun {
  const fixed: FixedFile[] = [];
  const refused: string[] = [];
  for (const file of files) {
    const edited = fixedText(file);
    if (edited === undefined) continue;
    const before = file.source.text;
    const after = edited.text;
    let absolute: string;
    try {
      // The real path, checked once and then used for the read and the write alike.
      absolute = confinedTarget(root, resolve(cwd, file.path));
    } catch (error) {
      if (!(error instanceof OutsideWorkspace)) throw error;
      log(`not fixed: ${error.message}`);
      refused.push(file.path);
      continue;
    }
    // The text was decoded as UTF-8; if that does not give back the bytes on disk (another
    // encoding, or the file changed meanwhile), writing would damage what the edits do not cover.
    let onDisk: Buffer;
    try {
      onDisk = readFileSync(absolute);
    } catch (error) {
      log(`not fixed: cannot read ${file.path} again: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (!onDisk.equals(Buffer.from(before, 'utf8'))) {
      log(`not fixed: ${file.path} is not UTF-8 text or changed while it was checked`);
      continue;
    }
    try {
      writeFileSync(absolute, after, 'utf8');
    } catch (error) {
      log(`not fixed: cannot write ${file.path}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    fixed.push({ path: file.path, applied: edited.applied, skipped: edited.skipped });
  }
  return { fixed, refused };
}
