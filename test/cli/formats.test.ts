// The machine formats of `tool-lens check`: JSON (docs/behaviour.md#json-output, compared field by field), SARIF 2.1.0
// (checked structurally) and GitHub Actions workflow commands (exact lines).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT, runCli, SCENARIOS } from './harness.js';

// Each message is one sentence; the why follows it (under the line, in JSON's `why`, after it in one-text formats).
const DUPLICATE = 'The key "description" appears twice in this mapping: keep one.';
const DUPLICATE_WHY = 'Most readers keep only one of the two values, so one of them is silently lost.';
const UNUSED = 'This suppression of yaml/duplicate-key silences nothing: remove it.';
const UNUSED_WHY =
  'yaml/duplicate-key reports nothing on the next line. Left in place, it would hide a future finding.';

interface JsonReport {
  version: number;
  files: {
    path: string;
    kind: string | null;
    diagnostics: {
      rule: string;
      severity: string;
      message: string;
      range: { start: { line: number; column: number }; end: { line: number; column: number } };
      fixes: { title: string; safe: boolean; edits: { range: unknown; newText: string }[] }[];
    }[];
  }[];
  summary: Record<string, number>;
}

function json(args: string[]): { code: number | null; report: JsonReport } {
  const run = runCli([...args, '--format', 'json']);
  assert.equal(run.stderr, '');
  assert.ok(run.stdout.endsWith('}\n'), 'one JSON object and a newline');
  return { code: run.code, report: JSON.parse(run.stdout) as JsonReport };
}

describe('--format json', () => {
  test('a finding: path, kind, rule, message id, severity, message, 1-based range with an exclusive end', () => {
    const { code, report } = json(['check', 'one-error']);
    assert.equal(code, 1);
    assert.deepEqual(Object.keys(report), ['version', 'files', 'summary']);
    assert.equal(report.version, 1);
    assert.equal(report.files.length, 2);
    const [catalog, gateway] = report.files;
    assert.deepEqual(catalog, { path: 'one-error/catalogs/filesystem.json', kind: 'tool-catalog', diagnostics: [] });
    assert.equal(gateway!.path, 'one-error/gateway.vmcp.yaml');
    assert.equal(gateway!.kind, 'vmcp-config');
    assert.equal(gateway!.diagnostics.length, 1);
    const diagnostic = gateway!.diagnostics[0]!;
    assert.deepEqual(Object.keys(diagnostic), ['rule', 'messageId', 'severity', 'message', 'why', 'range', 'fixes']);
    assert.equal(diagnostic.rule, 'yaml/duplicate-key');
    assert.equal((diagnostic as { messageId?: string }).messageId, 'duplicate');
    assert.equal(diagnostic.severity, 'error');
    assert.equal(diagnostic.message, DUPLICATE);
    assert.equal((diagnostic as { why?: string }).why, DUPLICATE_WHY);
    // `description` on line 5 starts in column 5 and is 11 characters long.
    assert.deepEqual(diagnostic.range, { start: { line: 5, column: 5 }, end: { line: 5, column: 16 } });
    assert.deepEqual(diagnostic.fixes, []);
    assert.deepEqual(report.summary, { files: 2, error: 1, warning: 0, info: 0, hint: 0 });
  });

  test('fixes carry their title, safety and edits in the same coordinates', () => {
    const { code, report } = json(['check', 'warning-only']);
    assert.equal(code, 0);
    const diagnostic = report.files.find((f) => f.path === 'warning-only/gateway.vmcp.yaml')!.diagnostics[0]!;
    assert.equal(diagnostic.rule, 'lens/unused-suppression');
    assert.equal(diagnostic.severity, 'warning');
    assert.equal(diagnostic.message, UNUSED);
    assert.equal((diagnostic as { why?: string }).why, UNUSED_WHY);
    assert.deepEqual(diagnostic.range, { start: { line: 13, column: 37 }, end: { line: 13, column: 55 } });
    // The comment stands on its own line, so the fix removes the whole line with its line break.
    assert.deepEqual(diagnostic.fixes, [
      {
        title: 'Remove this suppression comment',
        safe: true,
        edits: [{ range: { start: { line: 13, column: 1 }, end: { line: 14, column: 1 } }, newText: '' }],
      },
    ]);
    assert.deepEqual(report.summary, { files: 2, error: 0, warning: 1, info: 0, hint: 0 });
  });

  test('files that are none of our kinds are listed with kind null and no diagnostics', () => {
    const { code, report } = json(['check', 'clean']);
    assert.equal(code, 0);
    assert.deepEqual(
      report.files.map((f) => [f.path, f.kind, f.diagnostics.length]),
      [
        ['clean/catalogs/filesystem.json', 'tool-catalog', 0],
        ['clean/gateway.vmcp.yaml', 'vmcp-config', 0],
        ['clean/notes.yaml', null, 0],
      ],
    );
    assert.deepEqual(report.summary, { files: 3, error: 0, warning: 0, info: 0, hint: 0 });
  });
});

