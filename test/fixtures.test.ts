import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { sep } from 'node:path';
import { describe, test } from 'node:test';
import { checkFile } from '../server/src/core/engine.js';
import { applyEdits, chooseCompatibleFixes } from '../server/src/core/text/edits.js';
import { Workspace } from '../server/src/core/workspace.js';
import { CHECKED_EXTENSIONS } from '../server/src/node/discovery.js';
import {
  checkFolder,
  describeFindings,
  failuresLogged,
  fixtureFolders,
  loadRecording,
  matchWants,
  wantsFor,
} from './helpers/fixtures.js';
import { fixedPathFor, fixedTextOf, updateFolder } from './helpers/fixtureUpdate.js';

// UPDATE_FIXTURES=1 rewrites the wants from the findings before checking (helpers/fixtureUpdate.ts).
const UPDATE = process.env.UPDATE_FIXTURES === '1';

for (const { ruleId, dir } of fixtureFolders()) {
  describe(`fixtures ${ruleId}`, () => {
    if (UPDATE) for (const path of updateFolder(dir, ruleId)) console.log(`updated ${path}`);
    const { reports, logged } = checkFolder(dir);

    test('no rule failed on the folder', () => {
      assert.equal(failuresLogged(logged), undefined);
    });

    test(`the folder's cases want ${ruleId}`, () => {
      const wanted = reports.some((r) => wantsFor(dir, r.file.path, r.file.source.text).some((w) => w.rule === ruleId));
      assert.ok(wanted, `no case in test/fixtures/${ruleId} wants ${ruleId}, so none proves it fires`);
    });

    test('every .wants and .fixed file belongs to a case', () => {
      const cases = new Set(reports.map((r) => r.file.path));
      for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
        const path = name.split(sep).join('/');
        if (path.endsWith('.wants')) {
          const base = path.slice(0, -'.wants'.length);
          assert.ok(
            CHECKED_EXTENSIONS.some((ext) => cases.has(`${base}.${ext}`)),
            `${path} has no case beside it`,
          );
        }
        const fixed = /^(.*)\.fixed(\.[a-z]+)$/.exec(path);
        if (fixed) assert.ok(cases.has(fixed[1]! + fixed[2]!), `${path} has no case beside it`);
      }
    });

    for (const report of reports) {
      test(report.file.path, () => {
        const wants = wantsFor(dir, report.file.path, report.file.source.text);
        // A file the checker does not recognise gets no finding: its wants could never be met.
        if (!report.file.kind)
          assert.deepEqual(wants, [], `${report.file.path} is not recognised as any document kind, but wants findings`);
        const { missing, unexpected } = matchWants(report, wants);
        assert.ok(
          missing.length === 0 && unexpected.length === 0,
          `${report.file.path}\nmissing:\n${missing.join('\n') || '  none'}\nunexpected:\n${unexpected.join('\n') || '  none'}\nall findings:\n${describeFindings(report)}`,
        );
        const fixedPath = fixedPathFor(dir, report.file.path);
        if (existsSync(fixedPath)) {
          const fixed = fixedTextOf(report, ruleId);
          assert.ok(fixed !== undefined, `${report.file.path} has a .fixed file but no fix for ${ruleId}`);
          assert.equal(fixed, readFileSync(fixedPath, 'utf8'));
        }
      });
    }

    test('applying every safe fix at once leaves a file that parses and lacks those findings', () => {
      const relogged: string[] = [];
      const loaded = loadRecording({ paths: ['.'], cwd: dir }, relogged);
      for (const report of reports) {
        const safe = report.findings.filter((f) => f.fixes?.some((x) => x.safe));
        if (!safe.length) continue;
        const { chosen } = chooseCompatibleFixes(safe.map((f) => f.fixes!.find((x) => x.safe)!));
        const text = applyEdits(
          report.file.source.text,
          chosen.flatMap((f) => f.edits),
        );
        const reparsed = loaded.workspace.parse(report.file.path, text);
        const after = checkFile(reparsed, loaded.workspace);
        const syntaxBefore = report.findings.filter((f) => f.rule === 'yaml/syntax').length;
        const syntaxAfter = after.findings.filter((f) => f.rule === 'yaml/syntax').length;
        assert.ok(
          syntaxAfter <= syntaxBefore,
          `${report.file.path}: safe fixes broke the syntax:\n${describeFindings(after)}`,
        );
        const fixedRules = new Set(safe.map((f) => f.rule));
        for (const rule of fixedRules) {
          const before = report.findings.filter((f) => f.rule === rule && f.fixes?.some((x) => x.safe)).length;
          const remaining = after.findings.filter((f) => f.rule === rule && f.fixes?.some((x) => x.safe)).length;
          assert.ok(
            remaining < before || before === 0,
            `${report.file.path}: ${rule} still offers safe fixes after applying them:\n${describeFindings(after)}`,
          );
        }
      }
      assert.equal(failuresLogged(relogged), undefined);
    });
  });
}

test('every fixture folder names a real rule', async () => {
  const { RULE_IDS } = await import('../server/src/core/rules/registry.js');
  for (const { ruleId } of fixtureFolders()) assert.ok(RULE_IDS.has(ruleId), `test/fixtures/${ruleId} names no rule`);
});

test('workspace relative paths', () => {
  const ws = new Workspace('/a/b');
  assert.equal(ws.relative('/a/b/c/d.yaml'), 'c/d.yaml');
  assert.equal(ws.relative('./x.yaml'), 'x.yaml');
});
