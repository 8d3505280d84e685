// A VirtualMCPServer's inline composite tool and the VirtualMCPCompositeToolDefinition it
// references from another file (workflow/duplicate-name:definedElsewhere): the language server
// keeps the workspace's definitions (core/catalog/definitions.ts) as the files change in an
// editor and on disk, and re-checks the server when what it found changes, not otherwise.
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

const FIXTURE = join(__dirname, '..', 'fixtures', 'workflow', 'duplicate-name');
const SERVERS = readFileSync(join(FIXTURE, 'xfile-servers.k8s.yaml'), 'utf8');
const DEFINITIONS = readFileSync(join(FIXTURE, 'xfile-definitions.k8s.yaml'), 'utf8');

const clashes = (items: Diagnostic[]) =>
  items.filter((d) => d.code === 'workflow/duplicate-name' && (d.message as string).includes('referenced definition'));

describe('composite tool definitions of other files in the language server', () => {
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;
  const serversUri = () => ws.uri('servers.k8s.yaml');
  const definitionsUri = () => ws.uri('definitions.k8s.yaml');

  before(async () => {
    ws = makeWorkspace({ 'servers.k8s.yaml': SERVERS, 'definitions.k8s.yaml': DEFINITIONS });
    server = startInProcess();
    await server.client.initialize(ws.root);
  });

  after(async () => {
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
  });

  test('the clash is reported at the inline tool, with the definition in the other file as related information', async () => {
    const found = clashes(await server.client.pullItems(serversUri()));
    assert.equal(found.length, 2);
    const related = found[0]!.relatedInformation?.find((r) => r.location.uri === definitionsUri());
    assert.ok(related, 'points at the definition');
    const definitionLine = DEFINITIONS.split('\n').indexOf('  name: summarize');
    assert.equal(related.location.range.start.line, definitionLine);
  });

  // What the index holds for a file is compared whole, the places of the names included (the
  // related information points at them): an edit after the last one changes none of it.
  test('an edit that keeps what the definitions say does not re-check the server', async () => {
    const first = await server.client.pull(serversUri());
    assert.equal(first.kind, 'full');
    await server.client.open(definitionsUri(), DEFINITIONS);
    await server.client.replaceAll(definitionsUri(), `${DEFINITIONS}# the last line: no definition moves\n`);
    const again = await server.client.pull(serversUri(), first.resultId);
    assert.equal(again.kind, 'unchanged');
  });

  test('a definition renamed in an editor, then the editor closed: the server follows both', async () => {
    const refreshes = server.client.refreshes;
    await server.client.replaceAll(
      definitionsUri(),
      DEFINITIONS.replace('name: summarize\n', 'name: summarize_more\n'),
    );
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'a refresh after the edit');
    assert.equal(clashes(await server.client.pullItems(serversUri())).length, 1);
    await server.client.close(definitionsUri());
    await server.client.waitFor(() => server.client.refreshes > refreshes + 1, 'a refresh after the close');
    assert.equal(clashes(await server.client.pullItems(serversUri())).length, 2);
  });

  test('the definitions file deleted, then created under another name', async () => {
    let refreshes = server.client.refreshes;
    rmSync(join(ws.root, 'definitions.k8s.yaml'));
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: definitionsUri(), type: FileChangeType.Deleted }],
    });
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'a refresh after the delete');
    assert.equal(clashes(await server.client.pullItems(serversUri())).length, 0);
    refreshes = server.client.refreshes;
    ws.write('more/defs.k8s.yaml', DEFINITIONS);
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: ws.uri('more/defs.k8s.yaml'), type: FileChangeType.Created }],
    });
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'a refresh after the create');
    const found = clashes(await server.client.pullItems(serversUri()));
    assert.equal(found.length, 2);
    assert.ok(found[0]!.relatedInformation?.some((r) => r.location.uri === ws.uri('more/defs.k8s.yaml')));
  });
});
