// What the language status items are shown for (issue 12): the client asks the server, per
// document, whether Tool Lens checks it (`documentKind`), and shows the items only where it does.
// The server answers from the content, as it recognises files for the checks: a workflow and a
// catalog are ours, whatever their names; compose.yaml and package.json are not.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ExecuteCommandRequest } from 'vscode-languageserver-protocol/node';
import { SERVER_COMMANDS, type DocumentKindResult } from '../../server/src/lsp/protocol.js';
import { makeWorkspace, startInProcess, type InProcess } from './harness.js';
import { CATALOG, CATALOG_PATH, WORKFLOW } from './workspace.js';

describe('documentKind: the documents the language status items show for', () => {
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;

  before(async () => {
    ws = makeWorkspace({
      [CATALOG_PATH]: CATALOG,
      // Named like nothing of ours: recognised by its content.
      'deploy/gateway.yaml': WORKFLOW,
      'deploy/compose.yaml': 'services:\n  web:\n    image: nginx:1.27\n',
      'package.json': '{"name": "x", "version": "1.0.0"}\n',
      '.toollens.yaml': 'rules: {}\n',
    });
    server = startInProcess();
    await server.client.initialize(ws.root);
  });

  after(async () => {
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
  });

  const kind = async (path: string) =>
    (
      (await server.client.connection.sendRequest(ExecuteCommandRequest.type, {
        command: SERVER_COMMANDS.documentKind,
        arguments: [{ uri: ws.uri(path) }],
      })) as DocumentKindResult
    ).kind;

  test('a workflow, a catalog and the configuration are ours; an unrelated YAML or JSON file is not', async () => {
    assert.equal(await kind('deploy/gateway.yaml'), 'vmcp-config');
    assert.equal(await kind(CATALOG_PATH), 'tool-catalog');
    assert.equal(await kind('.toollens.yaml'), 'toollens-config');
    assert.equal(await kind('deploy/compose.yaml'), null);
    assert.equal(await kind('package.json'), null);
  });

  test("the answer follows the editor's text: a file that becomes a workflow as it is typed", async () => {
    const uri = ws.uri('deploy/compose.yaml');
    await server.client.open(uri, 'services:\n  web:\n    image: nginx:1.27\n');
    assert.equal(await kind('deploy/compose.yaml'), null);
    await server.client.replaceAll(uri, WORKFLOW);
    assert.equal(await kind('deploy/compose.yaml'), 'vmcp-config');
    await server.client.close(uri);
  });
});