interface SarifRegion {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

interface SarifLog {
  $schema: string;
  version: string;
  runs: {
    tool: {
      driver: {
        name: string;
        version: string;
        rules: {
          id: string;
          shortDescription: { text: string };
          helpUri: string;
          defaultConfiguration: { level: string };
        }[];
      };
    };
    originalUriBaseIds: Record<string, { uri: string }>;
    columnKind: string;
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: SarifRegion } }[];
      fixes?: {
        description: { text: string };
        artifactChanges: {
          artifactLocation: { uri: string };
          replacements: { deletedRegion: SarifRegion; insertedContent: { text: string } }[];
        }[];
      }[];
    }[];
  }[];
}

describe('--format sarif', () => {
  test('a SARIF 2.1.0 log with the rules, the results and their regions', () => {
    const run = runCli(['check', 'one-error', 'warning-only', '--format', 'sarif']);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, '');
    const log = JSON.parse(run.stdout) as SarifLog;
    assert.equal(log.version, '2.1.0');
    assert.match(log.$schema, /sarif-schema-2\.1\.0\.json$/);
    assert.equal(log.runs.length, 1);
    const [sarifRun] = log.runs;
    const driver = sarifRun!.tool.driver;
    assert.equal(driver.name, 'Tool Lens');
    assert.equal(
      driver.version,
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    );
    const ids = driver.rules.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length, 'each rule once');
    const duplicateKey = driver.rules.find((r) => r.id === 'yaml/duplicate-key');
    assert.ok(duplicateKey, 'the rules include yaml/duplicate-key');
    assert.equal(duplicateKey.defaultConfiguration.level, 'error');
    assert.ok(duplicateKey.shortDescription.text.length > 0);
    assert.match(duplicateKey.helpUri, /^https:\/\/.*\/docs\/rules\/yaml\/duplicate-key\.md$/);
    assert.equal(driver.rules.find((r) => r.id === 'lens/unused-suppression')?.defaultConfiguration.level, 'warning');
    assert.equal(sarifRun!.columnKind, 'utf16CodeUnits');
    assert.equal(sarifRun!.originalUriBaseIds['%SRCROOT%']?.uri, `file://${SCENARIOS}/`);

    assert.equal(sarifRun!.results.length, 2);
    const [error, warning] = sarifRun!.results;
    assert.equal(error!.ruleId, 'yaml/duplicate-key');
    assert.equal(ids[error!.ruleIndex], 'yaml/duplicate-key');
    assert.equal(error!.level, 'error');
    assert.equal(error!.message.text, `${DUPLICATE} ${DUPLICATE_WHY}`);
    assert.deepEqual(error!.locations, [
      {
        physicalLocation: {
          artifactLocation: { uri: 'one-error/gateway.vmcp.yaml', uriBaseId: '%SRCROOT%' },
          region: { startLine: 5, startColumn: 5, endLine: 5, endColumn: 16 },
        },
      },
    ]);
    assert.equal(error!.fixes, undefined);

    assert.equal(warning!.ruleId, 'lens/unused-suppression');
    assert.equal(warning!.level, 'warning');
    assert.deepEqual(warning!.locations[0]!.physicalLocation.region, {
      startLine: 13,
      startColumn: 37,
      endLine: 13,
      endColumn: 55,
    });
    assert.equal(warning!.fixes?.length, 1);
    const change = warning!.fixes[0]!.artifactChanges[0]!;
    assert.equal(warning!.fixes[0]!.description.text, 'Remove this suppression comment');
    assert.equal(change.artifactLocation.uri, 'warning-only/gateway.vmcp.yaml');
    assert.deepEqual(change.replacements, [
      { deletedRegion: { startLine: 13, startColumn: 1, endLine: 14, endColumn: 1 }, insertedContent: { text: '' } },
    ]);
  });
});

describe('--format github', () => {
  test('one workflow command per finding, warnings as ::warning', () => {
    const run = runCli(['check', 'one-error', 'warning-only', 'clean', '--format', 'github']);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, '');
    assert.equal(
      run.stdout,
      [
        `::error file=one-error/gateway.vmcp.yaml,line=5,col=5,endLine=5,endColumn=16,title=yaml/duplicate-key::${DUPLICATE} ${DUPLICATE_WHY}`,
        `::warning file=warning-only/gateway.vmcp.yaml,line=13,col=37,endLine=13,endColumn=55,title=lens/unused-suppression::${UNUSED} ${UNUSED_WHY}`,
        '',
      ].join('\n'),
    );
  });

  test('a clean run prints nothing', () => {
    const run = runCli(['check', 'clean', '--format', 'github']);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, '');
  });
});
