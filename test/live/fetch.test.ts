// Live catalogs against the real MCP reference servers from npm, started over stdio exactly as a
// user's .vscode/mcp.json declares them, plus small fake servers for what the real ones never do:
// paging, hanging, schemas the SDK rejects, and servers that need a prompt.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runCatalogFetch } from '../../server/src/cli/catalogFetch.js';
import { serversFromDocument } from '../../server/src/core/catalog/load.js';
import { checkFile } from '../../server/src/core/engine.js';
import { parseFile } from '../../server/src/core/parse/file.js';
import { getSeq, isMap, toValue } from '../../server/src/core/parse/nodes.js';
import { FetchError } from '../../server/src/live/errors.js';
import { fetchCatalog, type FetchedCatalog } from '../../server/src/live/fetch.js';
import { describeLaunch } from '../../server/src/live/redact.js';
import { readWorkspaceServers, serversFromConfig, type McpServerEntry } from '../../server/src/live/servers.js';
import { renderSnapshot, writeSnapshot } from '../../server/src/live/snapshot.js';
import { loadWorkspace } from '../../server/src/node/loader.js';
import { CLI, ensureBuilt } from '../cli/harness.js';

const ROOT = join(__dirname, '..', '..');
// Captures of the reference servers' tools/list results, kept unchanged in the repository.
const CAPTURES = join(ROOT, 'test', 'corpus', 'clean', 'catalogs');
const SECRET = 'tl-secret-5f1c9a7e';

/** The script a package's `bin` names, as an absolute path. */
function binOf(pkg: string): string {
  const dir = join(ROOT, 'node_modules', ...pkg.split('/'));
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0]!;
  return join(dir, bin);
}

const sdk = (path: string): string =>
  pathToFileURL(join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm', path)).href;

// A fake built on the SDK's low-level Server. Modes: `pages` lists five tools two at a time;
// `odd` lists a tool whose outputSchema is an array and which carries keys no SDK knows.
// The first argument is a file that receives the names of the environment variables it got.
const FAKE_SERVER = `
import { writeFileSync } from 'node:fs';
import { Server } from '${sdk('server/index.js')}';
import { StdioServerTransport } from '${sdk('server/stdio.js')}';
import { ListToolsRequestSchema } from '${sdk('types.js')}';
const [envFile, mode] = process.argv.slice(2);
writeFileSync(envFile, JSON.stringify(Object.keys(process.env).sort()));
const server = new Server({ name: 'fake-' + mode, version: '1.2.3' }, { capabilities: { tools: {} } });
const paged = ['alpha', 'bravo', 'charlie', 'delta', 'echo'].map((name) => ({ name, inputSchema: { type: 'object' } }));
const odd = [
  { name: 'list_rows', 'x-vendor': { tier: 2 }, inputSchema: { type: 'object' },
    outputSchema: { type: 'array', items: { type: 'string' } }, annotations: { readOnlyHint: true, 'x-risk': 'low' } },
  { name: 'plain', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
];
server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  if (mode === 'odd') return { tools: odd };
  const start = Number(request.params?.cursor ?? 0);
  const page = paged.slice(start, start + 2);
  return start + 2 < paged.length ? { tools: page, nextCursor: String(start + 2) } : { tools: page };
});
await server.connect(new StdioServerTransport());
`;

// A server that is as hard to stop as it gets: it ignores SIGTERM and the end of its input, and it
// starts a grandchild that does the same and holds its stdout. Mode `silent` never answers; mode
// `list` answers initialize and then never answers tools/list.
const HANGING_SERVER = `
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
const [pidFile, mode] = process.argv.slice(2);
process.on('SIGTERM', () => {});
const child = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: ['ignore', 'inherit', 'inherit'] });
writeFileSync(pidFile, JSON.stringify({ pid: process.pid, child: child.pid }));
let buffered = '';
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let end;
  while ((end = buffered.indexOf('\\n')) >= 0) {
    const message = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    if (mode === 'list' && message.method === 'initialize') {
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {
        protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'hang', version: '0' } } }) + '\\n');
    }
  }
});
process.stdin.on('end', () => {});
setInterval(() => {}, 1000);
`;

// Leaves a mark when it runs at all, and tells its secret on stderr before failing.
const TELLTALE_SERVER = `
require('node:fs').writeFileSync(process.argv[2], 'started');
console.error('starting with token ' + process.env.API_TOKEN);
process.exit(1);
`;

let tmp: string;
let workspace: string;
let fakeServer: string;
let hangingServer: string;
let telltale: string;
const fetched = new Map<string, FetchedCatalog>();

before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'tool-lens-live-'));
  workspace = join(tmp, 'ws');
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  mkdirSync(join(tmp, 'fsroot'));
  fakeServer = join(tmp, 'fake-server.mjs');
  hangingServer = join(tmp, 'hanging-server.mjs');
  telltale = join(tmp, 'telltale.cjs');
  writeFileSync(fakeServer, FAKE_SERVER);
  writeFileSync(hangingServer, HANGING_SERVER);
  writeFileSync(telltale, TELLTALE_SERVER);
  const config = {
    // A comment, as VS Code's own examples have: the file is JSONC.
    servers: {
      filesystem: { command: 'node', args: [binOf('@modelcontextprotocol/server-filesystem'), join(tmp, 'fsroot')] },
      memory: {
        type: 'stdio',
        command: 'node',
        args: [binOf('@modelcontextprotocol/server-memory')],
        env: { MEMORY_FILE_PATH: join(tmp, 'memory.jsonl'), API_TOKEN: SECRET },
      },
      everything: { command: 'node', args: [binOf('@modelcontextprotocol/server-everything')] },
      leaky: { command: 'node', args: [telltale, join(tmp, 'leaky.started')], env: { API_TOKEN: SECRET } },
      prompted: {
        command: 'node',
        args: [telltale, join(tmp, 'prompted.started')],
        env: { API_TOKEN: '${input:token}' },
      },
    },
    inputs: [{ type: 'promptString', id: 'token', description: 'API token', password: true }],
  };
  writeFileSync(
    join(workspace, '.vscode', 'mcp.json'),
    `// MCP servers of this workspace\n${JSON.stringify(config, null, 2).replace(/\n}$/, ',\n}')}\n`,
  );
});

