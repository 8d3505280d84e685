// What a workspace author can make `catalog fetch` do, with small MCP servers of our own (the
// official SDK's Server) that echo their environment, arguments, headers and URL back in their
// tool descriptions and on stderr, on stdio and on 127.0.0.1 over Streamable HTTP:
// - the consent line shows the program that really runs (absolute) and the variables that decide
//   it in clear (SECURITY.md, "What runs");
// - no secret reaches the terminal, an error or a snapshot, whatever the server sends back;
// - snapshots are written inside the workspace only: a committed `catalogs` link, or a link in
//   place of a snapshot file, is refused before the server starts;
// - two server names never share a snapshot file.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { runCatalogFetch } from '../../server/src/cli/catalogFetch.js';
import { FetchError } from '../../server/src/live/errors.js';
import { fetchCatalog } from '../../server/src/live/fetch.js';
import {
  decidesWhatRuns,
  describeLaunch,
  displayUrl,
  looksLikeToken,
  redact,
  secretsOf,
  snapshotSecretsOf,
} from '../../server/src/live/redact.js';
import { serversFromConfig, type McpServerEntry } from '../../server/src/live/servers.js';
import { snapshotFileName, SnapshotClash, writeSnapshot } from '../../server/src/live/snapshot.js';
import { OutsideWorkspace } from '../../server/src/node/confine.js';

