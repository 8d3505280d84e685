// The language server with hostile files merely present in the workspace: it reads them through
// the same parse as the CLI, so each is declined where a limit applies and the rest is checked.
// (The old server died of memory on the wide alias bomb before answering anything.)
import assert from 'node:assert/strict';
import { truncateSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  DidChangeWatchedFilesNotification,
  FileChangeType,
  WorkspaceDiagnosticRequest,
  type Diagnostic,
  type WorkspaceDiagnosticReport,
} from 'vscode-languageserver-protocol/node';
import { LIMITS } from '../../server/src/core/limits.js';
import { makeWorkspace, startInProcess, type InProcess } from './harness.js';
import { CATALOG, CATALOG_PATH } from './workspace.js';

const BOMB = 'gateways/bomb.vmcp.yaml';
const DEEP = 'gateways/deep.vmcp.json';
const LARGE = 'gateways/large.vmcp.yaml';

// 9,000 aliases of one 5,000-item anchor (37 KB), beside a composite that claims to be read-only over a write.
const bombText = [
  'name: docs-gateway',
  'groupRef: docs',
  'incomingAuth: {type: anonymous}',
  'outgoingAuth: {source: inline}',
  'aggregation: {conflictResolution: prefix, conflictResolutionConfig: {prefixFormat: "{workload}_"}}',
  'compositeTools:',
  '  - name: publish',
  '    description: Write the index.',
  '    parameters:',
  '      type: object',
  '      properties:',
  `        grid: {type: array, default: &grid [${Array(5000).fill('0').join(',')}]}`,
  `        grids: {type: array, default: [${Array(9000).fill('*grid').join(',')}]}`,
  '    annotations: {readOnlyHint: true}',
  '    steps:',
  '      - {id: write, tool: filesystem.write_file, arguments: {path: index.md, content: x}}',
  '',
].join('\n');
// The same composite in JSON, beside a 6,000-deep array.
const deepText = `{"name": "docs-gateway", "groupRef": "docs", "incomingAuth": {"type": "anonymous"}, "outgoingAuth": {"source": "inline"}, "aggregation": {"conflictResolution": "prefix", "conflictResolutionConfig": {"prefixFormat": "{workload}_"}}, "compositeTools": [{"name": "publish", "description": "Write the index.", "parameters": {"type": "object", "properties": {"shape": {"type": "array", "default": ${'['.repeat(6000)}${']'.repeat(6000)}}}}, "annotations": {"readOnlyHint": true}, "steps": [{"id": "write", "tool": "filesystem.write_file", "arguments": {"path": "index.md", "content": "x"}}]}]}\n`;
const largeText = `compositeTools: []\n# ${'x'.repeat(LIMITS.fileBytes)}\n`;

const rules = (items: Diagnostic[]) => items.map((d) => String(d.code)).sort();

describe('language server with hostile files in the workspace', () => {
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;

  before(async () => {
    ws = makeWorkspace({ [CATALOG_PATH]: CATALOG, [BOMB]: bombText, [DEEP]: deepText, [LARGE]: largeText });
    server = startInProcess();
    await server.client.initialize(ws.root);
  });

  after(async () => {
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
  });

  test('workspace diagnostics: each file declined where a limit applies, the contradictions still found', async () => {
    const report: WorkspaceDiagnosticReport = await server.client.connection.sendRequest(
      WorkspaceDiagnosticRequest.type,
      { previousResultIds: [] },
    );
    const itemsOf = (path: string) => {
      const item = report.items.find((i) => i.uri === ws.uri(path));
      assert.ok(item?.kind === 'full', `${path} is reported`);
      return item.items;
    };
    assert.deepEqual(rules(itemsOf(BOMB)), ['annotations/contradiction', 'lens/declined']);
    assert.deepEqual(rules(itemsOf(DEEP)), ['annotations/contradiction', 'lens/declined']);
    assert.deepEqual(rules(itemsOf(LARGE)), ['lens/declined']);
  });

  test('an edit to the bomb is checked like the file on disk', async () => {
    const uri = ws.uri(BOMB);
    await server.client.open(uri, bombText);
    await server.client.replaceAll(uri, bombText.replace('readOnlyHint: true', 'readOnlyHint: false'));
    assert.deepEqual(rules(await server.client.pullItems(uri)), ['lens/declined']);
    await server.client.close(uri);
  });
});

