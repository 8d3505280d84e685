// `catalog fetch` reads Gemini CLI's, Codex's, Zed's and Continue's files (live/servers.ts): each
// entry as its client reads it, and refused, with a message that names no value, when it needs
// what Tool Lens never reads (Gemini's `$X`, Continue's secrets, Codex's env_vars) or still holds
// a variable its client would pass as written (Codex, Zed). Nothing is started here.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { readWorkspaceServers, serversFromConfig, type McpServerEntry } from '../../server/src/live/servers.js';

const root = mkdtempSync(join(tmpdir(), 'tl-fetch-clients-'));
after(() => rmSync(root, { recursive: true, force: true }));

function one(file: string, text: string, name: string): McpServerEntry {
  const found = serversFromConfig(file, text, root).servers.find((s) => s.name === name);
  assert.ok(found, `${name} not read from ${file}`);
  return found;
}

describe('catalog fetch: Gemini CLI', () => {
  const file = '.gemini/settings.json';
  test('httpUrl is streamable HTTP, url with type sse is SSE, command is stdio', () => {
    const text = JSON.stringify({
      mcpServers: {
        streamed: { httpUrl: 'https://a.example/mcp', url: 'https://ignored.example/sse' },
        events: { url: 'https://a.example/sse', type: 'sse' },
        local: { command: 'node', args: ['srv.js', 3], cwd: 'tools' },
      },
    });
    assert.deepEqual(one(file, text, 'streamed').launch, { type: 'http', url: 'https://a.example/mcp', headers: {} });
    assert.equal(one(file, text, 'events').launch?.type, 'sse');
    assert.deepEqual(one(file, text, 'local').launch, {
      type: 'stdio',
      command: 'node',
      args: ['srv.js', '3'],
      env: {},
      cwd: join(root, 'tools'),
    });
  });
  test('$X and ${X} are the environment Gemini CLI expands from: refused, naming the variable only', () => {
    const text = JSON.stringify({
      mcpServers: {
        bare: { command: 'srv', env: { KEY: '$API_KEY' } },
        braced: { httpUrl: 'https://a.example/mcp', headers: { Authorization: 'Bearer ${TOKEN:-none}' } },
      },
    });
    const bare = one(file, text, 'bare');
    assert.equal(bare.launch, undefined);
    assert.equal(bare.blocked?.reason, 'needs-input');
    assert.match(bare.blocked?.message ?? '', /environment variable API_KEY/);
    assert.match(one(file, text, 'braced').blocked?.message ?? '', /environment variable TOKEN\b/);
  });
  test('tcp (WebSocket) is not a transport Tool Lens connects over', () => {
    const text = JSON.stringify({ mcpServers: { ws: { tcp: 'ws://localhost:9000' } } });
    assert.equal(one(file, text, 'ws').blocked?.reason, 'unsupported');
  });
});

describe('catalog fetch: Codex', () => {
  const file = '.codex/config.toml';
  const text = `[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp@1.2.3"]
env = { LOG = "debug" }

[mcp_servers.remote]
url = "https://mcp.example.com/mcp"
http_headers = { "X-Team" = "core" }

[mcp_servers.forwarded]
command = "srv"
env_vars = ["GITHUB_TOKEN"]

[mcp_servers.bearer]
url = "https://mcp.example.com/mcp"
bearer_token_env_var = "REMOTE_TOKEN"

[mcp_servers.literal]
command = "srv"
args = ["--token", "\${GITHUB_TOKEN}"]

[mcp_servers.notion]
enabled = false
`;
  test('command is stdio, url is streamable HTTP, at the line of the table header', () => {
    const docs = one(file, text, 'docs');
    assert.deepEqual(docs.launch, {
      type: 'stdio',
      command: 'npx',
      args: ['-y', 'docs-mcp@1.2.3'],
      env: { LOG: 'debug' },
      cwd: root,
    });
    assert.equal(docs.declared.line, 1);
    assert.deepEqual(one(file, text, 'remote').launch, {
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { 'X-Team': 'core' },
    });
  });
  test('env_vars and bearer_token_env_var need the environment: refused', () => {
    assert.match(one(file, text, 'forwarded').blocked?.message ?? '', /environment variable GITHUB_TOKEN/);
    assert.match(one(file, text, 'bearer').blocked?.message ?? '', /environment variable REMOTE_TOKEN/);
  });
  test('a variable Codex passes as written is refused; a fragment without transport is invalid', () => {
    const literal = one(file, text, 'literal').blocked;
    assert.equal(literal?.reason, 'unsupported');
    assert.match(literal?.message ?? '', /Codex passes as written/);
    assert.equal(one(file, text, 'notion').blocked?.reason, 'invalid');
  });
  test('a TOML syntax error is a problem of the file', () => {
    const read = serversFromConfig(file, '[mcp_servers.x\ncommand = 1', root);
    assert.equal(read.servers.length, 0);
    assert.match(read.problems[0] ?? '', /does not parse as TOML/);
  });
});

