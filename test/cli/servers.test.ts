// `tool-lens servers`: every server the client configurations declare, across clients, with how
// the client starts it (credentials masked) and whether what it fetches is pinned.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from './harness.js';

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tool-lens-servers-'));
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write(
    '.vscode/mcp.json',
    '{\n  // comments and trailing commas\n  "servers": {\n    "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github@2025.4.8"],},\n  },\n}\n',
  );
  write(
    '.roo/mcp.json',
    JSON.stringify({
      mcpServers: {
        supabase: {
          command: 'npx',
          args: [
            '-y',
            '@supabase/mcp-server-supabase@latest',
            '--access-token',
            'sbp_0123456789abcdef0123456789abcdef01234567',
          ],
        },
        docs: { type: 'streamable-http', url: 'https://docs.example.com/mcp' },
      },
    }),
  );
  write('notes.json', '{"title": "not a client config"}');
  // The same github server in Cursor's syntax; another docs server in Claude Code's.
  write(
    '.cursor/mcp.json',
    JSON.stringify({
      mcpServers: { github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github@2025.4.8'] } },
    }),
  );
  write(
    '.mcp.json',
    JSON.stringify({ mcpServers: { docs: { type: 'http', url: 'https://docs.example.com/v2/mcp' } } }),
  );
  return dir;
}

test('lists every server of every client, masking credentials', () => {
  const run = runCli(['servers', '--format', 'json'], { cwd: workspace() });
  assert.equal(run.code, 0, run.stderr);
  const parsed = JSON.parse(run.stdout) as { version: number; servers: Record<string, unknown>[] };
  assert.equal(parsed.version, 1);
  const rows = parsed.servers
    .filter((s) => s.path === '.roo/mcp.json' || s.path === '.vscode/mcp.json')
    .map((s) => [s.client, s.name, s.transport, s.pinned, s.start, s.path, s.line]);
  assert.deepEqual(rows, [
    [
      'Roo Code',
      'supabase',
      'stdio',
      'unpinned',
      'npx -y @supabase/mcp-server-supabase@latest --access-token ***',
      '.roo/mcp.json',
      1,
    ],
    ['Roo Code', 'docs', 'remote', 'n/a', 'https://docs.example.com/mcp', '.roo/mcp.json', 1],
    [
      'VS Code',
      'github',
      'stdio',
      'pinned',
      'npx -y @modelcontextprotocol/server-github@2025.4.8',
      '.vscode/mcp.json',
      4,
    ],
  ]);
  assert.doesNotMatch(run.stdout, /sbp_/);
});

test('a server named alike in two clients that runs something else is marked at both; an equivalent one is not', () => {
  const run = runCli(['servers', '--format', 'json'], { cwd: workspace() });
  assert.equal(run.code, 0, run.stderr);
  const rows = (
    JSON.parse(run.stdout) as { servers: { client: string; name: string; differsFrom: { client: string }[] }[] }
  ).servers;
  const differs = rows.map((r) => [r.client, r.name, r.differsFrom.map((d) => d.client)]);
  assert.deepEqual(differs, [
    ['Cursor', 'github', []],
    ['Claude Code', 'docs', ['Roo Code']],
    ['Roo Code', 'supabase', []],
    ['Roo Code', 'docs', ['Claude Code']],
    ['VS Code', 'github', []],
  ]);
});

test('the table has one row per server', () => {
  const run = runCli(['servers', '--no-color'], { cwd: workspace() });
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^CLIENT\s+NAME\s+PINNED\s+STARTS\s+FILE$/);
  assert.equal(lines.length, 6);
  assert.doesNotMatch(run.stdout, /sbp_/);
});
