// The clean corpus: real catalogs and realistic configs that must produce no finding at all.
// A finding here is a false positive, and a false positive is a bug.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkFile } from '../server/src/core/engine.js';
import { loadWorkspace } from '../server/src/node/loader.js';
import { describeFindings, failuresLogged, loadRecording } from './helpers/fixtures.js';

const CLEAN = join(__dirname, 'corpus', 'clean');

test('the clean corpus stays silent', () => {
  const logged: string[] = [];
  const loaded = loadRecording({ paths: ['.'], cwd: CLEAN }, logged);
  assert.deepEqual(loaded.configProblems, []);
  const recognised = loaded.files.filter((f) => f.kind);
  assert.ok(recognised.length >= 12, `expected at least 12 recognised files, found ${recognised.length}`);
  const noisy = recognised
    .map((file) => checkFile(file, loaded.workspace))
    .filter((r) => r.findings.length > 0)
    .map((r) => `${r.file.path}\n${describeFindings(r)}`);
  // A rule that throws is only logged, so a crash would read as silence: fail on any logged line first.
  assert.equal(failuresLogged(logged), undefined, 'no rule may fail on the clean corpus');
  assert.deepEqual(noisy, [], `false positives:\n${noisy.join('\n')}`);
});

test('every kind of gateway document is in the clean corpus', () => {
  const loaded = loadWorkspace({ paths: ['.'], cwd: CLEAN });
  const kinds = new Set(loaded.files.flatMap((f) => f.documents.map((d) => d.kind)));
  for (const kind of ['vmcp-config', 'vmcp-server', 'vmcp-composite', 'tool-catalog'] as const) {
    assert.ok(kinds.has(kind), `no ${kind} document in the clean corpus`);
  }
});
