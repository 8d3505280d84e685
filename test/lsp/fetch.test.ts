// "Fetch Catalog from an MCP Server" over the in-process server: the workspace's .vscode/mcp.json
// starts the real @modelcontextprotocol/server-memory from node_modules over stdio. Listing, the
// trust gate, the consent fingerprint, the fetch with its progress and "catalog pending" state,
// the snapshot flowing through the catalog-change path to a dependent workflow, a failing server,
// and secrets kept out of everything the client sees. Non-blocking is shown by the order of
// answers, not by timing: a hover and a pull sent while the fetch runs are answered before it ends.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CancellationTokenSource,
  ExecuteCommandRequest,
  HoverRequest,
  WorkDoneProgress,
  type Diagnostic,
  type WorkDoneProgressBegin,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
} from 'vscode-languageserver-protocol/node';
import {
  consentPrompt,
  CONSENT_KEY,
  hasConsent,
  pickRow,
  recordConsent,
  type MementoLike,
} from '../../client/src/fetchConsent.js';
import {
  FETCH_CATALOG_REQUEST,
  SERVER_COMMANDS,
  TRUST_NOTIFICATION,
  type CatalogState,
  type FetchCatalogParams,
  type FetchCatalogResult,
  type LiveServerItem,
  type LiveServerList,
} from '../../server/src/lsp/protocol.js';
import { makeWorkspace, startInProcess, type InProcess } from './harness.js';

const ROOT = join(__dirname, '..', '..');
const MEMORY_BIN = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
// Env values count as secrets: none of them may reach a message, a log line or a snapshot.
const MEMORY_SECRET = 'tl-secret-memory-7d2e41';
const API_SECRET = 'tl-secret-api-9b3f0c';

const MCP_JSON = JSON.stringify(
  {
    inputs: [{ type: 'promptString', id: 'token', description: 'API token', password: true }],
    servers: {
      memory: {
        type: 'stdio',
        command: process.execPath,
        args: [MEMORY_BIN],
        env: { MEMORY_FILE_PATH: join(tmpdir(), `${MEMORY_SECRET}.jsonl`) },
      },
      'needs-token': { type: 'stdio', command: 'node', args: ['server.js'], env: { TOKEN: '${input:token}' } },
      // Writes its key to stderr and exits: the failure message carries the stderr tail, masked.
      broken: {
        type: 'stdio',
        command: process.execPath,
        args: ['-e', "process.stderr.write('cannot log in with ' + process.env.API_KEY + '\\n'); process.exit(3)"],
        env: { API_KEY: API_SECRET },
      },
      // Starts and never answers: only a cancel (or the connect timeout) ends its fetch.
      silent: { type: 'stdio', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] },
    },
  },
  null,
  2,
);

const WORKFLOW_PATH = 'gateways/memory.vmcp.yaml';
const WORKFLOW = `# A gateway over the memory server.
name: memory-gateway
groupRef: memory
backends:
  - name: memory
    url: http://memory:8080/mcp
    transport: streamable-http
aggregation:
  conflictResolution: prefix
  conflictResolutionConfig:
    prefixFormat: "{workload}_"
compositeTools:
  - name: dump_graph
    description: Read the whole knowledge graph.
    parameters:
      type: object
      properties: {}
    steps:
      - id: read
        tool: memory.read_graph
`;

type Progress = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

const unknownTool = (items: Diagnostic[]) => items.filter((d) => d.code === 'tool/unknown');
/** What the editor shows under a diagnostic's message: its related information, the why first. */
const notesOf = (d: Diagnostic): string => (d.relatedInformation ?? []).map((r) => r.message).join('\n');

function noSecrets(text: string, what: string): void {
  assert.ok(!text.includes(MEMORY_SECRET), `${what} holds the MEMORY_FILE_PATH value`);
  assert.ok(!text.includes(API_SECRET), `${what} holds the API_KEY value`);
}

