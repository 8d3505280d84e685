// The bundled server as editors run it: `node dist/server.js --stdio`, driven over its pipes.
// Builds the bundle first when it is missing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CancellationTokenSource,
  CodeActionRequest,
  HoverRequest,
  WorkspaceDiagnosticRequest,
  type CodeAction,
  type Diagnostic,
  type Hover,
  type WorkspaceDiagnosticReport,
} from 'vscode-languageserver-protocol/node';
import { applyLspEdits, makeWorkspace, startStdio, type Spawned } from './harness.js';
import { CATALOG, CATALOG_PATH, WORKFLOW, WORKFLOW_PATH } from './workspace.js';

const ROOT = join(__dirname, '..', '..');
const SERVER = join(ROOT, 'dist', 'server.js');

const byRule = (items: Diagnostic[], rule: string) => items.filter((d) => d.code === rule);
const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length - 1;

describe('dist/server.js over stdio', () => {
  let server: Spawned;
  let ws: ReturnType<typeof makeWorkspace>;
  const workflowUri = () => ws.uri(WORKFLOW_PATH);
  const catalogUri = () => ws.uri(CATALOG_PATH);

  before(async () => {
    if (!existsSync(SERVER)) {
      const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(build.status, 0, `npm run build failed:\n${build.stdout}${build.stderr}`);
    }
    ws = makeWorkspace({ [CATALOG_PATH]: CATALOG, [WORKFLOW_PATH]: WORKFLOW });
    server = startStdio(SERVER);
    const result = await server.client.initialize(ws.root);
    assert.equal(result.serverInfo?.name, 'tool-lens');
  });

  after(() => {
    if (server.process.exitCode === null) server.process.kill();
    ws.dispose();
  });

  test('open a document and pull its diagnostics', async () => {
    await server.client.open(workflowUri(), WORKFLOW);
    const items = await server.client.pullItems(workflowUri());
    assert.equal(byRule(items, 'annotations/contradiction').length, 1);
    assert.equal(byRule(items, 'template/not-upstream').length, 1);
  });

  test('diagnostics follow an edit', async () => {
    await server.client.replaceAll(workflowUri(), WORKFLOW.replace('readOnlyHint: true', 'readOnlyHint: false'));
    assert.equal(byRule(await server.client.pullItems(workflowUri()), 'annotations/contradiction').length, 0);
    await server.client.replaceAll(workflowUri(), WORKFLOW);
    assert.equal(byRule(await server.client.pullItems(workflowUri()), 'annotations/contradiction').length, 1);
  });

  test('hover on the composite name holds the floor table', async () => {
    const hover = (await server.client.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: workflowUri() },
      position: { line: lineOf(WORKFLOW, '  - name: copy_readme'), character: 13 },
    })) as Hover;
    const markdown = (hover.contents as { value: string }).value;
    assert.match(markdown, /\| hint \| floor \| explicit \| advertised \| decided by \|/);
    assert.match(markdown, /\| readOnlyHint \| `false` \| `true` \| `true` \| `write` \|/);
  });

  test('a code action applied to the text gives the expected document', async () => {
    const [diagnostic] = byRule(await server.client.pullItems(workflowUri()), 'template/not-upstream');
    assert.ok(diagnostic);
    const actions = (await server.client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: workflowUri() },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    })) as CodeAction[];
    const fix = actions.find((a) => a.isPreferred)!;
    assert.equal(fix.title, 'Add "read" to dependsOn');
    const expected = WORKFLOW.replace(
      '        tool: filesystem.write_file\n',
      '        tool: filesystem.write_file\n        dependsOn: [read]\n',
    );
    assert.equal(applyLspEdits(WORKFLOW, fix.edit!.changes![workflowUri()]!), expected);
  });

  test('editing a catalog open in the editor refreshes the workflow', async () => {
    const refreshes = server.client.refreshes;
    await server.client.open(catalogUri(), CATALOG);
    await server.client.replaceAll(
      catalogUri(),
      CATALOG.replace('{readOnlyHint: false, destructiveHint: true, openWorldHint: false}', '{readOnlyHint: true}'),
    );
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'workspace/diagnostic/refresh');
    assert.equal(byRule(await server.client.pullItems(workflowUri()), 'annotations/contradiction').length, 0);
    await server.client.replaceAll(catalogUri(), CATALOG);
    await server.client.waitFor(() => server.client.refreshes > refreshes + 1, 'a second refresh');
    assert.equal(byRule(await server.client.pullItems(workflowUri()), 'annotations/contradiction').length, 1);
  });

  test('a workspace pull with a partial result token streams the reports and answers empty', async () => {
    const plain = await server.client.connection.sendRequest(WorkspaceDiagnosticRequest.type, {
      previousResultIds: [],
    });
    const streamed: WorkspaceDiagnosticReport['items'] = [];
    const token = 'partial-test';
    const progress = server.client.connection.onProgress(WorkspaceDiagnosticRequest.partialResult, token, (partial) => {
      streamed.push(...partial.items);
    });
    try {
      const final = await server.client.connection.sendRequest(WorkspaceDiagnosticRequest.type, {
        previousResultIds: [],
        partialResultToken: token,
      });
      assert.deepEqual(final.items, [], 'the final answer is empty once parts were streamed');
      const summary = (items: WorkspaceDiagnosticReport['items']) =>
        items.map((i) => `${i.uri} ${i.kind} ${i.kind === 'full' ? i.items.map((d) => d.code).join(',') : ''}`).sort();
      assert.ok(streamed.length > 0);
      assert.deepEqual(summary(streamed), summary(plain.items));
      // Nothing new since: no part is sent, and the pull is held like any other.
      const previousResultIds = plain.items.filter((i) => i.resultId).map((i) => ({ uri: i.uri, value: i.resultId! }));
      const count = streamed.length;
      const source = new CancellationTokenSource();
      const held = server.client.connection.sendRequest(
        WorkspaceDiagnosticRequest.type,
        { previousResultIds, partialResultToken: token },
        source.token,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(streamed.length, count, 'an answer that is held streams nothing');
      source.cancel();
      await assert.rejects(held, (error: { code?: number }) => error.code === -32800);
    } finally {
      progress.dispose();
    }
  });

  test('cancelling a request that is waiting answers it with RequestCancelled', async () => {
    // A workspace pull that has nothing new is held until something changes: cancel it.
    const first = await server.client.connection.sendRequest(WorkspaceDiagnosticRequest.type, {
      previousResultIds: [],
    });
    const previousResultIds = first.items.filter((i) => i.resultId).map((i) => ({ uri: i.uri, value: i.resultId! }));
    const source = new CancellationTokenSource();
    const held = server.client.connection.sendRequest(
      WorkspaceDiagnosticRequest.type,
      { previousResultIds },
      source.token,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    source.cancel();
    await assert.rejects(held, (error: { code?: number }) => error.code === -32800);
  });

  test('shutdown and exit end the process with code 0', async () => {
    await server.client.shutdown();
    const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));
    await server.client.connection.sendNotification('exit');
    assert.equal(await exited, 0);
    assert.doesNotMatch(server.stderr(), /Error/);
  });
});
