// The CLI (node/loader.ts) and the language server (lsp/session.ts) discover the same files, in the
// same order, with node/discovery.ts's rules: the files to check, the catalog files in the order
// they join the catalog, and which file each server comes from (the first of a name wins). Run on
// examples/, the clean corpus, and a workspace built for the edges: ignored folders at any depth,
// dot-folders, an upper-case extension, catalog globs naming a file with another extension, a
// forced kind, one server name in several files, and symbolic links (to `/`, out of the folder, a
// loop, to a file inside, a catalog glob through a link to a folder inside and one through a link
// out); and once more with the files arriving as file-watch events after the server has read the
// folder. With the walk that followed links, the link to `/` made both read the whole machine.
// The CLI given one file of the folder reads the same catalog as for the whole folder.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import type { Workspace } from '../../server/src/core/workspace.js';
import { WATCHED_GLOBS } from '../../server/src/lsp/handlers.js';
import { Session } from '../../server/src/lsp/session.js';
import { CHECKED_GLOB, isCheckedPath, walkCheckedFiles } from '../../server/src/node/discovery.js';
import { loadWorkspace } from '../../server/src/node/loader.js';
import { linksOutNote } from '../../server/src/node/walk.js';
import { toPosix } from '../../server/src/node/paths.js';

const ROOT = join(__dirname, '..', '..');

interface Discovered {
  /** Absolute paths of the files checked, in order. */
  files: string[];
  /** The note on the links not followed (the CLI's stderr line, the server's log line). */
  note?: string;
  /** Absolute paths of the catalog files, in the order they joined the catalog. */
  catalogFiles: string[];
  /** Each server with the absolute path of the file it was taken from. */
  servers: Record<string, string>;
}

function catalogOf(workspace: Workspace, root: string): Omit<Discovered, 'files'> {
  const catalog = workspace.catalog;
  const servers: Record<string, string> = {};
  for (const name of catalog.serverNames) servers[name] = resolve(root, catalog.server(name)!.origin.file);
  return { catalogFiles: catalog.files.map((file) => resolve(root, file)), servers };
}

function byCli(folder: string): Discovered {
  const loaded = loadWorkspace({ paths: ['.'], cwd: folder });
  assert.deepEqual(loaded.configProblems, []);
  return {
    files: loaded.files.map((file) => resolve(folder, file.path)),
    note: linksOutNote(loaded.linksOut, folder),
    ...catalogOf(loaded.workspace, folder),
  };
}

function serverSession(folder: string): { session: Session; logs: string[] } {
  const logs: string[] = [];
  // Every line but the informational ones of a read and its catalog (test/lsp/log.test.ts has those).
  const session = new Session((message) => {
    if (!/^(read |catalog of )/.test(message)) logs.push(message);
  });
  session.setRoot(pathToFileURL(folder).href);
  session.load();
  return { session, logs };
}

function byServer(session: Session, folder: string): Discovered {
  const files = session
    .checkedEntries()
    .filter((entry) => !session.isConfig(entry))
    .map((entry) => session.absolute(entry.path));
  return { files, ...catalogOf(session.workspace, folder) };
}

function assertSame(folder: string, cli: Discovered, server: Discovered): void {
  const show = (paths: string[]) => paths.map((path) => toPosix(relative(folder, path)));
  assert.deepEqual(show(server.files), show(cli.files), 'the files to check, in order');
  assert.deepEqual(show(server.catalogFiles), show(cli.catalogFiles), 'the catalog files, in the order they join');
  assert.deepEqual(server.servers, cli.servers, 'the file each server comes from');
}

/** Every file under a folder, relative, posix separators, ignored folders included. */
function allFilesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      toPosix(relative(folder, join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name))),
    )
    .sort();
}

const catalogYaml = (server: string, tool: string) =>
  `catalog: 1\nservers:\n  - name: ${server}\n    tools:\n      - name: ${tool}\n        inputSchema: {type: object}\n`;