after(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function entry(name: string): McpServerEntry {
  const found = readWorkspaceServers(workspace).servers.find((s) => s.name === name);
  assert.ok(found, `no server ${name} in the workspace`);
  return found;
}

/** Gone: no such process, or a zombie nobody reaped yet (it runs no code any more). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return /^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return true;
  }
}

/** The capture of a reference server, kept in the repository: missing, the comparison fails. */
function capture(name: string): { tools: { name: string; annotations?: unknown }[] } {
  const file = join(CAPTURES, `${name}.json`);
  assert.ok(existsSync(file), `no capture ${file} to compare ${name} with`);
  return JSON.parse(readFileSync(file, 'utf8')) as { tools: { name: string; annotations?: unknown }[] };
}

function toolNames(tools: unknown[]): string[] {
  return tools.map((t) => (t as { name: string }).name);
}

describe('the workspace config', () => {
  test('lists every server with its launch, and refuses the one that needs a prompt without resolving it', () => {
    const listing = readWorkspaceServers(workspace);
    assert.deepEqual(listing.problems, []);
    assert.deepEqual(listing.files, ['.vscode/mcp.json']);
    assert.deepEqual(
      listing.servers.map((s) => s.name),
      ['filesystem', 'memory', 'everything', 'leaky', 'prompted'],
    );
    const memory = listing.servers[1]!;
    assert.equal(memory.declared.file, '.vscode/mcp.json');
    assert.ok(memory.launch && memory.launch.type === 'stdio');
    assert.equal(memory.launch.cwd, workspace);
    const prompted = listing.servers[4]!;
    assert.equal(prompted.launch, undefined, 'a server needing input gets no launch at all');
    assert.equal(prompted.blocked?.reason, 'needs-input');
    assert.match(prompted.blocked.message, /input "token".*cannot be fetched non-interactively/);
  });

  test('the other config dialects, variables, and what is refused', () => {
    const text = JSON.stringify({
      mcpServers: {
        remote: { url: 'https://example.test/mcp?key=abc123', headers: { Authorization: 'Bearer sekret-token' } },
        legacy: { type: 'sse', url: 'https://example.test/sse' },
        gh: { url: 'https://api.example.test/mcp', headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}' } },
        dotenv: { command: 'node', envFile: '${workspaceFolder}/.env' },
        local: { command: 'node', args: ['${workspaceFolder}/server.js', 3, true], cwd: 'sub' },
        odd: { command: 'node', args: ['${config:editor.tabSize}'] },
        socket: { type: 'http', url: 'unix:///tmp/mcp.sock' },
      },
    });
    const { servers } = serversFromConfig('.cursor/mcp.json', text, '/work/space');
    const by = new Map(servers.map((s) => [s.name, s]));
    assert.deepEqual(by.get('remote')?.launch, {
      type: 'http',
      url: 'https://example.test/mcp?key=abc123',
      headers: { Authorization: 'Bearer sekret-token' },
    });
    assert.equal(by.get('legacy')?.launch?.type, 'sse');
    assert.equal(by.get('gh')?.blocked?.reason, 'needs-input');
    assert.match(by.get('gh')!.blocked!.message, /environment variable GITHUB_TOKEN/);
    assert.match(by.get('dotenv')!.blocked!.message, /envFile/);
    assert.deepEqual(by.get('local')?.launch, {
      type: 'stdio',
      command: 'node',
      args: ['/work/space/server.js', '3', 'true'],
      env: {},
      cwd: '/work/space/sub',
    });
    assert.equal(by.get('odd')?.blocked?.reason, 'unsupported');
    assert.match(by.get('socket')!.blocked!.message, /unix:/);
    // What the user is shown before a connection: no header value, no query value.
    const shown = describeLaunch(by.get('remote')!.launch!);
    assert.doesNotMatch(shown, /sekret|abc123/);
    assert.match(shown, /key=\*\*\*.*Authorization: \*\*\*/);
  });

  test("VS Code's root mcpServers is fetched too, as VS Code moves it into servers", () => {
    const text = JSON.stringify({
      servers: { a: { command: 'node', args: ['a.js'] } },
      mcpServers: { b: { url: 'https://b.example.test/mcp' } },
    });
    const { servers, problems } = serversFromConfig('.vscode/mcp.json', text, '/work/space');
    assert.deepEqual(problems, []);
    assert.deepEqual(
      servers.map((s) => [s.name, s.launch?.type]),
      [
        ['a', 'stdio'],
        ['b', 'http'],
      ],
    );
  });

  test("Gemini CLI's httpUrl is Streamable HTTP, and its bare $NAME needs the environment", () => {
    const text = JSON.stringify({
      theme: 'GitHub',
      mcpServers: {
        docs: { httpUrl: 'https://docs.example.test/mcp' },
        keyed: { httpUrl: 'https://docs.example.test/mcp', headers: { Authorization: 'Bearer $DOCS_TOKEN' } },
      },
    });
    const { servers } = serversFromConfig('.gemini/settings.json', text, '/work/space');
    const by = new Map(servers.map((s) => [s.name, s]));
    assert.deepEqual(by.get('docs')?.launch, { type: 'http', url: 'https://docs.example.test/mcp', headers: {} });
    assert.equal(by.get('keyed')?.launch, undefined);
    assert.match(by.get('keyed')!.blocked!.message, /environment variable DOCS_TOKEN/);
  });
});

describe('fetching the reference servers', () => {
  const CORE: Record<string, string[]> = {
    filesystem: ['read_text_file', 'write_file', 'list_directory', 'edit_file'],
    memory: ['create_entities', 'read_graph', 'delete_entities'],
    everything: ['echo', 'get-sum'],
  };

  before(async () => {
    const names = Object.keys(CORE);
    const results = await Promise.all(names.map((name) => fetchCatalog(entry(name))));
    names.forEach((name, i) => fetched.set(name, results[i]!));
  });

  for (const name of Object.keys(CORE)) {
    test(`${name}: tools, names and annotations as captured`, () => {
      const result = fetched.get(name)!;
      assert.equal(result.server, name);
      assert.equal(result.fetched.protocolVersion, '2025-11-25');
      assert.ok(result.fetched.serverInfo?.name, 'serverInfo kept');
      assert.match(result.fetched.at, /^\d{4}-\d\d-\d\dT/);
      const names = toolNames(result.tools);
      for (const core of CORE[name]!) assert.ok(names.includes(core), `${name} lists ${core}`);
      // The raw result keeps what the SDK's own parse may drop or reorder: compare the captures.
      const captured = capture(name);
      const mine = new Map(result.tools.map((t) => [(t as { name: string }).name, t as { annotations?: unknown }]));
      const common = captured.tools.filter((t) => mine.has(t.name));
      assert.ok(
        common.length >= captured.tools.length * 0.8,
        `most captured ${name} tools are still there (${common.length} of ${captured.tools.length})`,
      );
      for (const tool of common)
        assert.deepEqual(mine.get(tool.name)!.annotations, tool.annotations, `${name}/${tool.name} annotations`);
    });
  }

  test('the snapshots read back with the same tools, as tool catalogs that check clean', () => {
    const out = join(tmp, 'snapshots');
    for (const [name, result] of fetched) {
      for (const format of ['yaml', 'json'] as const) {
        const path = writeSnapshot(join(out, format), result, format, {
          file: '.vscode/mcp.json',
          transport: 'stdio',
          generator: 'Tool Lens test',
        });
        const text = readFileSync(path, 'utf8');
        if (format === 'yaml')
          assert.match(text, /^# Tool catalog of the MCP server "[a-z]+", written by `tool-lens catalog fetch`/);
        const file = parseFile(path, text);
        assert.equal(file.kind, 'tool-catalog', `${path} is a tool catalog`);
        assert.deepEqual(file.documents[0]!.problems, []);
        const servers = serversFromDocument(path, file.documents[0]!.root);
        assert.equal(servers.length, 1);
        assert.equal(servers[0]!.name, name);
        assert.equal(servers[0]!.fetchedAt, result.fetched.at);
        assert.deepEqual(
          servers[0]!.tools.map((t) => t.name),
          toolNames(result.tools),
        );
        // Every byte of meaning survives: the tools read back equal the raw ones.
        const root = file.documents[0]!.root;
        const serverNode = getSeq(root, 'servers')!.items[0];
        assert.ok(isMap(serverNode));
        assert.deepEqual(toValue(getSeq(serverNode, 'tools')), result.tools);
      }
    }
    // `tool-lens check` on the folder finds them as catalogs, and no rule objects to them.
    const loaded = loadWorkspace({ paths: ['.'], cwd: join(out, 'yaml') });
    assert.deepEqual(
      loaded.files.map((f) => [f.path, f.kind]),
      [...fetched.keys()].sort().map((n) => [`${n}.catalog.yaml`, 'tool-catalog']),
    );
    assert.deepEqual(loaded.workspace.catalog.serverNames, [...fetched.keys()].sort());
    for (const file of loaded.files)
      assert.deepEqual(
        checkFile(file, loaded.workspace).findings.map((f) => `${f.rule}: ${f.message}`),
        [],
        file.path,
      );
  });

  test('a snapshot holds nothing of how the server was started', () => {
    const text = renderSnapshot([fetched.get('memory')!], 'yaml');
    for (const leak of [SECRET, 'MEMORY_FILE_PATH', 'API_TOKEN', binOf('@modelcontextprotocol/server-memory')])
      assert.ok(!text.includes(leak), leak);
  });
});

describe("a capture is the server's words", () => {
  // The everything server lists `debug` in an enum and `Los Angeles` in another. Started with
  // LOG_LEVEL=debug and READ_ONLY=true (ordinary settings) they stay; a value under a secret-named
  // variable that the server repeats is masked, and the snapshot says so; a token that it never
  // repeats changes nothing.
  const TOKEN = 'tlLive7Token9Qx2Wv4Kb8Zr';
  let plain: FetchedCatalog;
  let withEnv: FetchedCatalog;
  before(async () => {
    const config = JSON.stringify({
      servers: {
        plain: { command: 'node', args: [binOf('@modelcontextprotocol/server-everything')] },
        settings: {
          command: 'node',
          args: [binOf('@modelcontextprotocol/server-everything')],
          env: { LOG_LEVEL: 'debug', READ_ONLY: 'true', WEATHER_API_KEY: 'Los Angeles', API_TOKEN: TOKEN },
        },
      },
    });
    const { servers } = serversFromConfig('.vscode/mcp.json', config, tmp);
    const results = await Promise.all(servers.map((server) => fetchCatalog(server)));
    plain = results[0]!;
    withEnv = results[1]!;
  });

  const enumOf = (catalog: FetchedCatalog, tool: string, property: string): unknown => {
    const found = catalog.tools.find((t) => (t as { name: string }).name === tool) as {
      inputSchema: { properties: Record<string, { enum?: unknown }> };
    };
    return found.inputSchema.properties[property]?.enum;
  };

  test('ordinary env values the server repeats stay; a secret-named value it repeats is masked and counted', () => {
    assert.deepEqual(enumOf(withEnv, 'get-annotated-message', 'messageType'), ['error', 'success', 'debug']);
    assert.deepEqual(enumOf(withEnv, 'get-structured-content', 'location'), ['New York', 'Chicago', '***']);
    assert.deepEqual(enumOf(plain, 'get-structured-content', 'location'), ['New York', 'Chicago', 'Los Angeles']);
    assert.equal(plain.fetched.masked, undefined, 'nothing masked without secrets');
    assert.ok(withEnv.fetched.masked !== undefined && withEnv.fetched.masked >= 1, 'the masked strings are counted');
    // Apart from the masked strings, both tool lists are the same, key order included.
    const unmask = (text: string) => text.replace(/\*\*\*/g, 'Los Angeles');
    assert.equal(unmask(JSON.stringify(withEnv.tools)), JSON.stringify(plain.tools));
    assert.ok(!JSON.stringify(withEnv).includes(TOKEN));
    const yaml = renderSnapshot([withEnv], 'yaml');
    assert.match(yaml, /masked: [1-9]/);
    const header = writeSnapshot(join(tmp, 'words'), withEnv, 'yaml');
    assert.match(
      readFileSync(header, 'utf8'),
      /^# .*\n# .*\n# The tools are as its tools\/list returned them, except that \d+ strings? of what it sent repeated a secret value of its launch, written here as \*\*\* \(fetched\.masked\)/,
    );
    assert.match(
      readFileSync(writeSnapshot(join(tmp, 'words'), plain, 'yaml'), 'utf8'),
      /^# The tools are exactly as its tools\/list returned them\./m,
    );
  });

  test('the snapshot keeps the initialize result: every serverInfo field, the capabilities, the instructions', () => {
    const captured = JSON.parse(readFileSync(join(CAPTURES, 'everything.json'), 'utf8')) as {
      serverInfo: Record<string, unknown>;
      serverCapabilities: Record<string, unknown>;
      instructions: string;
    };
    assert.deepEqual(plain.fetched.serverInfo, captured.serverInfo);
    assert.deepEqual(plain.fetched.capabilities, captured.serverCapabilities);
    assert.equal(plain.fetched.instructions, captured.instructions);
    for (const format of ['yaml', 'json'] as const) {
      const path = writeSnapshot(join(tmp, 'facts', format), plain, format);
      const file = parseFile(path, readFileSync(path, 'utf8'));
      const [server] = serversFromDocument(path, file.documents[0]!.root);
      assert.equal(server!.protocolVersion, plain.fetched.protocolVersion);
      assert.deepEqual(server!.serverInfo, captured.serverInfo);
      assert.deepEqual(server!.capabilities, captured.serverCapabilities);
      assert.equal(server!.instructions, captured.instructions);
    }
  });
});

describe('over HTTP', () => {
  const children: ChildProcess[] = [];
  const ports: Record<'http' | 'sse', number> = { http: 0, sse: 0 };

  /** A port nobody listens on right now. */
  function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() =>
          typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
        );
      });
    });
  }

  /** The everything server in one of its HTTP modes, once it says it listens. */
  async function startEverything(mode: 'streamableHttp' | 'sse', port: number): Promise<void> {
    const child = spawn(process.execPath, [binOf('@modelcontextprotocol/server-everything'), mode], {
      env: { PATH: process.env.PATH ?? '', PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      let said = '';
      child.stderr.on('data', (chunk: Buffer) => {
        said += String(chunk);
        if (/listening|running/i.test(said)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`everything ${mode} exited with ${code}: ${said}`)));
    });
  }

  before(async () => {
    ports.http = await freePort();
    ports.sse = await freePort();
    await Promise.all([startEverything('streamableHttp', ports.http), startEverything('sse', ports.sse)]);
  });

  after(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  test('Streamable HTTP, SSE, and the fallback from one to the other', async () => {
    const text = JSON.stringify({
      servers: {
        streamable: {
          type: 'http',
          url: `http://127.0.0.1:${ports.http}/mcp`,
          headers: { Authorization: `Bearer ${SECRET}` },
        },
        sse: { type: 'sse', url: `http://127.0.0.1:${ports.sse}/sse` },
        fallback: { url: `http://127.0.0.1:${ports.sse}/sse` },
      },
    });
    const servers = serversFromConfig('.vscode/mcp.json', text, tmp).servers;
    const results = await Promise.all(servers.map((server) => fetchCatalog(server)));
    assert.deepEqual(
      results.map((r) => r.stats.transport),
      ['http', 'sse', 'sse'],
    );
    const stdio = fetched.get('everything');
    for (const result of results) {
      assert.ok(toolNames(result.tools).includes('echo'));
      if (stdio) assert.deepEqual(toolNames(result.tools), toolNames(stdio.tools), 'the same tools as over stdio');
    }
  });

  test('a server that is not there fails with neither its header nor its query values in the message', async () => {
    const port = await freePort();
    const text = JSON.stringify({
      servers: { gone: { url: `http://127.0.0.1:${port}/mcp?key=${SECRET}`, headers: { 'X-Api-Key': SECRET } } },
    });
    const server = serversFromConfig('.vscode/mcp.json', text, tmp).servers[0]!;
    const logged: string[] = [];
    await assert.rejects(
      fetchCatalog(server, { connectTimeoutMs: 3_000, log: (line) => logged.push(line) }),
      (error: unknown) => {
        assert.ok(error instanceof FetchError);
        assert.match(
          error.message,
          /could not connect to http:\/\/127\.0\.0\.1:\d+\/mcp\?key=\*\*\* \(Streamable HTTP: .*; SSE: .*\)/,
        );
        assert.ok(!error.message.includes(SECRET));
        return true;
      },
    );
    for (const line of logged) assert.ok(!line.includes(SECRET), line);
  });
});

