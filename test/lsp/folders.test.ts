// Multi-root workspaces: each workspace folder is its own workspace (its own `.toollens.yaml`,
// catalogs and files, as the CLI treats that folder), a file belongs to the innermost folder
// holding it, file-watch events reach the folder they belong to, and folders added or removed
// with `workspace/didChangeWorkspaceFolders` are read, or dropped with their diagnostics.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import {
  DidChangeWatchedFilesNotification,
  FileChangeType,
  HoverRequest,
  WorkspaceDiagnosticRequest,
  type Diagnostic,
  type Hover,
  type WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver-protocol/node';
import { makeWorkspace, PUSH_CAPABILITIES, startInProcess, type InProcess } from './harness.js';
import { CATALOG, CATALOG_PATH, WORKFLOW, WORKFLOW_PATH } from './workspace.js';

const byRule = (items: Diagnostic[], rule: string) => items.filter((d) => d.code === rule);
const rules = (items: Diagnostic[]) => [...new Set(items.map((d) => String(d.code)))].sort();
/** Folder B's catalog says write_file only reads: the composite's read-only claim holds there. */
const READ_ONLY_CATALOG = CATALOG.replace(
  '{readOnlyHint: false, destructiveHint: true, openWorldHint: false}',
  '{readOnlyHint: true}',
);
const NO_UPSTREAM_CONFIG = 'rules:\n  template/not-upstream: off\n';

type Item = WorkspaceDocumentDiagnosticReport;

