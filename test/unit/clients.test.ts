// Which MCP client reads a file, from its path (docs/clients.md): every client's file is the one
// `mcp-servers` kind, a client's own rules run only where the path names the client, and a file
// recognised by content alone gets only the client-neutral checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkFile } from '../../server/src/core/engine.js';
import { pinOf } from '../../server/src/core/model/clientLaunch.js';
import { clientOfPath } from '../../server/src/core/parse/clients.js';
import { serverFileKindOf } from '../../server/src/core/parse/serverEntries.js';
import { kindFromName } from '../../server/src/core/parse/kinds.js';
import { Workspace } from '../../server/src/core/workspace.js';
import { hoverAt } from '../../server/src/core/ide/hover.js';
import { completionsAt } from '../../server/src/core/ide/completion.js';

test('each client file is an mcp-servers document with its client', () => {
  const cases: [string, string][] = [
    ['.vscode/mcp.json', 'vscode'],
    ['repo/.cursor/mcp.json', 'cursor'],
    ['.mcp.json', 'claude-code'],
    ['Library/Application Support/Claude/claude_desktop_config.json', 'claude-desktop'],
    ['.gemini/settings.json', 'gemini'],
    ['a\\b\\.roo\\mcp.json', 'roo'],
    ['.amazonq/mcp.json', 'amazonq'],
    ['home/.codeium/windsurf/mcp_config.json', 'windsurf'],
  ];
  for (const [path, client] of cases) {
    assert.equal(clientOfPath(path)?.id, client, path);
    assert.equal(kindFromName(path), 'mcp-servers', path);
  }
});

test('paths no client reads name no client', () => {
  for (const path of ['mcp.json', 'settings.json', '.vscode/settings.json', 'roo/mcp.json', 'mcp_config.json']) {
    assert.equal(clientOfPath(path), null, path);
    assert.equal(kindFromName(path), null, path);
  }
});

const ROO_HTTP = '{"mcpServers": {"docs": {"type": "http", "url": "https://docs.example.com/mcp", "autoApprove": []}}}';

test("a client's rules run where its path names it, and not on the same text found by content", () => {
  const workspace = new Workspace('/work');
  const rules = (path: string) =>
    checkFile(workspace.parse(path, ROO_HTTP), workspace)
      .findings.map((f) => f.rule)
      .sort();
  assert.deepEqual(rules('.roo/mcp.json'), ['client/invalid-transport', 'client/unknown-key']);
  assert.deepEqual(rules('servers.json'), []);
});

test('the hover on a server name says how its client starts it, credentials masked', () => {
  const text = JSON.stringify(
    {
      servers: {
        github: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-github'],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_FAKE0123456789abcdefghijklmnopqrstuv', LOG: 'debug' },
        },
      },
    },
    null,
    2,
  );
  const workspace = new Workspace('/work');
  const file = workspace.parse('.vscode/mcp.json', text);
  const hover = hoverAt(file, workspace, text.indexOf('"github"') + 2);
  assert.ok(hover, 'a hover on the server name');
  assert.match(hover.markdown, /started by VS Code/);
  assert.match(hover.markdown, /npx -y @modelcontextprotocol\/server-github/);
  assert.match(hover.markdown, /`GITHUB_PERSONAL_ACCESS_TOKEN` = `\*\*\*`/);
  assert.match(hover.markdown, /`LOG` = `debug`/);
  assert.match(hover.markdown, /\*\*not pinned\*\*/);
  assert.doesNotMatch(hover.markdown, /ghp_/);
});

test("a file at no client's path is recognised by entries that start with a Windsurf or Gemini URL too", () => {
  const workspace = new Workspace('/work');
  const remote =
    '{"mcpServers": {"docs": {"serverUrl": "http://docs.example.com/mcp"}, "web": {"httpUrl": "https://web.example.com/mcp"}}}';
  const file = workspace.parse('.windsurf/mcp_config.json', remote);
  assert.equal(file.kind, 'mcp-servers');
  // Read by content, it gets the client-neutral checks: here the plain http to a remote host.
  assert.deepEqual(
    checkFile(file, workspace).findings.map((f) => f.rule),
    ['client/plain-http'],
  );
  assert.equal(workspace.parse('notes.json', '{"mcpServers": {"docs": {"endpoint": "x"}}}').kind, null);
});

test('one client table: the files check does not read get no client and no kind from their path', () => {
  for (const path of ['.continue/mcpServers/a.json', '.windsurf/mcp_config.json']) {
    assert.equal(clientOfPath(path), null, path);
    assert.notEqual(kindFromName(path), 'mcp-servers', path);
    assert.ok(serverFileKindOf(path), `${path} is listed`);
  }
  // Codex's TOML is checked (parse/toml.ts) and listed alike, as TOML.
  assert.equal(clientOfPath('.codex/config.toml')?.id, 'codex');
  assert.equal(kindFromName('.codex/config.toml'), 'mcp-servers');
  assert.equal(serverFileKindOf('.codex/config.toml')?.format, 'toml');
  // Zed's settings file is checked, its servers read under `context_servers` by both tables.
  assert.equal(clientOfPath('.zed/settings.json')?.id, 'zed');
  assert.equal(kindFromName('.zed/settings.json'), 'mcp-servers');
  assert.equal(serverFileKindOf('.zed/settings.json')?.key, 'context_servers');
  // Continue's YAML block is checked too, its servers a list of entries named by `name`.
  assert.equal(clientOfPath('.continue/mcpServers/a.yaml')?.id, 'continue');
  assert.equal(serverFileKindOf('.continue/mcpServers/a.yaml')?.list, true);
  assert.equal(serverFileKindOf('.continue/mcpServers/a.yaml')?.format, 'yaml');
  assert.equal(serverFileKindOf('.roo/mcp.json')?.label, clientOfPath('.roo/mcp.json')?.label);
  assert.equal(serverFileKindOf('.vscode/mcp.json')?.key, 'servers');
});