const ROOT = join(__dirname, '..', '..');
const sdk = (path: string): string =>
  pathToFileURL(join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm', path)).href;

// Secrets of every kind a launch can carry. Each must be masked wherever it would show.
const ENV_SECRET = 'tl-env-secret-4c1d8e';
const SHORT_ENV_SECRET = 'pw7'; // short: masked where it stands alone
const FLAG_SECRET = 'tl-flag-secret-93ab0f';
const EQUALS_SECRET = 'tl-equals-secret-6e2c71';
const NAMED_SECRET = 'tl-named-secret-0f9d3a';
const GITHUB_TOKEN = 'ghp_Zx8Kq2Lm4Np6Rs8Tu0Vw2Xy4Za6Bc8De0Fg';
const HEADER_SECRET = 'tl-header-secret-7a3b9c';
const QUERY_SECRET = 'tl-query-secret-1e5f2d';
const PATH_TOKEN = 'Qm9vS3RyYXBUb2tlbjEyMzQ1Njc4OTA';
const URL_USER = 'tl-url-user-5b8e';
const URL_PASSWORD = 'tl-url-password-2d6f';
const ALL_SECRETS = [
  ENV_SECRET,
  FLAG_SECRET,
  EQUALS_SECRET,
  NAMED_SECRET,
  GITHUB_TOKEN,
  HEADER_SECRET,
  QUERY_SECRET,
  PATH_TOKEN,
  URL_USER,
  URL_PASSWORD,
];

function noSecret(text: string, what: string, short = true): void {
  for (const secret of ALL_SECRETS) assert.ok(!text.includes(secret), `${what} shows ${secret}:\n${text}`);
  if (short) assert.doesNotMatch(text, /(?<![A-Za-z0-9_-])pw7(?![A-Za-z0-9_-])/, `${what} shows the short env value`);
}

// Over stdio: lists one tool whose description is its environment and another whose description
// is its arguments (and a tool named after the short secret's neighbour, which must survive).
// Mode `fail` says the same on stderr and exits before initialize. Writes `marker` when it runs.
const ECHO_STDIO = `
import { writeFileSync } from 'node:fs';
import { Server } from '${sdk('server/index.js')}';
import { StdioServerTransport } from '${sdk('server/stdio.js')}';
import { ListToolsRequestSchema } from '${sdk('types.js')}';
const [marker, mode, ...rest] = process.argv.slice(2);
writeFileSync(marker, 'started');
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'PATH' && k !== 'HOME'));
if (mode === 'fail') {
  console.error('cannot start: env ' + JSON.stringify(env) + ' args ' + rest.join(' '));
  process.exit(2);
}
const server = new Server({ name: 'echo ' + (process.env.API_TOKEN ?? 'none'), version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: 'echo_env', description: 'My environment: ' + JSON.stringify(env), inputSchema: { type: 'object', properties: { [process.env.API_TOKEN ?? 'x']: { type: 'string', default: process.env.API_TOKEN } } } },
  { name: 'echo_args', description: 'My arguments: ' + rest.join(' '), inputSchema: { type: 'object' } },
  { name: 'pw7_reader', description: 'keeps its name: pw7 is not a word of it, but the password is pw7.', inputSchema: { type: 'object' } },
] }));
await server.connect(new StdioServerTransport());
`;

// Over Streamable HTTP on 127.0.0.1 (stateless, any path): one tool whose description is the
// request's URL and headers. Prints its port when it listens.
const ECHO_HTTP = `
import { createServer } from 'node:http';
import { Server } from '${sdk('server/index.js')}';
import { StreamableHTTPServerTransport } from '${sdk('server/streamableHttp.js')}';
import { ListToolsRequestSchema } from '${sdk('types.js')}';
const http = createServer(async (req, res) => {
  const said = 'I was reached at ' + req.url + ' with ' + JSON.stringify(req.headers);
  const server = new Server({ name: 'echo-http', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'echo_request', description: said, inputSchema: { type: 'object' } }] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => { transport.close(); server.close(); });
  await server.connect(transport);
  await transport.handleRequest(req, res);
});
http.listen(0, '127.0.0.1', () => console.log('port ' + http.address().port));
`;

let tmp: string;
let echoStdio: string;
let echoHttp: string;
let httpChild: ChildProcess | undefined;
let port = 0;

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tool-lens-security-'));
  echoStdio = join(tmp, 'echo-stdio.mjs');
  echoHttp = join(tmp, 'echo-http.mjs');
  writeFileSync(echoStdio, ECHO_STDIO);
  writeFileSync(echoHttp, ECHO_HTTP);
  const child = spawn(process.execPath, [echoHttp], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  httpChild = child;
  port = await new Promise<number>((resolve, reject) => {
    let said = '';
    child.stdout.on('data', (chunk: Buffer) => {
      said += String(chunk);
      const match = /port (\d+)/.exec(said);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the echo server exited with ${code}`)));
  });
});

after(() => {
  httpChild?.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

/** A workspace folder with this .vscode/mcp.json (servers) and other files. */
function workspace(name: string, servers: Record<string, unknown>, files: Record<string, string> = {}): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, '.vscode'), { recursive: true });
  writeFileSync(join(dir, '.vscode', 'mcp.json'), JSON.stringify({ servers }, null, 2));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function entryOf(servers: Record<string, unknown>, name: string): McpServerEntry {
  const found = serversFromConfig('.vscode/mcp.json', JSON.stringify({ servers }), tmp).servers.find(
    (s) => s.name === name,
  );
  assert.ok(found?.launch, `${name} has a launch`);
  return found;
}

async function cli(cwd: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCatalogFetch(args, { cwd, stdout: (s) => out.push(s), stderr: (s) => err.push(s) });
  return { code, out: out.join(''), err: err.join('') };
}

/** The echo server over stdio with secrets in its env and in every argument form. */
function leakyStdio(marker: string, mode = 'list'): Record<string, unknown> {
  return {
    command: process.execPath,
    args: [
      echoStdio,
      marker,
      mode,
      '--token',
      FLAG_SECRET,
      `--api-key=${EQUALS_SECRET}`,
      `GITHUB_PASSWORD=${NAMED_SECRET}`,
      GITHUB_TOKEN,
      '--verbose',
    ],
    env: { API_TOKEN: ENV_SECRET, DB_PASSWORD: SHORT_ENV_SECRET },
  };
}

describe('secrets (item 4)', () => {
  test('the heuristic: token-like words, secret flag names, URL parts', () => {
    for (const token of [
      GITHUB_TOKEN,
      'sk-proj-abcdefghijklmnop1234',
      'xoxb-1234567890-abcdefghij',
      'AKIAIOSFODNN7EXAMPLE',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0',
      PATH_TOKEN,
      'a'.repeat(8) + '0123456789abcdef0123456789abcdef',
    ]) {
      assert.ok(looksLikeToken(token), token);
    }
    for (const word of [
      '--verbose',
      '@modelcontextprotocol/server-memory',
      'server-everything',
      'my_service_config_v2',
      '/home/user/project/server.js',
      '2025-11-25',
      'streamableHttp',
      'sk-learn',
    ]) {
      assert.ok(!looksLikeToken(word), word);
    }
    assert.ok(
      decidesWhatRuns('PATH') &&
        decidesWhatRuns('NODE_OPTIONS') &&
        decidesWhatRuns('LD_PRELOAD') &&
        decidesWhatRuns('DYLD_INSERT_LIBRARIES') &&
        decidesWhatRuns('npm_config_registry'),
    );
    assert.ok(
      !decidesWhatRuns('API_TOKEN') &&
        !decidesWhatRuns('NPM_CONFIG__AUTHTOKEN') &&
        !decidesWhatRuns('MEMORY_FILE_PATH'),
    );
    const launch = entryOf({ s: leakyStdio('/nowhere') }, 's').launch!;
    const secrets = secretsOf(launch);
    for (const secret of [ENV_SECRET, SHORT_ENV_SECRET, FLAG_SECRET, EQUALS_SECRET, NAMED_SECRET, GITHUB_TOKEN])
      assert.ok(secrets.includes(secret), secret);
    assert.ok(!secrets.includes('--verbose'));
    // What the server said is masked only where it repeats a value that is secret by what it is.
    const settings = entryOf(
      {
        s: {
          command: 'node',
          env: {
            LOG_LEVEL: 'debug',
            READ_ONLY: 'true',
            AUTH_MODE: 'oauth',
            TOKEN_FILE: '/run/token',
            DATABASE_URL: `postgres://app:${URL_PASSWORD}@db/app`,
            API_TOKEN: ENV_SECRET,
            DB_PASSWORD: SHORT_ENV_SECRET,
            PLAIN: GITHUB_TOKEN,
          },
        },
      },
      's',
    ).launch!;
    const kept = snapshotSecretsOf(settings);
    for (const secret of [ENV_SECRET, SHORT_ENV_SECRET, GITHUB_TOKEN, URL_PASSWORD])
      assert.ok(kept.includes(secret), secret);
    for (const setting of ['debug', 'true', 'oauth', '/run/token']) assert.ok(!kept.includes(setting), setting);
    for (const setting of ['debug', 'oauth', '/run/token'])
      assert.ok(secretsOf(settings).includes(setting), `printed: ${setting}`);
    // A short secret is masked alone, never inside a longer word.
    assert.equal(redact('pw7 and pw7_reader and xpw7', [SHORT_ENV_SECRET]), '*** and pw7_reader and xpw7');
    assert.equal(
      displayUrl(
        `http://${URL_USER}:${URL_PASSWORD}@127.0.0.1:9/hook/${PATH_TOKEN}/mcp?key=${QUERY_SECRET}#${QUERY_SECRET}`,
      ),
      'http://***:***@127.0.0.1:9/hook/***/mcp?key=***#***',
    );
  });

  test('stdio: the consent line masks env values and token-like arguments, and the snapshot masks what the server echoes', async () => {
    const marker = join(tmp, 'stdio-list.started');
    const dir = workspace('ws-stdio', { leaky: leakyStdio(marker) });
    const run = await cli(dir, ['--format', 'yaml', '--debug']);
    assert.equal(run.code, 0, run.err);
    assert.ok(existsSync(marker), 'the server ran');
    assert.match(run.err, / API_TOKEN=\*\*\* DB_PASSWORD=\*\*\* /);
    assert.match(
      run.err,
      /echo-stdio\.mjs \S+ list --token \*\*\* --api-key=\*\*\* GITHUB_PASSWORD=\*\*\* \*\*\* --verbose {2}\(in /,
    );
    const snapshot = readFileSync(join(dir, 'catalogs', 'leaky.catalog.yaml'), 'utf8');
    // The server echoed every secret; each is masked, and what is not secret stays.
    assert.match(snapshot, /My environment: .*"API_TOKEN":"\*\*\*"/);
    assert.match(snapshot, /My arguments: --token \*\*\* --api-key=\*\*\* GITHUB_PASSWORD=\*\*\* \*\*\* --verbose/);
    assert.match(snapshot, /name: pw7_reader/);
    assert.match(snapshot, /but the password is \*\*\*\./);
    assert.match(snapshot, /name: echo \*\*\*/, 'serverInfo is masked too');
    noSecret(snapshot, 'the snapshot');
    noSecret(run.out + run.err, 'the terminal');
  });

  test('stdio: the error of a failing server and its stderr tail are masked', async () => {
    const marker = join(tmp, 'stdio-fail.started');
    const dir = workspace('ws-stdio-fail', { failing: leakyStdio(marker, 'fail') });
    const run = await cli(dir, ['--debug']);
    assert.equal(run.code, 1);
    assert.ok(existsSync(marker), 'the server ran');
    assert.match(
      run.err,
      /failing failed: .*\n(.*\n)*.*cannot start: env .*"API_TOKEN":"\*\*\*".* args --token \*\*\* --api-key=\*\*\*/,
    );
    noSecret(run.out + run.err, 'the terminal');
    assert.equal(existsSync(join(dir, 'catalogs')), false, 'nothing written');
  });

  test('Streamable HTTP on 127.0.0.1: header values, query values and a token in the path masked in the line, the log and the snapshot', async () => {
    const url = `http://127.0.0.1:${port}/hook/${PATH_TOKEN}/mcp?key=${QUERY_SECRET}&mode=json`;
    const dir = workspace('ws-http', {
      remote: { type: 'http', url, headers: { Authorization: `Bearer ${HEADER_SECRET}`, 'X-Api-Key': HEADER_SECRET } },
    });
    const run = await cli(dir, ['--debug']);
    assert.equal(run.code, 0, run.err);
    assert.match(
      run.err,
      new RegExp(
        `connecting to remote \\(\\.vscode/mcp\\.json:\\d+\\): http://127\\.0\\.0\\.1:${port}/hook/\\*\\*\\*/mcp\\?key=\\*\\*\\*&mode=\\*\\*\\* \\(Streamable HTTP, falling back to SSE; headers Authorization: \\*\\*\\*, X-Api-Key: \\*\\*\\*\\)`,
      ),
    );
    const snapshot = readFileSync(join(dir, 'catalogs', 'remote.catalog.yaml'), 'utf8');
    assert.match(snapshot, /I was reached at \/hook\/\*\*\*\/mcp\?key=\*\*\*/);
    assert.match(snapshot, /"authorization":"\*\*\*"/);
    assert.match(
      snapshot,
      /"content-type":"application\/json"/,
      'a short query value (mode=json) is not a secret elsewhere',
    );
    assert.match(snapshot, /"x-api-key":"\*\*\*"/);
    noSecret(snapshot, 'the snapshot');
    noSecret(run.out + run.err, 'the terminal');
  });

  test('a URL with a user name and password: neither is shown, in the line or in the error', async () => {
    const url = `http://${URL_USER}:${URL_PASSWORD}@127.0.0.1:${port}/mcp`;
    const server = entryOf({ creds: { url } }, 'creds');
    const shown = describeLaunch(server.launch!);
    assert.match(shown, /^http:\/\/\*\*\*:\*\*\*@127\.0\.0\.1:\d+\/mcp /);
    const logged: string[] = [];
    // Whether or not this fetch succeeds (fetch() refuses URLs with credentials), nothing it says shows them.
    try {
      const result = await fetchCatalog(server, { connectTimeoutMs: 5_000, log: (line) => logged.push(line) });
      noSecret(JSON.stringify(result), 'the result');
    } catch (error) {
      assert.ok(error instanceof FetchError, String(error));
      noSecret(error.message, 'the error');
    }
    noSecret(logged.join('\n'), 'the log');
  });
});

