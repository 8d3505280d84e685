// The report formats for other services, on the built bundle, each checked against what its
// consumer publishes: `gitlab` against the Code Quality report format GitLab documents
// (test/schemas/gitlab-codequality.schema.json), `rdjson` against reviewdog's DiagnosticResult
// schema (test/schemas/rdjson-diagnostic-result.schema.json), `junit` read back by a real XML
// parser (fast-xml-parser, which also validates it), `sarif` against the OASIS SARIF 2.1.0 schema. Run on examples/ (findings of every severity,
// fixes) and on a file whose messages and lines hold what these formats must escape or count
// differently: an astral character before a finding, a control character and markup in a key.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ROOT, runCli } from './harness.js';

const EXAMPLES = join(ROOT, 'examples');
const schema = (name: string) => JSON.parse(readFileSync(join(ROOT, 'test', 'schemas', name), 'utf8')) as object;
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
const validGitlab = ajv.compile(schema('gitlab-codequality.schema.json'));
const validRdjson = ajv.compile(schema('rdjson-diagnostic-result.schema.json'));

interface JsonOut {
  files: {
    path: string;
    diagnostics: {
      rule: string;
      severity: string;
      message: string;
      why?: string;
      range: { start: { line: number; column: number }; end: { line: number; column: number } };
    }[];
  }[];
}

const dir = mkdtempSync(join(tmpdir(), 'tool-lens-formats-'));
// Line 3: the duplicate key `b` comes after an emoji (2 UTF-16 code units, 4 UTF-8 bytes); line 5:
// a key with a control character and XML markup, twice; line 7: the finding of line 3 again.
const ODD =
  'name: odd\ncompositeTools: []\nx: {"😀": 1, b: 1, b: 2}\ny:\n  "<a&b>\\u0001": 1\n  "<a&b>\\u0001": 2\nz: {b: 1, b: 2}\n';
writeFileSync(join(dir, 'odd.vmcp.yaml'), ODD);
after(() => rmSync(dir, { recursive: true, force: true }));

function run(format: string, cwd: string, extra: string[] = []): { code: number | null; stdout: string } {
  const out = runCli(['check', '.', '--format', format, ...extra], { cwd });
  assert.equal(out.stderr, '');
  return { code: out.code, stdout: out.stdout };
}

function asJson(cwd: string): JsonOut {
  return JSON.parse(run('json', cwd).stdout) as JsonOut;
}

/** Each finding of the JSON report; `message` as the one-text formats write it: the message, then its why. */
function findingsOf(report: JsonOut) {
  return report.files.flatMap((file) =>
    file.diagnostics.map((d) => ({
      path: file.path,
      ...d,
      headline: d.message,
      message: d.why ? `${d.message} ${d.why}` : d.message,
    })),
  );
}