describe('servers that misbehave', () => {
  function fake(
    mode: string,
    extra: Partial<{ env: Record<string, string> }> = {},
  ): { server: McpServerEntry; envFile: string } {
    const envFile = join(tmp, `env-${mode}.json`);
    const config = { servers: { [mode]: { command: process.execPath, args: [fakeServer, envFile, mode], ...extra } } };
    return { server: serversFromConfig('.vscode/mcp.json', JSON.stringify(config), tmp).servers[0]!, envFile };
  }

  test('pagination is followed to the end, with the minimal environment', async () => {
    const { server, envFile } = fake('pages', { env: { TL_SETTING: 'on' } });
    const result = await fetchCatalog(server);
    assert.deepEqual(toolNames(result.tools), ['alpha', 'bravo', 'charlie', 'delta', 'echo']);
    assert.equal(result.stats.pages, 3);
    const expected = ['PATH', 'TL_SETTING', ...(process.env.HOME === undefined ? [] : ['HOME'])].sort();
    assert.deepEqual(JSON.parse(readFileSync(envFile, 'utf8')), expected, 'PATH, HOME and the entry env only');
  });

  test('an array outputSchema and unknown keys are captured raw, where the SDK rejects the whole list', async () => {
    const { server } = fake('odd');
    const result = await fetchCatalog(server);
    assert.deepEqual(result.tools[0], {
      name: 'list_rows',
      'x-vendor': { tier: 2 },
      inputSchema: { type: 'object' },
      outputSchema: { type: 'array', items: { type: 'string' } },
      annotations: { readOnlyHint: true, 'x-risk': 'low' },
    });
    assert.equal(result.tools.length, 2);
    // The same server through the SDK's parsed list: the whole list is refused.
    const launch = server.launch!;
    assert.equal(launch.type, 'stdio');
    const client = new Client({ name: 'probe', version: '0' });
    await client.connect(new StdioClientTransport({ command: launch.command, args: launch.args, stderr: 'pipe' }));
    try {
      await assert.rejects(client.listTools());
    } finally {
      await client.close();
    }
  });

  for (const mode of ['silent', 'list'] as const) {
    test(`a server that never answers ${mode === 'silent' ? 'initialize' : 'tools/list'} times out and is killed with its child`, async () => {
      const pidFile = join(tmp, `hang-${mode}.json`);
      const server = serversFromConfig(
        '.vscode/mcp.json',
        JSON.stringify({ servers: { hang: { command: process.execPath, args: [hangingServer, pidFile, mode] } } }),
        tmp,
      ).servers[0]!;
      const started = Date.now();
      await assert.rejects(
        fetchCatalog(server, { connectTimeoutMs: 600, pageTimeoutMs: 400, closeGraceMs: 150 }),
        (error: unknown) => {
          assert.ok(error instanceof FetchError);
          assert.equal(error.timedOut, true);
          assert.equal(error.phase, mode === 'silent' ? 'connect' : 'list');
          assert.match(
            error.message,
            mode === 'silent' ? /initialize within 600 ms/ : /tools\/list got no answer within 400 ms/,
          );
          return true;
        },
      );
      const elapsed = Date.now() - started;
      const { pid, child } = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; child: number };
      assert.ok(gone(pid), `server process ${pid} is gone`);
      assert.ok(gone(child), `its child ${child} is gone`);
      assert.ok(elapsed < 5_000, `stopped in ${elapsed} ms`);
    });

    test(`a fetch cancelled while the server ${mode === 'silent' ? 'starts' : 'lists its tools'} stops it and its child`, async () => {
      const pidFile = join(tmp, `cancel-${mode}.json`);
      const server = serversFromConfig(
        '.vscode/mcp.json',
        JSON.stringify({ servers: { hang: { command: process.execPath, args: [hangingServer, pidFile, mode] } } }),
        tmp,
      ).servers[0]!;
      const abort = new AbortController();
      // Cancelled once the server has written its pid file (it is running), long before any timeout.
      // (In list mode a little later, so that initialize has been answered.)
      const watcher = setInterval(() => {
        if (!existsSync(pidFile)) return;
        clearInterval(watcher);
        setTimeout(() => abort.abort(), mode === 'list' ? 300 : 0);
      }, 20);
      try {
        await assert.rejects(
          fetchCatalog(server, {
            connectTimeoutMs: 60_000,
            pageTimeoutMs: 60_000,
            closeGraceMs: 150,
            signal: abort.signal,
          }),
          (error: unknown) => {
            assert.ok(error instanceof FetchError);
            assert.equal(error.cancelled, true);
            assert.equal(error.timedOut, false);
            assert.match(error.message, /cancelled/);
            return true;
          },
        );
      } finally {
        clearInterval(watcher);
      }
      const { pid, child } = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; child: number };
      assert.ok(gone(pid), `server process ${pid} is gone`);
      assert.ok(gone(child), `its child ${child} is gone`);
    });
  }

  test('a fetch whose signal is already aborted starts nothing', async () => {
    const telltaleFile = join(tmp, 'not-started');
    const server = serversFromConfig(
      '.vscode/mcp.json',
      JSON.stringify({ servers: { t: { command: process.execPath, args: [telltale, telltaleFile] } } }),
      tmp,
    ).servers[0]!;
    await assert.rejects(
      fetchCatalog(server, { signal: AbortSignal.abort() }),
      (error: unknown) => error instanceof FetchError && error.cancelled,
    );
    assert.equal(existsSync(telltaleFile), false);
  });
});