describe('language server under the limits of .toollens.yaml', () => {
  // A file of gigabytes merely present (sparse: it takes no room on disk), and an ordinary one of 300 KB.
  const HUGE = 'gateways/huge.vmcp.yaml';
  const MID = 'gateways/mid.vmcp.yaml';
  const midText = `compositeTools: []\n${`# ${'x'.repeat(98)}\n`.repeat(3 * 1024)}`;
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;
  const itemsOf = async (path: string) => {
    const report: WorkspaceDiagnosticReport = await server.client.connection.sendRequest(
      WorkspaceDiagnosticRequest.type,
      { previousResultIds: [] },
    );
    const item = report.items.find((i) => i.uri === ws.uri(path));
    assert.ok(item?.kind === 'full', `${path} is reported`);
    return item.items;
  };
  const messagesOf = async (path: string) =>
    (await itemsOf(path)).map(
      (d) => `${String(d.code)}: ${typeof d.message === 'string' ? d.message : d.message.value}`,
    );

  before(async () => {
    ws = makeWorkspace({
      [CATALOG_PATH]: CATALOG,
      [MID]: midText,
      [HUGE]: 'compositeTools: []\n',
      '.toollens.yaml': 'limits: {fileBytes: 262144}\n',
    });
    truncateSync(join(ws.root, HUGE), 3 * 1024 ** 3);
    server = startInProcess();
    await server.client.initialize(ws.root);
  });

  after(async () => {
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
  });

  test('a file of gigabytes is declined from its size on disk, without being read', async () => {
    const rss = process.memoryUsage().rss;
    assert.deepEqual(await messagesOf(HUGE), [
      'lens/declined: This file is 3.0 GB, more than the 256 KB Tool Lens reads: split it to have it checked.',
    ]);
    assert.deepEqual(await messagesOf(MID), [
      'lens/declined: This file is 303.1 KB, more than the 256 KB Tool Lens reads: split it to have it checked.',
    ]);
    // A change on disk is read the same way.
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: ws.uri(HUGE), type: FileChangeType.Changed }],
    });
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: ws.uri(MID), type: FileChangeType.Changed }],
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.match((await messagesOf(HUGE)).join('\n'), /^lens\/declined: This file is 3\.0 GB/);
    assert.equal((await itemsOf(MID)).length, 1);
    assert.ok(process.memoryUsage().rss - rss < 256 * 1024 * 1024, 'the server did not read the file');
  });

  test('a changed .toollens.yaml applies its limits at once: on disk, and in an open editor', async () => {
    let refreshes = server.client.refreshes;
    ws.write('.toollens.yaml', 'limits: {fileBytes: 16777216}\n');
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: ws.uri('.toollens.yaml'), type: FileChangeType.Changed }],
    });
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'a refresh after the configuration changed');
    assert.deepEqual(await messagesOf(MID), [], 'the raised limit reads the file declined before');
    assert.deepEqual(await messagesOf(HUGE), [
      'lens/declined: This file is 3.0 GB, more than the 16 MB Tool Lens reads: split it to have it checked.',
    ]);

    // In the editor: a lowered limit declines the file again; a value out of range is a problem
    // on the configuration, and the default applies meanwhile.
    const configUri = ws.uri('.toollens.yaml');
    await server.client.open(configUri, 'limits: {fileBytes: 16777216}\n');
    refreshes = server.client.refreshes;
    await server.client.replaceAll(configUri, 'limits: {fileBytes: 262144}\n');
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'a refresh after the edit');
    assert.deepEqual(
      (await itemsOf(MID)).map((d) => String(d.code)),
      ['lens/declined'],
    );
    await server.client.replaceAll(configUri, 'limits: {fileBytes: 1}\n');
    const problems = await server.client.pullItems(configUri);
    assert.deepEqual(
      problems.map((d) => [String(d.code), d.range.start.character]),
      [['schema/invalid-value', 20]],
    );
    assert.match(problems[0]!.message as string, /^fileBytes is 1 bytes, less than the 262,144 bytes \(256 KB\)/);
    assert.deepEqual(await messagesOf(MID), [], 'the default, 8 MB, reads it');
    assert.match((await messagesOf(HUGE))[0] ?? '', /more than the 8 MB Tool Lens reads/);
    await server.client.close(configUri);
  });
});