describe('what runs (item 3)', () => {
  test("the entry's own PATH picks the workspace's tools/node: the line names it, absolute, with PATH and NODE_OPTIONS in clear", async () => {
    const marker = join(tmp, 'tools-node.ran');
    const dir = workspace(
      'ws-path',
      {},
      {
        // A "node" of the workspace's own that leaves a mark and runs the real one.
        'tools/node': `#!/bin/sh\necho "$0" > '${marker}'\nexec '${process.execPath}' "$@"\n`,
        'preload.cjs': '// loaded through NODE_OPTIONS\n',
      },
    );
    chmodSync(join(dir, 'tools', 'node'), 0o755);
    const serverMarker = join(tmp, 'tools-node.server');
    writeFileSync(
      join(dir, '.vscode', 'mcp.json'),
      JSON.stringify({
        servers: {
          sneaky: {
            command: 'node',
            args: [echoStdio, serverMarker, 'list'],
            env: {
              PATH: `tools:${process.env.PATH ?? ''}`,
              NODE_OPTIONS: '--require ./preload.cjs',
              LD_LIBRARY_PATH: 'lib',
              API_TOKEN: ENV_SECRET,
            },
          },
        },
      }),
    );
    const listed = await cli(dir, ['--list']);
    assert.equal(listed.code, 0, listed.err);
    const expected = `PATH=tools:${process.env.PATH ?? ''} NODE_OPTIONS='--require ./preload.cjs' LD_LIBRARY_PATH=lib API_TOKEN=*** ${join(dir, 'tools', 'node')} ${echoStdio}`;
    assert.ok(listed.out.includes(expected), `${listed.out}\nshould include\n${expected}`);
    assert.match(listed.out, /\(in [^;]+; "node" found on its PATH\)\n$/);
    assert.equal(existsSync(marker), false, '--list runs nothing');

    const run = await cli(dir, []);
    assert.equal(run.code, 0, run.err);
    assert.ok(run.err.includes(expected), run.err);
    // What ran is what the line named.
    assert.equal(readFileSync(marker, 'utf8').trim(), join(dir, 'tools', 'node'));
    // (This launch has no short secret: the echo server's own "pw7" text stays.)
    noSecret(run.out + run.err + readFileSync(join(dir, 'catalogs', 'sneaky.catalog.yaml'), 'utf8'), 'the run', false);
  });

  test('an env value cannot hide an argument, the program or its folder in the line', () => {
    const dir = workspace('ws-hide', {});
    const node = realpathSync(process.execPath); // no link, so no note about one
    const line = describeLaunch(
      entryOf(
        {
          s: {
            command: node,
            args: ['-r', './evil.cjs', 'server.js'],
            cwd: dir,
            env: { HIDE: './evil.cjs', ALSO: node, WHERE: dir },
          },
        },
        's',
      ).launch!,
    );
    assert.equal(line, `HIDE=*** ALSO=*** WHERE=*** ${node} -r ./evil.cjs server.js  (in ${dir})`);
  });

  test('no shell: metacharacters in the arguments reach the server as text and run nothing', async () => {
    const marker = join(tmp, 'noshell.started');
    const touched = ['subst', 'tick', 'semi'].map((n) => join(tmp, `noshell-${n}`));
    const args = [
      echoStdio,
      marker,
      'list',
      `$(touch ${touched[0]})`,
      `\`touch ${touched[1]}\``,
      `; touch ${touched[2]}`,
    ];
    const result = await fetchCatalog(entryOf({ s: { command: process.execPath, args } }, 's'));
    assert.ok(existsSync(marker));
    for (const file of touched) assert.equal(existsSync(file), false, `${file} was made by a shell`);
    const echoed = (result.tools.find((t) => (t as { name: string }).name === 'echo_args') as { description: string })
      .description;
    assert.equal(echoed, `My arguments: ${args.slice(3).join(' ')}`);
  });

  test('a command that is a link says where it leads; one that is not there says the start will fail', () => {
    const dir = workspace('ws-link-cmd', {});
    symlinkSync(process.execPath, join(dir, 'mynode'));
    const linked = describeLaunch(entryOf({ s: { command: './mynode', args: ['x.js'], cwd: dir } }, 's').launch!);
    assert.ok(
      linked.startsWith(`${join(dir, 'mynode')} x.js  (in ${dir}; ${join(dir, 'mynode')} is a link to `),
      linked,
    );
    const missing = describeLaunch(
      entryOf({ s: { command: 'no-such-program-tl', env: { PATH: 'bin' }, cwd: dir } }, 's').launch!,
    );
    assert.match(
      missing,
      /^PATH=bin no-such-program-tl {2}\(in [^;]+; "no-such-program-tl" is not an executable file on the PATH it gets, so the start will fail\)$/,
    );
  });
});

