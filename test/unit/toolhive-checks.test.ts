// docs/toolhive-checks.md lists each check ToolHive makes and the Tool Lens rule that mirrors it, or
// why none does. This keeps the page honest as rules come and go: every rule id it names is a rule
// of the registry, every row's last cell either names rules or gives one of the page's reasons,
// the counts of its summary are the counts of its rows, and docs/toolhive.md links to it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FAMILY_ORDER, RULE_IDS } from '../../server/src/core/rules/registry.js';

const ROOT = join(__dirname, '..', '..');
const PAGE = readFileSync(join(ROOT, 'docs/toolhive-checks.md'), 'utf8');

/** `family/name` in backticks, for a family the registry orders (file paths such as `config/validator.go` are not ids). */
function ruleIdsIn(text: string): string[] {
  const ids: string[] = [];
  for (const match of text.matchAll(/`([a-z]+)\/([a-z-]+)`/g)) {
    if (FAMILY_ORDER.includes(match[1]!)) ids.push(`${match[1]}/${match[2]}`);
  }
  return ids;
}

const REASONS = ['env', 'cluster', 'data', 'moot'] as const;
type Verdict = 'mirrored' | 'gap' | (typeof REASONS)[number];

/** The check rows of the tables before the summary: [check, verdict, last cell]. */
function rows(): [string, Verdict, string][] {
  const body = PAGE.slice(0, PAGE.indexOf('\n## Summary'));
  const out: [string, Verdict, string][] = [];
  for (const line of body.split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| check |')) continue;
    const cells = line.split(' | ');
    const last = cells[cells.length - 1]!.replace(/ \|$/, '');
    const check = cells[0]!.slice(2);
    assert.equal(cells.length, 5, `a row has five cells (check, ToolHive, dialect, bites, Tool Lens): ${line}`);
    let verdict: Verdict;
    if (last.startsWith('*gap*')) verdict = 'gap';
    else if (last.startsWith('*not mirrored: ')) {
      const reason = last.slice('*not mirrored: '.length, last.indexOf('*', 1));
      assert.ok((REASONS as readonly string[]).includes(reason), `"${check}": an unknown reason "${reason}"`);
      verdict = reason as Verdict;
    } else {
      assert.ok(
        ruleIdsIn(last).length > 0,
        `"${check}": the Tool Lens cell names no rule and gives no reason: ${last}`,
      );
      verdict = 'mirrored';
    }
    out.push([check, verdict, last]);
  }
  return out;
}

describe('docs/toolhive-checks.md', () => {
  test('every rule id the page names is a rule of the registry', () => {
    const named = ruleIdsIn(PAGE);
    assert.ok(named.length > 20, 'the page names rules');
    const unknown = [...new Set(named)].filter((id) => !RULE_IDS.has(id));
    assert.deepEqual(unknown, [], 'rule ids on the page that the registry does not have');
  });

  test('each row says which rules mirror the check, or why none does', () => {
    const all = rows();
    assert.ok(all.length > 100, `the tables have their rows (${all.length})`);
    for (const [check, verdict, last] of all) {
      // A mirrored row names only rules; a row with a reason may name a rule beside it only for part of the case.
      if (verdict === 'mirrored')
        assert.ok(!/\*gap\*|\*not mirrored/.test(last), `"${check}": mirrored or not, not both`);
    }
  });

  test('the summary counts the rows', () => {
    const all = rows();
    const count = (v: Verdict) => all.filter(([, verdict]) => verdict === v).length;
    const notMirrored = all.length - count('mirrored');
    const expected =
      `Rows: ${all.length}. Mirrored: ${count('mirrored')}. Not mirrored: ${notMirrored}: ` +
      `${REASONS.map((r) => `*${r}* ${count(r)}`).join(', ')}, *gap* ${count('gap')}.`;
    const summary = PAGE.slice(PAGE.indexOf('\n## Summary')).replace(/\s+/g, ' ');
    assert.ok(summary.includes(expected), `the summary says: ${expected}`);
  });

  test('docs/toolhive.md links to the page', () => {
    const notes = readFileSync(join(ROOT, 'docs/toolhive.md'), 'utf8');
    assert.match(notes, /\]\(toolhive-checks\.md\)/);
  });
});