describe('multi-root workspaces (in-process)', () => {
  let server: InProcess;
  let a: ReturnType<typeof makeWorkspace>;
  let b: ReturnType<typeof makeWorkspace>;
  let c: ReturnType<typeof makeWorkspace>;
  const pullAll = async (previous: Item[] = []): Promise<Item[]> =>
    (
      await server.client.connection.sendRequest(WorkspaceDiagnosticRequest.type, {
        previousResultIds: previous.filter((i) => i.resultId).map((i) => ({ uri: i.uri, value: i.resultId! })),
      })
    ).items;
  const itemOf = (items: Item[], uri: string) => items.filter((i) => i.uri === uri);
  const fullItems = (items: Item[], uri: string): Diagnostic[] => {
    const found = itemOf(items, uri);
    assert.equal(found.length, 1, `one report of ${uri}`);
    assert.equal(found[0]!.kind, 'full');
    return found[0]!.kind === 'full' ? found[0]!.items : [];
  };

  before(async () => {
    a = makeWorkspace({
      [CATALOG_PATH]: CATALOG,
      [WORKFLOW_PATH]: WORKFLOW,
      'inner/gateways/nested.vmcp.yaml': WORKFLOW,
    });
    b = makeWorkspace({
      'snapshots/fs.catalog.yaml': READ_ONLY_CATALOG,
      [WORKFLOW_PATH]: WORKFLOW,
      '.toollens.yaml': NO_UPSTREAM_CONFIG,
    });
    c = makeWorkspace({ [WORKFLOW_PATH]: WORKFLOW });
    server = startInProcess();
    const result = await server.client.initializeFolders([a.root, b.root]);
    assert.deepEqual(result.capabilities.workspace?.workspaceFolders, { supported: true, changeNotifications: true });
  });

  after(() => {
    server.dispose();
    for (const ws of [a, b, c]) ws.dispose();
  });

  test('each folder is checked with its own catalogs and .toollens.yaml', async () => {
    const inA = await server.client.pullItems(a.uri(WORKFLOW_PATH));
    assert.equal(byRule(inA, 'annotations/contradiction').length, 1, "A's catalog: write_file is destructive");
    assert.equal(byRule(inA, 'template/not-upstream').length, 1, 'A has no configuration');
    const inB = await server.client.pullItems(b.uri(WORKFLOW_PATH));
    assert.ok(byRule(inB, 'schema/missing-field').length > 0, "B's files are read and checked");
    assert.equal(byRule(inB, 'tool/unknown').length, 0, "B's catalog is read");
    assert.equal(byRule(inB, 'annotations/contradiction').length, 0, "B's catalog: write_file only reads");
    assert.equal(byRule(inB, 'template/not-upstream').length, 0, "B's .toollens.yaml turns the rule off");
    const state = server.client.catalogStates.at(-1)!;
    assert.deepEqual(state.servers, ['filesystem']);
    assert.equal(state.files, 2, 'one snapshot in each folder');
  });

  test('a workspace pull reports the files of every folder, once each', async () => {
    const items = await pullAll();
    for (const uri of [
      a.uri(WORKFLOW_PATH),
      a.uri(CATALOG_PATH),
      a.uri('inner/gateways/nested.vmcp.yaml'),
      b.uri(WORKFLOW_PATH),
      b.uri('snapshots/fs.catalog.yaml'),
      b.uri('.toollens.yaml'),
    ]) {
      assert.equal(itemOf(items, uri).length, 1, uri);
    }
    assert.equal(new Set(items.map((i) => i.uri)).size, items.length, 'no file twice');
    assert.equal(byRule(fullItems(items, b.uri(WORKFLOW_PATH)), 'annotations/contradiction').length, 0);
  });

  test('an editor in a folder is checked against that folder', async () => {
    const uri = b.uri(WORKFLOW_PATH);
    await server.client.open(uri, WORKFLOW.replace('name: docs-gateway', 'name: docs-gateway-edited'));
    assert.deepEqual(byRule(await server.client.pullItems(uri), 'annotations/contradiction'), []);
    const hover: Hover | null = await server.client.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: WORKFLOW.split('\n').findIndex((l) => l.includes('  - name: copy_readme')), character: 13 },
    });
    // B's catalog: write_file says it only reads, so the floor keeps readOnlyHint true.
    assert.match((hover?.contents as { value: string }).value, /\| readOnlyHint \| `true` \|/);
    await server.client.close(uri);
  });

  test('file watching: a change on disk reaches the folder it belongs to, and only it', async () => {
    const refreshes = server.client.refreshes;
    b.write('snapshots/fs.catalog.yaml', CATALOG);
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: b.uri('snapshots/fs.catalog.yaml'), type: FileChangeType.Changed }],
    });
    await server.client.waitFor(() => server.client.refreshes > refreshes, "a refresh after B's catalog changed");
    assert.equal(
      byRule(await server.client.pullItems(b.uri(WORKFLOW_PATH)), 'annotations/contradiction').length,
      1,
      "B's catalog now says write_file writes",
    );
    // B's configuration changes: only B's files follow.
    b.write('.toollens.yaml', 'rules:\n  annotations/contradiction: off\n');
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: b.uri('.toollens.yaml'), type: FileChangeType.Changed }],
    });
    await server.client.waitFor(
      () => server.client.refreshes > refreshes + 1,
      "a refresh after B's configuration changed",
    );
    const inB = await server.client.pullItems(b.uri(WORKFLOW_PATH));
    assert.deepEqual(
      [byRule(inB, 'annotations/contradiction').length, byRule(inB, 'template/not-upstream').length],
      [0, 1],
    );
    const inA = await server.client.pullItems(a.uri(WORKFLOW_PATH));
    assert.deepEqual(
      [byRule(inA, 'annotations/contradiction').length, byRule(inA, 'template/not-upstream').length],
      [1, 1],
      'A is untouched',
    );
    // A file created in A is A's: A's catalog applies to it. (A pull that has nothing new is held
    // until something changes: it answers once the new file has been read.)
    const known = await pullAll();
    a.write('gateways/second.vmcp.yaml', WORKFLOW);
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: a.uri('gateways/second.vmcp.yaml'), type: FileChangeType.Created }],
    });
    const second = fullItems(await pullAll(known), a.uri('gateways/second.vmcp.yaml'));
    assert.deepEqual(
      [byRule(second, 'annotations/contradiction').length, byRule(second, 'template/not-upstream').length],
      [1, 1],
    );
  });

  test('a folder added at run time is read and checked with only its own files', async () => {
    const before = await pullAll();
    assert.equal(itemOf(before, c.uri(WORKFLOW_PATH)).length, 0);
    const refreshes = server.client.refreshes;
    await server.client.changeFolders([c.root], []);
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'a refresh after a folder was added');
    const inC = await server.client.pullItems(c.uri(WORKFLOW_PATH));
    // C has no catalog: its tools are unknown (info), and no other folder's catalog is used.
    assert.equal(byRule(inC, 'tool/unknown').length, 2, `tool/unknown in C, got ${rules(inC).join(', ')}`);
    const items = await pullAll(before);
    assert.equal(itemOf(items, c.uri(WORKFLOW_PATH)).length, 1);
    await server.client.waitFor(
      () => server.client.catalogStates.at(-1)?.files === 2,
      'the catalog state of all three folders',
    );
  });

  test('a folder nested in another owns its files while it is a workspace folder', async () => {
    const nested = a.uri('inner/gateways/nested.vmcp.yaml');
    assert.equal(
      byRule(await server.client.pullItems(nested), 'tool/unknown').length,
      0,
      "under A alone, A's catalog applies",
    );
    const before = await pullAll();
    await server.client.changeFolders([join(a.root, 'inner')], []);
    const inInner = await server.client.pullItems(nested);
    assert.equal(byRule(inInner, 'tool/unknown').length, 2, 'the inner folder has no catalog');
    const items = await pullAll(before);
    assert.equal(itemOf(items, nested).length, 1, 'reported once, by the inner folder');
    // The inner folder has no .toollens.yaml: as for the CLI, the one found upward (A's) applies,
    // and a change to it reaches the inner folder too.
    assert.equal(byRule(inInner, 'template/not-upstream').length, 1);
    const refreshes = server.client.refreshes;
    a.write('.toollens.yaml', NO_UPSTREAM_CONFIG);
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: a.uri('.toollens.yaml'), type: FileChangeType.Created }],
    });
    await server.client.waitFor(
      () => server.client.refreshes > refreshes,
      'a refresh after the configuration above appeared',
    );
    assert.equal(
      byRule(await server.client.pullItems(nested), 'template/not-upstream').length,
      0,
      "A's configuration applies in the inner folder",
    );
    rmSync(join(a.root, '.toollens.yaml'));
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: a.uri('.toollens.yaml'), type: FileChangeType.Deleted }],
    });
    await server.client.waitFor(
      () => server.client.refreshes > refreshes + 1,
      'a refresh after the configuration went away',
    );
    assert.equal(byRule(await server.client.pullItems(nested), 'template/not-upstream').length, 1);
    await server.client.changeFolders([], [join(a.root, 'inner')]);
    assert.equal(
      byRule(await server.client.pullItems(nested), 'tool/unknown').length,
      0,
      "A's again once the inner folder is gone",
    );
    assert.equal(itemOf(await pullAll(items), nested).length, 1);
  });

  test('a folder removed at run time: its files are reported gone and its state dropped', async () => {
    const before = await pullAll();
    const uri = b.uri(WORKFLOW_PATH);
    assert.ok(fullItems(before, uri).length > 0);
    const refreshes = server.client.refreshes;
    await server.client.changeFolders([], [b.root]);
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'a refresh after a folder was removed');
    const items = await pullAll(before);
    for (const gone of [uri, b.uri('snapshots/fs.catalog.yaml'), b.uri('.toollens.yaml')])
      assert.deepEqual(fullItems(items, gone), [], `${gone} is cleared`);
    assert.deepEqual(await server.client.pullItems(uri), [], 'a closed file of a removed folder has no diagnostics');
    assert.ok(!server.server.folders.all().some((session) => session.root === b.root), "B's session is gone");
    assert.deepEqual(
      server.server.folders.all().map((session) => session.root),
      [a.root, c.root],
    );
    // A's own files are untouched.
    assert.equal(byRule(await server.client.pullItems(a.uri(WORKFLOW_PATH)), 'annotations/contradiction').length, 1);
  });

  test("an open editor of a removed folder stays checked, as a file outside every folder (the first folder's)", async () => {
    const uri = c.uri(WORKFLOW_PATH);
    await server.client.open(uri, WORKFLOW);
    assert.equal(byRule(await server.client.pullItems(uri), 'tool/unknown').length, 2, 'C has no catalog');
    await server.client.changeFolders([], [c.root]);
    assert.equal(
      byRule(await server.client.pullItems(uri), 'tool/unknown').length,
      0,
      "now checked with the first folder's catalog",
    );
    await server.client.close(uri);
    assert.deepEqual(await server.client.pullItems(uri), []);
  });
});

