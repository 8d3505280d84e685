// What a client config's server runs, written one way whatever the client's syntax
// (core/catalog/clientServers.ts: whatRuns, runsDifferently), the project folder a client file
// belongs to, the index's revision, and client/differs-across-clients over the real corpus
// (test/corpus/clients) checked per source repository against the notes its EXPECTED.md lists.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, test } from 'node:test';
import {
  ClientServerIndex,
  clientServerRevision,
  clientServersOf,
  runsDifferently,
  whatRuns,
  type WhatRuns,
} from '../../server/src/core/catalog/clientServers.js';
import { checkFile } from '../../server/src/core/engine.js';
import { projectFolderOf } from '../../server/src/core/parse/clients.js';
import { readServerFile } from '../../server/src/core/parse/serverEntries.js';
import { Workspace } from '../../server/src/core/workspace.js';
import { walkFolder } from '../../server/src/node/walk.js';
import { failuresLogged, loadRecording } from '../helpers/fixtures.js';
import { temporaryDir } from '../helpers/tempDir.js';

const RULE = 'client/differs-across-clients';

/** What the one server of a client file runs. */
function runsOf(path: string, text: string): WhatRuns | undefined {
  const file = readServerFile(path, text);
  const entry = file.servers[0];
  assert.ok(entry, `${path}: no server`);
  return whatRuns(entry, file.kind.client);
}

const json = (key: string, entry: object) => JSON.stringify({ [key]: { s: entry } });

