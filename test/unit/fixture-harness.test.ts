// The marker harness (test/helpers/fixtures.ts) must be able to fail: a crashing rule, a finding
// whose range, severity or message id differs from its want, a marker it cannot read. Each case here
// is one the runners would otherwise pass. The update mode (test/helpers/fixtureUpdate.ts) writes
// only the wants that name a finding.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { checkFile } from '../../server/src/core/engine.js';
import type { Rule } from '../../server/src/core/rules/rule.js';
import { Workspace } from '../../server/src/core/workspace.js';
import { updateFolder } from '../helpers/fixtureUpdate.js';
import {
  checkFolder,
  failuresLogged,
  FIXTURES_ROOT,
  loadRecording,
  markerBody,
  matchWants,
  messageIdOf,
  pairWants,
  parseWants,
  parseWantsFile,
  type Want,
} from '../helpers/fixtures.js';

let crashes = 0;
/** A rule that throws, with a new message each time (the engine logs one failure per rule and message once). */
function throwingRule(): Rule {
  const message = `boom ${++crashes}`;
  return {
    id: 'test/throws',
    defaultSeverity: 'error',
    summary: 'Throws.',
    messages: {},
    kinds: '*',
    check() {
      throw new Error(message);
    },
  };
}

describe('a rule that throws fails the runners', () => {
  test('the fixture runner: checkFolder records it and failuresLogged reports it', () => {
    const { reports, logged } = checkFolder(join(FIXTURES_ROOT, 'workflow', 'duplicate-step-id'), {
      rules: [throwingRule()],
    });
    // What the engine leaves of the crash: no finding at all, so the wants alone would only see silence.
    assert.ok(reports.length > 0);
    assert.deepEqual(
      reports.flatMap((r) => r.findings.filter((f) => f.rule === 'test/throws')),
      [],
    );
    const failure = failuresLogged(logged);
    assert.ok(failure, 'the crash went unseen');
    assert.match(failure, /rule failure/);
    assert.match(failure, /rule test\/throws failed on .*: Error: boom/);
  });

  test('the corpus and docs runners: a workspace loaded with loadRecording', () => {
    const logged: string[] = [];
    const loaded = loadRecording({ paths: ['.'], cwd: join(__dirname, '..', 'corpus', 'clean') }, logged);
    const rule = throwingRule();
    for (const file of loaded.files.filter((f) => f.kind)) checkFile(file, loaded.workspace, [rule]);
    assert.match(failuresLogged(logged) ?? '', /rule test\/throws failed on /);
  });

  test('nothing logged, nothing reported', () => {
    const { logged } = checkFolder(join(FIXTURES_ROOT, 'workflow', 'duplicate-step-id'));
    assert.equal(failuresLogged(logged), undefined);
  });
});