describe('--format gitlab', () => {
  for (const [name, cwd] of [
    ['examples', EXAMPLES],
    ['odd characters', dir],
  ] as const) {
    test(`${name}: valid against GitLab's Code Quality format, one issue per finding`, () => {
      const out = run('gitlab', cwd);
      const issues = JSON.parse(out.stdout) as {
        check_name: string;
        description: string;
        severity: string;
        fingerprint: string;
        location: { path: string; lines: { begin: number; end: number } };
      }[];
      assert.ok(validGitlab(issues), JSON.stringify(validGitlab.errors));
      const findings = findingsOf(asJson(cwd));
      assert.ok(findings.length >= 2);
      assert.deepEqual(
        issues.map((issue) => [issue.location.path, issue.check_name, issue.description, issue.location.lines.begin]),
        findings.map((f) => [f.path, f.rule, f.message, f.range.start.line]),
      );
      const severity: Record<string, string> = { error: 'major', warning: 'minor', info: 'info', hint: 'info' };
      assert.deepEqual(
        issues.map((issue) => issue.severity),
        findings.map((f) => severity[f.severity]),
      );
      assert.equal(
        new Set(issues.map((issue) => issue.fingerprint)).size,
        issues.length,
        'fingerprints are unique in a report',
      );
    });
  }

  test('fingerprints stay when lines move, and differ for two equal findings in one file', () => {
    const before = JSON.parse(run('gitlab', dir).stdout) as {
      fingerprint: string;
      location: { lines: { begin: number } };
    }[];
    const moved = mkdtempSync(join(tmpdir(), 'tool-lens-formats-'));
    try {
      writeFileSync(join(moved, 'odd.vmcp.yaml'), `# a comment above moves every line\n\n${ODD}`);
      const after = JSON.parse(run('gitlab', moved).stdout) as typeof before;
      assert.deepEqual(
        after.map((issue) => issue.fingerprint),
        before.map((issue) => issue.fingerprint),
      );
      assert.deepEqual(
        after.map((issue) => issue.location.lines.begin),
        before.map((issue) => issue.location.lines.begin + 2),
      );
      // Lines 3 and 7 say the same thing of the same file: two issues, two fingerprints.
      const same = (
        before as unknown as {
          check_name: string;
          description: string;
          fingerprint: string;
          location: { lines: { begin: number } };
        }[]
      ).filter((issue) => issue.check_name === 'yaml/duplicate-key' && [3, 7].includes(issue.location.lines.begin));
      assert.equal(same.length, 2);
      assert.equal(same[0]!.description, same[1]!.description);
      assert.notEqual(same[0]!.fingerprint, same[1]!.fingerprint);
    } finally {
      rmSync(moved, { recursive: true, force: true });
    }
  });
});

describe('--format rdjson', () => {
  for (const [name, cwd] of [
    ['examples', EXAMPLES],
    ['odd characters', dir],
  ] as const) {
    test(`${name}: valid against reviewdog's DiagnosticResult schema, one diagnostic per finding`, () => {
      const out = run('rdjson', cwd);
      const result = JSON.parse(out.stdout) as {
        source: { name: string };
        diagnostics: {
          message: string;
          severity: string;
          code: { value: string; url: string };
          location: { path: string; range: { start: { line: number; column: number } } };
          suggestions?: unknown[];
        }[];
      };
      assert.ok(validRdjson(result), JSON.stringify(validRdjson.errors));
      assert.equal(result.source.name, 'tool-lens');
      const findings = findingsOf(asJson(cwd));
      assert.deepEqual(
        result.diagnostics.map((d) => [d.location.path, d.code.value, d.message, d.location.range.start.line]),
        findings.map((f) => [f.path, f.rule, f.message, f.range.start.line]),
      );
      assert.ok(result.diagnostics.every((d) => d.code.url.endsWith(`/docs/rules/${d.code.value}.md`)));
    });
  }

  test('columns count UTF-8 bytes, as reviewdog reads them', () => {
    const result = JSON.parse(run('rdjson', dir).stdout) as {
      diagnostics: {
        code: { value: string };
        location: { range: { start: { line: number; column: number }; end: { line: number; column: number } } };
      }[];
    };
    const ours = findingsOf(asJson(dir)).find((f) => f.rule === 'yaml/duplicate-key' && f.range.start.line === 3)!;
    const theirs = result.diagnostics.find(
      (d) => d.code.value === 'yaml/duplicate-key' && d.location.range.start.line === 3,
    )!;
    // `x: {"😀": 1, b: 1, b` : the second b is the 19th UTF-16 code unit and starts at byte 21.
    const line = 'x: {"😀": 1, b: 1, b: 2}';
    assert.equal(ours.range.start.column, line.lastIndexOf('b') + 1);
    assert.equal(theirs.location.range.start.column, Buffer.byteLength(line.slice(0, line.lastIndexOf('b'))) + 1);
    assert.equal(theirs.location.range.start.column - ours.range.start.column, 2);
  });

  test('a fix becomes suggestions', () => {
    const result = JSON.parse(run('rdjson', EXAMPLES).stdout) as {
      diagnostics: { suggestions?: { range: unknown; text: string }[] }[];
    };
    assert.ok(
      result.diagnostics.some((d) => (d.suggestions?.length ?? 0) > 0),
      'examples/ has a finding with a fix',
    );
  });
});

