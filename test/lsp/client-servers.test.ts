// A server two clients of one project start differently (client/differs-across-clients): the
// language server keeps the servers of the workspace's client configs (core/catalog/clientServers.ts)
// as the files change in an editor and on disk, and re-checks the other client's file when what it
// compares with changes, not otherwise.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type Diagnostic,
} from 'vscode-languageserver-protocol/node';
import { makeWorkspace, startInProcess, type InProcess } from './harness.js';

const FIXTURE = join(__dirname, '..', 'fixtures', 'client', 'differs-across-clients', 'differs');
const VSCODE = readFileSync(join(FIXTURE, '.vscode', 'mcp.json'), 'utf8');
const CLAUDE = readFileSync(join(FIXTURE, '.mcp.json'), 'utf8');

const notes = (items: Diagnostic[]) => items.filter((d) => d.code === 'client/differs-across-clients');
const namesOf = (items: Diagnostic[]) => notes(items).map((d) => /^"([^"]+)"/.exec(d.message as string)?.[1]);

describe('client configs of one project in the language server', () => {
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;
  const vscodeUri = () => ws.uri('.vscode/mcp.json');
  const claudeUri = () => ws.uri('.mcp.json');

  before(async () => {
    ws = makeWorkspace({ '.vscode/mcp.json': VSCODE, '.mcp.json': CLAUDE });
    server = startInProcess();
    await server.client.initialize(ws.root);
  });

  after(async () => {
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
  });

  test("the note is at each differing server's name, with the other client's definition as related information", async () => {
    const found = notes(await server.client.pullItems(vscodeUri()));
    assert.deepEqual(namesOf(found), ['github', 'docs']);
    const related = found[0]!.relatedInformation?.find((r) => r.location.uri === claudeUri());
    assert.ok(related, 'points at the other definition');
    assert.equal(
      related.location.range.start.line,
      CLAUDE.split('\n').findIndex((l) => l.includes('"github"')),
    );
    assert.deepEqual(namesOf(await server.client.pullItems(claudeUri())), ['github', 'docs']);
  });

  // What the index holds for a file is compared whole, places included; and a server that no other
  // client's file names is no one else's business.
  test("an edit that changes nothing another file compares with does not re-check VS Code's file", async () => {
    const first = await server.client.pull(vscodeUri());
    assert.equal(first.kind, 'full');
    await server.client.open(claudeUri(), CLAUDE);
    await server.client.replaceAll(claudeUri(), `${CLAUDE}\n`);
    // A server added after the others (none of theirs moves), then changed.
    const solo = CLAUDE.replace('/v2/mcp"}', '/v2/mcp"}, "solo": {"command": "solo-server"}');
    assert.notEqual(solo, CLAUDE);
    await server.client.replaceAll(claudeUri(), solo);
    await server.client.replaceAll(claudeUri(), solo.replace('"solo-server"', '"solo-server-2"'));
    const again = await server.client.pull(vscodeUri(), first.resultId);
    assert.equal(again.kind, 'unchanged');
  });

  test('the other definition made to agree in an editor, then the editor closed: the notes follow both', async () => {
    const refreshes = server.client.refreshes;
    await server.client.replaceAll(claudeUri(), CLAUDE.replace('server-github@2025.5.1', 'server-github@2025.4.8'));
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'a refresh after the edit');
    assert.deepEqual(namesOf(await server.client.pullItems(vscodeUri())), ['docs']);
    await server.client.close(claudeUri());
    await server.client.waitFor(() => server.client.refreshes > refreshes + 1, 'a refresh after the close');
    assert.deepEqual(namesOf(await server.client.pullItems(vscodeUri())), ['github', 'docs']);
  });

  test("the other client's file deleted, then another client's created", async () => {
    let refreshes = server.client.refreshes;
    rmSync(join(ws.root, '.mcp.json'));
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: claudeUri(), type: FileChangeType.Deleted }],
    });
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'a refresh after the delete');
    assert.deepEqual(namesOf(await server.client.pullItems(vscodeUri())), []);
    refreshes = server.client.refreshes;
    ws.write('.cursor/mcp.json', CLAUDE);
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: ws.uri('.cursor/mcp.json'), type: FileChangeType.Created }],
    });
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'a refresh after the create');
    const found = notes(await server.client.pullItems(vscodeUri()));
    assert.deepEqual(namesOf(found), ['github', 'docs']);
    assert.ok(found[0]!.relatedInformation?.some((r) => r.location.uri === ws.uri('.cursor/mcp.json')));
  });

  test("another project's file of the same names is not compared", async () => {
    const uri = ws.uri('examples/demo/.gemini/settings.json');
    await server.client.open(uri, '{"mcpServers": {"docs": {"httpUrl": "https://other.example.com/mcp"}}}\n');
    assert.deepEqual(namesOf(await server.client.pullItems(uri)), []);
    assert.deepEqual(namesOf(await server.client.pullItems(vscodeUri())), ['github', 'docs']);
  });
});