describe('want markers', () => {
  const strip = (wants: Want[]) =>
    wants.map((w) => Object.fromEntries(Object.entries(w).filter(([key]) => key !== 'body')));

  test('a full marker: severity, rule, optional message id, start column and end; several per line', () => {
    const text =
      'a: 1 # want error x/y 4-5\nb: {c: 1} # want warning x/y:atKey 5-6 # want hint x/z 1-+2:3\n[1] // want info x/y 2-2\n';
    assert.deepEqual(strip(parseWants(text)), [
      { line: 1, rule: 'x/y', draft: false, column: 4, severity: 'error', end: { line: 1, column: 5 } },
      {
        line: 2,
        rule: 'x/y',
        draft: false,
        column: 5,
        severity: 'warning',
        messageId: 'atKey',
        end: { line: 2, column: 6 },
      },
      { line: 2, rule: 'x/z', draft: false, column: 1, severity: 'hint', end: { line: 4, column: 3 } },
      { line: 3, rule: 'x/y', draft: false, column: 2, severity: 'info', end: { line: 3, column: 2 } },
    ]);
    assert.deepEqual(strip(parseWantsFile('# comment\n3 error x/y 1-4\n4 warning x/y:id 17-+1:2\n')), [
      { line: 3, rule: 'x/y', draft: false, column: 1, severity: 'error', end: { line: 3, column: 4 } },
      {
        line: 4,
        rule: 'x/y',
        draft: false,
        column: 17,
        severity: 'warning',
        messageId: 'id',
        end: { line: 5, column: 2 },
      },
    ]);
  });

  test("the body's place is kept, for the update mode to rewrite only it", () => {
    const text = 'x: 1\r\nb: {c: 1} # want x/y@5 "one" # want error x/z 1-2 */}}\n';
    const wants = parseWants(text);
    assert.deepEqual(
      wants.map((w) => text.slice(w.body.start, w.body.end)),
      ['x/y@5 "one"', 'error x/z 1-2'],
    );
    const file = '1 x/y\n2:3 x/y "s"\n';
    assert.deepEqual(
      parseWantsFile(file).map((w) => file.slice(w.body.start, w.body.end)),
      ['1 x/y', '2:3 x/y "s"'],
    );
  });

  test('a draft: a rule, an optional column and an optional substring', () => {
    assert.deepEqual(strip(parseWants('a: 1 # want x/y\nb: {c: 1} # want x/y@5 "one"\n')), [
      { line: 1, rule: 'x/y', draft: true },
      { line: 2, rule: 'x/y', draft: true, column: 5, substring: 'one' },
    ]);
    assert.deepEqual(strip(parseWantsFile('3 x/y\n4:17 x/y "sub"\n')), [
      { line: 3, rule: 'x/y', draft: true },
      { line: 4, rule: 'x/y', draft: true, column: 17, substring: 'sub' },
    ]);
  });

  test('a marker that does not parse is refused, not read as "expect nothing"', () => {
    for (const bad of [
      'a: 1 # want Tool/Unknown',
      'a: 1 # want x/y@',
      'a: 1 # want x/y "unclosed',
      'a: 1 # want x/y, x/z',
      'a: 1 # want error x/y', // a severity but no range
      'a: 1 # want error x/y 4', // no end
      'a: 1 # want error x/y 4-', // no end column
      'a: 1 # want fatal x/y 4-5', // no such severity
      'a: 1 # want error x/y:9id 4-5', // an id starts with a letter
      'a: 1 # want error x/y 4-5 "message"', // full markers hold no substring
      'a: 1 # want error x/y 4-+:5', // a line offset without its number
      'a: 1 # want error x/y 4-5x',
      'a: 1 # want error  x/y 4-5', // one space between parts
    ]) {
      assert.throws(() => parseWants(`${bad}\n`), /malformed want marker/, bad);
    }
    assert.throws(() => parseWants('a: 1 # want x/y@0\n'), /1-based/);
    assert.throws(() => parseWants('a: 1 # want error x/y 0-3\n'), /1-based/);
    assert.throws(() => parseWants('a: 1 # want error x/y 5-4\n'), /ends before it starts/);
    assert.throws(() => parseWants('a: 1 # want error x/y 4-+0:5\n'), /\+0/);
    for (const bad of ['4:x x/y', '4 x/y "sub" trailing', '4 error x/y', '4 error x/y 1-2 extra', 'error x/y 1-2']) {
      assert.throws(() => parseWantsFile(`${bad}\n`), /bad \.wants line/, bad);
    }
  });
});