describe('fetch catalog from an MCP server (in process, real server-memory)', () => {
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;
  const progress = new Map<string, Progress[]>();

  const command = <T>(name: string, args: unknown[] = []) =>
    server.client.connection.sendRequest(ExecuteCommandRequest.type, { command: name, arguments: args }) as Promise<T>;
  const list = () => command<LiveServerList>(SERVER_COMMANDS.liveServers);
  const item = async (name: string): Promise<LiveServerItem> => {
    const found = (await list()).servers.find((s) => s.name === name);
    assert.ok(found, `${name} is listed`);
    return found;
  };
  const fetch = (params: FetchCatalogParams) =>
    server.client.connection.sendRequest<FetchCatalogResult>(FETCH_CATALOG_REQUEST, params);
  const watchProgress = (token: string) => {
    const values: Progress[] = [];
    progress.set(token, values);
    server.client.connection.onProgress(WorkDoneProgress.type, token, (value) => {
      values.push(value);
    });
    return values;
  };
  const lastState = () => server.client.catalogStates.at(-1) as CatalogState;

  before(async () => {
    ws = makeWorkspace({ '.vscode/mcp.json': MCP_JSON, [WORKFLOW_PATH]: WORKFLOW });
    // Short limits: a broken server must not hold the suite.
    server = startInProcess({
      live: { fetch: { connectTimeoutMs: 15_000, pageTimeoutMs: 10_000, closeGraceMs: 500 } },
    });
    // Untrusted to begin with, as VS Code's Restricted Mode starts the server.
    await server.client.initialize(ws.root, undefined, { trusted: false });
  });

  after(async () => {
    await server.server.live.idle();
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
  });

  test('lists the servers of .vscode/mcp.json: transport, masked command line, needs input', async () => {
    const result = await list();
    assert.equal(result.trusted, false);
    assert.deepEqual(result.configFiles, ['.vscode/mcp.json']);
    assert.deepEqual(result.problems, []);
    assert.deepEqual(
      result.servers.map((s) => s.name),
      ['memory', 'needs-token', 'broken', 'silent'],
    );
    const [memory, needsToken, broken] = result.servers as [LiveServerItem, LiveServerItem, LiveServerItem];

    assert.equal(memory.transport, 'stdio');
    assert.equal(
      memory.declaredIn,
      `.vscode/mcp.json:${MCP_JSON.split('\n').findIndex((l) => l.includes('"memory":')) + 1}`,
    );
    assert.ok(memory.commandLine?.startsWith('MEMORY_FILE_PATH=*** '), memory.commandLine);
    assert.ok(memory.commandLine?.includes(MEMORY_BIN), memory.commandLine);
    assert.match(memory.fingerprint ?? '', /^[0-9a-f]{64}$/);
    assert.equal(memory.catalogued, false);
    assert.equal(memory.pending, false);
    assert.equal(memory.blocked, undefined);
    // The file a fetch would write, named before anything starts (and nothing written by listing).
    assert.deepEqual(memory.snapshot, { file: 'catalogs/memory.catalog.yaml', replaces: false });

    assert.equal(needsToken.blocked?.reason, 'needs-input');
    assert.match(needsToken.blocked?.message ?? '', /input "token"/);
    assert.equal(needsToken.commandLine, undefined);
    assert.equal(needsToken.fingerprint, undefined);
    assert.match(pickRow(needsToken).description, /^needs input · \.vscode\/mcp\.json:\d+$/);

    assert.ok(broken.commandLine?.startsWith('API_KEY=*** '), broken.commandLine);
    noSecrets(JSON.stringify(result), 'the server list');
  });

  test('refuses to fetch while the workspace is untrusted, and starts nothing', async () => {
    const memory = await item('memory');
    const before = server.client.catalogStates.length;
    const result = await fetch({ server: 'memory', fingerprint: memory.fingerprint! });
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.reason, 'untrusted');
    assert.match(!result.ok ? result.message : '', /not trusted/);
    assert.equal(existsSync(join(ws.root, 'catalogs')), false);
    assert.ok(
      server.client.catalogStates.slice(before).every((s) => s.pending.length === 0),
      'no fetch was ever pending',
    );
  });

  test('a trusted workspace still refuses a launch other than the one agreed to, and servers that need input', async () => {
    await server.client.connection.sendNotification(TRUST_NOTIFICATION, { trusted: true });
    await server.client.waitFor(() => lastState().trusted, 'the trust to reach the server');
    assert.equal((await list()).trusted, true);

    const changed = await fetch({ server: 'memory', fingerprint: '0'.repeat(64) });
    assert.equal(!changed.ok && changed.reason, 'changed');
    const blocked = await fetch({ server: 'needs-token', fingerprint: '0'.repeat(64) });
    assert.equal(!blocked.ok && blocked.reason, 'blocked');
    assert.match(!blocked.ok ? blocked.message : '', /input "token"/);
    const unknown = await fetch({ server: 'nope', fingerprint: '0'.repeat(64) });
    assert.equal(!unknown.ok && unknown.reason, 'unknown-server');
    assert.equal(existsSync(join(ws.root, 'catalogs')), false);
  });

  test(
    'fetches memory without blocking other requests; the workflow is re-checked against the snapshot',
    { timeout: 25_000 },
    async () => {
      const client = server.client;
      const workflowUri = ws.uri(WORKFLOW_PATH);
      await client.open(workflowUri, WORKFLOW);
      const [beforeInfo] = unknownTool(await client.pullItems(workflowUri));
      assert.ok(beforeInfo, 'tool/unknown before the fetch');
      assert.equal(beforeInfo.severity, 3); // information: no catalog, not wrong
      assert.doesNotMatch(notesOf(beforeInfo), /Catalog pending/);

      const memory = await item('memory');
      const token = 'fetch-memory';
      const values = watchProgress(token);
      const events: string[] = [];
      const statesBefore = client.catalogStates.length;
      client
        .waitFor(
          () => client.catalogStates.slice(statesBefore).some((s) => s.pending.includes('memory')),
          'memory to be pending',
          20_000,
        )
        .then(
          () => events.push('pending'),
          () => events.push('never pending'),
        );
      const fetching = fetch({ server: 'memory', fingerprint: memory.fingerprint!, workDoneToken: token }).then(
        (result) => {
          events.push('fetch answered');
          return result;
        },
      );

      // Once the server says the fetch runs, ask for a hover and for diagnostics.
      await client.waitFor(() => events.includes('pending'), 'the pending state', 20_000);
      const line = WORKFLOW.split('\n').findIndex((l) => l.includes('memory.read_graph'));
      const character = WORKFLOW.split('\n')[line]!.indexOf('memory.read_graph') + 3;
      const hovering = client.connection
        .sendRequest(HoverRequest.type, { textDocument: { uri: workflowUri }, position: { line, character } })
        .then((hover) => {
          events.push('hover answered');
          return hover;
        });
      const pulling = client.pullItems(workflowUri).then((items) => {
        events.push('pull answered');
        return items;
      });
      const [, during] = await Promise.all([hovering, pulling]);
      // Both answered while the fetch was still running: nothing waited for it.
      assert.equal(events[0], 'pending');
      assert.deepEqual([...events.slice(1)].sort(), ['hover answered', 'pull answered']);
      assert.ok(lastState().pending.includes('memory'), 'still pending when the answers arrived');
      const [pendingInfo] = unknownTool(during);
      assert.ok(pendingInfo, 'the reference is still unknown while the catalog is pending');
      assert.match(notesOf(pendingInfo), /Catalog pending: Tool Lens is fetching the live catalog of "memory"/);

      const refreshesBefore = client.refreshes;
      const result = await fetching;
      assert.equal(events.at(-1), 'fetch answered');
      assert.equal(events.length, 4);
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(result.file, 'catalogs/memory.catalog.yaml');
      assert.ok(result.tools >= 5, `${result.tools} tools`);

      // The snapshot: the tools as the server listed them, and nothing of how it was started.
      const snapshot = readFileSync(join(ws.root, 'catalogs', 'memory.catalog.yaml'), 'utf8');
      assert.match(snapshot, /^catalog: 1$/m);
      assert.match(snapshot, /name: read_graph/);
      assert.doesNotMatch(snapshot, /MEMORY_FILE_PATH/);
      noSecrets(snapshot, 'the snapshot');

      // The catalog state: memory catalogued, nothing pending or failed.
      const state = lastState();
      assert.ok(state.servers.includes('memory'));
      assert.deepEqual(state.pending, []);
      assert.deepEqual(state.failed, []);

      // Progress: begin (with the masked command line), the write, end.
      assert.deepEqual(
        values.map((v) => v.kind),
        ['begin', 'report', 'end'],
      );
      assert.match((values[0] as WorkDoneProgressBegin).message ?? '', /^Starting MEMORY_FILE_PATH=\*\*\* /);

      // The dependent workflow: the client is asked to pull again, and the info is gone.
      await client.waitFor(() => client.refreshes > refreshesBefore, 'a diagnostics refresh after the snapshot');
      const afterItems = await client.pullItems(workflowUri);
      assert.deepEqual(unknownTool(afterItems), []);
      assert.equal((await item('memory')).catalogued, true);
      // A second fetch would replace that file, and the consent says so.
      const again = await item('memory');
      assert.deepEqual(again.snapshot, { file: 'catalogs/memory.catalog.yaml', replaces: true });
      assert.match(
        consentPrompt(again).detail,
        /saved to catalogs\/memory\.catalog\.yaml, replacing the snapshot already there \(fetched /,
      );
    },
  );

  test(
    'a server that fails: a clear, masked message, and "failed" in the catalog state',
    { timeout: 20_000 },
    async () => {
      const broken = await item('broken');
      const values = watchProgress('fetch-broken');
      const result = await fetch({ server: 'broken', fingerprint: broken.fingerprint!, workDoneToken: 'fetch-broken' });
      assert.equal(result.ok, false);
      assert.equal(!result.ok && result.reason, 'failed');
      const message = !result.ok ? result.message : '';
      assert.match(message, /could not fetch the catalog of "broken"/);
      assert.match(message, /cannot log in with \*\*\*/); // the stderr tail, its secret masked
      const state = lastState();
      assert.deepEqual(state.failed, ['broken']);
      assert.deepEqual(state.pending, []);
      assert.match(state.failures?.broken ?? '', /\*\*\*/);
      assert.equal(values.at(-1)?.kind, 'end');
      assert.equal(existsSync(join(ws.root, 'catalogs', 'broken.catalog.yaml')), false);
    },
  );

  test(
    'cancelling the request stops the fetch: "cancelled", not a failure, and nothing written',
    { timeout: 20_000 },
    async () => {
      const silent = await item('silent');
      const values = watchProgress('fetch-silent');
      const source = new CancellationTokenSource();
      const answer = server.client.connection.sendRequest<FetchCatalogResult>(
        FETCH_CATALOG_REQUEST,
        { server: 'silent', fingerprint: silent.fingerprint!, workDoneToken: 'fetch-silent' },
        source.token,
      );
      // Cancel once the fetch has begun (the server is started and waited for).
      await server.client.waitFor(() => values.some((v) => v.kind === 'begin'), 'the fetch to begin');
      assert.equal((values.find((v) => v.kind === 'begin') as WorkDoneProgressBegin).cancellable, true);
      source.cancel();
      const result = await answer;
      assert.equal(!result.ok && result.reason, 'cancelled');
      assert.equal(values.at(-1)?.kind, 'end');
      assert.match((values.at(-1) as WorkDoneProgressEnd).message ?? '', /Cancelled/);
      const state = lastState();
      assert.deepEqual(state.pending, []);
      assert.ok(!state.failed.includes('silent'), 'a cancel is not a failure');
      assert.equal(existsSync(join(ws.root, 'catalogs', 'silent.catalog.yaml')), false);
    },
  );

  test('no secret reached a message, a log line, a progress report or a catalog state', () => {
    noSecrets(server.client.logs.join('\n'), 'the server log');
    noSecrets(JSON.stringify(server.client.catalogStates), 'the catalog states');
    noSecrets(JSON.stringify([...progress.values()]), 'the progress reports');
  });
});