describe('multi-root workspaces with pushed diagnostics', () => {
  let server: InProcess;
  let a: ReturnType<typeof makeWorkspace>;
  let b: ReturnType<typeof makeWorkspace>;

  before(async () => {
    a = makeWorkspace({ [CATALOG_PATH]: CATALOG, [WORKFLOW_PATH]: WORKFLOW });
    b = makeWorkspace({ [WORKFLOW_PATH]: WORKFLOW, '.toollens.yaml': NO_UPSTREAM_CONFIG });
    server = startInProcess();
    await server.client.initializeFolders([a.root], PUSH_CAPABILITIES);
  });

  after(() => {
    server.dispose();
    a.dispose();
    b.dispose();
  });

  test('a folder added is published; removed, its diagnostics are cleared', async () => {
    const inA = a.uri(WORKFLOW_PATH);
    const inB = b.uri(WORKFLOW_PATH);
    await server.client.waitFor(() => (server.client.published.get(inA)?.length ?? 0) > 0, "A's diagnostics");
    await server.client.changeFolders([b.root], []);
    await server.client.waitFor(() => (server.client.published.get(inB)?.length ?? 0) > 0, "B's diagnostics");
    const published = server.client.published.get(inB)!;
    assert.equal(byRule(published, 'template/not-upstream').length, 0, "B's configuration applies");
    assert.ok(byRule(published, 'tool/unknown').length > 0, 'B has no catalog');
    await server.client.changeFolders([], [b.root]);
    await server.client.waitFor(() => server.client.published.get(inB)?.length === 0, "B's diagnostics cleared");
    assert.ok((server.client.published.get(inA)?.length ?? 0) > 0, "A's stay");
  });
});

