// Start-up (issue 26): the documents open in the editor are checked before the rest of the
// workspace, also those the client opens while the background check of the folder is under way
// (a window reload opens its editors just as the server reads the folder). In push mode each
// check is a publish, so the order of the publishes is the order of the checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeWorkspace, PUSH_CAPABILITIES, startInProcess } from './harness.js';
import { CATALOG, CATALOG_PATH, WORKFLOW } from './workspace.js';

test('a document opened while the workspace is checked is checked next, not after every other file', async () => {
  const files: Record<string, string> = { [CATALOG_PATH]: CATALOG };
  const COUNT = 400;
  for (let i = 0; i < COUNT; i++) files[`gateways/gw-${String(i).padStart(3, '0')}.vmcp.yaml`] = WORKFLOW;
  // Named to come last in the folder's order.
  const OPEN = 'zz/open.vmcp.yaml';
  files[OPEN] = WORKFLOW;
  const ws = makeWorkspace(files);
  const server = startInProcess();
  try {
    await server.client.initialize(ws.root, PUSH_CAPABILITIES);
    const uri = ws.uri(OPEN);
    // Its text is the disk's: opening it changes nothing to re-check, only what comes first.
    await server.client.open(uri, WORKFLOW);
    await server.client.waitFor(
      () => server.client.logs.some((l) => l.startsWith('first check of the workspace')),
      'the background check to end',
      60_000,
    );
    const order = server.client.publishes.filter((p) => p.diagnostics.length > 0).map((p) => p.uri);
    const at = order.indexOf(uri);
    assert.ok(at >= 0, 'the open document is published');
    assert.ok(at < COUNT / 2, `the open document was checked as number ${at + 1} of ${order.length}`);
    await server.client.shutdown();
  } finally {
    server.dispose();
    ws.dispose();
  }
});
