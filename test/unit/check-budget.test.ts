// The editor's time bound on one file (checkFile's budgetMs): once spent, the remaining rules are
// declined and named in one lens/declined info; the rules that ran keep their findings; the rule
// that reports declines still runs. The clock is the test's own, so nothing here depends on speed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkFile } from '../../server/src/core/engine.js';
import { ALL_RULES } from '../../server/src/core/rules/registry.js';
import type { Rule } from '../../server/src/core/rules/rule.js';
import { Workspace } from '../../server/src/core/workspace.js';

const TEXT =
  'name: gw\ngroupRef: g\naggregation: {conflictResolution: prefix}\ncompositeTools:\n  - name: a\n    description: A.\n    steps: []\n';

/** A rule that reports once and, by the test's clock, takes `cost` ms. */
function timedRule(id: string, clock: { t: number }, cost: number): Rule {
  return {
    id,
    defaultSeverity: 'warning',
    summary: id,
    kinds: '*',
    messages: { ran: () => `${id} ran` },
    check(ctx) {
      clock.t += cost;
      ctx.report({ messageId: 'ran', span: { start: 0, end: 1 } });
    },
  };
}

test('past the budget, the remaining rules are declined in one info that names them', () => {
  const clock = { t: 0 };
  const rules = [
    timedRule('test/first', clock, 50),
    timedRule('test/second', clock, 50),
    timedRule('test/third', clock, 50),
  ];
  const declined = ALL_RULES.find((r) => r.id === 'lens/declined')!;
  const workspace = new Workspace('/ws');
  const file = workspace.parse('/ws/gw.vmcp.yaml', TEXT);
  const { findings } = checkFile(file, workspace, [...rules, declined], { budgetMs: 60, now: () => clock.t });
  assert.deepEqual(
    findings.map((f) => f.rule),
    ['lens/declined', 'test/first', 'test/second'],
  );
  const info = findings.find((f) => f.rule === 'lens/declined')!;
  assert.equal(info.severity, 'info');
  assert.match(info.message, /stopped checking this file after 60 ms, so one rule did not run \(test\/third\)/);
});

test('without a budget (the CLI), every rule runs whatever the time', () => {
  const clock = { t: 0 };
  const rules = [timedRule('test/first', clock, 5000), timedRule('test/second', clock, 5000)];
  const workspace = new Workspace('/ws');
  const file = workspace.parse('/ws/gw.vmcp.yaml', TEXT);
  const { findings } = checkFile(file, workspace, rules, { now: () => clock.t });
  assert.deepEqual(
    findings.map((f) => f.rule),
    ['test/first', 'test/second'],
  );
});

test('within the budget nothing is declined, and the real rules find nothing in a clean file', () => {
  const workspace = new Workspace('/ws');
  const file = workspace.parse('/ws/gw.vmcp.yaml', TEXT);
  const { findings } = checkFile(file, workspace, ALL_RULES, { budgetMs: 60_000 });
  assert.deepEqual(
    findings.filter((f) => f.rule === 'lens/declined'),
    [],
  );
});