test('the hover and tool-lens servers read one pin: a range is pinned to a range, not exactly', () => {
  const text = JSON.stringify({
    mcpServers: {
      ranged: { command: 'npx', args: ['-y', 'pkg@^1.2.0'] },
      exact: { command: 'npx', args: ['-y', 'pkg@1.2.0'] },
    },
  });
  const workspace = new Workspace('/work');
  const file = workspace.parse('.cursor/mcp.json', text);
  const hoverOf = (name: string) => hoverAt(file, workspace, text.indexOf(`"${name}"`) + 2)?.markdown ?? '';
  assert.match(hoverOf('ranged'), /`pkg@\^1\.2\.0` with npx: pinned to a range/);
  assert.match(hoverOf('exact'), /`pkg@1\.2\.0` with npx: pinned$/m);
  assert.equal(pinOf('npx', ['-y', 'pkg@^1.2.0']).verdict, 'unpinned');
  assert.equal(pinOf('npx', ['-y', 'pkg@1.2.0']).verdict, 'pinned');
});

test("completion offers a server entry's keys and type values as its client reads them", () => {
  const workspace = new Workspace('/work');
  const keyText = '{"mcpServers": {"docs": {"url": "https://x.example/mcp", ""}}}';
  const keys = completionsAt(workspace.parse('.roo/mcp.json', keyText), workspace, keyText.indexOf('""') + 1);
  const labels = keys.map((k) => k.label);
  assert.ok(labels.includes('alwaysAllow') && labels.includes('type'), labels.join(','));
  assert.ok(!labels.includes('url'), 'a key the entry has is not offered again');
  const typeText = '{"mcpServers": {"docs": {"url": "https://x.example/mcp", "type": ""}}}';
  const types = completionsAt(workspace.parse('.roo/mcp.json', typeText), workspace, typeText.lastIndexOf('""') + 1);
  assert.deepEqual(
    types.map((t) => t.label),
    ['stdio', 'sse', 'streamable-http'],
  );
  const gemini = completionsAt(
    workspace.parse('.gemini/settings.json', typeText),
    workspace,
    typeText.lastIndexOf('""') + 1,
  );
  assert.deepEqual(
    gemini.map((t) => t.label),
    ['stdio', 'sse', 'http'],
  );
});

test("completion in Codex's TOML offers a server table's keys, written as TOML, and nothing elsewhere", () => {
  const workspace = new Workspace('/work');
  const at = (marked: string) => {
    const offset = marked.indexOf('|');
    const text = marked.replace('|', '');
    return completionsAt(workspace.parse('.codex/config.toml', text), workspace, offset);
  };
  const marked = 'model = "o3"\n[mcp_servers.docs]\nurl = "https://docs.example.com/mcp"\nbea|\n';
  const typed = at(marked);
  const labels = typed.map((k) => k.label);
  assert.ok(labels.includes('bearer_token_env_var') && labels.includes('env_http_headers'), labels.join(','));
  assert.ok(!labels.includes('url'), 'a key the entry has is not offered again');
  assert.ok(!labels.includes('type'), 'Codex reads no type');
  const bearer = typed.find((k) => k.label === 'bearer_token_env_var')!;
  assert.equal(bearer.newText, 'bearer_token_env_var = ');
  // It replaces the word typed.
  assert.deepEqual(bearer.span, { start: marked.indexOf('bea'), end: marked.indexOf('|') });
  // A quoted server name; the blank line of a table.
  assert.ok(at('[mcp_servers."my docs"]\ncommand = "x"\n|\n').some((k) => k.label === 'args'));
  // Not in another table, not in a tool's table, not in an array, not before a key's `=`.
  for (const elsewhere of [
    '[profile]\n|',
    '[mcp_servers.docs.tools.search]\n|',
    '[mcp_servers.docs]\nargs = [\n|',
    '[mcp_servers.docs]\nargs = [\n  "a",\n|\n]\n',
    '[mcp_servers.docs]\ncommand = """\n|\n"""\n',
    '[mcp_servers.docs]\nco|mmand = "x"\n',
  ])
    assert.deepEqual(at(elsewhere), [], elsewhere);
  // Another TOML path is not Codex's: nothing.
  const text = '[mcp_servers.docs]\n\n';
  assert.deepEqual(completionsAt(workspace.parse('other/config.toml', text), workspace, text.length - 1), []);
});
