// Issue 24, item 6: a folder named `.toollens.yaml` (or any configuration that cannot be read)
// made the language server skip the whole workspace with one log line, so an open file was checked
// without its catalogs and nothing told the user why. The folder is now read with the built-in
// defaults, and the user gets a warning that names the configuration and says so. (The CLI stops
// with a usage error that says why, exit 2: test/cli/usage.test.ts.)
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  FileChangeType,
  DidChangeWatchedFilesNotification,
  type Diagnostic,
} from 'vscode-languageserver-protocol/node';
import { makeWorkspace, startInProcess } from './harness.js';
import { CATALOG, CATALOG_PATH, WORKFLOW, WORKFLOW_PATH } from './workspace.js';

interface Shown {
  type: number;
  message: string;
}

/** The workflow's diagnostics, open in the editor, and the warnings shown, in a workspace made by `prepare`. */
async function check(
  prepare: (root: string) => void,
): Promise<{ items: Diagnostic[]; shown: Shown[]; logs: string[] }> {
  const ws = makeWorkspace({ [CATALOG_PATH]: CATALOG, [WORKFLOW_PATH]: WORKFLOW });
  prepare(ws.root);
  const server = startInProcess();
  const shown: Shown[] = [];
  server.client.connection.onNotification('window/showMessage', (params: Shown) => void shown.push(params));
  try {
    await server.client.initialize(ws.root);
    await server.client.open(ws.uri(WORKFLOW_PATH), WORKFLOW);
    const items = await server.client.pullItems(ws.uri(WORKFLOW_PATH));
    return { items, shown, logs: [...server.client.logs] };
  } finally {
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
  }
}

const summary = (items: Diagnostic[]) => items.map((d) => `${d.range.start.line}:${String(d.code)}`).sort();

describe('a configuration the language server cannot read', () => {
  test('a folder named .toollens.yaml: the workspace is read with the defaults, and a warning says why', async () => {
    const plain = await check(() => undefined);
    const folder = await check((root) => {
      mkdirSync(join(root, '.toollens.yaml'));
      writeFileSync(join(root, '.toollens.yaml', 'note.yaml'), 'owner: docs\n');
    });
    assert.ok(plain.items.length > 0, 'the workflow has findings');
    assert.deepEqual(summary(folder.items), summary(plain.items), 'the findings of the same folder without it');
    assert.equal(plain.shown.length, 0, 'nothing shown for a folder without a configuration');
    assert.equal(folder.shown.length, 1, 'one warning');
    const [warning] = folder.shown;
    assert.equal(warning!.type, 2, 'a warning');
    assert.match(warning!.message, /cannot read the configuration \.toollens\.yaml \(it is a folder, not a file\)/);
    assert.match(warning!.message, /checked with the built-in defaults/);
    assert.ok(
      !folder.logs.some((line) => line.startsWith('could not read the workspace folder')),
      'the folder is read',
    );
  });

  test('the warning is shown again only when the reason changes, and a readable configuration ends it', async () => {
    const ws = makeWorkspace({ [CATALOG_PATH]: CATALOG, [WORKFLOW_PATH]: WORKFLOW });
    mkdirSync(join(ws.root, '.toollens.yaml'));
    const server = startInProcess();
    const shown: Shown[] = [];
    server.client.connection.onNotification('window/showMessage', (params: Shown) => void shown.push(params));
    try {
      await server.client.initialize(ws.root);
      assert.equal(shown.length, 1);
      const session = server.server.session;
      // A change under the folder reads it again: same reason, no second warning.
      session.load();
      assert.equal(shown.length, 1);
      assert.ok(session.configNotice);
      // The folder replaced by a real configuration: it is read, and the notice is gone.
      ws.dispose();
      mkdirSync(join(ws.root, 'catalogs'), { recursive: true });
      ws.write(CATALOG_PATH, CATALOG);
      ws.write(WORKFLOW_PATH, WORKFLOW);
      ws.write('.toollens.yaml', 'rules:\n  workflow/duplicate-step-id: off\n');
      await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
        changes: [{ uri: ws.uri('.toollens.yaml'), type: FileChangeType.Created }],
      });
      await server.client.waitFor(() => session.configPath !== undefined, 'the configuration to be read');
      assert.equal(session.configNotice, undefined);
      assert.deepEqual(session.configProblems, []);
      assert.equal(shown.length, 1);
    } finally {
      await server.client.shutdown();
      server.dispose();
      ws.dispose();
    }
  });
});