describe('catalog fetch: Zed and Continue', () => {
  test('Zed context_servers: command, url, an extension server, and literal variables', () => {
    const file = '.zed/settings.json';
    const text = `{
  // comments are allowed
  "context_servers": {
    "local": { "command": "node", "args": ["s.js"] },
    "remote": { "url": "https://z.example/mcp", "headers": { "X": "y" } },
    "ext": { "settings": {} },
    "vars": { "command": "node", "args": ["\${HOME}/s.js"] }
  }
}`;
    assert.equal(one(file, text, 'local').launch?.type, 'stdio');
    assert.deepEqual(one(file, text, 'remote').launch, {
      type: 'http',
      url: 'https://z.example/mcp',
      headers: { X: 'y' },
    });
    assert.match(one(file, text, 'ext').blocked?.message ?? '', /extension/);
    assert.match(one(file, text, 'vars').blocked?.message ?? '', /Zed passes as written/);
  });
  test('Continue blocks: headers under requestOptions, secrets refused', () => {
    const file = '.continue/mcpServers/docs.yaml';
    const text = `name: Docs
version: 0.0.1
schema: v1
mcpServers:
  - name: docs
    type: sse
    url: https://c.example/sse
    requestOptions:
      headers:
        X-Team: core
  - name: keyed
    url: https://c.example/mcp
    requestOptions:
      headers:
        Authorization: Bearer \${{ secrets.DOCS_KEY }}
`;
    assert.deepEqual(one(file, text, 'docs').launch, {
      type: 'sse',
      url: 'https://c.example/sse',
      headers: { 'X-Team': 'core' },
    });
    const keyed = one(file, text, 'keyed');
    assert.equal(keyed.blocked?.reason, 'needs-input');
    assert.match(keyed.blocked?.message ?? '', /secret "DOCS_KEY"/);
  });
});

describe('catalog fetch: the workspace files', () => {
  test('reads the new clients at the root, Continue folder included, first declaration winning', () => {
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write('.vscode/mcp.json', JSON.stringify({ servers: { shared: { command: 'a' } } }));
    write('.codex/config.toml', '[mcp_servers.shared]\ncommand = "b"\n[mcp_servers.codex-only]\ncommand = "c"\n');
    write('.continue/mcpServers/b.yaml', 'name: b\nversion: 1\nmcpServers:\n  - name: cont\n    command: d\n');
    write('.continue/mcpServers/notes.txt', 'not a block');
    const read = readWorkspaceServers(root);
    assert.deepEqual(read.files, ['.vscode/mcp.json', '.codex/config.toml', '.continue/mcpServers/b.yaml']);
    assert.deepEqual(
      read.servers.map((s) => s.name),
      ['shared', 'codex-only', 'cont'],
    );
    assert.equal(read.shadowed[0]?.declared.file, '.codex/config.toml');
  });
});

describe('catalog fetch: opencode', () => {
  const file = 'opencode.json';
  test('a local entry runs its command list with its environment; a remote one is streamable HTTP', () => {
    const text = JSON.stringify({
      $schema: 'https://opencode.ai/config.json',
      mcp: {
        files: { type: 'local', command: ['node', 'srv.js', '--root', '.'], environment: { LEVEL: 'debug' } },
        docs: { type: 'remote', url: 'https://docs.example/mcp', headers: { 'X-Team': 'tools' } },
        off: { enabled: false },
      },
    });
    assert.deepEqual(one(file, text, 'files').launch, {
      type: 'stdio',
      command: 'node',
      args: ['srv.js', '--root', '.'],
      env: { LEVEL: 'debug' },
      cwd: root,
    });
    assert.deepEqual(one(file, text, 'docs').launch, {
      type: 'http',
      url: 'https://docs.example/mcp',
      headers: { 'X-Team': 'tools' },
    });
    assert.match(one(file, text, 'off').blocked?.message ?? '', /only turns on or off a server of the same name/);
  });

  test('{env:X} needs the environment; ${X} is passed as written: both refused, naming no value', () => {
    const text = JSON.stringify({
      mcp: {
        gh: { type: 'local', command: ['gh-mcp'], environment: { TOKEN: '{env:GITHUB_TOKEN}' } },
        web: { type: 'remote', url: 'https://a.example/mcp', headers: { Authorization: 'Bearer ${WEB_KEY}' } },
      },
    });
    assert.match(one(file, text, 'gh').blocked?.message ?? '', /GITHUB_TOKEN/);
    const web = one(file, text, 'web').blocked;
    assert.equal(web?.reason, 'unsupported');
    assert.match(web?.message ?? '', /\$\{WEB_KEY\}, which OpenCode passes as written/);
  });

  test('the workspace reads opencode.json at its root', () => {
    const folder = join(root, 'oc');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'opencode.json'),
      JSON.stringify({ mcp: { m: { type: 'local', command: ['node', 'm.js'] } } }),
    );
    const read = readWorkspaceServers(folder);
    assert.deepEqual(read.files, ['opencode.json']);
    assert.equal(read.servers[0]?.launch?.type, 'stdio');
  });
});

describe('catalog fetch: Kilo Code and Kiro', () => {
  test('the workspace reads .kilocode/mcp.json and .kiro/settings/mcp.json as VS Code-style files', () => {
    const folder = join(root, 'kk');
    for (const [path, name] of [
      ['.kilocode/mcp.json', 'kilo'],
      ['.kiro/settings/mcp.json', 'kiro'],
    ] as const) {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(
        join(folder, path),
        JSON.stringify({ mcpServers: { [name]: { command: 'node', args: [`${name}.js`] } } }),
      );
    }
    const read = readWorkspaceServers(folder);
    assert.deepEqual(read.files, ['.kilocode/mcp.json', '.kiro/settings/mcp.json']);
    assert.deepEqual(
      read.servers.map((s) => [s.name, s.launch?.type]),
      [
        ['kilo', 'stdio'],
        ['kiro', 'stdio'],
      ],
    );
  });
});
