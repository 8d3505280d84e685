// The marker harness (test/helpers/fixtures.ts) must be able to fail: a crashing rule, a finding at
// another column, a marker it cannot read. Each case here is one the runners would otherwise pass.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkFile } from '../../server/src/core/engine.js';
import type { Rule } from '../../server/src/core/rules/rule.js';
import { Workspace } from '../../server/src/core/workspace.js';
import { checkFolder, failuresLogged, FIXTURES_ROOT, loadRecording, matchWants, parseWants, parseWantsFile } from '../helpers/fixtures.js';

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
    const { reports, logged } = checkFolder(join(FIXTURES_ROOT, 'workflow', 'duplicate-step-id'), { rules: [throwingRule()] });
    // What the engine leaves of the crash: no finding at all, so the wants alone would only see silence.
    assert.ok(reports.length > 0);
    assert.deepEqual(reports.flatMap((r) => r.findings.filter((f) => f.rule === 'test/throws')), []);
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
  test('read a rule, an optional column and an optional substring; several per line', () => {
    assert.deepEqual(parseWants('a: 1 # want x/y\nb: {c: 1} # want x/y@5 "one" # want x/z "two"\n[1] // want x/y@2\n'), [
      { line: 1, rule: 'x/y' },
      { line: 2, column: 5, rule: 'x/y', substring: 'one' },
      { line: 2, rule: 'x/z', substring: 'two' },
      { line: 3, column: 2, rule: 'x/y' },
    ]);
    assert.deepEqual(parseWantsFile('# comment\n3 x/y\n4:17 x/y "sub"\n'), [
      { line: 3, rule: 'x/y' },
      { line: 4, column: 17, rule: 'x/y', substring: 'sub' },
    ]);
  });

  test('a marker that does not parse is refused, not read as "expect nothing"', () => {
    assert.throws(() => parseWants('a: 1 # want Tool/Unknown\n'), /malformed want marker/);
    assert.throws(() => parseWants('a: 1 # want x/y@\n'), /malformed want marker/);
    assert.throws(() => parseWants('a: 1 # want x/y@0\n'), /1-based/);
    assert.throws(() => parseWants('a: 1 # want x/y "unclosed\n'), /malformed want marker/);
    assert.throws(() => parseWants('a: 1 # want x/y, x/z\n'), /malformed want marker/);
    assert.throws(() => parseWantsFile('4:x x/y\n'), /bad \.wants line/);
    assert.throws(() => parseWantsFile('4 x/y "sub" trailing\n'), /bad \.wants line/);
  });
});

describe('matching wants to findings', () => {
  // A rule reporting at the key and at the value of one flow mapping line, like most of our rules do.
  const text = 'compositeTools:\n  - {name: flow, description: d, steps: [{id: s, tool: t}]}\n';
  const at = (needle: string) => ({ start: text.indexOf(needle), end: text.indexOf(needle) + needle.length });
  const keyAndValue: Rule = {
    id: 'test/spans',
    defaultSeverity: 'error',
    summary: 'Reports at two places of one line.',
    kinds: '*',
    messages: { atKey: () => 'at the key', atValue: () => 'at the value' },
    check(ctx) {
      ctx.report({ messageId: 'atKey', span: at('name') });
      ctx.report({ messageId: 'atValue', span: at('flow') });
    },
  };
  const workspace = new Workspace('/w');
  const report = checkFile(workspace.parse('/w/gateway.yaml', text), workspace, [keyAndValue]);
  const column = (needle: string) => text.indexOf(needle) - text.indexOf('\n'); // 1-based, on line 2

  test('the fixture is what the cases below assume', () => {
    assert.equal(report.findings.length, 2);
    assert.equal(column('name'), 6);
    assert.equal(column('flow'), 12);
  });

  test('the right columns match; a wrong column is missing and leaves its finding unexpected', () => {
    assert.deepEqual(matchWants(report, parseWants(`\n# want test/spans@6 # want test/spans@12`)), { missing: [], unexpected: [] });
    const wrong = matchWants(report, parseWants(`\n# want test/spans@6 # want test/spans@13`));
    assert.equal(wrong.missing.length, 1);
    assert.match(wrong.missing[0]!, /line 2: test\/spans@13 \(on that line: @6 "at the key"; @12 "at the value"\)/);
    assert.deepEqual(wrong.unexpected, ['  2:12 test/spans at the value']);
  });

  test('a want without a column matches any column, but cannot take the finding a want with one needs', () => {
    // In file order the column-less want comes first and would take the first finding (@6).
    assert.deepEqual(matchWants(report, parseWants(`\n# want test/spans # want test/spans@6`)), { missing: [], unexpected: [] });
    assert.deepEqual(matchWants(report, parseWants(`\n# want test/spans "value" # want test/spans`)), { missing: [], unexpected: [] });
  });

  test('the substring and the line still count', () => {
    assert.equal(matchWants(report, parseWants(`\n# want test/spans@6 "value" # want test/spans@12`)).missing.length, 1);
    assert.equal(matchWants(report, parseWants(`# want test/spans@6 # want test/spans@12`)).missing.length, 2);
  });
});
