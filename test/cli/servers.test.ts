// `tool-lens servers`: the servers of every client config, as each client reads its file, against
// fixtures written here (one per client's syntax) and the real corpus (test/corpus/clients): every
// server of every corpus file is listed (counted by an independent reading of each file), none
// crashes, and no credential of the corpus is printed. Pins against pinOf's cases.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseYaml } from 'yaml';
import { pinOf } from '../../server/src/core/model/clientLaunch.js';
import { walkFolder } from '../../server/src/node/walk.js';
import { ROOT, runCli } from './harness.js';

interface Row {
  file: string;
  line: number;
  client: string;
  clientLabel: string;
  name: string;
  transport: string;
  start: string;
  command?: string;
  args?: string[];
  url?: string;
  env?: string[];
  headers?: string[];
  fromClientEnv?: string[];
  pinned: 'pinned' | 'unpinned' | 'n/a';
  fetches?: string;
  disabled: boolean;
  note?: string;
  differsFrom: { client: string; clientLabel: string; file: string; line: number }[];
}
interface Listing {
  version: number;
  servers: Row[];
  files: { file: string; client: string; servers: number; problem?: string }[];
}

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tl-servers-'));
  writeFileSync(join(root, '.toollens.yaml'), '{}\n');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function listing(cwd: string, args: string[] = []): { list: Listing; stderr: string } {
  const run = runCli(['servers', ...args, '--format', 'json'], { cwd });
  assert.equal(run.code, 0, run.stderr);
  const list = JSON.parse(run.stdout) as Listing;
  assert.equal(list.version, 1);
  return { list, stderr: run.stderr };
}

const TOKEN = 'ghp_' + 'Zq8XwV3nT6pLm2RkY9sD4fH7jB1cN5gA0eUi';

const FIXTURES: Record<string, string> = {
  '.vscode/mcp.json': `{
  // JSONC, as VS Code reads it
  "inputs": [{ "id": "token", "type": "promptString", "password": true }],
  "servers": {
    "gh": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github@2025.4.8"], "env": { "GITHUB_TOKEN": "${TOKEN}" } },
    "remote": { "type": "sse", "url": "https://mcp.example.com/sse?api_key=${TOKEN}", "headers": { "Authorization": "Bearer ${TOKEN}" } },
  },
}`,
  '.cursor/mcp.json': JSON.stringify({
    mcpServers: {
      supa: { command: 'npx', args: ['-y', '@supabase/mcp-server-supabase@latest', '--access-token', TOKEN] },
      img: { command: 'docker', args: ['run', '-i', '--rm', '-e', 'X=1', 'ghcr.io/acme/img:1.4.2'] },
      latest: { command: 'docker', args: ['run', '-i', 'ghcr.io/acme/img:latest'] },
      digest: { command: 'docker', args: ['run', `ghcr.io/acme/img@sha256:${'a'.repeat(64)}`] },
    },
  }),
  '.gemini/settings.json': JSON.stringify({
    mcpServers: {
      streamed: { httpUrl: 'https://api.example.com/mcp', headers: { 'X-Key': '$API_KEY' } },
      events: { url: 'https://api.example.com/sse', type: 'sse' },
      local: { command: 'uvx', args: ['mcp-server-git==2025.1.14'] },
      loose: { command: 'uvx', args: ['mcp-server-fetch'] },
    },
  }),
  '.codex/config.toml': `model = "o3"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp@1.2.3"]
env_vars = ["DOCS_TOKEN"]

[mcp_servers.remote]
url = "https://mcp.example.com/mcp"
bearer_token_env_var = "REMOTE_TOKEN"
http_headers = { "X-Team" = "core" }

[mcp_servers.notion]
enabled = false
`,
  '.zed/settings.json': `{
  // Zed reads JSON with comments
  "theme": "One Dark",
  "context_servers": {
    "local": { "command": "node", "args": ["server.js"], "env": { "API_KEY": "${TOKEN}" } },
    "remote": { "url": "https://zed.example.com/mcp" },
    "from-extension": { "settings": {} }
  }
}`,
  '.continue/mcpServers/docs.yaml': `name: Docs
version: 0.0.1
schema: v1
mcpServers:
  - name: docs-remote
    type: streamable-http
    url: https://docs.example.com/mcp
    requestOptions:
      headers:
        Authorization: Bearer \${{ secrets.DOCS_KEY }}
`,
  '.windsurf/mcp_config.json': JSON.stringify({ mcpServers: { surf: { serverUrl: 'https://surf.example.com/mcp' } } }),
  'tools/other-mcp.json': JSON.stringify({ mcpServers: { elsewhere: { command: 'python', args: ['-m', 'srv'] } } }),
  'node_modules/pkg/.cursor/mcp.json': JSON.stringify({ mcpServers: { hidden: { command: 'x' } } }),
  '.roo/mcp.json': '{ "mcpServers": { "broken": ',
  'dup/.mcp.json':
    '{ "mcpServers": { "a": { "command": "first" }, "b": { "command": "x", "command": "y" }, "a": { "command": "second" } } }',
};

