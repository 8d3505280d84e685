// "Move these faces to an overlay file" on the `toolFaces` of a `.vscode/mcp.json` server entry:
// one workspace edit that creates `<server>.faces.yaml` beside the config, writes the faces there,
// and removes the block from the config, every other character of it kept. The overlay is then
// checked with the same face findings the config had.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import {
  CodeActionRequest,
  ExecuteCommandRequest,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type CodeAction,
  type CreateFile,
  type Diagnostic,
  type TextDocumentEdit,
  type TextEdit,
} from 'vscode-languageserver-protocol/node';
import { MOVE_FACES_TITLE } from '../../server/src/lsp/moveFaces.js';
import { ROOT } from '../cli/harness.js';
import { applyLspEdits, makeWorkspace, PULL_CAPABILITIES, startInProcess } from './harness.js';

const MEMORY_CATALOG = readFileSync(join(ROOT, 'examples', 'catalogs', 'memory.json'), 'utf8');

const CAPABILITIES = {
  ...PULL_CAPABILITIES,
  workspace: {
    ...PULL_CAPABILITIES.workspace,
    workspaceEdit: { documentChanges: true, resourceOperations: ['create' as const] },
  },
};

// The config is written so that the faces block is one piece: HEAD + FACES + TAIL, and the
// config after the move must be exactly HEAD + TAIL.
const HEAD = `{
  // MCP servers for the docs checkout.
  "servers": {
    "memory": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-memory@2026.8.31"]`;
const FACES = `,
      "toolFaces": {
        "search_nodes": {
          "family": "search",
          "renderHints": {"userFacingName": "Search team memory", "summaryParams": ["query"]},
          "ruleFace": {"params": ["querry"]}
        },
        "forget_everything": {"family": "delete"}
      }`;
const TAIL = `
    },
    "github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/"}
  }
}
`;

const faceFindings = (items: readonly Diagnostic[]) =>
  items
    .filter((d) => String(d.code).startsWith('face/'))
    .map((d) => `${String(d.code)}: ${typeof d.message === 'string' ? d.message : d.message.value}`)
    .sort();

function positionOf(text: string, needle: string) {
  const lines = text.slice(0, text.indexOf(needle)).split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1]!.length };
}

