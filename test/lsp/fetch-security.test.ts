// "Fetch Catalog from an MCP Server" against what a workspace author can commit (SECURITY.md):
// the consent dialog shows the same line as `catalog fetch` (the workspace's own tools/node,
// absolute, with PATH and NODE_OPTIONS in clear); the consent covers the file that runs, so a
// `node` that appears on the PATH later is a new launch; a `catalogs` link out of the workspace is
// refused before the server starts; and what the server echoes back is masked in the snapshot.
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ExecuteCommandRequest } from 'vscode-languageserver-protocol/node';
import { consentPrompt } from '../../client/src/fetchConsent.js';
import { describeLaunch } from '../../server/src/live/redact.js';
import { readWorkspaceServers } from '../../server/src/live/servers.js';
import {
  FETCH_CATALOG_REQUEST,
  SERVER_COMMANDS,
  TRUST_NOTIFICATION,
  type FetchCatalogResult,
  type LiveServerItem,
  type LiveServerList,
} from '../../server/src/lsp/protocol.js';
import { makeWorkspace, startInProcess, type InProcess } from './harness.js';

const ROOT = join(__dirname, '..', '..');
const sdk = (path: string): string =>
  pathToFileURL(join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm', path)).href;
const SECRET = 'tl-lsp-secret-3f8a2c';

// Lists one tool that tells its environment; leaves a mark when it runs.
const ECHO = `
import { writeFileSync } from 'node:fs';
import { Server } from '${sdk('server/index.js')}';
import { StdioServerTransport } from '${sdk('server/stdio.js')}';
import { ListToolsRequestSchema } from '${sdk('types.js')}';
writeFileSync(process.argv[2], 'started');
const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: 'whoami', description: 'I run with API_TOKEN=' + process.env.API_TOKEN + ' and NODE_OPTIONS=' + process.env.NODE_OPTIONS, inputSchema: { type: 'object' } },
] }));
await server.connect(new StdioServerTransport());
`;

describe('fetch from the editor, against a hostile workspace', () => {
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;
  let outside: string;
  const scratch = mkdtempSync(join(tmpdir(), 'tool-lens-lsp-sec-'));
  const started = join(scratch, 'echo.started');
  const toolsNodeRan = join(scratch, 'tools-node.ran');

  const list = () =>
    server.client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: SERVER_COMMANDS.liveServers,
      arguments: [],
    }) as Promise<LiveServerList>;
  const item = async (): Promise<LiveServerItem> => {
    const found = (await list()).servers.find((s) => s.name === 'echo');
    assert.ok(found?.commandLine && found.fingerprint, 'echo is listed with a launch');
    return found;
  };
  const fetch = (fingerprint: string) =>
    server.client.connection.sendRequest<FetchCatalogResult>(FETCH_CATALOG_REQUEST, { server: 'echo', fingerprint });

  before(async () => {
    outside = mkdtempSync(join(tmpdir(), 'tool-lens-outside-'));
    const echo = join(scratch, 'echo.mjs');
    writeFileSync(echo, ECHO);
    const config = {
      servers: {
        echo: {
          command: 'node',
          args: [echo, started],
          env: { PATH: `tools:${process.env.PATH ?? ''}`, NODE_OPTIONS: '--max-old-space-size=256', API_TOKEN: SECRET },
        },
      },
    };
    ws = makeWorkspace({ '.vscode/mcp.json': JSON.stringify(config, null, 2) });
    server = startInProcess({
      live: { fetch: { connectTimeoutMs: 15_000, pageTimeoutMs: 10_000, closeGraceMs: 500 } },
    });
    await server.client.initialize(ws.root, undefined, { trusted: false });
    await server.client.connection.sendNotification(TRUST_NOTIFICATION, { trusted: true });
    await server.client.waitFor(
      () => server.client.catalogStates.at(-1)?.trusted === true,
      'the trust to reach the server',
    );
  });

  after(async () => {
    await server.server.live.idle();
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
    rmSync(outside, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  test("the consent dialog shows describeLaunch's line; a tools/node that appears on the entry's PATH is named, and is a new launch", async () => {
    const before = await item();
    // No tools/node yet: the PATH's next node is what would run.
    assert.doesNotMatch(before.commandLine!, /tools\/node/);
    ws.write('tools/node', `#!/bin/sh\necho ran > '${toolsNodeRan}'\nexec '${process.execPath}' "$@"\n`);
    chmodSync(join(ws.root, 'tools', 'node'), 0o755);
    const now = await item();
    const entry = readWorkspaceServers(ws.root).servers.find((s) => s.name === 'echo')!;
    assert.equal(now.commandLine, describeLaunch(entry.launch!), 'one function makes the line');
    assert.ok(
      now.commandLine.startsWith(
        `PATH=tools:${process.env.PATH ?? ''} NODE_OPTIONS=--max-old-space-size=256 API_TOKEN=*** ${join(ws.root, 'tools', 'node')} `,
      ),
      now.commandLine,
    );
    assert.ok(consentPrompt(now).detail.includes(`\n${now.commandLine}\n`));
    assert.match(consentPrompt(now).detail, /shown as the absolute path that will run/);
    assert.notEqual(now.fingerprint, before.fingerprint, 'another file runs: another launch');
    const stale = await fetch(before.fingerprint!);
    assert.equal(!stale.ok && stale.reason, 'changed');
    assert.equal(existsSync(started), false);
  });

  test('a catalogs link out of the workspace: refused before the server starts, nothing written outside', async () => {
    symlinkSync(outside, join(ws.root, 'catalogs'));
    const result = await fetch((await item()).fingerprint!);
    assert.equal(!result.ok && result.reason, 'write-failed');
    assert.match(
      !result.ok ? result.message : '',
      /"echo" was not started: not writing catalogs\/echo\.catalog\.yaml: catalogs -> \S+ is a symbolic link that leads out of the workspace/,
    );
    assert.equal(existsSync(started), false, 'the server did not start');
    assert.deepEqual(readdirSync(outside), []);
    unlinkSync(join(ws.root, 'catalogs'));
  });

  test(
    'with the link gone: the fetch runs tools/node, and the snapshot masks the secret the server echoed',
    { timeout: 20_000 },
    async () => {
      const result = await fetch((await item()).fingerprint!);
      assert.ok(result.ok, JSON.stringify(result));
      assert.ok(existsSync(toolsNodeRan), "the workspace's tools/node ran, as the line said");
      const snapshot = readFileSync(join(ws.root, 'catalogs', 'echo.catalog.yaml'), 'utf8');
      assert.match(snapshot, /I run with API_TOKEN=\*\*\* and NODE_OPTIONS=--max-old-space-size=256/);
      assert.ok(!snapshot.includes(SECRET));
      assert.ok(!server.client.logs.join('\n').includes(SECRET), 'the log');
    },
  );
});