describe('the command', () => {
  function io(): { io: Parameters<typeof runCatalogFetch>[1]; out: string[]; err: string[] } {
    const out: string[] = [];
    const err: string[] = [];
    return { io: { cwd: workspace, stdout: (s) => out.push(s), stderr: (s) => err.push(s) }, out, err };
  }

  test('Ctrl-C stops the server being fetched, and its child, and exits 130 (the built CLI)', async () => {
    ensureBuilt(); // dist/cli.js is built from this repository: build it rather than skip
    const folder = join(tmp, 'ws-interrupt');
    const pidFile = join(tmp, 'interrupt.json');
    mkdirSync(join(folder, '.vscode'), { recursive: true });
    writeFileSync(
      join(folder, '.vscode', 'mcp.json'),
      JSON.stringify({ servers: { hang: { command: process.execPath, args: [hangingServer, pidFile, 'silent'] } } }),
    );
    const cli = spawn(process.execPath, [CLI, 'catalog', 'fetch', '--timeout', '60000'], {
      cwd: folder,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    cli.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => cli.once('exit', (code) => resolve(code)));
    try {
      // Interrupted once the server runs (it has written its pid file), long before the timeout.
      while (!existsSync(pidFile)) await new Promise((resolve) => setTimeout(resolve, 20));
      cli.kill('SIGINT');
      assert.equal(await exited, 130, stderr);
    } finally {
      if (cli.exitCode === null) cli.kill('SIGKILL');
    }
    assert.match(stderr, /interrupted: hang was stopped/);
    const { pid, child } = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; child: number };
    assert.ok(gone(pid), `server process ${pid} is gone`);
    assert.ok(gone(child), `its child ${child} is gone`);
  });

  test('fetches the named servers into catalogs/, refuses the prompted one, and never shows a secret', async () => {
    const run = io();
    const code = await runCatalogFetch(['catalog', 'fetch', 'memory', 'leaky', 'prompted', '--debug'], run.io);
    const stdout = run.out.join('');
    const stderr = run.err.join('');
    assert.equal(code, 1, stderr);
    assert.equal(stdout, 'catalogs/memory.catalog.yaml\n');
    // `node` is shown as the file the start runs: found on the PATH, absolute.
    assert.match(
      stderr,
      /starting memory \(\.vscode\/mcp\.json:\d+\): MEMORY_FILE_PATH=\*\*\* API_TOKEN=\*\*\* \/\S*\/node .*; "node" found on its PATH\)/,
    );
    assert.match(stderr, /memory: \d+ tools in 1 page .* -> catalogs\/memory\.catalog\.yaml/);
    assert.match(stderr, /leaky failed: .*\n(.*\n)*.*starting with token \*\*\*/);
    assert.match(stderr, /skipped prompted \(\.vscode\/mcp\.json:\d+\): it needs input "token"/);
    assert.match(stderr, /fetched 1 of 3 servers; 2 could not be fetched/);
    assert.ok(existsSync(join(tmp, 'leaky.started')), 'the leaky server did run');
    assert.ok(!existsSync(join(tmp, 'prompted.started')), 'the prompted server never started');
    const written = readdirSync(join(workspace, 'catalogs'));
    assert.deepEqual(written, ['memory.catalog.yaml']);
    for (const text of [stdout, stderr, readFileSync(join(workspace, 'catalogs', 'memory.catalog.yaml'), 'utf8')]) {
      assert.ok(!text.includes(SECRET), `a secret leaked:\n${text}`);
    }
  });

  test('--check: the committed snapshot matches the real memory server; altered, it does not, and nothing is written', async () => {
    const snapshot = join(workspace, 'catalogs', 'memory.catalog.yaml');
    if (!existsSync(snapshot)) assert.equal(await runCatalogFetch(['catalog', 'fetch', 'memory'], io().io), 0);
    const committed = readFileSync(snapshot, 'utf8');
    const matching = io();
    assert.equal(
      await runCatalogFetch(['catalog', 'fetch', 'memory', '--check'], matching.io),
      0,
      matching.err.join(''),
    );
    assert.equal(matching.out.join(''), 'memory: catalogs/memory.catalog.yaml matches the server\n');
    assert.match(matching.err.join(''), /every snapshot checked matches its server/);
    try {
      // The committed snapshot says read_graph is not read-only any more, and drops delete_relations.
      const at = committed.indexOf('- name: read_graph');
      assert.ok(at >= 0 && committed.indexOf('readOnlyHint: true', at) > at);
      let altered = committed.slice(0, at) + committed.slice(at).replace('readOnlyHint: true', 'readOnlyHint: false');
      const gone = altered.indexOf('      - name: delete_relations');
      const next = altered.indexOf('      - name: ', gone + 10);
      altered = altered.slice(0, gone) + altered.slice(next);
      writeFileSync(snapshot, altered);
      const stale = io();
      assert.equal(await runCatalogFetch(['catalog', 'fetch', 'memory', '--check'], stale.io), 1);
      const out = stale.out.join('');
      assert.match(out, /^memory: catalogs\/memory\.catalog\.yaml no longer matches the server:$/m);
      // The server's read_graph is read-only: against the snapshot, the tool claims more safety.
      assert.match(
        out,
        /^ {2}read_graph: now claims to be read-only: clients may run it without asking \(readOnlyHint false → true\)$/m,
      );
      assert.match(out, /^ {4}differs at: annotations\.readOnlyHint$/m);
      assert.match(out, /^ {2}delete_relations: added$/m);
      assert.match(
        stale.err.join(''),
        /1 snapshot no longer matches its server: memory; run tool-lens catalog fetch to update/,
      );
      assert.equal(readFileSync(snapshot, 'utf8'), altered, '--check writes nothing');
    } finally {
      writeFileSync(snapshot, committed);
    }
    const missing = io();
    assert.equal(await runCatalogFetch(['catalog', 'fetch', 'filesystem', '--check'], missing.io), 1);
    assert.match(missing.out.join(''), /^filesystem: no snapshot of this server in the workspace/m);
    assert.ok(!existsSync(join(workspace, 'catalogs', 'filesystem.catalog.yaml')));
  });

  test('--list shows how each server would start and starts none', async () => {
    const run = io();
    const code = await runCatalogFetch(['--list', 'leaky', 'prompted'], run.io);
    assert.equal(code, 0);
    const stdout = run.out.join('');
    assert.match(stdout, /^leaky {2}\.vscode\/mcp\.json:\d+ {2}API_TOKEN=\*\*\* \/\S*\/node .*telltale\.cjs/m);
    assert.match(stdout, /^prompted .*cannot be fetched: it needs input "token"/m);
    assert.ok(!stdout.includes(SECRET));
  });

  test('usage errors exit 2', async () => {
    for (const [args, message] of [
      [['memroy'], /no MCP server named "memroy".*did you mean "memory"/],
      [['--timeout', 'soon'], /--timeout must be a number of milliseconds/],
      [['--format', 'xml'], /--format must be yaml or json/],
      [['--bogus'], /unknown option --bogus/],
    ] as const) {
      const run = io();
      assert.equal(await runCatalogFetch([...args], run.io), 2, String(args));
      assert.match(run.err.join(''), message);
    }
    const empty = mkdtempSync(join(tmp, 'empty-'));
    const run = io();
    assert.equal(await runCatalogFetch([], { ...run.io, cwd: empty }), 2);
    assert.match(run.err.join(''), /no MCP client config/);
  });
});