describe('move tool faces to an overlay file', () => {
  test('creates <server>.faces.yaml beside mcp.json, removes only the block, and the overlay has the same face findings', async () => {
    const config = HEAD + FACES + TAIL;
    const ws = makeWorkspace({ 'catalogs/memory.json': MEMORY_CATALOG, '.vscode/mcp.json': config });
    const server = startInProcess();
    try {
      await server.client.initialize(ws.root, CAPABILITIES);
      const configUri = ws.uri('.vscode/mcp.json');
      await server.client.open(configUri, config, 'jsonc');
      const before = faceFindings(await server.client.pullItems(configUri));
      assert.ok(
        before.some((f) => f.startsWith('face/unknown-param')),
        `the config's face findings: ${before.join('; ')}`,
      );
      assert.ok(
        before.some((f) => f.startsWith('face/undeclared')),
        `the config's face findings: ${before.join('; ')}`,
      );

      const at = positionOf(config, '"toolFaces"');
      const actions = (await server.client.connection.sendRequest(CodeActionRequest.type, {
        textDocument: { uri: configUri },
        range: { start: at, end: at },
        context: { diagnostics: [] },
      })) as CodeAction[];
      const move = actions.filter((a) => a.title === MOVE_FACES_TITLE);
      assert.equal(move.length, 1, 'one move action for the entry');
      const changes = move[0]!.edit!.documentChanges!;
      const overlayUri = ws.uri('.vscode/memory.faces.yaml');
      const create = changes.find((c): c is CreateFile => 'kind' in c && c.kind === 'create');
      assert.deepEqual(create, {
        kind: 'create',
        uri: overlayUri,
        options: { overwrite: false, ignoreIfExists: false },
      });
      const textEdits = changes.filter((c): c is TextDocumentEdit => 'textDocument' in c);
      const overlayEdit = textEdits.find((c) => c.textDocument.uri === overlayUri)!;
      const configEdit = textEdits.find((c) => c.textDocument.uri === configUri)!;
      assert.equal(configEdit.textDocument.version, 1, 'the edit is tied to the version it was made for');

      // The config: exactly the text around the block, and valid JSONC.
      const moved = applyLspEdits(config, configEdit.edits as TextEdit[]);
      assert.equal(moved, HEAD + TAIL);
      const errors: ParseError[] = [];
      parseJsonc(moved, errors, { allowTrailingComma: false });
      assert.deepEqual(errors, []);

      // The overlay, written as the client would, then the config edited.
      const overlay = applyLspEdits('', overlayEdit.edits as TextEdit[]);
      assert.match(overlay, /^server: memory$/m);
      ws.write('.vscode/memory.faces.yaml', overlay);
      await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
        changes: [{ uri: overlayUri, type: FileChangeType.Created }],
      });
      await server.client.replaceAll(configUri, moved);
      assert.deepEqual(faceFindings(await server.client.pullItems(configUri)), [], 'the config keeps no faces');
      await server.client.open(overlayUri, overlay);
      assert.deepEqual(faceFindings(await server.client.pullItems(overlayUri)), before);

      // Once the overlay exists, the same faces again are not written twice: the move only takes
      // them out of the config, and creates nothing beside the overlay.
      await server.client.replaceAll(configUri, config);
      const again = (await server.client.connection.sendRequest(CodeActionRequest.type, {
        textDocument: { uri: configUri },
        range: { start: at, end: at },
        context: { diagnostics: [] },
      })) as CodeAction[];
      const moveAgain = again.filter((a) => a.title === MOVE_FACES_TITLE);
      assert.equal(moveAgain.length, 1);
      assert.deepEqual(
        moveAgain[0]!.edit!.documentChanges!.map((c) => ('kind' in c ? c.kind : c.textDocument.uri)),
        [configUri],
      );
      await server.client.shutdown();
    } finally {
      server.dispose();
      ws.dispose();
    }
  });

  test('a block between other keys goes with its comma; a client that cannot create files is offered nothing', async () => {
    const head = '{\n  "servers": {\n    "memory": {\n      "command": "npx",\n';
    const block = '      "toolFaces": {"search_nodes": {"family": "search"}}, // faces\n';
    const tail = '      "args": ["-y", "@modelcontextprotocol/server-memory@2026.8.31"]\n    }\n  }\n}\n';
    const config = head + block + tail;
    const ws = makeWorkspace({ 'catalogs/memory.json': MEMORY_CATALOG, '.vscode/mcp.json': config });
    for (const createFiles of [true, false]) {
      const server = startInProcess();
      try {
        await server.client.initialize(ws.root, createFiles ? CAPABILITIES : PULL_CAPABILITIES);
        const uri = ws.uri('.vscode/mcp.json');
        await server.client.open(uri, config, 'jsonc');
        const at = positionOf(config, '"search_nodes"');
        const actions = (await server.client.connection.sendRequest(CodeActionRequest.type, {
          textDocument: { uri },
          range: { start: at, end: at },
          context: { diagnostics: [] },
        })) as CodeAction[];
        const move = actions.filter((a) => a.title === MOVE_FACES_TITLE);
        if (!createFiles) {
          assert.deepEqual(move, []);
          continue;
        }
        assert.equal(move.length, 1);
        const edit = move[0]!
          .edit!.documentChanges!.filter((c): c is TextDocumentEdit => 'textDocument' in c)
          .find((c) => c.textDocument.uri === uri)!;
        assert.equal(applyLspEdits(config, edit.edits as TextEdit[]), head + tail);
        assert.ok(!existsSync(join(ws.root, '.vscode', 'memory.faces.yaml')), 'the server itself writes nothing');
        await server.client.shutdown();
      } finally {
        server.dispose();
      }
    }
    ws.dispose();
  });
  test('into the overlay the server has: the faces it lacks after its last one, then the overlay opens', async () => {
    const overlay = [
      '# Faces of the memory server.',
      'server: memory',
      'toolFaces:',
      '  read_graph:',
      '    family: read',
      '  create_entities: {family: write} # kept',
      '',
    ].join('\n');
    const config = HEAD + FACES + TAIL;
    const ws = makeWorkspace({
      'catalogs/memory.json': MEMORY_CATALOG,
      '.vscode/mcp.json': config,
      'faces/team.faces.yaml': overlay,
    });
    const server = startInProcess();
    const shown: unknown[] = [];
    server.client.connection.onRequest('window/showDocument', (params: unknown) => {
      shown.push(params);
      return { success: true };
    });
    try {
      await server.client.initialize(ws.root, { ...CAPABILITIES, window: { showDocument: { support: true } } });
      const configUri = ws.uri('.vscode/mcp.json');
      const overlayUri = ws.uri('faces/team.faces.yaml');
      await server.client.open(configUri, config, 'jsonc');
      const at = positionOf(config, '"toolFaces"');
      const actionsFor = async () =>
        (
          (await server.client.connection.sendRequest(CodeActionRequest.type, {
            textDocument: { uri: configUri },
            range: { start: at, end: at },
            context: { diagnostics: [] },
          })) as CodeAction[]
        ).filter((a) => a.title === MOVE_FACES_TITLE);
      const [move, ...more] = await actionsFor();
      assert.equal(more.length, 0);
      const changes = move!.edit!.documentChanges!;
      assert.ok(!changes.some((c) => 'kind' in c), 'no second overlay created beside the config');
      const overlayEdit = changes.find(
        (c): c is TextDocumentEdit => 'textDocument' in c && c.textDocument.uri === overlayUri,
      )!;
      assert.equal(
        applyLspEdits(overlay, overlayEdit.edits as TextEdit[]),
        [
          '# Faces of the memory server.',
          'server: memory',
          'toolFaces:',
          '  read_graph:',
          '    family: read',
          '  create_entities: {family: write} # kept',
          '  search_nodes:',
          '    family: search',
          '    renderHints:',
          '      userFacingName: Search team memory',
          '      summaryParams: [query]',
          '    ruleFace:',
          '      params: [querry]',
          '  forget_everything:',
          '    family: delete',
          '',
        ].join('\n'),
      );
      // The overlay opens once the edit is applied: the action's command asks the client to show it.
      assert.deepEqual(move!.command?.arguments, [{ uri: overlayUri }]);
      await server.client.connection.sendRequest(ExecuteCommandRequest.type, {
        command: move!.command.command,
        arguments: move!.command.arguments,
      });
      assert.deepEqual(shown, [{ uri: overlayUri, takeFocus: true }]);

      // An overlay that gives one of the tools another face: the user chooses, no move is offered.
      const other = overlay.replace('  read_graph:', '  search_nodes:\n    family: read\n  read_graph:');
      const refreshes = server.client.refreshes;
      ws.write('faces/team.faces.yaml', other);
      await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
        changes: [{ uri: overlayUri, type: FileChangeType.Changed }],
      });
      await server.client.waitFor(() => server.client.refreshes > refreshes, 'a refresh after the overlay changed');
      assert.deepEqual(await actionsFor(), []);
      await server.client.shutdown();
    } finally {
      server.dispose();
      ws.dispose();
    }
  });
});