describe('multi-root workspaces: the toolLens.catalogs setting of each folder', () => {
  let server: InProcess;
  let a: ReturnType<typeof makeWorkspace>;
  let b: ReturnType<typeof makeWorkspace>;

  before(async () => {
    // Both folders hold the same snapshot under a name only a catalog glob reads; only B's
    // folder settings name it.
    a = makeWorkspace({ 'extra/fs.snapshot': CATALOG, [WORKFLOW_PATH]: WORKFLOW });
    b = makeWorkspace({ 'extra/fs.snapshot': CATALOG, [WORKFLOW_PATH]: WORKFLOW });
    server = startInProcess();
    const bUri = pathToFileURL(b.root).href;
    server.client.connection.onRequest(
      'workspace/configuration',
      (params: { items: { scopeUri?: string; section?: string }[] }) =>
        params.items.map((item) =>
          item.section === 'toolLens'
            ? { catalogs: item.scopeUri === bUri ? ['extra/*.snapshot'] : [], workspaceDiagnostics: true }
            : null,
        ),
    );
    await server.client.initializeFolders([a.root, b.root]);
  });

  after(() => {
    server.dispose();
    a.dispose();
    b.dispose();
  });

  test("a folder's own setting names its catalogs, relative to it", async () => {
    // The settings are asked for after the folders are read: wait until B's catalog joined.
    await server.client.waitFor(() => server.client.catalogStates.at(-1)?.files === 1, "B's setting applied");
    assert.equal(
      byRule(await server.client.pullItems(b.uri(WORKFLOW_PATH)), 'tool/unknown').length,
      0,
      "B's setting names its snapshot",
    );
    assert.equal(
      byRule(await server.client.pullItems(a.uri(WORKFLOW_PATH)), 'tool/unknown').length,
      2,
      "A's setting names none",
    );
  });
});