// The edge workspace: `a-ws/` is the folder, `z-outside/` sorts after it and holds a catalog a glob
// names. Several files describe the server `shared`; which one wins shows the order.
const EDGE_FILES: Record<string, string> = {
  'a-ws/.toollens.yaml':
    "catalogs:\n  - vendor/*.snapshot\n  - linked/*.yaml\n  - pinned/*.snapshot\nkinds:\n  tool-catalog: ['forced/**']\n",
  'a-ws/catalogs/alpha.catalog.yaml': catalogYaml('shared', 'from_alpha') + '  - name: alpha\n    tools: []\n',
  'a-ws/catalogs/beta.tools.json': '{"tools": [{"name": "b", "inputSchema": {"type": "object"}}]}\n',
  'a-ws/b/shared.catalog.yaml': catalogYaml('shared', 'from_b'),
  'a-ws/vendor/gamma.snapshot': catalogYaml('shared', 'from_gamma') + '  - name: gamma\n    tools: []\n',
  'a-ws/vendor/ignored.snapshot.txt': catalogYaml('never', 'x'),
  'a-ws/forced/zeta.yaml': 'tools:\n  - name: z\n',
  'a-ws/.hidden/epsilon.catalog.yaml': catalogYaml('epsilon', 'e'),
  'a-ws/node_modules/pkg/catalog.yaml': catalogYaml('from_node_modules', 'x'),
  'a-ws/sub/node_modules/deep.catalog.yaml': catalogYaml('from_deep_node_modules', 'x'),
  'a-ws/.git/stray.catalog.yaml': catalogYaml('from_git', 'x'),
  'a-ws/UPPER.YAML': catalogYaml('upper', 'x'),
  'a-ws/notes.txt': 'catalog: 1\n',
  'a-ws/gateways/gw.vmcp.yaml': 'name: gw\ngroupRef: g\ncompositeTools: []\n',
  'a-ws/calls/session.calls.jsonl': '{"tool": "alpha.x", "arguments": {}}\n',
  'a-ws/pinned-target/pinned.snapshot': catalogYaml('pinned', 'p'),
  'z-outside/delta.yaml': catalogYaml('shared', 'from_delta') + '  - name: delta\n    tools: []\n',
  'z-outside/leak.tools.json': '{"tools": [{"name": "leak", "inputSchema": {"type": "object"}}]}\n',
};

// Symbolic links of the edge workspace: path -> what it points to (relative to the link's folder).
const EDGE_LINKS: Record<string, string> = {
  'a-ws/root': '/', // out, to the whole machine
  'a-ws/linked': '../z-outside', // out, and a catalog glob names files through it
  'a-ws/leak.tools.json': '../z-outside/leak.tools.json', // a file out
  'a-ws/b/up': '..', // a loop: every file again under b/up/
  'a-ws/alias.catalog.yaml': 'b/shared.catalog.yaml', // a second name of a file inside
  'a-ws/pinned': 'pinned-target', // a folder inside, through which a catalog glob names its files
};

function writeLinks(base: string, links: Record<string, string>): void {
  for (const [path, target] of Object.entries(links)) symlinkSync(target, join(base, path));
}

function writeTree(base: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), text);
  }
}

