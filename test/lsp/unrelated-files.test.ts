// Issue 24, item 5: the language server in a workspace full of YAML that is not ours. It used to
// keep every file's text and, once the workspace was checked, every file's parse, so 200 unrelated
// 1.2 MB files took it to 4.3 GB and an out-of-memory abort while the CLI needed 300 MB. It now
// reads with the CLI's pre-filter (core/parse/prefilter.ts `mayBeOurs`) and keeps neither the text
// nor the parse of a file on disk that holds nothing of ours; such a file is read again when it
// changes or when the configuration may give it a kind. The figures at full scale are the bench's
// `lsp-scale` section.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  DidChangeWatchedFilesNotification,
  FileChangeType,
  WorkspaceDiagnosticRequest,
  type WorkspaceDiagnosticReport,
} from 'vscode-languageserver-protocol/node';
import type { Entry } from '../../server/src/lsp/entries.js';
import { makeWorkspace, startInProcess, startStdio, type InProcess } from './harness.js';
import { CATALOG, CATALOG_PATH, WORKFLOW, WORKFLOW_PATH } from './workspace.js';

const ROOT = join(__dirname, '..', '..');
const SERVER = join(ROOT, 'dist', 'server.js');

/** A Kubernetes manifest: no word of ours in it. */
function manifest(i: number): string {
  return `---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-${i}\nspec:\n  replicas: ${1 + (i % 4)}\n  template:\n    spec:\n      containers:\n        - name: web\n          image: registry.example.com/app-${i}:1.${i}\n`;
}

/** Unrelated YAML whose text holds a `%` (a word the pre-filter cannot rule out): only its parse says it is not ours. */
const PERCENT = 'name: build\nenv:\n  STAMP: "%Y-%m-%d"\n  CPU: 50%\n';

const UNRELATED = Array.from({ length: 30 }, (_, i) => `deploy/app-${i}.yaml`);
const PARSED_UNRELATED = ['ci/stamp.yaml', 'ci/other.yml'];
const JSON_UNRELATED = 'package.json';

