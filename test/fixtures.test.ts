import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkFile } from '../server/src/core/engine.js';
import { applyEdits, chooseCompatibleFixes } from '../server/src/core/text/edits.js';
import { Workspace } from '../server/src/core/workspace.js';
import { loadWorkspace } from '../server/src/node/loader.js';
import { checkFolder, describeFindings, fixtureFolders, wantsFor } from './helpers/fixtures.js';

for (const { ruleId, dir } of fixtureFolders()) {
  describe(`fixtures ${ruleId}`, () => {
    const reports = checkFolder(dir);
    for (const report of reports) {
      if (!report.file.kind) continue;
      test(report.file.path, () => {
        const wants = wantsFor(dir, report.file.path, report.file.source.text);
        const unmatched = [...report.findings];
        const missing: string[] = [];
        for (const want of wants) {
          const index = unmatched.findIndex(
            (f) =>
              f.rule === want.rule &&
              report.file.source.positionAt(f.span.start).line + 1 === want.line &&
              (!want.substring || f.message.includes(want.substring)),
          );
          if (index < 0) missing.push(`  line ${want.line}: ${want.rule}${want.substring ? ` "${want.substring}"` : ''}`);
          else unmatched.splice(index, 1);
        }
        const unexpected = unmatched.map((f) => {
          const pos = report.file.source.positionAt(f.span.start);
          return `  ${pos.line + 1}:${pos.character + 1} ${f.rule} ${f.message}`;
        });
        assert.ok(
          missing.length === 0 && unexpected.length === 0,
          `${report.file.path}\nmissing:\n${missing.join('\n') || '  none'}\nunexpected:\n${unexpected.join('\n') || '  none'}\nall findings:\n${describeFindings(report)}`,
        );
        const ext = /\.[a-z]+$/.exec(report.file.path)![0];
        const fixedPath = join(dir, report.file.path.slice(0, -ext.length) + '.fixed' + ext);
        if (existsSync(fixedPath)) {
          const fixes = report.findings.filter((f) => f.rule === ruleId && f.fixes?.length).map((f) => f.fixes![0]!);
          assert.ok(fixes.length > 0, `${report.file.path} has a .fixed file but no fix for ${ruleId}`);
          const { chosen } = chooseCompatibleFixes(fixes);
          const fixed = applyEdits(report.file.source.text, chosen.flatMap((f) => f.edits));
          assert.equal(fixed, readFileSync(fixedPath, 'utf8'));
        }
      });
    }

    test('applying every safe fix at once leaves a file that parses and lacks those findings', () => {
      const loaded = loadWorkspace({ paths: ['.'], cwd: dir });
      for (const report of reports) {
        const safe = report.findings.filter((f) => f.fixes?.some((x) => x.safe));
        if (!safe.length) continue;
        const { chosen } = chooseCompatibleFixes(safe.map((f) => f.fixes!.find((x) => x.safe)!));
        const text = applyEdits(report.file.source.text, chosen.flatMap((f) => f.edits));
        const reparsed = loaded.workspace.parse(report.file.path, text);
        const after = checkFile(reparsed, loaded.workspace);
        const syntaxBefore = report.findings.filter((f) => f.rule === 'yaml/syntax').length;
        const syntaxAfter = after.findings.filter((f) => f.rule === 'yaml/syntax').length;
        assert.ok(syntaxAfter <= syntaxBefore, `${report.file.path}: safe fixes broke the syntax:\n${describeFindings(after)}`);
        const fixedRules = new Set(safe.map((f) => f.rule));
        for (const rule of fixedRules) {
          const before = report.findings.filter((f) => f.rule === rule && f.fixes?.some((x) => x.safe)).length;
          const remaining = after.findings.filter((f) => f.rule === rule && f.fixes?.some((x) => x.safe)).length;
          assert.ok(remaining < before || before === 0, `${report.file.path}: ${rule} still offers safe fixes after applying them:\n${describeFindings(after)}`);
        }
      }
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