describe('matching wants to findings', () => {
  // A rule reporting at the key and at the value of one flow mapping line, like most of our rules do,
  // and once over two lines.
  const text = 'compositeTools:\n  - {name: flow, description: d, steps: [{id: s, tool: t}]}\n';
  const at = (needle: string) => ({ start: text.indexOf(needle), end: text.indexOf(needle) + needle.length });
  const keyAndValue: Rule = {
    id: 'test/spans',
    defaultSeverity: 'error',
    summary: 'Reports at two places of one line.',
    kinds: '*',
    messages: { atKey: () => 'at the key', atValue: () => 'at the value', spread: () => 'over two lines' },
    check(ctx) {
      ctx.report({ messageId: 'atKey', span: at('name') });
      ctx.report({ messageId: 'atValue', span: at('flow') });
      ctx.report({ messageId: 'spread', span: { start: text.indexOf('Tools'), end: text.indexOf('name') } });
    },
  };
  const workspace = new Workspace('/w');
  const report = checkFile(workspace.parse('/w/gateway.yaml', text), workspace, [keyAndValue]);
  const ok = { missing: [], unexpected: [] };
  const right = '# want error test/spans:atKey 6-10 # want error test/spans:atValue 12-16';
  const twoLines = 'x # want error test/spans:spread 10-+1:6';
  /** The wants of `line2` (the markers of line 2) and of `line1`, matched against `against`. */
  const match = (line2: string, line1 = twoLines, against = report) =>
    matchWants(against, parseWants(`${line1}\n${line2}`));

  test('the fixture is what the cases below assume', () => {
    const found = report.findings.map((f) => `${markerBody(report.file.source, f)} ${f.message}`).sort();
    assert.deepEqual(found, [
      'error test/spans:atKey 6-10 at the key',
      'error test/spans:atValue 12-16 at the value',
      'error test/spans:spread 10-+1:6 over two lines',
    ]);
  });

  test('every part right: matched', () => {
    assert.deepEqual(match(right), ok);
  });

  test('a widened range fails: a later end column, or an end on a later line', () => {
    const wider = match('# want error test/spans:atKey 6-11 # want error test/spans:atValue 12-16');
    assert.deepEqual(wider.missing, [
      '  line 2: error test/spans:atKey 6-11 (on that line: error test/spans:atKey 6-10; error test/spans:atValue 12-16)',
    ]);
    assert.deepEqual(wider.unexpected, ['  2: error test/spans:atKey 6-10 "at the key"']);
    assert.equal(match(right, 'x # want error test/spans:spread 10-+1:7').missing.length, 1);
    assert.equal(match(right, 'x # want error test/spans:spread 10-+2:6').missing.length, 1);
  });

  test('a narrowed range fails as well', () => {
    assert.equal(match('# want error test/spans:atKey 6-9 # want error test/spans:atValue 12-16').missing.length, 1);
  });

  test('a wrong start column fails', () => {
    const wrong = match('# want error test/spans:atKey 6-10 # want error test/spans:atValue 13-16');
    assert.match(wrong.missing[0]!, /line 2: error test\/spans:atValue 13-16/);
    assert.deepEqual(wrong.unexpected, ['  2: error test/spans:atValue 12-16 "at the value"']);
  });

  test('a changed severity fails', () => {
    const lowered = match('# want error test/spans:atKey 6-10 # want info test/spans:atValue 12-16');
    assert.match(
      lowered.missing[0]!,
      /line 2: info test\/spans:atValue 12-16 \(on that line: .*error test\/spans:atValue 12-16\)/,
    );
    assert.equal(lowered.unexpected.length, 1);
    // And the other way round: the check lowers the severity the fixture pins.
    const quieter = {
      ...report,
      findings: report.findings.map((f) => (f.messageId === 'atKey' ? { ...f, severity: 'info' as const } : f)),
    };
    assert.equal(match(right, twoLines, quieter).missing.length, 1);
  });

  describe('message ids', () => {
    test('a different id fails', () => {
      const other = match('# want error test/spans:atValue 6-10 # want error test/spans:atValue 12-16');
      assert.match(
        other.missing[0]!,
        /line 2: error test\/spans:atValue 6-10 \(on that line: error test\/spans:atKey 6-10; /,
      );
      assert.deepEqual(other.unexpected, ['  2: error test/spans:atKey 6-10 "at the key"']);
    });

    test('a finding with an id needs it in its want; a finding without one (an empty id) takes no want with one', () => {
      assert.equal(match('# want error test/spans 6-10 # want error test/spans:atValue 12-16').missing.length, 1);
      const bare = { ...report, findings: report.findings.map((f) => ({ ...f, messageId: '' })) };
      assert.equal(match(right, 'x # want error test/spans 10-+1:6', bare).missing.length, 2);
      assert.deepEqual(
        match('# want error test/spans 6-10 # want error test/spans 12-16', 'x # want error test/spans 10-+1:6', bare),
        ok,
      );
    });

    test('the update mode gives each want without an id the id of the finding it describes', () => {
      // Two findings that start at one place: the end tells them apart, not the order.
      const atKey = report.findings.find((f) => f.messageId === 'atKey')!;
      const spans = {
        ...report,
        findings: [...report.findings, { ...atKey, span: at('name: flow'), messageId: 'atPair' }],
      };
      const wants = parseWants(
        'x # want error test/spans 10-+1:6\n# want error test/spans 6-16 # want error test/spans 6-10 # want error test/spans 12-16',
      );
      const { pairs, wants: left, findings } = pairWants(spans, wants, true);
      assert.deepEqual([left, findings], [[], []]);
      assert.deepEqual(
        pairs
          .map(([want, finding]) => `${want.column}-${want.end!.column} => ${markerBody(spans.file.source, finding)}`)
          .sort(),
        [
          '10-6 => error test/spans:spread 10-+1:6',
          '12-16 => error test/spans:atValue 12-16',
          '6-10 => error test/spans:atKey 6-10',
          '6-16 => error test/spans:atPair 6-16',
        ],
      );
      // The runner itself pairs none of them: each lacks its id.
      assert.equal(matchWants(spans, wants).missing.length, 4);
    });
  });

  test('the line counts, and a draft never matches', () => {
    assert.equal(matchWants(report, parseWants(`${right}\n${twoLines}`)).missing.length, 3);
    const draft = match('# want test/spans@6 # want error test/spans:atValue 12-16');
    assert.match(draft.missing[0]!, /line 2: test\/spans@6 \(a draft: fill it in with UPDATE_FIXTURES=1/);
    assert.equal(draft.unexpected.length, 1);
  });
});

describe('the update mode', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tool-lens-fixture-update-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  // workflow/duplicate-step-id on three ids, with a draft, a full want with a wrong range and
  // severity, a want on a line with no finding, and one finding no want names.
  const before = [
    'compositeTools:',
    '  - name: twice',
    '    description: Read twice.',
    '    steps:',
    '      - {id: read, tool: filesystem.read_file}',
    '      - {id: read, tool: filesystem.read_file} # want workflow/duplicate-step-id@14 "already has the id"',
    '      - id: read # want warning workflow/duplicate-step-id 13-40',
    '        tool: filesystem.read_file # want workflow/duplicate-step-id',
    '      - {id: read, tool: filesystem.read_file}',
    '',
  ].join('\r\n');

  test('rewrites the wants that name a finding, and nothing else', () => {
    writeFileSync(join(dir, 'gateway.yaml'), before);
    writeFileSync(join(dir, 'cases.jsonl'), '{"x": 1}\n');
    writeFileSync(join(dir, 'cases.wants'), '# no finding here\n1 workflow/duplicate-step-id\n');
    // The rule's message id, when its findings have one, is written after the rule.
    const found = checkFolder(dir)
      .reports.flatMap((r) => r.findings)
      .find((f) => f.rule === 'workflow/duplicate-step-id')!;
    const rule = `workflow/duplicate-step-id${messageIdOf(found) ? `:${messageIdOf(found)}` : ''}`;
    assert.deepEqual(updateFolder(dir, 'workflow/duplicate-step-id'), [join(dir, 'gateway.yaml')]);
    const lines = readFileSync(join(dir, 'gateway.yaml'), 'utf8').split('\r\n');
    assert.deepEqual(lines, [
      ...before.split('\r\n').slice(0, 5),
      `      - {id: read, tool: filesystem.read_file} # want error ${rule} 14-18`,
      `      - id: read # want error ${rule} 13-17`,
      // No finding on this line: the want stays, and fails.
      '        tool: filesystem.read_file # want workflow/duplicate-step-id',
      // A finding without a want is not written in: it stays a failure too.
      ...before.split('\r\n').slice(8),
    ]);
    assert.equal(readFileSync(join(dir, 'cases.wants'), 'utf8'), '# no finding here\n1 workflow/duplicate-step-id\n');
    // A second run has nothing left to write.
    assert.deepEqual(updateFolder(dir, 'workflow/duplicate-step-id'), []);
  });
});