async function eventually(predicate: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the language server keeps nothing for files that are not ours', () => {
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;
  const entry = (path: string): Entry => {
    const found = server.server.session.entries.get(path);
    assert.ok(found, `the server knows ${path}`);
    return found;
  };
  const pullAll = async (): Promise<WorkspaceDiagnosticReport> =>
    server.client.connection.sendRequest(WorkspaceDiagnosticRequest.type, { previousResultIds: [] });
  const watched = (path: string, type: FileChangeType) =>
    server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: ws.uri(path), type }],
    });

  before(async () => {
    const files: Record<string, string> = { [CATALOG_PATH]: CATALOG, [WORKFLOW_PATH]: WORKFLOW };
    UNRELATED.forEach((path, i) => (files[path] = manifest(i)));
    for (const path of PARSED_UNRELATED) files[path] = PERCENT;
    files[JSON_UNRELATED] = '{"name": "shop", "version": "1.0.0", "private": true}\n';
    ws = makeWorkspace(files);
    server = startInProcess();
    await server.client.initialize(ws.root);
  });

  after(async () => {
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
  });

  test('after the workspace is checked: no text and no parse of an unrelated file, the files of ours kept', async () => {
    const report = await pullAll();
    const reported = report.items.map((item) => item.uri);
    assert.ok(reported.includes(ws.uri(WORKFLOW_PATH)), 'the workflow is reported');
    for (const path of [...UNRELATED, ...PARSED_UNRELATED, JSON_UNRELATED]) {
      assert.ok(!reported.includes(ws.uri(path)), `${path} is not reported`);
      const held = entry(path);
      assert.equal(held.diskText, undefined, `no text kept for ${path}`);
      assert.equal(held.parsed, undefined, `no parse kept for ${path}`);
    }
    for (const path of UNRELATED) assert.equal(entry(path).unrelated, 'words', path);
    for (const path of PARSED_UNRELATED) assert.equal(entry(path).unrelated, 'parse', path);
    assert.ok(entry(WORKFLOW_PATH).parsed, 'the workflow keeps its parse');
    assert.ok(entry(CATALOG_PATH).parsed, 'the catalog keeps its parse');
    const held = server.server.session.entries.held();
    assert.equal(held.unrelated, UNRELATED.length + PARSED_UNRELATED.length + 1);
    assert.equal(held.parses, 2, 'only the catalog and the workflow keep a parse');
  });

  test('an unrelated file that becomes ours on disk is read and checked; one of ours that stops being is let go', async () => {
    const path = UNRELATED[0]!;
    ws.write(path, WORKFLOW);
    await watched(path, FileChangeType.Changed);
    await eventually(() => entry(path).unrelated === undefined, `${path} to be read again`);
    const report = await pullAll();
    const item = report.items.find((i) => i.uri === ws.uri(path));
    assert.ok(item && item.kind === 'full' && item.items.length > 0, 'the new workflow has its findings');
    ws.write(path, manifest(0));
    await watched(path, FileChangeType.Changed);
    await eventually(() => entry(path).unrelated === 'words', `${path} to be let go`);
    assert.equal(entry(path).diskText, undefined);
    assert.equal(entry(path).parsed, undefined);
  });

  test('open in the editor, an unrelated file is the editor text; closed, nothing is kept again', async () => {
    const path = UNRELATED[1]!;
    const uri = ws.uri(path);
    await server.client.open(uri, manifest(1));
    assert.deepEqual(await server.client.pullItems(uri), []);
    assert.equal(entry(path).editorText, manifest(1));
    await server.client.close(uri);
    await eventually(() => entry(path).editorText === undefined, 'the close');
    assert.equal(entry(path).diskText, undefined);
    assert.equal(entry(path).parsed, undefined);
  });

  test('a configuration that forces a kind on an unrelated file has it read again and checked', async () => {
    const path = PARSED_UNRELATED[0]!;
    ws.write(path, 'name: stamp\nsteps: []\n');
    // Unchanged words: the file is still unrelated until the configuration names it.
    await watched(path, FileChangeType.Changed);
    await eventually(() => entry(path).unrelated !== undefined && entry(path).diskText === undefined, 'the change');
    ws.write('.toollens.yaml', `kinds:\n  vmcp-composite: ["${path}"]\n`);
    await watched('.toollens.yaml', FileChangeType.Created);
    await eventually(() => entry(path).unrelated === undefined && entry(path).diskText !== undefined, 're-read');
    const report = await pullAll();
    const item = report.items.find((i) => i.uri === ws.uri(path));
    assert.ok(item && item.kind === 'full' && item.items.length > 0, 'checked as a composite tool');
  });
});

describe('the built server in a workspace of unrelated YAML with a small heap', () => {
  test('reads and checks the folder without running out of memory', { timeout: 120_000 }, async () => {
    if (!existsSync(SERVER)) throw new Error('dist/server.js is missing: npm run build');
    // 24 files of about 1 MB: the old server held every text and parse and died of it under this heap.
    const files: Record<string, string> = { [CATALOG_PATH]: CATALOG, [WORKFLOW_PATH]: WORKFLOW };
    for (let f = 0; f < 24; f++) {
      const parts: string[] = [];
      for (let i = 0, bytes = 0; bytes < 1_000_000; i++) {
        const text = manifest(f * 10_000 + i);
        parts.push(text);
        bytes += text.length;
      }
      files[`manifests/part-${f}.yaml`] = parts.join('');
    }
    const ws = makeWorkspace(files);
    const spawned = startStdio(SERVER, ['--max-old-space-size=96']);
    try {
      await spawned.client.initialize(ws.root);
      const report: WorkspaceDiagnosticReport = await spawned.client.connection.sendRequest(
        WorkspaceDiagnosticRequest.type,
        { previousResultIds: [] },
      );
      const workflow = report.items.find((item) => item.uri === ws.uri(WORKFLOW_PATH));
      assert.ok(workflow && workflow.kind === 'full' && workflow.items.length > 0, 'the workflow has its findings');
      assert.equal(report.items.length, 2, 'the catalog and the workflow, nothing else');
      assert.equal(spawned.process.exitCode, null, `the server is alive: ${spawned.stderr().slice(-500)}`);
      await spawned.client.shutdown();
    } finally {
      if (spawned.process.exitCode === null) spawned.process.kill();
      spawned.client.connection.dispose();
      ws.dispose();
    }
  });
});