describe('writes stay in the workspace (item 2)', () => {
  test('a committed catalogs link to a folder outside: refused before the server starts, nothing written there, exit 1', async () => {
    const marker = join(tmp, 'link-out.started');
    const outside = mkdtempSync(join(tmp, 'outside-'));
    const dir = workspace('ws-link-out', { echo: { command: process.execPath, args: [echoStdio, marker, 'list'] } });
    symlinkSync(outside, join(dir, 'catalogs'));
    const run = await cli(dir, []);
    assert.equal(run.code, 1, run.err);
    assert.match(
      run.err,
      /echo not fetched: not writing catalogs\/echo\.catalog\.yaml: catalogs -> \S+ is a symbolic link that leads out of the workspace, to \S+echo\.catalog\.yaml\. Tool Lens writes only inside the workspace /,
    );
    assert.equal(existsSync(marker), false, 'the server was not started');
    assert.deepEqual(readdirSync(outside), []);
  });

  test('a link in place of the snapshot file, or a dangling catalogs link: refused; the file outside is untouched', async () => {
    const marker = join(tmp, 'file-link.started');
    const outside = mkdtempSync(join(tmp, 'outside-'));
    writeFileSync(join(outside, 'victim.txt'), 'precious\n');
    const dir = workspace('ws-file-link', { echo: { command: process.execPath, args: [echoStdio, marker, 'list'] } });
    mkdirSync(join(dir, 'catalogs'));
    symlinkSync(join(outside, 'victim.txt'), join(dir, 'catalogs', 'echo.catalog.yaml'));
    const run = await cli(dir, []);
    assert.equal(run.code, 1, run.err);
    assert.match(
      run.err,
      /not writing catalogs\/echo\.catalog\.yaml: catalogs\/echo\.catalog\.yaml -> \S+victim\.txt is a symbolic link that leads out of the workspace/,
    );
    assert.equal(readFileSync(join(outside, 'victim.txt'), 'utf8'), 'precious\n');
    assert.equal(existsSync(marker), false);

    const dangling = workspace('ws-dangling', {
      echo: { command: process.execPath, args: [echoStdio, marker, 'list'] },
    });
    symlinkSync(join(outside, 'not-there', 'deeper'), join(dangling, 'catalogs'));
    const second = await cli(dangling, []);
    assert.equal(second.code, 1);
    assert.match(second.err, /leads nowhere/);
    assert.equal(existsSync(join(outside, 'not-there')), false, 'no folder made outside');
  });

  test("a link that stays inside the workspace is followed; --out naming a folder outside is the user's choice", async () => {
    const marker = join(tmp, 'inside-link.started');
    const dir = workspace('ws-inside-link', { echo: { command: process.execPath, args: [echoStdio, marker, 'list'] } });
    mkdirSync(join(dir, 'snapshots'));
    symlinkSync(join(dir, 'snapshots'), join(dir, 'catalogs'));
    const run = await cli(dir, []);
    assert.equal(run.code, 0, run.err);
    assert.ok(existsSync(join(dir, 'snapshots', 'echo.catalog.yaml')));
    const elsewhere = join(tmp, 'chosen-out');
    const chosen = await cli(dir, ['--out', elsewhere]);
    assert.equal(chosen.code, 0, chosen.err);
    assert.ok(existsSync(join(elsewhere, 'echo.catalog.yaml')));
  });

  test('writeSnapshot refuses a target outside its workspace with OutsideWorkspace', () => {
    const outside = mkdtempSync(join(tmp, 'outside-'));
    const dir = mkdtempSync(join(tmp, 'ws-unit-'));
    symlinkSync(outside, join(dir, 'catalogs'));
    const catalog = {
      server: 'x',
      fetched: { at: '2026-01-01T00:00:00.000Z' },
      tools: [],
      stats: { transport: 'stdio' as const, pages: 1, connectMs: 0, listMs: 0 },
    };
    assert.throws(() => writeSnapshot({ dir: join(dir, 'catalogs'), root: dir }, catalog, 'yaml'), OutsideWorkspace);
    assert.deepEqual(readdirSync(outside), []);
  });
});

