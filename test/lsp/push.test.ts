// Push diagnostics (clients without pull, as Neovim and Helix are): a change is checked as soon as
// the changes that already arrived are applied, a burst of them once, and nothing published
// carries an older version than one published before it. No timings are asserted: only what is
// published, in which order, for which version.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  DidOpenTextDocumentNotification,
  InitializedNotification,
  InitializeRequest,
  type Diagnostic,
} from 'vscode-languageserver-protocol/node';
import { makeWorkspace, PUSH_CAPABILITIES, startInProcess } from './harness.js';
import { CATALOG, CATALOG_PATH, WORKFLOW, WORKFLOW_PATH } from './workspace.js';

const codes = (items: readonly Diagnostic[]) => new Set(items.map((d) => String(d.code)));
const NOT_READ_ONLY = WORKFLOW.replace('readOnlyHint: true', 'readOnlyHint: false');
const WAITS = '      - id: write\n        tool: filesystem.write_file\n        dependsOn: [read]\n';
const FIXED = NOT_READ_ONLY.replace('      - id: write\n        tool: filesystem.write_file\n', WAITS);

type Server = ReturnType<typeof startInProcess>;

/** A push client with the workflow open (its disk text, whose diagnostics the background check published), then `body`. */
async function withOpenWorkflow(
  body: (server: Server, uri: string, mine: () => Server['client']['publishes']) => Promise<void>,
): Promise<void> {
  const ws = makeWorkspace({ [CATALOG_PATH]: CATALOG, [WORKFLOW_PATH]: WORKFLOW });
  const server = startInProcess();
  try {
    await server.client.initialize(ws.root, PUSH_CAPABILITIES);
    const uri = ws.uri(WORKFLOW_PATH);
    const mine = () => server.client.publishes.filter((p) => p.uri === uri);
    await server.client.open(uri, WORKFLOW);
    await server.client.waitFor(
      () => mine().some((p) => codes(p.diagnostics).has('annotations/contradiction')),
      'the diagnostics of the opened text',
    );
    await body(server, uri, mine);
    await server.client.shutdown();
  } finally {
    server.dispose();
    ws.dispose();
  }
}

describe('push diagnostics', () => {
  test('a single edit is published with its new version and the findings of its text', () =>
    withOpenWorkflow(async (server, uri, mine) => {
      const version = await server.client.change(uri, [
        { range: rangeOf(WORKFLOW, 'readOnlyHint: true'), text: 'readOnlyHint: false' },
      ]);
      assert.equal(version, 2);
      await server.client.waitFor(() => mine().some((p) => p.version === 2), 'the diagnostics of the edit');
      const edited = codes(mine().find((p) => p.version === 2)!.diagnostics);
      assert.ok(!edited.has('annotations/contradiction'), 'the contradiction is gone with the edit');
      assert.ok(edited.has('template/not-upstream'), 'the rest of the findings stay');
      const versions = mine().map((p) => p.version ?? 0);
      assert.deepEqual(
        versions,
        [...versions].sort((a, b) => a - b),
        'versions only go up',
      );
    }));

  test('a burst of 20 edits ends with the diagnostics of the final text, and nothing older after them', () =>
    withOpenWorkflow(async (server, uri, mine) => {
      // 19 edits that toggle the read-only claim, then one that also orders the two steps: only the
      // last text has neither the contradiction nor the race.
      const sends: Promise<number>[] = [];
      for (let i = 1; i < 20; i++) sends.push(server.client.replaceAll(uri, i % 2 === 1 ? NOT_READ_ONLY : WORKFLOW));
      sends.push(server.client.replaceAll(uri, FIXED));
      const versions = await Promise.all(sends);
      const last = versions[versions.length - 1]!;
      assert.equal(last, 21);
      await server.client.waitFor(() => mine().some((p) => p.version === last), 'the diagnostics of the last edit');
      // A barrier: one more edit, published after everything the burst caused.
      const barrier = await server.client.replaceAll(uri, NOT_READ_ONLY);
      await server.client.waitFor(
        () => mine().some((p) => p.version === barrier),
        'the diagnostics of the edit after the burst',
      );

      const published = mine().map((p) => p.version ?? 0);
      for (let i = 1; i < published.length; i++)
        assert.ok(
          published[i]! >= published[i - 1]!,
          `a stale publish: version ${published[i]} after ${published[i - 1]} (${published.join(', ')})`,
        );
      const final = mine().filter((p) => p.version === last);
      assert.equal(final.length, 1, 'the final text is published once');
      const finalCodes = codes(final[0]!.diagnostics);
      assert.ok(
        !finalCodes.has('annotations/contradiction') && !finalCodes.has('template/not-upstream'),
        `the final text's findings: ${[...finalCodes].join(', ')}`,
      );
      // Between the burst's last publish and the barrier's, nothing else of this file.
      const afterFinal = published.slice(published.indexOf(last) + 1);
      assert.deepEqual(afterFinal, [barrier]);
      const barrierCodes = codes(mine().find((p) => p.version === barrier)!.diagnostics);
      assert.ok(barrierCodes.has('template/not-upstream'));
    }));

  test('a document opened before the folder is read is published only with its catalogs', async () => {
    // Between the initialize answer and `initialized` the folder is not read yet: a check then
    // would not know the catalog and say the steps' tools are unknown.
    const ws = makeWorkspace({ [CATALOG_PATH]: CATALOG });
    const server = startInProcess();
    try {
      const rootUri = pathToFileURL(ws.root).href;
      await server.client.connection.sendRequest(InitializeRequest.type, {
        processId: null,
        rootUri,
        workspaceFolders: [{ uri: rootUri, name: 'ws' }],
        capabilities: PUSH_CAPABILITIES,
      });
      const uri = ws.uri(WORKFLOW_PATH);
      await server.client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'yaml', version: 1, text: WORKFLOW },
      });
      // Room for a premature push to go out (not a timing assertion: a slow machine only makes
      // the test easier to pass).
      await new Promise((resolve) => setTimeout(resolve, 300));
      await server.client.connection.sendNotification(InitializedNotification.type, {});
      await server.client.waitFor(
        () => server.client.publishes.some((p) => p.uri === uri && codes(p.diagnostics).has('template/not-upstream')),
        'the diagnostics after the load',
      );
      const mine = server.client.publishes.filter((p) => p.uri === uri);
      for (const p of mine)
        assert.ok(
          !codes(p.diagnostics).has('tool/unknown'),
          `published without the catalog: ${[...codes(p.diagnostics)].join(', ')}`,
        );
      assert.ok(codes(mine[0]!.diagnostics).has('annotations/contradiction'));
      await server.client.shutdown();
    } finally {
      server.dispose();
      ws.dispose();
    }
  });
});

function rangeOf(text: string, needle: string) {
  const index = text.indexOf(needle);
  assert.ok(index >= 0, `the text lacks ${needle}`);
  const position = (offset: number) => {
    const lines = text.slice(0, offset).split('\n');
    return { line: lines.length - 1, character: lines[lines.length - 1]!.length };
  };
  return { start: position(index), end: position(index + needle.length) };
}
