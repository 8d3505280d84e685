// The four catalogs captured from the MCP reference servers (test/corpus/clean/catalogs) are what real
// servers send: every rule must stay silent on them, the catalog and schema rules above all.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { checkFile } from '../../server/src/core/engine.js';
import { Workspace } from '../../server/src/core/workspace.js';

// The captures, kept unchanged in the repository: missing, the test fails.
const CATALOG_DIR = path.join(__dirname, '../corpus/clean/catalogs');

test('the real catalogs are recognised as tool catalogs and produce no finding', () => {
  assert.ok(existsSync(CATALOG_DIR), `no ${CATALOG_DIR}`);
  const files = readdirSync(CATALOG_DIR)
    .filter((f) => f.endsWith('.json') && !f.startsWith('team-'))
    .sort();
  assert.equal(files.length, 4, `expected the four reference catalogs in ${CATALOG_DIR}, found: ${files.join(', ')}`);
  const logged: string[] = [];
  const workspace = new Workspace(CATALOG_DIR, (message) => logged.push(message));
  const parsed = files.map((name) =>
    workspace.parse(path.join(CATALOG_DIR, name), readFileSync(path.join(CATALOG_DIR, name), 'utf8')),
  );
  for (const file of parsed) workspace.catalog.addFile(file);
  for (const file of parsed) {
    assert.equal(file.kind, 'tool-catalog', `${path.basename(file.path)} is not recognised as a tool catalog`);
    const findings = checkFile(file, workspace).findings.map((f) => {
      const pos = file.source.positionAt(f.span.start);
      return `${path.basename(file.path)}:${pos.line + 1}:${pos.character + 1} ${f.rule} ${f.message}`;
    });
    assert.deepEqual(findings, [], `findings on a real catalog:\n${findings.join('\n')}`);
  }
  assert.deepEqual(logged, [], `a rule failed on a real catalog:\n${logged.join('\n')}`);
  // Every server each file names made it into the catalog, with its tools.
  assert.deepEqual(workspace.catalog.serverNames, ['everything', 'everything-fullcaps', 'filesystem', 'memory']);
  for (const name of workspace.catalog.serverNames)
    assert.ok((workspace.catalog.server(name)?.tools.length ?? 0) > 0, `${name} has no tools`);
});