describe('fetch consent (client side)', () => {
  const memento = (): MementoLike & { data: Map<string, unknown> } => {
    const data = new Map<string, unknown>();
    return {
      data,
      get: <T>(key: string) => data.get(key) as T | undefined,
      update: (key: string, value: unknown) => Promise.resolve(void data.set(key, value)),
    };
  };
  const memory: LiveServerItem = {
    name: 'memory',
    declaredIn: '.vscode/mcp.json:5',
    transport: 'stdio',
    commandLine: 'MEMORY_FILE_PATH=*** npx -y @modelcontextprotocol/server-memory  (in /ws)',
    fingerprint: 'a'.repeat(64),
    catalogued: false,
    pending: false,
  };

  test('is remembered per exact launch and asked again when it changes', async () => {
    const state = memento();
    assert.equal(hasConsent(state, memory), false);
    await recordConsent(state, memory, new Date('2026-01-02T03:04:05Z'));
    assert.equal(hasConsent(state, memory), true);
    assert.deepEqual(state.data.get(CONSENT_KEY), {
      ['a'.repeat(64)]: { server: 'memory', commandLine: memory.commandLine, at: '2026-01-02T03:04:05.000Z' },
    });
    const changed = { ...memory, commandLine: `${memory.commandLine} --debug`, fingerprint: 'b'.repeat(64) };
    assert.equal(hasConsent(state, changed), false);
    await recordConsent(state, changed);
    // The older launch's consent is dropped with it.
    assert.deepEqual(Object.keys(state.data.get(CONSENT_KEY) as object), ['b'.repeat(64)]);
    assert.equal(hasConsent(state, { ...memory, fingerprint: undefined }), false);
  });

  test('the prompt names the snapshot file it writes, and says when it replaces one', () => {
    const fresh = consentPrompt({ ...memory, snapshot: { file: 'catalogs/memory.catalog.yaml', replaces: false } });
    assert.match(fresh.detail, /saved to catalogs\/memory\.catalog\.yaml, a new snapshot/);
    assert.doesNotMatch(fresh.detail, /replacing/);
    const again = consentPrompt({
      ...memory,
      catalogued: true,
      fetchedAt: '2026-11-01T10:00:00Z',
      snapshot: { file: 'catalogs/memory.catalog.yaml', replaces: true },
    });
    assert.match(
      again.detail,
      /saved to catalogs\/memory\.catalog\.yaml, replacing the snapshot already there \(fetched 2026-11-01T10:00:00Z\)/,
    );
    assert.deepEqual(again.buttons, ['Cancel', 'Start and Fetch']);
  });

  test('the prompt shows the exact command line and what will happen', () => {
    const prompt = consentPrompt(memory);
    assert.equal(prompt.message, 'Start the MCP server "memory" to fetch its tools?');
    assert.ok(prompt.detail.includes(`\n${memory.commandLine}\n`));
    assert.match(prompt.detail, /without a shell/);
    assert.match(prompt.detail, /asks again when it changes/);
    assert.equal(prompt.action, 'Start and Fetch');
    // Cancel first: the modal's default button starts nothing.
    assert.deepEqual(prompt.buttons, ['Cancel', 'Start and Fetch']);
    assert.match(prompt.detail, /saved as a snapshot in catalogs\//);
    assert.deepEqual(pickRow(memory), {
      label: 'memory',
      description: 'stdio · .vscode/mcp.json:5',
      detail: memory.commandLine,
    });
  });
});
