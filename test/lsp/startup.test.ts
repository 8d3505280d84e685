// Start-up: the server parses only the files that may be catalogs before it answers; the others
// are parsed when first needed. A catalog recognised by its content alone (no catalog-like file
// name) must still be part of the catalog from the first catalog state on.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CatalogState } from '../../server/src/lsp/protocol.js';
import { makeWorkspace, startInProcess } from './harness.js';
import { WORKFLOW, WORKFLOW_PATH } from './workspace.js';

const TOOLS_LIST = JSON.stringify({
  server: 'plainjson',
  tools: [
    {
      name: 'lookup',
      description: 'Look something up.',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    },
  ],
});
const SNAPSHOT_YAML = `catalog: 1
servers:
  - name: plainyaml
    tools:
      - name: fetch
        inputSchema: {type: object}
`;
// Keys spelled with escapes: no "catalog" or "inputSchema" in the text, a catalog all the same.
const ESCAPED_YAML = `"c\\x61talog": 1
servers:
  - name: escaped
    tools:
      - name: run
        "input\\u0053chema": {type: object}
`;

describe('language server start-up', () => {
  test('catalogs recognised only by their content are in the first loaded catalog state', async () => {
    const ws = makeWorkspace({
      'data/a.json': TOOLS_LIST,
      'data/b.yaml': SNAPSHOT_YAML,
      'data/c.yaml': ESCAPED_YAML,
      [WORKFLOW_PATH]: WORKFLOW,
      'unrelated/package.json': '{"name": "x", "version": "1.0.0"}\n',
    });
    const server = startInProcess();
    try {
      await server.client.initialize(ws.root);
      const first = server.client.catalogStates.find((s) => s.loaded) as CatalogState;
      assert.deepEqual(first.servers, ['escaped', 'plainjson', 'plainyaml']);
      assert.equal(first.files, 3);
      // Nothing the catalog does not need was parsed for it.
      assert.deepEqual([...server.server.session.workspace.catalog.files].sort(), [
        'data/a.json',
        'data/b.yaml',
        'data/c.yaml',
      ]);
      // The other files are still checked (parsed on demand).
      const items = await server.client.pullItems(ws.uri(WORKFLOW_PATH));
      assert.ok(items.length > 0, 'the workflow is checked');
      await server.client.shutdown();
    } finally {
      server.dispose();
      ws.dispose();
    }
  });
});