describe('the CLI and the language server discover the same files in the same order', () => {
  const temporary: string[] = [];
  after(() => {
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  });

  for (const name of ['examples', 'test/corpus/clean']) {
    test(name, () => {
      const folder = join(ROOT, name);
      const cli = byCli(folder);
      const { session, logs } = serverSession(folder);
      assertSame(folder, cli, byServer(session, folder));
      assert.ok(cli.files.length >= 8 && cli.catalogFiles.length >= 3, `${name} has files and catalogs to compare`);
      assert.deepEqual(logs, []);
      // Whatever file the CLI is given, it reads the workspace's catalog as the server does.
      for (const file of cli.files) {
        const one = loadWorkspace({ paths: [relative(folder, file)], cwd: folder });
        assert.deepEqual(
          one.files.map((parsed) => resolve(folder, parsed.path)),
          [file],
        );
        const { catalogFiles, servers } = catalogOf(one.workspace, folder);
        assert.deepEqual(
          { catalogFiles, servers },
          { catalogFiles: cli.catalogFiles, servers: cli.servers },
          `check ${relative(folder, file)}`,
        );
      }
    });
  }

  test('a workspace built for the edges', () => {
    const base = mkdtempSync(join(tmpdir(), 'tool-lens-discovery-'));
    temporary.push(base);
    writeTree(base, EDGE_FILES);
    writeLinks(base, EDGE_LINKS);
    const folder = join(base, 'a-ws');
    const cli = byCli(folder);
    const { session, logs } = serverSession(folder);
    assertSame(folder, cli, byServer(session, folder));
    // The links out are said once, by both, and nothing else is logged.
    assert.deepEqual(logs, [`Tool Lens ${cli.note}`]);
    assert.equal(
      cli.note,
      `did not follow 3 symbolic links that lead out of the folder being read, so nothing behind them is checked: leak.tools.json -> ${toPosix(join(base, 'z-outside/leak.tools.json'))}, linked -> ${toPosix(join(base, 'z-outside'))}, root -> /`,
    );

    // What the rules say, so the comparison above is not between two empty lists.
    const show = (paths: string[]) => paths.map((path) => toPosix(relative(folder, path)));
    assert.deepEqual(show(cli.files), [
      '.hidden/epsilon.catalog.yaml',
      'b/shared.catalog.yaml',
      'calls/session.calls.jsonl',
      'catalogs/alpha.catalog.yaml',
      'catalogs/beta.tools.json',
      'forced/zeta.yaml',
      'gateways/gw.vmcp.yaml',
    ]);
    // Named by a glob first, by path (the one through the link inside by where it lies), then the
    // catalogs found, by path; nothing through the links out, nothing twice.
    assert.deepEqual(show(cli.catalogFiles), [
      'pinned-target/pinned.snapshot',
      'vendor/gamma.snapshot',
      '.hidden/epsilon.catalog.yaml',
      'b/shared.catalog.yaml',
      'catalogs/alpha.catalog.yaml',
      'catalogs/beta.tools.json',
      'forced/zeta.yaml',
    ]);
    assert.equal(show([cli.servers.shared!])[0], 'vendor/gamma.snapshot');
    assert.deepEqual(Object.keys(cli.servers).sort(), [
      'alpha',
      'beta',
      'epsilon',
      'gamma',
      'pinned',
      'shared',
      'zeta',
    ]);
  });

  test('files that arrive as file-watch events follow the same rules', async () => {
    const base = mkdtempSync(join(tmpdir(), 'tool-lens-discovery-'));
    temporary.push(base);
    // The server reads a folder that holds only its configuration; then every other file appears.
    const initial = Object.fromEntries(
      Object.entries(EDGE_FILES).filter(([path]) => path === 'a-ws/.toollens.yaml' || !path.startsWith('a-ws/')),
    );
    writeTree(base, initial);
    const folder = join(base, 'a-ws');
    const { session, logs } = serverSession(folder);
    const arriving = Object.keys(EDGE_FILES)
      .filter((path) => !(path in initial))
      .reverse();
    writeTree(base, Object.fromEntries(arriving.map((path) => [path, EDGE_FILES[path]!])));
    writeLinks(base, EDGE_LINKS);
    // Events for the links too, and for files through them (a watcher may report either).
    const throughLinks = [
      'a-ws/linked/delta.yaml',
      'a-ws/b/up/b/shared.catalog.yaml',
      'a-ws/pinned/pinned.snapshot',
      'a-ws/root/etc/hostname',
    ];
    for (const path of [...arriving, ...Object.keys(EDGE_LINKS), ...throughLinks]) {
      await session.diskChanged(pathToFileURL(join(base, path)).href, 'created');
    }
    const server = byServer(session, folder);
    // The server's entries are in the order the events came; its catalog's order is the rule's.
    assertSame(folder, byCli(folder), { ...server, files: [...server.files].sort() });
    assert.deepEqual(logs, []);
  });

  test('the watch-event test agrees with the folder walk on every file', () => {
    const base = mkdtempSync(join(tmpdir(), 'tool-lens-discovery-'));
    temporary.push(base);
    writeTree(base, {
      ...EDGE_FILES,
      'a-ws/.yaml': 'a: 1\n',
      'a-ws/x.json.bak': '{}',
      'a-ws/.github/workflows/ci.yml': 'on: push\n',
    });
    writeLinks(base, EDGE_LINKS);
    for (const folder of [join(base, 'a-ws'), join(ROOT, 'examples'), join(ROOT, 'test/corpus/clean')]) {
      const walked = new Set(walkCheckedFiles(folder).files.map((file) => toPosix(relative(folder, file.path))));
      for (const path of allFilesUnder(folder)) assert.equal(isCheckedPath(path), walked.has(path), path);
    }
    // The editor is asked to watch what the walk finds.
    assert.equal(WATCHED_GLOBS[0], CHECKED_GLOB);
  });
});