describe('whatRuns and runsDifferently', () => {
  test("equivalent definitions in each client's own syntax run the same", () => {
    const stdio = [
      runsOf(
        '.vscode/mcp.json',
        json('servers', {
          type: 'stdio',
          command: 'npx',
          args: ['-y', 'pkg@1.2.3', '--token', '${input:api-token}', '--dir', '${workspaceFolder}/src'],
        }),
      ),
      runsOf(
        '.mcp.json',
        json('mcpServers', { command: 'npx', args: ['pkg@1.2.3', '--token', '${API_TOKEN:-}', '--dir', './src'] }),
      ),
      runsOf(
        '.gemini/settings.json',
        json('mcpServers', { command: 'npx', args: ['--yes', 'pkg@1.2.3', '--token', '$API_TOKEN', '--dir', 'src'] }),
      ),
      runsOf(
        '.cursor/mcp.json',
        json('mcpServers', { command: 'npx.cmd', args: ['pkg@1.2.3', '--token', '${env:API_TOKEN}', '--dir', 'src'] }),
      ),
      runsOf(
        'opencode.json',
        json('mcp', {
          type: 'local',
          command: ['npx', '-y', 'pkg@1.2.3', '--token', '{env:API_TOKEN}', '--dir', 'src'],
        }),
      ),
      runsOf(
        '.kilocode/mcp.json',
        json('mcpServers', { command: 'npx', args: ['pkg@1.2.3', '--token', '${env:API_TOKEN}', '--dir', 'src'] }),
      ),
      runsOf(
        '.codex/config.toml',
        '[mcp_servers.s]\ncommand = "cmd"\nargs = ["/c", "npx", "-y", "pkg@1.2.3", "--token", "${API_TOKEN}", "--dir", "src"]\n',
      ),
      runsOf(
        '.continue/mcpServers/s.yaml',
        'name: s\nversion: 0.0.1\nmcpServers:\n  - name: s\n    command: npx\n    args: [pkg@1.2.3, --token, "${{ secrets.API_TOKEN }}", --dir, "${workspaceFolder}/src"]\n',
      ),
      runsOf(
        '.mcp.json',
        json('mcpServers', {
          command: 'npx',
          args: ['pkg@1.2.3', '--token', '${API_TOKEN}', '--dir', '${CLAUDE_PROJECT_DIR}/src'],
        }),
      ),
      runsOf(
        '.roo/mcp.json',
        json('mcpServers', {
          command: 'npx',
          args: ['pkg@1.2.3', '--token', '${process.env.API_TOKEN}', '--dir', 'src'],
        }),
      ),
    ];
    for (const runs of stdio) assert.deepEqual(runsDifferently(stdio[0]!, runs!), [], JSON.stringify(runs));
    const remote = [
      runsOf('.vscode/mcp.json', json('servers', { type: 'sse', url: 'https://Docs.Example.com/mcp/' })),
      runsOf('.gemini/settings.json', json('mcpServers', { httpUrl: 'https://docs.example.com/mcp' })),
      runsOf('.codex/config.toml', '[mcp_servers.s]\nurl = "https://docs.example.com/mcp"\n'),
      runsOf('.zed/settings.json', json('context_servers', { url: 'https://docs.example.com/mcp' })),
      runsOf('.roo/mcp.json', json('mcpServers', { type: 'streamable-http', url: 'https://docs.example.com/mcp' })),
      runsOf('.cursor/mcp.json', json('mcpServers', { url: 'https://docs.example.com/mcp' })),
    ];
    for (const runs of remote) assert.deepEqual(runsDifferently(remote[1]!, runs!), [], JSON.stringify(runs));
  });

  test('what differs is named: transport, command, arguments, package version, URL', () => {
    const npx = (...args: string[]) => ({ transport: 'stdio' as const, command: 'npx', args });
    const cases: [WhatRuns, WhatRuns, string[]][] = [
      [npx('pkg@1.2.3'), npx('pkg@2.0.0'), ['package version']],
      [npx('pkg'), npx('pkg@latest'), ['package version']],
      [npx('@s/pkg@1', '--x'), npx('@s/pkg@2', '--x'), ['package version']],
      [npx('pkg@1', '--port=1'), npx('pkg@1', '--port=2'), ['arguments']],
      [npx('pkg@1'), npx('other@1'), ['arguments']],
      [npx('pkg@1', 'localhost:8080'), npx('pkg@1', 'localhost:9090'), ['arguments']],
      [npx('pkg@1'), npx('pkg@1', '--verbose'), ['arguments']],
      [
        { transport: 'stdio', command: 'uvx', args: ['pkg==1.0'] },
        { transport: 'stdio', command: 'uvx', args: ['pkg==1.1'] },
        ['package version'],
      ],
      [
        { transport: 'stdio', command: 'docker', args: ['run', 'img:1'] },
        { transport: 'stdio', command: 'podman', args: ['run', 'img:2'] },
        ['command', 'package version'],
      ],
      [npx('pkg@1'), { transport: 'http', url: 'https://x/mcp' }, ['transport']],
      [{ transport: 'http', url: 'https://x/mcp' }, { transport: 'sse', url: 'https://x/sse' }, ['transport', 'URL']],
      [{ transport: 'remote', url: 'https://x/mcp' }, { transport: 'sse', url: 'https://x/mcp' }, []],
    ];
    for (const [a, b, want] of cases) {
      assert.deepEqual(runsDifferently(a, b), want, `${JSON.stringify(a)} / ${JSON.stringify(b)}`);
      assert.deepEqual(runsDifferently(b, a), want, `${JSON.stringify(b)} / ${JSON.stringify(a)}`);
    }
  });

  test('options written one after the other are read in any order; a value keeps its place', () => {
    const docker = (...args: string[]) =>
      runsOf('.mcp.json', json('mcpServers', { command: 'docker', args: ['run', ...args] }))!;
    assert.deepEqual(runsDifferently(docker('--rm', '-i', 'img:1'), docker('-i', '--rm', 'img:1')), []);
    assert.deepEqual(runsDifferently(docker('-e', 'A=1', '-i', 'img:1'), docker('-e', 'A=2', '-i', 'img:1')), [
      'arguments',
    ]);
  });

  test('references to different variables, or a reference against a literal, differ as written', () => {
    const a = runsOf('.mcp.json', json('mcpServers', { command: 'srv', args: ['--token', '${GITHUB_TOKEN}'] }))!;
    const b = runsOf('.mcp.json', json('mcpServers', { command: 'srv', args: ['--token', '${GH_TOKEN}'] }))!;
    const c = runsOf('.mcp.json', json('mcpServers', { command: 'srv', args: ['--token', 'literal'] }))!;
    assert.deepEqual(runsDifferently(a, b), ['arguments']);
    assert.deepEqual(runsDifferently(a, c), ['arguments']);
  });

  test('an entry that starts nothing by itself, or a url in Claude Desktop, runs nothing to compare', () => {
    assert.equal(runsOf('.codex/config.toml', '[mcp_servers.s]\nenabled = false\n'), undefined);
    assert.equal(runsOf('.zed/settings.json', json('context_servers', { settings: {} })), undefined);
    assert.equal(runsOf('claude_desktop_config.json', json('mcpServers', { url: 'https://x/mcp' })), undefined);
  });
});

test('the project folder of a client file is the folder its client is opened in', () => {
  const cases: [string, string][] = [
    ['.vscode/mcp.json', ''],
    ['.mcp.json', ''],
    ['a/b/.mcp.json', 'a/b'],
    ['a/.cursor/mcp.json', 'a'],
    ['a/.continue/mcpServers/x.yaml', 'a'],
    ['a\\b\\.codex\\config.toml', 'a/b'],
    ['a/claude_desktop_config.json', 'a'],
    ['a/servers.json', 'a'],
  ];
  for (const [path, project] of cases) assert.equal(projectFolderOf(path), project, path);
});