describe('tool-lens servers', () => {
  const root = workspace(FIXTURES);
  const { list, stderr } = listing(root);
  const byName = (file: string, name: string) => {
    const row = list.servers.find((s) => s.file === file && s.name === name);
    assert.ok(row, `${file}: ${name} not listed`);
    return row;
  };

  test('lists each client by its own syntax', () => {
    assert.equal(byName('.vscode/mcp.json', 'gh').client, 'vscode');
    assert.equal(byName('.vscode/mcp.json', 'remote').transport, 'sse');
    assert.equal(byName('.gemini/settings.json', 'streamed').transport, 'http');
    assert.equal(byName('.gemini/settings.json', 'events').transport, 'sse');
    assert.equal(byName('.codex/config.toml', 'docs').start, 'npx -y docs-mcp@1.2.3');
    assert.equal(byName('.codex/config.toml', 'docs').line, 3);
    assert.deepEqual(byName('.codex/config.toml', 'docs').fromClientEnv, ['DOCS_TOKEN']);
    assert.equal(byName('.codex/config.toml', 'remote').url, 'https://mcp.example.com/mcp');
    assert.deepEqual(byName('.codex/config.toml', 'remote').fromClientEnv, ['REMOTE_TOKEN']);
    assert.deepEqual(byName('.codex/config.toml', 'remote').headers, ['X-Team']);
    assert.equal(byName('.codex/config.toml', 'notion').transport, 'none');
    assert.equal(byName('.codex/config.toml', 'notion').disabled, true);
    assert.equal(byName('.zed/settings.json', 'remote').transport, 'http');
    assert.match(byName('.zed/settings.json', 'from-extension').note ?? '', /extension/);
    const cont = byName('.continue/mcpServers/docs.yaml', 'docs-remote');
    assert.equal(cont.client, 'continue');
    assert.deepEqual(cont.headers, ['Authorization']);
    assert.equal(byName('.windsurf/mcp_config.json', 'surf').url, 'https://surf.example.com/mcp');
    assert.equal(byName('tools/other-mcp.json', 'elsewhere').client, 'unknown');
  });

  test('a key given twice keeps its last value, as JSON readers do', () => {
    const rows = list.servers.filter((s) => s.file === 'dup/.mcp.json');
    assert.deepEqual(
      rows.map((r) => [r.name, r.command]),
      [
        ['a', 'second'],
        ['b', 'y'],
      ],
    );
    assert.match(list.files.find((f) => f.file === 'dup/.mcp.json')?.problem ?? '', /appears twice/);
  });

  test('pinned or not', () => {
    assert.equal(byName('.vscode/mcp.json', 'gh').pinned, 'pinned');
    assert.equal(byName('.cursor/mcp.json', 'supa').pinned, 'unpinned');
    assert.equal(byName('.cursor/mcp.json', 'img').pinned, 'pinned');
    assert.equal(byName('.cursor/mcp.json', 'img').fetches, 'ghcr.io/acme/img:1.4.2');
    assert.equal(byName('.cursor/mcp.json', 'latest').pinned, 'unpinned');
    assert.equal(byName('.cursor/mcp.json', 'digest').pinned, 'pinned');
    assert.equal(byName('.gemini/settings.json', 'local').pinned, 'pinned');
    assert.equal(byName('.gemini/settings.json', 'loose').pinned, 'unpinned');
    assert.equal(byName('.zed/settings.json', 'local').pinned, 'n/a');
    assert.equal(byName('.gemini/settings.json', 'streamed').pinned, 'n/a');
  });

  test('never prints a secret, in JSON or in the table', () => {
    const table = runCli(['servers'], { cwd: root });
    assert.equal(table.code, 0);
    for (const text of [JSON.stringify(list), table.stdout, table.stderr, stderr]) {
      assert.ok(!text.includes(TOKEN), 'a token was printed');
      assert.ok(!text.includes(TOKEN.slice(4)), 'part of a token was printed');
    }
    assert.equal(byName('.cursor/mcp.json', 'supa').args?.at(-1), '***');
    assert.deepEqual(byName('.vscode/mcp.json', 'gh').env, ['GITHUB_TOKEN']);
    assert.match(table.stdout, /^CLIENT +NAME +STARTS +PINNED +FILE$/m);
  });

  test('a variable reference is shown as written, wherever it stands; literal credentials beside it are masked', () => {
    const ws = workspace({
      '.vscode/mcp.json': JSON.stringify({
        inputs: [
          { id: 'host', type: 'promptString', password: false },
          { id: 'token', type: 'promptString', password: true },
          { id: 'url', type: 'promptString' },
        ],
        servers: {
          ha: { type: 'http', url: 'https://${input:host}/mcp?key=${input:token}&api_key=' + TOKEN },
          whole: { type: 'http', url: '${input:url}' },
          cli: {
            command: 'node',
            args: ['s.js', '--token', '${input:token}', '--api-key=${env:API_KEY}', '--secret', TOKEN],
          },
        },
      }),
      '.mcp.json': JSON.stringify({
        mcpServers: { fallback: { command: 'node', args: ['s.js', '--token', '${GH_TOKEN:-' + TOKEN + '}'] } },
      }),
    });
    try {
      const { list: refs } = listing(ws);
      const row = (name: string) => refs.servers.find((s) => s.name === name)!;
      assert.equal(row('ha').url, 'https://${input:host}/mcp?key=${input:token}&api_key=***');
      assert.equal(row('whole').url, '${input:url}');
      assert.deepEqual(row('cli').args, [
        's.js',
        '--token',
        '${input:token}',
        '--api-key=${env:API_KEY}',
        '--secret',
        '***',
      ]);
      // A default written into the reference is a literal value: masked like any other.
      assert.deepEqual(row('fallback').args, ['s.js', '--token', '***']);
      const table = runCli(['servers'], { cwd: ws });
      for (const text of [JSON.stringify(refs), table.stdout])
        assert.ok(!text.includes(TOKEN.slice(4)), 'a token was printed');
      assert.match(table.stdout, /http https:\/\/\$\{input:host\}\/mcp\?key=\$\{input:token\}&api_key=\*\*\*/);
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });

  test('an invalid file is named on stderr and listed; ignored folders are not read', () => {
    const roo = list.files.find((f) => f.file === '.roo/mcp.json');
    assert.ok(roo?.problem, 'the broken Roo file is listed with its problem');
    assert.match(stderr, /\.roo\/mcp\.json:\d+:\d+: /);
    assert.ok(!list.servers.some((s) => s.name === 'hidden'), 'node_modules is not read');
  });

  test('a file .toollens.yaml gives another kind is left out; a PATH narrows the listing', () => {
    const ws = workspace({ ...FIXTURES, '.toollens.yaml': 'kinds:\n  tool-catalog: ["tools/*.json"]\n' });
    try {
      assert.ok(!listing(ws).list.servers.some((s) => s.name === 'elsewhere'));
      const only = listing(ws, ['.codex']).list;
      assert.deepEqual([...new Set(only.servers.map((s) => s.client))], ['codex']);
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });

  test('usage errors exit 2', () => {
    assert.equal(runCli(['servers', '--format', 'sarif'], { cwd: root }).code, 2);
    assert.equal(runCli(['servers', '--fix'], { cwd: root }).code, 2);
    assert.equal(runCli(['servers', 'no-such-folder'], { cwd: root }).code, 2);
    const help = runCli(['servers', '--help'], { cwd: root });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: tool-lens servers/);
  });
});

describe('tool-lens servers across clients', () => {
  // The same github server in VS Code's and Cursor's syntax; a docs server at two URLs.
  const root = workspace({
    '.vscode/mcp.json':
      '{\n  // comments and trailing commas\n  "servers": {\n    "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github@2025.4.8", "--dir", "${workspaceFolder}/src"],},\n  },\n}\n',
    '.cursor/mcp.json': JSON.stringify({
      mcpServers: {
        github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github@2025.4.8', '--dir', './src'] },
      },
    }),
    '.roo/mcp.json': JSON.stringify({
      mcpServers: {
        supabase: { command: 'npx', args: ['-y', '@supabase/mcp-server-supabase@latest'] },
        docs: { type: 'streamable-http', url: 'https://docs.example.com/mcp' },
      },
    }),
    '.mcp.json': JSON.stringify({ mcpServers: { docs: { type: 'http', url: 'https://docs.example.com/v2/mcp' } } }),
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('a server named alike in two clients that runs something else is marked at both; an equivalent one is not', () => {
    const { list } = listing(root);
    const differs = list.servers.map((r) => [
      r.clientLabel,
      r.name,
      r.differsFrom.map((d) => `${d.client} ${d.file}:${d.line}`),
    ]);
    assert.deepEqual(differs, [
      ['Cursor', 'github', []],
      ['Claude Code', 'docs', ['roo .roo/mcp.json:1']],
      ['Roo Code', 'supabase', []],
      ['Roo Code', 'docs', ['claude-code .mcp.json:1']],
      ['VS Code', 'github', []],
    ]);
  });

  test("VS Code's root mcpServers is listed with its servers, as VS Code moves it there", () => {
    const vscode = workspace({
      '.vscode/mcp.json': JSON.stringify({
        servers: { a: { command: 'node', args: ['a.js'] } },
        mcpServers: { b: { command: 'node', args: ['b.js'] } },
      }),
    });
    try {
      assert.deepEqual(
        listing(vscode).list.servers.map((r) => [r.client, r.name]),
        [
          ['vscode', 'a'],
          ['vscode', 'b'],
        ],
      );
    } finally {
      rmSync(vscode, { recursive: true, force: true });
    }
  });

  test('the table marks the difference in the file column', () => {
    const run = runCli(['servers', '--no-color'], { cwd: root });
    assert.equal(run.code, 0, run.stderr);
    const docs = run.stdout.split('\n').filter((line) => /\bdocs\b/.test(line));
    assert.equal(docs.length, 2);
    assert.match(docs[0]!, /\.mcp\.json:1 \(differs from Roo Code\)$/);
    assert.match(docs[1]!, /\.roo\/mcp\.json:1 \(differs from Claude Code\)$/);
    assert.equal(run.stdout.match(/differs from/g)?.length, 2);
  });
});

describe('tool-lens servers over the real corpus', () => {
  const corpus = join(ROOT, 'test', 'corpus', 'clients');
  const { list, stderr } = listing(corpus);

  /** The servers of a file by an independent reading (jsonc-parser, yaml, a TOML header scan). */
  function expectedNames(path: string): string[] {
    const text = readFileSync(join(corpus, path), 'utf8');
    if (path.endsWith('.toml')) return [...text.matchAll(/^\[mcp_servers\.([^\].]+)\]/gm)].map((m) => m[1]!);
    if (/\.ya?ml$/.test(path)) {
      const doc = parseYaml(text) as { mcpServers?: { name: string }[] };
      return (doc.mcpServers ?? []).map((s) => s.name);
    }
    const doc = parseJsonc(text, [], { allowTrailingComma: true }) as Record<string, unknown>;
    // VS Code also reads a root `mcpServers`, after its own `servers` (it moves them there).
    const keys = path.includes('.vscode/')
      ? ['servers', 'mcpServers']
      : path.includes('.zed/')
        ? ['context_servers']
        : /(^|\/)opencode\.jsonc?$/.test(path)
          ? ['mcp']
          : ['mcpServers'];
    return keys.flatMap((key) => {
      const held = doc[key];
      return held && typeof held === 'object' && !Array.isArray(held) ? Object.keys(held) : [];
    });
  }

  test('every server of every corpus file is listed, in order', () => {
    const files = walkFolder(corpus, { ignoredDirs: [], wanted: (rel) => !/^(README|EXPECTED)\.md$/.test(rel) }).files;
    assert.ok(files.length >= 80, `only ${files.length} corpus files`);
    for (const file of files) {
      const path = relative(corpus, file.path).split('\\').join('/');
      const listed = list.servers.filter((s) => s.file === path).map((s) => s.name);
      assert.deepEqual(listed, expectedNames(path), path);
      assert.ok(
        list.files.some((f) => f.file === path),
        `${path} is not among the files read`,
      );
    }
  });

  test('the one file of another shape is listed as such', () => {
    const odd = 'windsurf/PaulJPhilp__EffectPatterns/packages/api-server/.windsurf/mcp_config.json';
    assert.match(list.files.find((f) => f.file === odd)?.problem ?? '', /does not map server names/);
    assert.match(stderr, /api-server\/\.windsurf\/mcp_config\.json/);
  });

  test('none of the corpus credentials is printed', () => {
    const table = runCli(['servers'], { cwd: corpus });
    const secrets = [
      /sbp_[0-9a-f]{40}/.exec(
        readFileSync(join(corpus, 'cursor/0247473__cursor-supabase-app/.cursor/mcp.json'), 'utf8'),
      )![0],
      /redis:\/\/:([^@]+)@/.exec(readFileSync(join(corpus, 'roo/Apq__Apq.Cfg/.roo/mcp.json'), 'utf8'))![1]!,
      /da2-[a-z0-9]{26}/.exec(
        readFileSync(join(corpus, 'amazonq/cloudbeer__search-ec2/.amazonq/mcp.json'), 'utf8'),
      )![0],
      // The Basic credential of the Liferay demo (test@liferay.com:test, base64).
      'dGVzdEBsaWZlcmF5LmNvbTp0ZXN0',
    ];
    for (const secret of secrets) {
      for (const text of [JSON.stringify(list), stderr, table.stdout, table.stderr])
        assert.ok(!text.includes(secret), `${secret.slice(0, 4)}... was printed`);
    }
  });

  test('pins of real command lines', () => {
    const pin = (file: string, name: string) => list.servers.find((s) => s.file === file && s.name === name)?.pinned;
    assert.equal(pin('claude-code/0Bu__daikin-altherma-esp32/.mcp.json', 'context7'), 'pinned');
    assert.equal(pin('claude-code/AENDYSTUDIO__normaldance/.mcp.json', 'shadcn'), 'unpinned');
    assert.equal(pin('amazonq/cloudbeer__search-ec2/.amazonq/mcp.json', 'fetch'), 'unpinned');
    assert.equal(pin('amazonq/moritalous__s3-vectors-mcp/.amazonq/mcp.json', 's3vector'), 'n/a');
    assert.equal(pin('roo/AT2024__ALA/.roo/mcp.json', 'context7'), 'unpinned');
  });
});

describe('pinOf', () => {
  const cases: [string, string[], string][] = [
    ['npx', ['-y', 'pkg'], 'unpinned'],
    ['npx', ['-y', 'pkg@latest'], 'unpinned'],
    ['npx', ['-y', '@scope/pkg@1.2.3'], 'pinned'],
    ['npx', ['-y', '@scope/pkg@^1.2.3'], 'unpinned'],
    ['npx', ['--package', 'pkg@2.0.0', 'bin'], 'pinned'],
    ['npx', ['tsx', 'src/index.ts'], 'n/a'],
    ['npx', ['./local.js'], 'n/a'],
    ['npx.cmd', ['-y', 'github:o/r#v1'], 'pinned'],
    ['pnpm', ['dlx', 'pkg@1.0.0'], 'pinned'],
    ['bunx', ['pkg'], 'unpinned'],
    ['uvx', ['pkg'], 'unpinned'],
    ['uvx', ['pkg==1.2.0'], 'pinned'],
    ['uvx', ['pkg>=1.2'], 'unpinned'],
    ['uvx', ['pkg@1.2.0'], 'pinned'],
    ['uvx', ['--from', 'git+https://github.com/o/r', 'cmd'], 'unpinned'],
    ['uvx', ['--from', 'git+https://github.com/o/r@v1.0', 'cmd'], 'pinned'],
    ['uv', ['run', '--with', 'mcp==1.0.0', 'server.py'], 'pinned'],
    ['uv', ['run', '--with', 'mcp', 'server.py'], 'unpinned'],
    ['uv', ['run', 'server.py'], 'n/a'],
    ['pipx', ['run', 'pkg'], 'unpinned'],
    ['docker', ['run', '-i', '--rm', 'mcp/fetch'], 'unpinned'],
    ['docker', ['run', '-i', '--rm', '-e', 'A=b', 'mcp/fetch:1.0'], 'pinned'],
    ['docker', ['run', 'localhost:5000/img'], 'unpinned'],
    ['docker', ['run', 'localhost:5000/img:2'], 'pinned'],
    ['docker', ['exec', '-i', 'box', 'npx', 'pkg@1.0.0'], 'pinned'],
    ['/usr/bin/node', ['server.js'], 'n/a'],
    ['python', ['-m', 'srv'], 'n/a'],
  ];
  for (const [command, args, want] of cases) {
    test(`${command} ${args.join(' ')}: ${want}`, () => assert.equal(pinOf(command, args).verdict, want));
  }
});