describe('who may write, start or connect', () => {
  /** Every .ts file under a folder of the repository. */
  function sources(dir: string): string[] {
    const out: string[] = [];
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) out.push(...sources(path));
      else if (entry.name.endsWith('.ts')) out.push(path);
    }
    return out;
  }
  const WRITES =
    /\b(writeFileSync|writeFile|appendFileSync|appendFile|renameSync|rename|mkdirSync|mkdir|rmSync|rm|unlinkSync|unlink|createWriteStream|copyFileSync|copyFile|cpSync|symlinkSync|truncateSync|chmodSync)\b/;

  test('only --fix, the check cache, --output-file and the snapshot writer import a way to write files, each through confinedTarget; only live/ starts processes or opens connections (and catalog diff runs git)', () => {
    const writers: string[] = [];
    const launchers: string[] = [];
    for (const file of [...sources('server/src'), ...sources('client/src')]) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const match of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'(?:node:)?fs(?:\/promises)?'/g)) {
        if (match[1]!.split(',').some((name) => WRITES.test(name.trim().split(/\s+as\s+/)[0]!))) writers.push(file);
      }
      // openSync is for reading only ('r'): loader.ts reads the head of a large file with it.
      if (/openSync\([^)]*'(?!r')[a-z+]+'/.test(text)) writers.push(file);
      if (
        /from\s*'(?:node:)?fs(?:\/promises)?'/.test(text) &&
        /import\s*\*\s*as\s*\w+\s*from\s*'(?:node:)?fs/.test(text)
      )
        writers.push(file);
      if (
        /from\s*'(?:node:)?(?:child_process|net|http|https|http2|tls|dgram)'|from\s*'@modelcontextprotocol\/sdk\/client/.test(
          text,
        )
      )
        launchers.push(file);
    }
    assert.deepEqual(writers.sort(), [
      'server/src/cli/cache.ts',
      'server/src/cli/fix.ts',
      'server/src/cli/outputFile.ts',
      'server/src/live/snapshot.ts',
    ]);
    // Each of them writes through node/confine.ts.
    for (const file of writers) assert.match(readFileSync(join(ROOT, file), 'utf8'), /confinedTarget\(/, file);
    // The one other process: `catalog diff REV:PATH` runs git (ls-tree and show, no shell) to read a revision.
    assert.deepEqual(
      launchers.filter((file) => !file.startsWith('server/src/live/')),
      ['server/src/node/catalogSource.ts'],
    );
    assert.match(readFileSync(join(ROOT, 'server/src/node/catalogSource.ts'), 'utf8'), /execFileSync\('git', /);
    assert.doesNotMatch(readFileSync(join(ROOT, 'server/src/node/catalogSource.ts'), 'utf8'), /shell:\s*true/);
  });
});

