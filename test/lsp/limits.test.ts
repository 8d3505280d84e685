// The language server with hostile files merely present in the workspace: it reads them through
// the same parse as the CLI, so each is declined where a limit applies and the rest is checked.
// (The old server died of memory on the wide alias bomb before answering anything.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { WorkspaceDiagnosticRequest, type Diagnostic, type WorkspaceDiagnosticReport } from 'vscode-languageserver-protocol/node';
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
    const report: WorkspaceDiagnosticReport = await server.client.connection.sendRequest(WorkspaceDiagnosticRequest.type, { previousResultIds: [] });
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