describe('--format junit', () => {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => ['testsuite', 'testcase'].includes(name),
  });
  interface Case {
    classname: string;
    name: string;
    line?: string;
    failure?: { type: string; message: string; '#text': string };
    'system-out'?: string;
  }
  interface Suites {
    testsuites: {
      tests: string;
      failures: string;
      testsuite: { name: string; tests: string; failures: string; testcase: Case[] }[];
    };
  }

  for (const [name, cwd] of [
    ['examples', EXAMPLES],
    ['odd characters', dir],
  ] as const) {
    test(`${name}: well-formed XML, one suite per file, failures exactly the findings at --fail-on`, () => {
      const out = run('junit', cwd);
      assert.equal(XMLValidator.validate(out.stdout), true);
      const xml = parser.parse(out.stdout) as Suites;
      const report = asJson(cwd);
      assert.deepEqual(
        xml.testsuites.testsuite.map((suite) => suite.name),
        report.files.map((file) => file.path),
      );
      const findings = findingsOf(report);
      const errors = findings.filter((f) => f.severity === 'error');
      assert.equal(Number(xml.testsuites.failures), errors.length);
      assert.ok(errors.length > 0);
      const cases = xml.testsuites.testsuite.flatMap((suite) =>
        suite.testcase.filter((c) => c.failure || c['system-out']),
      );
      assert.deepEqual(
        cases.map((c) => [c.classname, c.failure?.message ?? null, c.line]),
        findings.map((f) => [
          f.path,
          // The failure's `message` attribute is the one sentence; its body holds the why too.
          f.severity === 'error' ? f.headline.split('\u0001').join('\\u0001') : null,
          String(f.range.start.line),
        ]),
      );
      assert.equal(out.code, 1);
      // With --fail-on warning the warnings fail too, as the exit code does.
      const warned = parser.parse(run('junit', cwd, ['--fail-on', 'warning']).stdout) as Suites;
      assert.equal(
        Number(warned.testsuites.failures),
        findings.filter((f) => f.severity === 'error' || f.severity === 'warning').length,
      );
    });
  }

  test('markup and control characters in a message are escaped, and read back as written', () => {
    const out = run('junit', dir).stdout;
    assert.ok(!out.includes('\u0001'), 'no raw control character (XML 1.0 cannot hold one)');
    const xml = parser.parse(out) as Suites;
    const messages = xml.testsuites.testsuite
      .flatMap((suite) => suite.testcase)
      .flatMap((c) => (c.failure ? [c.failure.message] : []));
    assert.ok(
      messages.some((m) => m.includes('<a&b>\\u0001')),
      messages.join('\n'),
    );
  });
});

describe('--format sarif', () => {
  // The OASIS SARIF 2.1.0 schema (JSON Schema 2020-12), as Microsoft's SARIF SDK ships it in its
  // Linux multitool package: the published schema, read from node_modules, never copied here.
  const sarifSchema = JSON.parse(
    readFileSync(join(ROOT, 'node_modules', '@microsoft', 'sarif-multitool-linux', 'sarif-2.1.0.json'), 'utf8'),
  ) as object;
  const ajv2020 = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv2020);
  const validSarif = ajv2020.compile(sarifSchema);
  for (const [name, cwd] of [
    ['examples', EXAMPLES],
    ['odd characters', dir],
  ] as const) {
    test(`${name}: valid against the SARIF 2.1.0 schema, one result per finding`, () => {
      const out = run('sarif', cwd);
      const log = JSON.parse(out.stdout) as { runs: { results: { ruleId: string }[] }[] };
      assert.ok(validSarif(log), JSON.stringify(validSarif.errors?.slice(0, 5)));
      assert.deepEqual(
        log.runs[0]!.results.map((r) => r.ruleId),
        findingsOf(asJson(cwd)).map((f) => f.rule),
      );
    });
  }
});