describe('one server, one file (item 5)', () => {
  test('names map to distinct files: a/b and a_b, dots, percent, long names', () => {
    assert.equal(snapshotFileName('a/b', 'yaml'), 'a%2Fb.catalog.yaml');
    assert.equal(snapshotFileName('a_b', 'yaml'), 'a_b.catalog.yaml');
    assert.equal(snapshotFileName('a%2Fb', 'yaml'), 'a%252Fb.catalog.yaml');
    assert.equal(snapshotFileName('..', 'json'), '%2E..catalog.json');
    assert.equal(snapshotFileName('', 'yaml'), '%.catalog.yaml');
    assert.equal(snapshotFileName('é', 'yaml'), '%C3%A9.catalog.yaml');
    const long = snapshotFileName('x'.repeat(300), 'yaml');
    assert.ok(long.length < 255 && long !== snapshotFileName(`${'x'.repeat(299)}y`, 'yaml'), long);
    const names = [
      'a/b',
      'a_b',
      'a b',
      'a:b',
      'a\\b',
      'a.b',
      'a-b',
      'a%b',
      'a%2Fb',
      '.a',
      '%2Ea',
      'x'.repeat(300),
      `${'x'.repeat(299)}y`,
    ];
    assert.equal(new Set(names.map((n) => snapshotFileName(n, 'yaml'))).size, names.length);
  });

  test('servers named a/b and a_b both get their snapshot; names that differ only in case are refused before anything starts', async () => {
    const markerA = join(tmp, 'slash.started');
    const markerB = join(tmp, 'underscore.started');
    const dir = workspace('ws-names', {
      'a/b': { command: process.execPath, args: [echoStdio, markerA, 'list'] },
      a_b: { command: process.execPath, args: [echoStdio, markerB, 'list'] },
    });
    const run = await cli(dir, []);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(readdirSync(join(dir, 'catalogs')).sort(), ['a%2Fb.catalog.yaml', 'a_b.catalog.yaml']);
    assert.match(readFileSync(join(dir, 'catalogs', 'a%2Fb.catalog.yaml'), 'utf8'), /- name: a\/b$/m);
    assert.match(readFileSync(join(dir, 'catalogs', 'a_b.catalog.yaml'), 'utf8'), /- name: a_b$/m);

    const marker = join(tmp, 'case.started');
    const cased = workspace('ws-case', {
      Echo: { command: process.execPath, args: [echoStdio, marker, 'list'] },
      echo: { command: process.execPath, args: [echoStdio, marker, 'list'] },
    });
    const refused = await cli(cased, []);
    assert.equal(refused.code, 2);
    assert.match(
      refused.err,
      /the servers "Echo" and "echo" would share the snapshot file echo\.catalog\.yaml on a file system that ignores case/,
    );
    assert.equal(existsSync(marker), false);
    assert.equal(existsSync(join(cased, 'catalogs')), false);
  });

  test("a snapshot file that holds another server's catalog is not replaced", () => {
    const dir = mkdtempSync(join(tmp, 'ws-clash-'));
    mkdirSync(join(dir, 'catalogs'));
    const theirs = 'catalog: 1\nservers:\n  - name: Echo\n    tools: []\n';
    writeFileSync(join(dir, 'catalogs', 'echo.catalog.yaml'), theirs);
    const catalog = {
      server: 'echo',
      fetched: { at: '2026-01-01T00:00:00.000Z' },
      tools: [],
      stats: { transport: 'stdio' as const, pages: 1, connectMs: 0, listMs: 0 },
    };
    assert.throws(
      () => writeSnapshot({ dir: join(dir, 'catalogs'), root: dir }, catalog, 'yaml'),
      (error: unknown) =>
        error instanceof SnapshotClash && /holds the catalog of "Echo", not of "echo"/.test(error.message),
    );
    assert.equal(readFileSync(join(dir, 'catalogs', 'echo.catalog.yaml'), 'utf8'), theirs);
    // Its own earlier snapshot is replaced as usual.
    writeFileSync(join(dir, 'catalogs', 'echo.catalog.yaml'), 'catalog: 1\nservers:\n  - name: echo\n    tools: []\n');
    writeSnapshot({ dir: join(dir, 'catalogs'), root: dir }, catalog, 'yaml');
    assert.match(
      readFileSync(join(dir, 'catalogs', 'echo.catalog.yaml'), 'utf8'),
      /^# Tool catalog of the MCP server "echo"/,
    );
  });
});
