// Fixtures match findings by rule, line, column and words, not by severity. The workflow checks
// whose severity says when ToolHive acts (an error where it refuses the file, at load or at start;
// a warning where it carries on and does something else than the file says) are pinned here, on
// their fixture folders, so a severity cannot drift without a failing test.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkFolder } from '../helpers/fixtures.js';
import type { Severity } from '../../server/src/core/types.js';
import { fullText } from '../helpers/text.js';

const FIXTURES = join(__dirname, '..', 'fixtures');

/** Every finding of `rule` in the folder, as `file:line:col severity` keyed by a substring of its message. */
function severities(folder: string, rule: string): { where: string; message: string; severity: Severity }[] {
  const { reports } = checkFolder(join(FIXTURES, folder));
  return reports.flatMap((report) =>
    report.findings
      .filter((f) => f.rule === rule)
      .map((f) => {
        const pos = report.file.source.positionAt(f.span.start);
        return { where: `${report.file.path}:${pos.line + 1}`, message: fullText(f), severity: f.severity };
      }),
  );
}

function expectSeverity(found: ReturnType<typeof severities>, words: RegExp, severity: Severity, atLeast = 1): void {
  const matching = found.filter((f) => words.test(f.message));
  assert.ok(
    matching.length >= atLeast,
    `expected ${atLeast} or more findings matching ${words}, got ${matching.length}`,
  );
  for (const f of matching) assert.equal(f.severity, severity, `${f.where}: ${f.message}`);
}

test('workflow/limit: refusals (load, start) are errors, run-time caps are warnings', () => {
  const found = severities('workflow/limit', 'workflow/limit');
  expectSeverity(found, /steps, over ToolHive's limit of 100/, 'error', 2);
  expectSeverity(found, /`maxParallel` \d+ is over/, 'error', 2);
  expectSeverity(found, /`maxIterations` \d+ is over/, 'error', 2);
  expectSeverity(found, /`retryCount` \d+ is over ToolHive's cap/, 'warning', 2);
  expectSeverity(found, /waits at most 10m/, 'warning', 3);
  assert.equal(found.filter((f) => f.severity !== 'error' && f.severity !== 'warning').length, 0);
});

test('workflow/ambiguous-step: the step loads as a tool call, so a warning in every dialect', () => {
  const found = severities('workflow/ambiguous-step', 'workflow/ambiguous-step');
  expectSeverity(found, /runs as a tool call/, 'warning', 4);
});
