// The update mode of the marker fixtures (UPDATE_FIXTURES=1 node scripts/run-tests.mjs fixtures):
// rewrites each want that names a finding into the full marker of that finding, from what the
// checker says, and changes nothing else. A want names a finding when its rule and line agree, and
// its start column and message substring where it gives them (a full want gives its column). A
// finding no want names, and a want that names none, are left as they are: the runner then fails on
// them, and a person decides. Each rewritten marker is a claim to review, not a result to accept.
//
// A `<case>.fixed.<ext>` holds the case's markers too (the fix leaves comments alone): it is
// written again from the rewritten case, but only when it matched the case before the update.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileReport } from '../../server/src/core/engine.js';
import { applyEdits, chooseCompatibleFixes } from '../../server/src/core/text/edits.js';
import { checkFolder, markerBody, pairWants, wantsWithSource } from './fixtures.js';

/** The path of a case's expected fixed text, whether or not it exists. */
export function fixedPathFor(dir: string, path: string): string {
  const ext = /\.[a-z]+$/.exec(path)![0];
  return join(dir, path.slice(0, -ext.length) + '.fixed' + ext);
}

/** The case's text after the first fix of every finding of `ruleId`, or undefined when none has a fix. */
export function fixedTextOf(report: FileReport, ruleId: string): string | undefined {
  const fixes = report.findings.filter((f) => f.rule === ruleId && f.fixes?.length).map((f) => f.fixes![0]!);
  if (fixes.length === 0) return undefined;
  const { chosen } = chooseCompatibleFixes(fixes);
  return applyEdits(
    report.file.source.text,
    chosen.flatMap((f) => f.edits),
  );
}

/** Rewrites the wants of every case of a folder; returns the files it wrote (absolute paths). */
export function updateFolder(dir: string, ruleId: string): string[] {
  const written: string[] = [];
  const { reports } = checkFolder(dir);
  const refix: FileReport['file']['path'][] = [];
  for (const report of reports) {
    const path = report.file.path;
    const fixedPath = fixedPathFor(dir, path);
    if (existsSync(fixedPath) && fixedTextOf(report, ruleId) === readFileSync(fixedPath, 'utf8')) refix.push(path);
    const { wants, sidecar } = wantsWithSource(dir, path, report.file.source.text);
    const { pairs } = pairWants(report, wants, true);
    if (pairs.length === 0) continue;
    const target = sidecar ?? join(dir, path);
    const text = readFileSync(target, 'utf8');
    // The markers' places are counted in the checked text: it must be the file's, byte for byte.
    if (!sidecar && text !== report.file.source.text)
      throw new Error(`${path}: the checked text is not the file's; update it by hand`);
    let out = '';
    let at = 0;
    for (const [want, finding] of pairs.sort((a, b) => a[0].body.start - b[0].body.start)) {
      const body = markerBody(report.file.source, finding);
      out += text.slice(at, want.body.start) + (sidecar ? `${want.line} ${body}` : body);
      at = want.body.end;
    }
    out += text.slice(at);
    if (out === text) continue;
    writeFileSync(target, out);
    written.push(target);
  }
  if (refix.length && written.length) {
    for (const report of checkFolder(dir).reports.filter((r) => refix.includes(r.file.path))) {
      const fixedPath = fixedPathFor(dir, report.file.path);
      const fixed = fixedTextOf(report, ruleId);
      if (fixed !== undefined && fixed !== readFileSync(fixedPath, 'utf8')) {
        writeFileSync(fixedPath, fixed);
        written.push(fixedPath);
      }
    }
  }
  return written;
}
