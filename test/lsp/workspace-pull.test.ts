// `workspace/diagnostic` on a workspace of hundreds of files, over stdio with the bundled server:
// without a partial result token the answer carries every report; with one, the streamed parts
// carry every report exactly once and the final answer is empty (as LSP asks); `previousResultIds` give
// `unchanged` for exactly the files that did not change.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  WorkspaceDiagnosticRequest,
  type WorkspaceDiagnosticReport,
  type WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver-protocol/node';
import { makeWorkspace, startStdio, type Spawned } from './harness.js';
import { CATALOG, CATALOG_PATH, WORKFLOW } from './workspace.js';

const ROOT = join(__dirname, '..', '..');
const SERVER = join(ROOT, 'dist', 'server.js');
/** Enough files that checking them takes far longer than one streaming interval. */
const FILES = 600;
const workflowPath = (i: number) => `gateways/g${String(i).padStart(4, '0')}.vmcp.yaml`;

type Item = WorkspaceDocumentDiagnosticReport;

function uris(items: Item[]): string[] {
  return items.map((item) => item.uri).sort();
}

function assertOncePerUri(items: Item[], expected: readonly string[], what: string): void {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.uri, (counts.get(item.uri) ?? 0) + 1);
  const twice = [...counts].filter(([, n]) => n > 1).map(([uri]) => uri);
  assert.deepEqual(twice, [], `${what}: reported more than once`);
  const missing = expected.filter((uri) => !counts.has(uri));
  assert.equal(
    missing.length,
    0,
    `${what}: ${missing.length} of ${expected.length} files missing, e.g. ${missing.slice(0, 3).join(', ')}`,
  );
  assert.deepEqual(uris(items), [...expected].sort(), what);
}

describe('workspace/diagnostic over hundreds of files (stdio)', () => {
  let server: Spawned;
  let ws: ReturnType<typeof makeWorkspace>;
  let expected: string[];

  before(async () => {
    if (!existsSync(SERVER)) {
      const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(build.status, 0, `npm run build failed:\n${build.stdout}${build.stderr}`);
    }
    const files: Record<string, string> = { [CATALOG_PATH]: CATALOG };
    for (let i = 0; i < FILES; i++)
      files[workflowPath(i)] = WORKFLOW.replace('name: docs-gateway', `name: docs-gateway-${i}`);
    ws = makeWorkspace(files);
    expected = [CATALOG_PATH, ...Array.from({ length: FILES }, (_, i) => workflowPath(i))].map((path) => ws.uri(path));
    server = startStdio(SERVER);
    await server.client.initialize(ws.root);
  });

  after(() => {
    if (server.process.exitCode === null) server.process.kill();
    ws.dispose();
  });

  const pull = (
    previousResultIds: { uri: string; value: string }[],
    partialResultToken?: string,
  ): Promise<WorkspaceDiagnosticReport> =>
    server.client.connection.sendRequest(WorkspaceDiagnosticRequest.type, {
      previousResultIds,
      ...(partialResultToken ? { partialResultToken } : {}),
    });

  /** A pull with a partial result token: what was streamed, and the final answer. */
  async function pullStreamed(
    previousResultIds: { uri: string; value: string }[],
    token: string,
  ): Promise<{ streamed: Item[]; final: Item[] }> {
    const streamed: Item[] = [];
    const progress = server.client.connection.onProgress(WorkspaceDiagnosticRequest.partialResult, token, (partial) => {
      streamed.push(...partial.items);
    });
    try {
      const final = await pull(previousResultIds, token);
      // LSP: once results go through $/progress, all of them do; the answer itself is empty.
      assert.deepEqual(final.items, [], 'the final answer of a streamed pull is empty');
      return { streamed, final: final.items };
    } finally {
      progress.dispose();
    }
  }

  const idsOf = (items: Item[]) => items.filter((i) => i.resultId).map((i) => ({ uri: i.uri, value: i.resultId! }));

  test('without a partial result token, the answer carries the report of every file', async () => {
    const answer = await pull([]);
    assertOncePerUri(answer.items, expected, 'the answer');
    assert.ok(answer.items.every((i) => i.kind === 'full'));
    const workflow = answer.items.find((i) => i.uri === ws.uri(workflowPath(FILES - 1)));
    assert.ok(
      workflow?.kind === 'full' && workflow.items.some((d) => d.code === 'annotations/contradiction'),
      'the last file has its findings',
    );
  });

  test('with a partial result token, the parts and the final answer carry every report exactly once', async () => {
    const { streamed, final } = await pullStreamed([], 'fresh');
    assertOncePerUri([...streamed, ...final], expected, 'parts and answer together');
  });

  test('previousResultIds: the files that did not change come back unchanged, the edited one full', async () => {
    const first = await pull([]);
    const previous = idsOf(first.items);
    const edited = ws.uri(workflowPath(7));
    await server.client.open(edited, WORKFLOW.replace('readOnlyHint: true', 'readOnlyHint: false'));
    for (const mode of ['plain', 'streamed'] as const) {
      const items =
        mode === 'plain'
          ? (await pull(previous)).items
          : (({ streamed, final }) => [...streamed, ...final])(await pullStreamed(previous, 'again'));
      assertOncePerUri(items, expected, mode);
      const full = items.filter((i) => i.kind === 'full');
      assert.deepEqual(uris(full), [edited], `${mode}: only the edited file is full`);
      assert.equal(
        full[0]!.kind === 'full' && full[0]!.items.some((d) => d.code === 'annotations/contradiction'),
        false,
      );
      const before = new Map(previous.map((p) => [p.uri, p.value]));
      for (const item of items)
        if (item.kind === 'unchanged')
          assert.equal(item.resultId, before.get(item.uri), `${mode}: ${item.uri} keeps its result id`);
    }
  });

  test('previousResultIds after a catalog change: every file is checked again and reported once, none unchanged', async () => {
    const previous = idsOf((await pull([])).items);
    const before = new Map(previous.map((p) => [p.uri, p.value]));
    const catalog = ws.uri(CATALOG_PATH);
    let round = 0;
    for (const mode of ['plain', 'streamed'] as const) {
      // Each round changes the catalog again, so every report is made afresh (the slow path).
      await server.client.open(
        catalog,
        CATALOG.replace('Read the complete contents of a file.', `Read a file (${++round}).`),
      );
      await server.client.close(catalog);
      await server.client.open(
        catalog,
        CATALOG.replace('Read the complete contents of a file.', `Read a file (${++round}).`),
      );
      const items =
        mode === 'plain'
          ? (await pull(previous)).items
          : (({ streamed, final }) => [...streamed, ...final])(await pullStreamed(previous, `catalog-${mode}`));
      assertOncePerUri(items, expected, mode);
      assert.deepEqual(
        items.filter((i) => i.kind === 'unchanged').map((i) => i.uri),
        [],
        `${mode}: nothing is unchanged`,
      );
      for (const item of items)
        assert.notEqual(item.resultId, before.get(item.uri), `${mode}: ${item.uri} has a new result id`);
      await server.client.close(catalog);
    }
  });
});