describe('the index of client servers', () => {
  const workspace = new Workspace('/w');
  const servers = (path: string, text: string) => clientServersOf(workspace.parse(path, text));
  const vscode = (args: string[]) => servers('.vscode/mcp.json', json('servers', { command: 'npx', args }));
  const claude = (name: string, args: string[]) =>
    servers('.mcp.json', JSON.stringify({ mcpServers: { [name]: { command: 'npx', args } } }));

  test("a change only another client's file of the project can see changes the revision", () => {
    const index = new ClientServerIndex();
    assert.equal(index.setFile('.vscode/mcp.json', vscode(['pkg@1'])), false, 'no one else names "s"');
    const first = clientServerRevision(index);
    assert.equal(index.setFile('.mcp.json', claude('s', ['pkg@2'])), true, 'VS Code names "s" too');
    const second = clientServerRevision(index);
    assert.notEqual(second, first);
    const [server] = vscode(['pkg@1']);
    assert.deepEqual(
      index.differing(server!).map((o) => [o.server.file, o.differences]),
      [['.mcp.json', ['package version']]],
    );
    assert.equal(index.setFile('.mcp.json', claude('s', ['pkg@2'])), false, 'the same servers again');
    assert.equal(
      index.setFile(
        'a/.cursor/mcp.json',
        servers('a/.cursor/mcp.json', JSON.stringify({ mcpServers: { s: { command: 'npx', args: ['pkg@3'] } } })),
      ),
      false,
      'another project',
    );
    assert.equal(clientServerRevision(index), second);
    assert.equal(index.setFile('.mcp.json', []), true, 'gone');
    assert.deepEqual(index.differing(server!), []);
  });

  test('two files of one client are its one view, not compared', () => {
    const index = new ClientServerIndex();
    const block = (file: string, version: string) =>
      servers(
        file,
        `name: s\nversion: 0.0.1\nmcpServers:\n  - name: s\n    command: npx\n    args: [pkg@${version}]\n`,
      );
    index.setFile('.continue/mcpServers/a.yaml', block('.continue/mcpServers/a.yaml', '1'));
    index.setFile('.continue/mcpServers/b.yaml', block('.continue/mcpServers/b.yaml', '2'));
    assert.deepEqual(index.differing(block('.continue/mcpServers/a.yaml', '1')[0]!), []);
  });
});

describe('client/differs-across-clients over the real corpus, per source repository', () => {
  const corpus = join(__dirname, '..', 'corpus', 'clients');
  const files = walkFolder(corpus, { ignoredDirs: [], wanted: (rel) => !/^(README|EXPECTED)\.md$/.test(rel) })
    .files.map((f) => relative(corpus, f.path).split('\\').join('/'))
    .sort();

  /** The notes EXPECTED.md lists: `corpus path|server|other corpus path`. */
  function expectedNotes(): string[] {
    const text = readFileSync(join(corpus, 'EXPECTED.md'), 'utf8');
    const start = text.indexOf('## Notes across clients');
    const section = text.slice(start, text.indexOf('\n## ', start + 1));
    return [...section.matchAll(/^\| `([^`]+)` \| `([^`]+)` \| `([^`]+)` \|$/gm)]
      .map((m) => `${m[1]}|${m[2]}|${m[3]}`)
      .sort();
  }

  test('the corpus laid out by client is no project: nothing is compared', () => {
    const logged: string[] = [];
    const loaded = loadRecording({ paths: ['.'], cwd: corpus }, logged);
    const notes = loaded.files.flatMap((f) => checkFile(f, loaded.workspace).findings.filter((x) => x.rule === RULE));
    assert.equal(failuresLogged(logged), undefined);
    assert.deepEqual(notes, []);
  });

  test('each repository as it has its files gets exactly the notes EXPECTED.md lists', () => {
    // `<client>/<owner>__<repo>/<path>` put back at `<owner>__<repo>/<path>`, one workspace per repository.
    const byRepo = new Map<string, Map<string, string>>();
    for (const path of files) {
      const [, repo, ...rest] = path.split('/');
      const back = byRepo.get(repo!) ?? new Map<string, string>();
      back.set(rest.join('/'), path);
      byRepo.set(repo!, back);
    }
    assert.ok(byRepo.size >= 50, `only ${byRepo.size} repositories`);
    const found: string[] = [];
    let multiClient = 0;
    for (const [repo, back] of byRepo) {
      const dir = temporaryDir('tool-lens-across-');
      for (const [inRepo, path] of back) {
        mkdirSync(dirname(join(dir, inRepo)), { recursive: true });
        cpSync(join(corpus, path), join(dir, inRepo));
      }
      if (new Set([...back.values()].map((p) => p.split('/')[0])).size > 1) multiClient++;
      const logged: string[] = [];
      const loaded = loadRecording({ paths: ['.'], cwd: dir }, logged);
      assert.equal(failuresLogged(logged), undefined, repo);
      for (const file of loaded.files) {
        for (const note of checkFile(file, loaded.workspace).findings.filter((x) => x.rule === RULE)) {
          const name = file.source.text.slice(note.span.start, note.span.end).replace(/^"|"$/g, '');
          for (const other of note.related ?? [])
            found.push(`${back.get(file.path)}|${name}|${back.get(other.file ?? file.path)}`);
        }
      }
    }
    assert.ok(multiClient >= 12, `only ${multiClient} repositories with several clients`);
    assert.deepEqual(found.sort(), expectedNotes(), 'the notes over the corpus (triage new ones into EXPECTED.md)');
  });
});
