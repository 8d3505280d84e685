// Issue 24, item 8: every `workspace/executeCommand` handler given hostile arguments. vscode-
// languageclient registers each server command as a VS Code command, so any extension, keybinding
// or task can run one with anything: wrong types, huge values, URIs of files outside the
// workspace. Each must answer with an InvalidParams error that says what is wrong, never crash
// the server, and never read or write anything outside the workspace (nor anything at all: the
// commands answer from what the server holds). Before, a wrong argument got an empty answer, a
// position of the wrong type became NaN offsets, and an unknown command was logged in full.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ExecuteCommandRequest } from 'vscode-languageserver-protocol/node';
import { SERVER_COMMANDS } from '../../server/src/lsp/protocol.js';
import { makeWorkspace, startInProcess, type InProcess } from './harness.js';
import { CATALOG, CATALOG_PATH, WORKFLOW, WORKFLOW_PATH } from './workspace.js';

const INVALID_PARAMS = -32602;
const HUGE = 'x'.repeat(1_000_000);
const MARKER = 'outside_marker_tool';

/** Every file under a folder with its size and mtime: what a write would change. */
function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      const stat = statSync(path);
      return `${path} ${stat.size} ${stat.mtimeMs}`;
    })
    .sort();
}

describe('workspace/executeCommand with hostile arguments', () => {
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;
  let outside: string;
  let outsideUri: string;
  let before_: { ws: string[]; outside: string[] };

  const run = (command: unknown, args: unknown) =>
    server.client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: command as string,
      arguments: args as unknown[],
    });

  /** Each argument list is refused with InvalidParams and a message; the server still answers after. */
  async function refuses(command: unknown, argumentLists: unknown[]): Promise<void> {
    for (const args of argumentLists) {
      await assert.rejects(run(command, args), (error: { code?: number; message?: string }) => {
        assert.equal(
          error.code,
          INVALID_PARAMS,
          `${String(command).slice(0, 60)} ${JSON.stringify(args)?.slice(0, 120)}`,
        );
        assert.ok(error.message && error.message.length < 600, `a short message: ${error.message?.slice(0, 200)}`);
        assert.ok(!error.message.includes(HUGE.slice(0, 1000)), 'the huge value is not echoed whole');
        return true;
      });
    }
    // Still alive, and still right.
    const kind = (await run(SERVER_COMMANDS.documentKind, [{ uri: ws.uri(WORKFLOW_PATH) }])) as { kind: string };
    assert.equal(kind.kind, 'vmcp-config');
  }

  /** Argument lists every command about a document refuses. */
  const documentHostile = (withPosition: boolean): unknown[] => {
    const workflow = ws.uri(WORKFLOW_PATH);
    const lists: unknown[] = [
      'not a list',
      { 0: { uri: workflow } },
      [],
      [42],
      [null],
      [workflow],
      [{}],
      [{ uri: 42 }],
      [{ uri: ['file:///etc/passwd'] }],
      [{ uri: '' }],
      [{ uri: `file:///${HUGE}` }],
      [{ uri: outsideUri }],
      [{ uri: `${pathToFileURL(ws.root).href}/../${outside.split('/').pop()}/secret.vmcp.yaml` }],
      [{ uri: 'file:///etc/passwd' }],
      [{ uri: 'file://evil.example/etc/passwd' }],
      [{ uri: 'untitled:Untitled-9' }],
      [{ uri: 'https://example.com/gateway.vmcp.yaml' }],
      [{ uri: workflow }, 'extra'],
      Array.from({ length: 100_000 }, () => ({ uri: workflow })),
    ];
    if (withPosition)
      for (const position of [
        'top',
        [],
        { line: 'a', character: 0 },
        { line: 0 },
        { line: -1, character: 0 },
        { line: 1.5, character: 0 },
        { line: 0, character: Number.MAX_SAFE_INTEGER },
        { line: 2 ** 31, character: 0 },
        { line: 1e300, character: 0 },
      ])
        lists.push([{ uri: workflow, position }]);
    return lists;
  };

  const noArgsHostile = (): unknown[] => ['not a list', [1], [HUGE], [{ uri: outsideUri }], [null, null]];

  before(async () => {
    outside = mkdtempSync(join(tmpdir(), 'tool-lens-outside-'));
    // A workflow outside the workspace, with a name nothing inside has: no answer may show it.
    writeFileSync(join(outside, 'secret.vmcp.yaml'), WORKFLOW.replace('copy_readme', MARKER));
    outsideUri = pathToFileURL(join(outside, 'secret.vmcp.yaml')).href;
    ws = makeWorkspace({ [CATALOG_PATH]: CATALOG, [WORKFLOW_PATH]: WORKFLOW });
    server = startInProcess();
    await server.client.initialize(ws.root, undefined, { trusted: true });
    before_ = { ws: listing(ws.root), outside: listing(outside) };
  });

  after(async () => {
    // Nothing was written, inside or out, and nothing outside was read into the server.
    assert.deepEqual(listing(ws.root), before_.ws);
    assert.deepEqual(listing(outside), before_.outside);
    for (const session of server.server.folders.all())
      for (const path of session.entries.keys()) assert.ok(!path.includes('secret.vmcp.yaml'), path);
    // No handler failed: every refusal was an answer, not an exception.
    assert.deepEqual(
      server.client.logs.filter((l) => / failed: /.test(l)),
      [],
    );
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
    rmSync(outside, { recursive: true, force: true });
  });

  test('floor', async () => {
    await refuses(SERVER_COMMANDS.floor, documentHostile(true));
    const reports = (await run(SERVER_COMMANDS.floor, [{ uri: ws.uri(WORKFLOW_PATH) }])) as { workflow: string }[];
    assert.deepEqual(
      reports.map((r) => r.workflow),
      ['copy_readme'],
    );
    // A file of the workspace the server does not hold (not one of ours): no floor, no error.
    assert.deepEqual(await run(SERVER_COMMANDS.floor, [{ uri: ws.uri('notes/readme.md') }]), []);
  });

  test('workflowGraph', async () => {
    await refuses(SERVER_COMMANDS.workflowGraph, documentHostile(true));
    const graphs = (await run(SERVER_COMMANDS.workflowGraph, [
      { uri: ws.uri(WORKFLOW_PATH), position: { line: 1e6, character: 1e6 } },
    ])) as unknown[];
    assert.equal(graphs.length, 1, 'a position past the end is the end of the file');
  });

  test('advertisedTools', async () => {
    await refuses(SERVER_COMMANDS.advertisedTools, documentHostile(false));
    const views = (await run(SERVER_COMMANDS.advertisedTools, [{ uri: ws.uri(WORKFLOW_PATH) }])) as unknown[];
    assert.equal(views.length, 1);
  });

  test('documentKind', async () => {
    await refuses(SERVER_COMMANDS.documentKind, documentHostile(false));
    assert.deepEqual(await run(SERVER_COMMANDS.documentKind, [{ uri: ws.uri('notes/other.yaml') }]), { kind: null });
  });

  test('callEnvelope', async () => {
    const uri = ws.uri(WORKFLOW_PATH);
    const good = {
      uri,
      position: { line: 0, character: 0 },
      server: 'filesystem',
      namespace: 'applets',
      tool: 'applet_create',
    };
    await refuses(SERVER_COMMANDS.callEnvelope, [
      ...documentHostile(true),
      [{ uri, position: { line: 0, character: 0 } }],
      [{ ...good, server: 42 }],
      [{ ...good, namespace: null }],
      [{ ...good, tool: ['applet_create'] }],
      [{ ...good, tool: '' }],
      [{ ...good, tool: HUGE }],
      [{ ...good, server: HUGE }],
      [{ ...good, position: undefined }],
      [{ ...good, position: { line: -5, character: 0 } }],
      [{ ...good, uri: outsideUri }],
    ]);
    const result = (await run(SERVER_COMMANDS.callEnvelope, [good])) as { text?: string; refused?: string } | null;
    assert.ok(result && (result.text !== undefined || result.refused !== undefined), 'a well-formed call is answered');
  });

  test('acceptCatalog', async () => {
    await refuses(SERVER_COMMANDS.acceptCatalog, [
      'not a list',
      [42],
      [{ uri: outsideUri }],
      [{ uri: HUGE }],
      [{ uri: ws.uri(WORKFLOW_PATH) }, { uri: ws.uri(WORKFLOW_PATH) }],
    ]);
    assert.equal(await run(SERVER_COMMANDS.acceptCatalog, []), null);
    assert.equal(await run(SERVER_COMMANDS.acceptCatalog, [{ uri: ws.uri(WORKFLOW_PATH) }]), null);
  });

  test('refreshCatalogs', async () => {
    await refuses(SERVER_COMMANDS.refreshCatalogs, noArgsHostile());
    const state = (await run(SERVER_COMMANDS.refreshCatalogs, [])) as { servers: string[] };
    assert.deepEqual(state.servers, ['filesystem']);
  });

  test('dynamicTools', async () => {
    await refuses(SERVER_COMMANDS.dynamicTools, noArgsHostile());
    const tools = (await run(SERVER_COMMANDS.dynamicTools, undefined)) as { tool: string }[];
    assert.deepEqual(
      tools.map((t) => t.tool),
      ['applet_create'],
    );
  });

  test('liveServers', async () => {
    await refuses(SERVER_COMMANDS.liveServers, noArgsHostile());
    const list = (await run(SERVER_COMMANDS.liveServers, [])) as { servers: unknown[] };
    assert.deepEqual(list.servers, []);
  });

  test('rules', async () => {
    await refuses(SERVER_COMMANDS.rules, noArgsHostile());
    const rules = (await run(SERVER_COMMANDS.rules, [])) as unknown[];
    assert.ok(rules.length > 50);
  });

  test('an unknown command, or a command that is not a name', async () => {
    await refuses('toolLens.server.nope', [[]]);
    await refuses(HUGE, [[]]);
    await refuses(42, [[]]);
    await refuses(null, [[]]);
    assert.ok(!server.client.logs.some((line) => line.includes(HUGE.slice(0, 1000))), 'the huge name is not logged');
  });
});