describe('the parses kept for files of ours that no editor holds are bounded', () => {
  test('past the budget a parse is let go once checked; a catalog change checks every file again, right', async () => {
    const names = Array.from({ length: 6 }, (_, i) => `gateways/team-${i}.vmcp.yaml`);
    const files: Record<string, string> = { [CATALOG_PATH]: CATALOG };
    for (const [i, path] of names.entries()) files[path] = WORKFLOW.replace('copy_readme', `copy_readme_${i}`);
    const ws = makeWorkspace(files);
    const server = startInProcess();
    try {
      await server.client.initialize(ws.root);
      const session = server.server.session;
      // Room for two of the six workflows' parses.
      session.keptParseChars = Math.floor(WORKFLOW.length * 2.5);
      const pull = (): Promise<WorkspaceDiagnosticReport> =>
        server.client.connection.sendRequest(WorkspaceDiagnosticRequest.type, { previousResultIds: [] });
      const count = (report: WorkspaceDiagnosticReport) =>
        Object.fromEntries(report.items.map((item) => [item.uri, item.kind === 'full' ? item.items.length : -1]));
      // Every file checked after the budget was set: a change of the catalog re-checks them all.
      ws.write(CATALOG_PATH, CATALOG.replace('Read file', 'Read a file'));
      await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
        changes: [{ uri: ws.uri(CATALOG_PATH), type: FileChangeType.Changed }],
      });
      await eventually(
        () => session.entries.get(CATALOG_PATH)?.diskText?.includes('Read a file') === true,
        'the catalog',
      );
      const first = await pull();
      const kept = names.filter((path) => session.entries.get(path)!.parsed !== undefined);
      assert.equal(kept.length, 2, `two parses kept, not ${kept.length}`);
      assert.ok(session.entries.get(CATALOG_PATH)!.parsed, 'the catalog keeps its parse');
      // The catalog loses write_file: every workflow gets its new finding, parsed again or not.
      ws.write(
        CATALOG_PATH,
        CATALOG.replace('name: write_file', 'name: write_any_file').replace('Create a new file', 'Make a file'),
      );
      await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
        changes: [{ uri: ws.uri(CATALOG_PATH), type: FileChangeType.Changed }],
      });
      await eventually(
        () => session.entries.get(CATALOG_PATH)?.diskText?.includes('write_any_file') === true,
        'the change',
      );
      const second = await pull();
      const before = count(first);
      const after = count(second);
      for (const path of names) {
        const uri = ws.uri(path);
        assert.ok(
          after[uri]! > before[uri]!,
          `${path}: a new finding for the unknown tool (${before[uri]} -> ${after[uri]})`,
        );
      }
      assert.equal(names.filter((path) => session.entries.get(path)!.parsed !== undefined).length, 2);
      // An open editor keeps its parse whatever the budget, and a code action works on a file let go.
      const letGo = names.find((path) => session.entries.get(path)!.parsed === undefined)!;
      await server.client.open(ws.uri(letGo), WORKFLOW.replace('copy_readme', 'opened'));
      await server.client.pullItems(ws.uri(letGo));
      assert.ok(session.entries.get(letGo)!.parsed, 'the open file keeps its parse');
    } finally {
      await server.client.shutdown();
      server.dispose();
      ws.dispose();
    }
  });
});
