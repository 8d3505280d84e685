// The hover on a server's name in an MCP client config (core/ide/clientHover.ts): how that client
// starts it, each value as the client sends it. The variables each client fills in are shown as
// what fills them (model/clientVariables.ts reads each client's syntax), never as a value of the
// environment Tool Lens runs in; a reference in another client's syntax stays as written; values
// taken for a credential (model/clientSecrets.ts) are masked.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { hoverAt } from '../../server/src/core/ide/hover.js';
import { Workspace } from '../../server/src/core/workspace.js';

// Set in the environment of this process: no hover may show it.
const HELD = 'held-by-this-machine-0123';
const NAMES = ['API_TOKEN', 'GITHUB_TOKEN', 'HOME', 'KEY', 'DOCS_TOKEN', 'TEAM', 'WEB_KEY'];
const saved = new Map<string, string | undefined>();
before(() => {
  for (const name of NAMES) {
    saved.set(name, process.env[name]);
    process.env[name] = HELD;
  }
});
after(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** The hover at the first occurrence of `at` (plus one character) in a file at `path` of a workspace at /work/proj. */
function hover(path: string, text: string, at: string, root = '/work/proj'): string {
  const workspace = new Workspace(root);
  const offset = text.indexOf(at);
  assert.ok(offset >= 0, `the text has ${at}`);
  const markdown = hoverAt(workspace.parse(path, text), workspace, offset + 1)?.markdown;
  assert.ok(markdown, `a hover at ${at}`);
  assert.ok(!markdown.includes(HELD), 'no value of the environment');
  return markdown;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

test('VS Code: inputs by their description, env, the workspace folder, home and separator', () => {
  const text = json({
    inputs: [
      { type: 'promptString', id: 'api-key', description: 'GitHub token', password: true },
      { type: 'promptString', id: 'org' },
    ],
    servers: {
      github: {
        command: 'npx',
        args: [
          '-y',
          'gh-mcp@1.0.0',
          '--root',
          '${workspaceFolder}/src',
          '${userHome}${pathSeparator}cache',
          '--org=${input:org}',
        ],
        env: {
          GITHUB_TOKEN: '${input:api-key}',
          LEVEL: '${env:LOG_LEVEL}',
          OTHER: '${input:missing}',
          PAT: 'ghp_FAKE0123456789abcdefghijklmnopqrstuv',
          WRONG: '${API_TOKEN}',
        },
      },
    },
  });
  const markdown = hover('/work/proj/.vscode/mcp.json', text, '"github"');
  assert.ok(
    markdown.includes(
      '```\nnpx -y gh-mcp@1.0.0 --root /work/proj/src ‹home folder›‹path separator›cache --org=‹input org›\n```',
    ),
    markdown,
  );
  for (const line of [
    '- `GITHUB_TOKEN` = `‹input api-key: "GitHub token", password›`',
    '- `LEVEL` = `‹env LOG_LEVEL›`',
    '- `OTHER` = `‹input missing, not defined in "inputs"›`',
    '- `PAT` = `***`',
    '- `WRONG` = `${API_TOKEN}`',
    'How VS Code fills in the values:',
    '- `${workspaceFolder}`: the workspace folder this `.vscode/mcp.json` belongs to, the one that holds `.vscode/`: `/work/proj`.',
    "- Sent as written: `${API_TOKEN}`, not VS Code's syntax (client/variable-syntax).",
  ])
    assert.ok(markdown.split('\n').includes(line), `${line}\n---\n${markdown}`);
  assert.doesNotMatch(markdown, /ghp_/);
});

test('VS Code: the workspace folder from the workspace root when the path is relative, and a basename', () => {
  const text = json({
    servers: { s: { command: 'node', args: ['${workspaceFolder}/a.js', '${workspaceFolderBasename}'] } },
  });
  assert.match(hover('sub/.vscode/mcp.json', text, '"s"'), /^node \/work\/proj\/sub\/a\.js sub$/m);
  // With neither an absolute path nor an absolute root, the folder is not known: said so, not guessed.
  const unknown = hover('.vscode/mcp.json', text, '"s"', 'proj');
  assert.match(unknown, /^node ‹workspace folder›\/a\.js ‹workspace folder name›$/m);
  assert.match(unknown, /holds `\.vscode\/` \(not known here\)\.$/m);
});

test('Claude Code: ${X} and ${X:-default} as the variable, $X and ${env:X} as written', () => {
  const text = json({
    mcpServers: {
      api: {
        type: 'http',
        url: 'https://api.example.com/mcp?region=${REGION:-eu}',
        headers: { Authorization: 'Bearer ${API_TOKEN}', 'X-Team': '$TEAM', 'X-Key': '${env:KEY}' },
      },
    },
  });
  const markdown = hover('/work/proj/.mcp.json', text, '"api"');
  assert.ok(markdown.includes('Connects to `https://api.example.com/mcp?region=‹env REGION, else "eu"›`.'), markdown);
  assert.ok(markdown.includes('- `Authorization`: `Bearer ‹env API_TOKEN›`'), markdown);
  assert.ok(markdown.includes('- `X-Team`: `$TEAM`'), markdown);
  assert.ok(markdown.includes('- `X-Key`: `${env:KEY}`'), markdown);
  assert.ok(markdown.includes("- Sent as written: `$TEAM`, `${env:KEY}`, not Claude Code's syntax"), markdown);
});

test('Gemini CLI: $X and ${X} both filled in, ${env:X} as written', () => {
  const text = json({
    mcpServers: { g: { command: '$HOME/bin/server', env: { A: '${KEY:-none}', B: '${env:KEY}' } } },
  });
  const markdown = hover('.gemini/settings.json', text, '"g"');
  assert.match(markdown, /^‹env HOME›\/bin\/server$/m);
  assert.ok(markdown.includes('- `A` = `‹env KEY, else "none"›`'), markdown);
  assert.ok(markdown.includes('- `B` = `${env:KEY}`'), markdown);
  assert.match(markdown, /from Gemini CLI's environment when it loads its settings/);
});

test('Codex: env_vars, bearer_token_env_var and env_http_headers by name; ${X} as written', () => {
  const text = [
    '[mcp_servers.local]',
    'command = "server"',
    'env = { A = "${DOCS_TOKEN}" }',
    'env_vars = ["DOCS_TOKEN", { name = "TEAM", source = "local" }]',
    '',
    '[mcp_servers.remote]',
    'url = "https://mcp.example.com/mcp"',
    'bearer_token_env_var = "DOCS_TOKEN"',
    'env_http_headers = { "X-Team" = "TEAM" }',
    'http_headers = { "X-Mode" = "read" }',
    '',
  ].join('\n');
  const local = hover('.codex/config.toml', text, 'local]');
  for (const line of ['- `A` = `${DOCS_TOKEN}`', '- `DOCS_TOKEN` = `‹env DOCS_TOKEN›`', '- `TEAM` = `‹env TEAM›`'])
    assert.ok(local.split('\n').includes(line), `${line}\n---\n${local}`);
  assert.match(local, /it fills in no `\$\{X\}` or `\$X`\.$/m);
  const remote = hover('.codex/config.toml', text, 'remote]');
  for (const line of ['- `X-Mode`: `read`', '- `Authorization`: `Bearer ‹env DOCS_TOKEN›`', '- `X-Team`: `‹env TEAM›`'])
    assert.ok(remote.split('\n').includes(line), `${line}\n---\n${remote}`);
});

test('Continue: ${{ secrets.X }} and ${{ inputs.X }}, headers under requestOptions', () => {
  const text = [
    'name: docs',
    'version: 0.0.1',
    'schema: v1',
    'mcpServers:',
    '  - name: web',
    '    url: https://mcp.example.com/mcp',
    '    requestOptions:',
    '      headers:',
    '        Authorization: "Bearer ${{ secrets.WEB_KEY }}"',
    '        X-Team: "${{ inputs.team }}"',
    '        X-Env: "${TEAM}"',
    '',
  ].join('\n');
  const markdown = hover('.continue/mcpServers/docs.yaml', text, 'name: web');
  for (const line of [
    '- `Authorization`: `Bearer ‹secret WEB_KEY›`',
    '- `X-Team`: `‹input team›`',
    '- `X-Env`: `${TEAM}`',
  ])
    assert.ok(markdown.split('\n').includes(line), `${line}\n---\n${markdown}`);
  assert.match(markdown, /`‹secret X›` \(`\$\{\{ secrets\.X \}\}`\): from `~\/\.continue\/\.env`/);
});

test('Claude Desktop and Zed fill in nothing: the text as written, said so; credentials masked', () => {
  const desktop = hover(
    'claude_desktop_config.json',
    json({
      mcpServers: {
        d: { command: 'server', args: ['${HOME}/data'], env: { TOKEN: 'sk-ant-FAKE0123456789abcdefghijk' } },
      },
    }),
    '"d"',
  );
  assert.match(desktop, /^server \$\{HOME\}\/data$/m);
  assert.ok(desktop.includes('- `TOKEN` = `***`'), desktop);
  assert.match(desktop, /^Claude Desktop fills in no variable: it sends every value as written\.$/m);
  assert.doesNotMatch(desktop, /sk-ant/);
  const zed = hover(
    '.zed/settings.json',
    json({
      context_servers: { z: { url: 'https://user:s3cretPassw0rd@mcp.example.com/mcp', headers: { A: '${KEY}' } } },
    }),
    '"z"',
  );
  // Only the password of the URL is masked: the rest is what Zed connects to.
  assert.ok(zed.includes('Connects to `https://user:***@mcp.example.com/mcp`.'), zed);
  assert.ok(zed.includes('- `A`: `${KEY}`'), zed);
  assert.match(zed, /^Zed fills in no variable: it sends every value as written\.$/m);
});

test('Roo Code: ${env:X} and the first workspace folder; a client Tool Lens has no syntax for shows text as written', () => {
  const roo = hover(
    '/work/proj/.roo/mcp.json',
    json({ mcpServers: { r: { command: 'node', args: ['${workspaceFolder}/s.js'], env: { K: '${env:KEY}' } } } }),
    '"r"',
  );
  assert.match(roo, /^node \/work\/proj\/s\.js$/m);
  assert.ok(roo.includes('- `K` = `‹env KEY›`'), roo);
  assert.match(roo, /the first folder of the VS Code workspace/);
  const windsurf = hover(
    '/home/me/.codeium/windsurf/mcp_config.json',
    json({ mcpServers: { w: { command: 'node', args: ['${env:KEY}'] } } }),
    '"w"',
  );
  assert.match(windsurf, /^node \$\{env:KEY\}$/m);
  assert.match(
    windsurf,
    /^Tool Lens does not know which variables Windsurf fills in: the values are shown as written\.$/m,
  );
});

test('Cursor: its documented forms are filled in; a form its documentation does not name is shown as written, unreported', () => {
  const cursor = hover(
    '/work/proj/.cursor/mcp.json',
    json({
      mcpServers: {
        c: {
          command: 'node',
          args: [
            '${workspaceFolder}/s.js',
            '${workspaceFolderBasename}',
            '${userHome}${pathSeparator}x',
            '${env:KEY}',
            '${OTHER}',
          ],
          env: { T: '${env:TOKEN}' },
        },
      },
    }),
    '"c"',
  );
  assert.match(cursor, /^node \/work\/proj\/s\.js proj ‹home folder›‹path separator›x ‹env KEY› \$\{OTHER\}$/m);
  assert.ok(cursor.includes('- `T` = `‹env TOKEN›`'), cursor);
  assert.match(cursor, /from the environment Cursor runs in/);
  assert.doesNotMatch(cursor, /Sent as written/);
});

test('Amazon Q: ${env:X} is filled in env values and headers only; args and the URL are sent as written', () => {
  const local = hover(
    '/work/proj/.amazonq/mcp.json',
    json({ mcpServers: { q: { command: 'node', args: ['--key', '${env:KEY}'], env: { T: '${env:TOKEN}' } } } }),
    '"q"',
  );
  assert.match(local, /^node --key \$\{env:KEY\}$/m);
  assert.ok(local.includes('- `T` = `‹env TOKEN›`'), local);
  assert.match(local, /in `env` values and headers only/);
  assert.match(local, /Sent as written: `\$\{env:KEY\}`/);
  const remote = hover(
    '/work/proj/.amazonq/mcp.json',
    json({
      mcpServers: {
        r: { type: 'http', url: 'https://${env:HOST}/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
      },
    }),
    '"r"',
  );
  assert.match(remote, /Connects to `https:\/\/\$\{env:HOST\}\/mcp`/);
  assert.ok(remote.includes('- `Authorization`: `Bearer ‹env TOKEN›`'), remote);
});

test('Continue: apiKey is shown as the Authorization header it sends, masked when it holds a credential', () => {
  const block = (apiKey: string) =>
    [
      'name: docs',
      'version: 0.0.1',
      'schema: v1',
      'mcpServers:',
      '  - name: web',
      '    url: https://mcp.example.com/mcp',
      `    apiKey: "${apiKey}"`,
      '',
    ].join('\n');
  const literal = hover(
    '.continue/mcpServers/docs.yaml',
    block('sk-proj-4f9aQ2mX7LkP0rT3vW8yZ1bN6cD5eH2j'),
    'name: web',
  );
  assert.ok(literal.split('\n').includes('- `Authorization`: `Bearer ***`'), literal);
  assert.doesNotMatch(literal, /sk-proj/);
  const secret = hover('.continue/mcpServers/docs.yaml', block('${{ secrets.DOCS_KEY }}'), 'name: web');
  assert.ok(secret.split('\n').includes('- `Authorization`: `Bearer ‹secret DOCS_KEY›`'), secret);
});

test('Continue: a credential in requestOptions.headers is masked in the hover, as client/secret-in-file finds it', () => {
  const text = [
    'name: docs',
    'version: 0.0.1',
    'schema: v1',
    'mcpServers:',
    '  - name: web',
    '    url: https://mcp.example.com/mcp',
    '    requestOptions:',
    '      headers:',
    '        Authorization: "Bearer sk-proj-4f9aQ2mX7LkP0rT3vW8yZ1bN6cD5eH2j"',
    '',
  ].join('\n');
  const markdown = hover('.continue/mcpServers/docs.yaml', text, 'name: web');
  assert.ok(markdown.split('\n').includes('- `Authorization`: `Bearer ***`'), markdown);
  assert.doesNotMatch(markdown, /sk-proj/);
});

test('opencode: the command list, environment by {env:NAME}, a literal ${X}, a masked token', () => {
  const text = json({
    $schema: 'https://opencode.ai/config.json',
    mcp: {
      gh: {
        type: 'local',
        command: ['npx', '-y', 'gh-mcp@1.0.0', '--org={env:TEAM}'],
        environment: {
          GITHUB_TOKEN: '{env:GITHUB_TOKEN}',
          WRONG: '${API_TOKEN}',
          PAT: 'ghp_Fake0fake1Fake2fake3Fake4fake5Fake6f',
        },
      },
      web: { type: 'remote', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer {env:WEB_KEY}' } },
    },
  });
  const local = hover('opencode.json', text, '"gh"');
  assert.match(local, /started by OpenCode/);
  assert.match(local, /^npx -y gh-mcp@1\.0\.0 --org=‹env TEAM›$/m);
  assert.ok(local.includes('- `GITHUB_TOKEN` = `‹env GITHUB_TOKEN›`'), local);
  assert.ok(local.includes('- `WRONG` = `${API_TOKEN}`'), local);
  assert.doesNotMatch(local, /ghp_Fake/);
  const remote = hover('.opencode/opencode.jsonc', text, '"web"');
  assert.ok(remote.includes('- `Authorization`: `Bearer ‹env WEB_KEY›`'), remote);
});

test("Kilo Code: Roo Code's variables, its own folder", () => {
  const text = json({
    mcpServers: {
      k: { command: 'node', args: ['${workspaceFolder}/s.js', '${GITHUB_TOKEN}'], env: { K: '${env:KEY}' } },
    },
  });
  const kilo = hover('.kilocode/mcp.json', text, '"k"');
  assert.match(kilo, /started by Kilo Code/);
  assert.match(kilo, /^node \/work\/proj\/s\.js \$\{GITHUB_TOKEN\}$/m);
  assert.ok(kilo.includes('- `K` = `‹env KEY›`'), kilo);
  assert.match(kilo, /the one whose `\.kilocode\/mcp\.json` Kilo Code reads/);
});
