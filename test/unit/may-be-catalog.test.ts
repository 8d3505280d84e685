// `mayBeCatalog` decides without parsing whether a file may be a catalog; the language server parses
// the others lazily, so a "no" for a real catalog would lose it. Every catalog the fixtures, the
// corpus (which keeps real tools/list captures, unchanged), the docs' catalogs and the examples
// hold must get a "maybe".
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { mayBeCatalog } from '../../server/src/node/discovery.js';
import { Workspace } from '../../server/src/core/workspace.js';

const ROOT = join(__dirname, '..', '..');

function* filesUnder(dir: string): Generator<string> {
  // The folders are the repository's own: a missing one is a failure, not nothing to try.
  assert.ok(existsSync(dir), `no ${dir}`);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(ya?ml|jsonc?|jsonl)$/i.test(entry.name))
      yield join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name);
  }
}

describe('mayBeCatalog', () => {
  test('says "maybe" for every file that parses as a catalog', () => {
    const workspace = new Workspace(ROOT);
    let catalogs = 0;
    for (const dir of ['test/fixtures', 'test/corpus', 'docs/rules/_catalogs', 'examples']) {
      for (const absolute of filesUnder(join(ROOT, dir))) {
        const path = relative(ROOT, absolute);
        const text = readFileSync(absolute, 'utf8');
        if (workspace.parse(path, text).kind !== 'tool-catalog') continue;
        catalogs++;
        assert.ok(mayBeCatalog(workspace, path, text), `${path} is a catalog but got a "no"`);
      }
    }
    assert.ok(catalogs > 0, 'some catalogs were tried');
  });

  test('escaped keys, names and forced kinds are "maybe"; plain other files are not', () => {
    const workspace = new Workspace('');
    assert.ok(mayBeCatalog(workspace, 'a.yaml', '"c\\x61talog": 1\n'));
    assert.ok(mayBeCatalog(workspace, 'a.json', '{"c\\u0061talog": 1}'));
    assert.ok(mayBeCatalog(workspace, 'a.yaml', '"cata\\\n  log": 1\n'));
    assert.ok(mayBeCatalog(workspace, 'x.tools.json', '{}'));
    assert.ok(mayBeCatalog(workspace, 'x.catalog.yaml', 'a: 1\n'));
    assert.ok(!mayBeCatalog(workspace, 'gw.yaml', 'compositeTools: []\n'));
    workspace.config = { ...workspace.config, kinds: { 'tool-catalog': ['forced/**'] } };
    assert.ok(mayBeCatalog(workspace, 'forced/x.yaml', 'servers: []\n'));
  });
});
