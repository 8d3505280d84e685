// The output channel (issue 12): the server's log lines (window/logMessage, which the VS Code client
// writes to the "Tool Lens" output channel) say which Tool Lens runs, on which folder, with which
// configuration, each catalog loaded, how long the first checks took, and any rule that failed.
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { version } from '../../package.json';
import { checkFile } from '../../server/src/core/engine.js';
import type { Rule } from '../../server/src/core/rules/rule.js';
import type { CatalogState } from '../../server/src/lsp/protocol.js';
import { makeWorkspace, startInProcess, type InProcess } from './harness.js';
import { CATALOG, CATALOG_PATH, WORKFLOW, WORKFLOW_PATH } from './workspace.js';

describe('the log lines of the output channel', () => {
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;

  before(async () => {
    ws = makeWorkspace({
      [CATALOG_PATH]: CATALOG,
      [WORKFLOW_PATH]: WORKFLOW,
      '.toollens.yaml': 'rules:\n  template/not-upstream: error\n',
    });
    server = startInProcess();
    await server.client.initialize(ws.root);
  });

  after(async () => {
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
  });

  const logs = () => server.client.logs;
  const line = (pattern: RegExp) => logs().find((l) => pattern.test(l));

  test('the version, the Node it runs on and the workspace folder', () => {
    const start = line(/^Tool Lens /);
    assert.ok(start, `a start line in ${JSON.stringify(logs())}`);
    assert.ok(start.startsWith(`Tool Lens ${version} language server (Node ${process.version})`), start);
    assert.ok(start.includes(`workspace folder ${pathToFileURL(ws.root).href}`), start);
    assert.match(start, /not trusted: no live fetches$/);
  });

  test('the read of the folder, with its file count, its time and the configuration in use', () => {
    const read = line(/^read /);
    assert.ok(read, JSON.stringify(logs()));
    assert.match(
      read,
      new RegExp(
        `^read ${ws.root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 3 files in \\d+ ms; configuration \\.toollens\\.yaml$`,
      ),
    );
    const state = server.client.catalogStates.at(-1) as CatalogState;
    assert.deepEqual(state.configs, [pathToFileURL(join(ws.root, '.toollens.yaml')).href]);
  });

  test('each catalog loaded: its tools, namespaces, file and fetch time', () => {
    const catalog = line(/^catalog of /);
    assert.ok(catalog, JSON.stringify(logs()));
    assert.equal(
      catalog,
      [
        `catalog of ${ws.root}: 1 server from 1 file`,
        '  catalog "filesystem": 2 tools, 1 namespace (1 dynamic tool), from catalogs/filesystem.catalog.yaml, fetched 2026-11-27T09:10:00Z',
      ].join('\n'),
    );
  });

  test('a catalog that changes is logged again, once', async () => {
    const before = logs().filter((l) => l.startsWith('catalog of ')).length;
    const uri = ws.uri(CATALOG_PATH);
    await server.client.open(
      uri,
      CATALOG.replace(
        '      - name: write_file',
        '      - name: move_file\n        inputSchema: {type: object}\n      - name: write_file',
      ),
    );
    await server.client.waitFor(
      () => logs().filter((l) => l.startsWith('catalog of ')).length > before,
      'the changed catalog in the log',
    );
    const latest = logs()
      .filter((l) => l.startsWith('catalog of '))
      .at(-1)!;
    assert.match(latest, /"filesystem": 3 tools/);
    await server.client.close(uri);
  });

  test('the time of the first check', async () => {
    await server.client.open(ws.uri(WORKFLOW_PATH), WORKFLOW);
    await server.client.pullItems(ws.uri(WORKFLOW_PATH));
    await server.client.waitFor(() => line(/^first check: /) !== undefined, 'the first check line');
    assert.match(line(/^first check: /)!, /^first check: .+ in \d+(\.\d)? ms, \d+ findings?$/);
    await server.client.close(ws.uri(WORKFLOW_PATH));
  });

  test('a rule that fails on a file of the folder is logged with the rule and the file', async () => {
    const throwing: Rule = {
      id: 'lens/throws-for-the-log-test',
      defaultSeverity: 'error',
      summary: 'Throws.',
      kinds: '*',
      messages: {},
      check() {
        throw new Error('boom for the log test');
      },
    };
    const session = server.server.session;
    const entry = [...session.entries.values()].find((e) => e.path.endsWith(WORKFLOW_PATH))!;
    checkFile(session.fileOf(entry)!, session.workspace, [throwing]);
    await server.client.waitFor(
      () => line(/^rule lens\/throws-for-the-log-test failed on /) !== undefined,
      'the rule failure in the log',
    );
    assert.match(
      line(/^rule lens\/throws-for-the-log-test failed on /)!,
      /gateways\/docs\.vmcp\.yaml: Error: boom for the log test/,
    );
  });
});
