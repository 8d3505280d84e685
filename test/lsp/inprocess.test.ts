// The server's handlers over an in-process stream pair: fast tests of the protocol logic.
// Assertions name the rule they target, so they stay true as more rules land.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CancellationTokenSource,
  CodeActionRequest,
  CodeLensRequest,
  CompletionRequest,
  DidChangeWatchedFilesNotification,
  DocumentSymbolRequest,
  ExecuteCommandRequest,
  FileChangeType,
  HoverRequest,
  ReferencesRequest,
  WorkspaceDiagnosticRequest,
  type CodeAction,
  type Diagnostic,
  type DocumentSymbol,
  type Hover,
  type WorkspaceDiagnosticReport,
} from 'vscode-languageserver-protocol/node';
import { ruleDocsUrl } from '../../server/src/core/rules/rule.js';
import {
  SERVER_COMMANDS,
  type AdvertisedToolsView,
  type CatalogState,
  type DynamicToolItem,
  type FloorReport,
  type WorkflowGraph,
} from '../../server/src/lsp/protocol.js';
import {
  applyLspEdits,
  makeWorkspace,
  PULL_CAPABILITIES,
  PUSH_CAPABILITIES,
  startInProcess,
  type InProcess,
} from './harness.js';
import { CATALOG, CATALOG_PATH, WORKFLOW, WORKFLOW_PATH } from './workspace.js';

const byRule = (items: Diagnostic[], rule: string) => items.filter((d) => d.code === rule);

function positionOf(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before[before.length - 1]!.length };
}

function lineOf(text: string, needle: string): number {
  const index = text.indexOf(needle);
  assert.ok(index >= 0, `fixture lacks ${needle}`);
  return text.slice(0, index).split('\n').length - 1;
}

describe('language server in process (pull client)', () => {
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;
  const workflowUri = () => ws.uri(WORKFLOW_PATH);
  const catalogUri = () => ws.uri(CATALOG_PATH);

  before(async () => {
    ws = makeWorkspace({
      [CATALOG_PATH]: CATALOG,
      [WORKFLOW_PATH]: WORKFLOW,
      'unrelated/package.json': '{"name": "x", "version": "1.0.0"}\n',
    });
    server = startInProcess();
    const result = await server.client.initialize(ws.root);
    assert.deepEqual(result.capabilities.diagnosticProvider, {
      identifier: 'tool-lens',
      interFileDependencies: true,
      workspaceDiagnostics: true,
    });
    assert.deepEqual((result.capabilities.codeActionProvider as { codeActionKinds: string[] }).codeActionKinds, [
      'quickfix',
      'source.fixAll',
      'source.fixAll.toolLens',
    ]);
    assert.equal(
      result.capabilities.textDocumentSync &&
        typeof result.capabilities.textDocumentSync === 'object' &&
        result.capabilities.textDocumentSync.change,
      2,
    );
  });

  after(async () => {
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
  });

  test('registers file watching for our extensions and the configuration', () => {
    const registration = server.client.registrations[0] as {
      method: string;
      registerOptions: { watchers: { globPattern: string }[] };
    };
    assert.equal(registration.method, 'workspace/didChangeWatchedFiles');
    assert.deepEqual(
      registration.registerOptions.watchers.map((w) => w.globPattern),
      ['**/*.{yaml,yml,json,jsonc,jsonl}', '**/.toollens.yaml'],
    );
  });

  test('reports the catalog state after loading', () => {
    const state = server.client.catalogStates.at(-1) as CatalogState;
    assert.deepEqual(state.servers, ['filesystem']);
    assert.equal(state.files, 1);
    assert.equal(state.loaded, true);
    assert.deepEqual(state.pending, []);
  });

  test('pull diagnostics carry rule id, docs link, source, severity and fix data', async () => {
    await server.client.open(workflowUri(), WORKFLOW);
    const report = await server.client.pull(workflowUri());
    assert.equal(report.kind, 'full');
    const items = report.kind === 'full' ? report.items : [];
    const [contradiction] = byRule(items, 'annotations/contradiction');
    assert.ok(contradiction, 'annotations/contradiction is reported');
    assert.equal(contradiction.source, 'tool-lens');
    assert.equal(contradiction.severity, 1);
    assert.equal(contradiction.codeDescription?.href, ruleDocsUrl('annotations/contradiction'));
    assert.equal(contradiction.range.start.line, lineOf(WORKFLOW, 'readOnlyHint: true'));
    const [notUpstream] = byRule(items, 'template/not-upstream');
    assert.ok(notUpstream, 'template/not-upstream is reported');
    assert.equal(notUpstream.severity, 2);
    const data = notUpstream.data as { rule: string; resultId: string; fixes: { title: string; safe: boolean }[] };
    assert.equal(data.rule, 'template/not-upstream');
    assert.equal(data.resultId, report.kind === 'full' ? report.resultId : '');
    assert.ok(
      data.fixes.some((f) => f.safe),
      'its fix is listed as safe',
    );
  });

  test('an unchanged document answers "unchanged" with the same result id', async () => {
    const first = await server.client.pull(workflowUri());
    assert.equal(first.kind, 'full');
    const second = await server.client.pull(workflowUri(), first.kind === 'full' ? first.resultId : undefined);
    assert.equal(second.kind, 'unchanged');
  });

  test('files that are none of our kinds get no diagnostics', async () => {
    const uri = ws.uri('unrelated/package.json');
    await server.client.open(uri, '{"name": "x", "version": 1, "bad": }\n', 'json');
    assert.deepEqual(await server.client.pullItems(uri), []);
    await server.client.close(uri);
  });

  test('diagnostics follow an incremental edit', async () => {
    // Add `dependsOn: [read]` to the write step: the race is gone.
    const line = lineOf(WORKFLOW, '      - id: write');
    await server.client.change(workflowUri(), [
      {
        range: { start: { line: line + 1, character: 0 }, end: { line: line + 1, character: 0 } },
        text: '        dependsOn: [read]\n',
      },
    ]);
    const items = await server.client.pullItems(workflowUri());
    assert.equal(byRule(items, 'template/not-upstream').length, 0);
    assert.equal(byRule(items, 'annotations/contradiction').length, 1);
    await server.client.replaceAll(workflowUri(), WORKFLOW);
    assert.equal(byRule(await server.client.pullItems(workflowUri()), 'template/not-upstream').length, 1);
  });

  test('a catalog edited in the editor re-checks the workflow and asks the client to refresh', async () => {
    const before = await server.client.pull(workflowUri());
    const refreshes = server.client.refreshes;
    const safer = CATALOG.replace(
      'annotations: {readOnlyHint: false, destructiveHint: true, openWorldHint: false}',
      'annotations: {readOnlyHint: true, openWorldHint: false}',
    );
    await server.client.open(catalogUri(), CATALOG);
    await server.client.replaceAll(catalogUri(), safer);
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'workspace/diagnostic/refresh');
    const after = await server.client.pull(workflowUri(), before.kind === 'full' ? before.resultId : undefined);
    assert.equal(after.kind, 'full', 'the old result id is stale');
    assert.equal(byRule(after.kind === 'full' ? after.items : [], 'annotations/contradiction').length, 0);
    // Closing the catalog: the disk's text (with write_file destructive) applies again.
    await server.client.close(catalogUri());
    await server.client.waitFor(() => server.client.refreshes > refreshes + 1, 'a second refresh');
    assert.equal(byRule(await server.client.pullItems(workflowUri()), 'annotations/contradiction').length, 1);
  });

  test('a catalog changed on disk re-checks dependants', async () => {
    const refreshes = server.client.refreshes;
    const path = join(ws.root, CATALOG_PATH);
    writeFileSync(path, CATALOG.replace('- name: write_file', '- name: write_file_v2'));
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: catalogUri(), type: FileChangeType.Changed }],
    });
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'a refresh after the disk change');
    const items = await server.client.pullItems(workflowUri());
    assert.ok(byRule(items, 'tool/unknown').length >= 1, 'write_file is gone from the catalog');
    writeFileSync(path, CATALOG);
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: catalogUri(), type: FileChangeType.Changed }],
    });
    await server.client.waitFor(() => server.client.refreshes > refreshes + 1, 'a refresh after the restore');
    assert.equal(byRule(await server.client.pullItems(workflowUri()), 'tool/unknown').length, 0);
  });

  test('an edited .toollens.yaml applies to every file at once', async () => {
    const configUri = ws.uri('.toollens.yaml');
    const refreshes = server.client.refreshes;
    ws.write('.toollens.yaml', 'rules: {}\n');
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: configUri, type: FileChangeType.Created }],
    });
    await server.client.waitFor(
      () => server.client.refreshes > refreshes,
      'a refresh after the configuration appeared',
    );
    await server.client.open(configUri, 'rules: {}\n');
    await server.client.replaceAll(configUri, 'rules:\n  template/not-upstream: off\n');
    await server.client.waitFor(
      () => server.client.refreshes > refreshes + 1,
      'a refresh after the configuration changed',
    );
    assert.equal(byRule(await server.client.pullItems(workflowUri()), 'template/not-upstream').length, 0);
    // A misspelt rule id in the configuration is a diagnostic on the configuration itself.
    await server.client.replaceAll(configUri, 'rules:\n  template/not-upstrem: off\n');
    const configItems = await server.client.pullItems(configUri);
    assert.ok(
      configItems.some((d) => typeof d.message === 'string' && d.message.includes('not-upstrem')),
      'the configuration reports the unknown rule id',
    );
    assert.equal(byRule(await server.client.pullItems(workflowUri()), 'template/not-upstream').length, 1);
    await server.client.replaceAll(configUri, 'rules: {}\n');
  });

  test('workspace diagnostics: full reports, then a held request that answers on the next change', async () => {
    const source = new CancellationTokenSource();
    const first: WorkspaceDiagnosticReport = await server.client.connection.sendRequest(
      WorkspaceDiagnosticRequest.type,
      { previousResultIds: [] },
      source.token,
    );
    const uris = first.items.map((i) => i.uri);
    assert.ok(uris.includes(workflowUri()), 'the workflow is reported');
    assert.ok(uris.includes(catalogUri()), 'the catalog is reported');
    assert.ok(!uris.includes(ws.uri('unrelated/package.json')), 'unrelated JSON is not reported');
    const previous = first.items.filter((i) => i.resultId).map((i) => ({ uri: i.uri, value: i.resultId! }));
    let answered = false;
    const held = server.client.connection
      .sendRequest(WorkspaceDiagnosticRequest.type, { previousResultIds: previous }, source.token)
      .then((r) => {
        answered = true;
        return r;
      });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(answered, false, 'nothing changed, so the request is held');
    await server.client.replaceAll(workflowUri(), WORKFLOW + '\n');
    const second = await held;
    const changed = second.items.find((i) => i.uri === workflowUri());
    assert.equal(changed?.kind, 'full');
    assert.equal(second.items.find((i) => i.uri === catalogUri())?.kind, 'unchanged');
    await server.client.replaceAll(workflowUri(), WORKFLOW);
  });

  test('a cancelled pull is answered with RequestCancelled', async () => {
    const source = new CancellationTokenSource();
    source.cancel();
    await assert.rejects(
      server.client.connection.sendRequest(
        'textDocument/diagnostic',
        { textDocument: { uri: workflowUri() } },
        source.token,
      ),
      (error: { code?: number }) => error.code === -32800,
    );
  });

  /** The code actions the server offers for one diagnostic of the workflow. */
  async function codeActionsFor(diagnostic: Diagnostic): Promise<CodeAction[]> {
    return (await server.client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: workflowUri() },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    })) as CodeAction[];
  }

  test('code actions: the fix as a preferred quick fix, a suppression, fix all', async () => {
    const items = await server.client.pullItems(workflowUri());
    const [notUpstream] = byRule(items, 'template/not-upstream');
    assert.ok(notUpstream);
    const actions = await codeActionsFor(notUpstream);
    const fix = actions.find((a) => a.isPreferred);
    assert.ok(fix, `a preferred fix among: ${actions.map((a) => a.title).join(', ')}`);
    assert.equal(fix.kind, 'quickfix');
    assert.deepEqual(
      fix.diagnostics?.map((d) => d.code),
      ['template/not-upstream'],
    );
    const fixed = applyLspEdits(WORKFLOW, fix.edit!.changes![workflowUri()]!);
    assert.match(fixed, /- id: write\n\s+tool: filesystem\.write_file\n[\s\S]*dependsOn/);
    await server.client.replaceAll(workflowUri(), fixed);
    assert.equal(byRule(await server.client.pullItems(workflowUri()), 'template/not-upstream').length, 0);
    await server.client.replaceAll(workflowUri(), WORKFLOW);

    const suppress = actions.find((a) => a.title === 'Disable template/not-upstream for this line');
    assert.ok(suppress);
    const suppressed = applyLspEdits(WORKFLOW, suppress.edit!.changes![workflowUri()]!);
    const line = notUpstream.range.start.line;
    assert.equal(suppressed.split('\n')[line], '          # tool-lens-disable-next-line template/not-upstream -- ');
    await server.client.replaceAll(workflowUri(), suppressed);
    const after = await server.client.pullItems(workflowUri());
    assert.equal(byRule(after, 'template/not-upstream').length, 0);
    assert.equal(byRule(after, 'lens/unused-suppression').length, 0);
    await server.client.replaceAll(workflowUri(), WORKFLOW);
  });

  test('the suppression action takes directive-like text in a string for what it is: text', async () => {
    // The line above the finding holds a string that reads like a directive; the action must add a
    // comment of its own, not append the rule to the string.
    const lookalike = WORKFLOW.replace(
      'path: "{{.params.target}}"',
      'path: "{{.params.target}}/# tool-lens-disable-next-line x"',
    );
    await server.client.replaceAll(workflowUri(), lookalike);
    const [notUpstream] = byRule(await server.client.pullItems(workflowUri()), 'template/not-upstream');
    assert.ok(notUpstream);
    const actions = await codeActionsFor(notUpstream);
    const suppress = actions.find((a) => a.title === 'Disable template/not-upstream for this line');
    assert.ok(suppress);
    const lines = applyLspEdits(lookalike, suppress.edit!.changes![workflowUri()]!).split('\n');
    const line = notUpstream.range.start.line;
    assert.equal(lines[line - 1], '          path: "{{.params.target}}/# tool-lens-disable-next-line x"');
    assert.equal(lines[line], '          # tool-lens-disable-next-line template/not-upstream -- ');
    await server.client.replaceAll(workflowUri(), WORKFLOW);
  });

  test('fix all of one rule, and source.fixAll.toolLens, apply every safe fix at once', async () => {
    const twice = WORKFLOW.replace(
      'content: "{{.steps.read.output.content}}"',
      'content: "{{.steps.read.output.content}}"\n          mode: "{{.steps.read.output.content}}"',
    );
    const text =
      twice +
      `      - id: log\n        tool: filesystem.write_file\n        arguments:\n          path: log.txt\n          content: "{{.steps.read.output.content}}"\n`;
    await server.client.replaceAll(workflowUri(), text);
    const items = byRule(await server.client.pullItems(workflowUri()), 'template/not-upstream');
    assert.ok(items.length >= 2);
    const actions = (await server.client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: workflowUri() },
      range: items[0]!.range,
      context: { diagnostics: [items[0]!] },
    })) as CodeAction[];
    const all = actions.find((a) => a.title === 'Fix all template/not-upstream problems in this file');
    assert.ok(all, `fix all among: ${actions.map((a) => a.title).join(', ')}`);
    const fixedAll = applyLspEdits(text, all.edit!.changes![workflowUri()]!);
    await server.client.replaceAll(workflowUri(), fixedAll);
    assert.equal(byRule(await server.client.pullItems(workflowUri()), 'template/not-upstream').length, 0);

    await server.client.replaceAll(workflowUri(), text);
    await server.client.pullItems(workflowUri());
    const source = (await server.client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: workflowUri() },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll'] },
    })) as CodeAction[];
    assert.equal(source.length, 1);
    assert.equal(source[0]!.kind, 'source.fixAll.toolLens');
    const fixedSource = applyLspEdits(text, source[0]!.edit!.changes![workflowUri()]!);
    await server.client.replaceAll(workflowUri(), fixedSource);
    assert.equal(byRule(await server.client.pullItems(workflowUri()), 'template/not-upstream').length, 0);
    await server.client.replaceAll(workflowUri(), WORKFLOW);
  });

  test('hover on the composite name shows the floor table; on a step tool, the tool', async () => {
    const nameLine = lineOf(WORKFLOW, '  - name: copy_readme');
    const floor = (await server.client.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: workflowUri() },
      position: { line: nameLine, character: 14 },
    })) as Hover;
    const markdown = (floor.contents as { value: string }).value;
    assert.match(markdown, /\| hint \| floor \| explicit \| advertised \| decided by \|/);
    assert.match(markdown, /readOnlyHint/);
    const toolLine = lineOf(WORKFLOW, 'tool: filesystem.write_file');
    const tool = (await server.client.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: workflowUri() },
      position: { line: toolLine, character: 20 },
    })) as Hover;
    const toolMarkdown = (tool.contents as { value: string }).value;
    assert.match(toolMarkdown, /Write file/);
    assert.match(toolMarkdown, /destructiveHint: `true`/);
    assert.match(toolMarkdown, /\| `content` \| string \| yes \|/);
  });

  test("Codex's TOML config: diagnostics, and a hover that names variables without their values", async () => {
    const uri = ws.uri('.codex/config.toml');
    const text = [
      '[mcp_servers.docs]',
      'url = "https://docs.example.com/mcp"',
      'bearer_token_env_var = "DOCS_TOKEN"',
      'type = "http"',
      '',
    ].join('\n');
    // The value the machine running the server holds is never shown, only the variable's name.
    const held = process.env.DOCS_TOKEN;
    process.env.DOCS_TOKEN = 'value-of-the-developer-machine';
    try {
      await server.client.open(uri, text, 'toml');
      assert.deepEqual(
        (await server.client.pullItems(uri)).map((d) => d.code),
        ['client/unknown-key'],
      );
      const hover = (await server.client.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri },
        position: { line: 0, character: 14 },
      })) as Hover;
      const markdown = (hover.contents as { value: string }).value;
      assert.match(markdown, /started by Codex/);
      assert.match(markdown, /- `Authorization`: `Bearer ‹env DOCS_TOKEN›`/);
      assert.doesNotMatch(markdown, /value-of-the-developer-machine/);
      // On the table's last, empty line: the keys Codex reads that the entry lacks, written as TOML.
      const completion = await server.client.connection.sendRequest(CompletionRequest.type, {
        textDocument: { uri },
        position: { line: 4, character: 0 },
      });
      const items = Array.isArray(completion) ? completion : (completion?.items ?? []);
      const labels = items.map((i) => i.label);
      assert.ok(labels.includes('env_http_headers') && !labels.includes('url'), labels.join(','));
    } finally {
      if (held === undefined) delete process.env.DOCS_TOKEN;
      else process.env.DOCS_TOKEN = held;
      await server.client.close(uri);
    }
  });

  test('references of a catalog tool span the workspace', async () => {
    const toolLine = lineOf(WORKFLOW, 'tool: filesystem.read_file');
    const locations = (await server.client.connection.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: workflowUri() },
      position: { line: toolLine, character: 20 },
      context: { includeDeclaration: true },
    })) as { uri: string; range: { start: { line: number } } }[];
    assert.ok(
      locations.some((l) => l.uri === catalogUri() && l.range.start.line === lineOf(CATALOG, '- name: read_file')),
      'the declaration',
    );
    assert.ok(
      locations.some((l) => l.uri === workflowUri() && l.range.start.line === toolLine),
      'the step',
    );
  });

  test('document symbols: composite tools with their steps; catalog servers with tools and namespaces', async () => {
    const symbols = (await server.client.connection.sendRequest(DocumentSymbolRequest.type, {
      textDocument: { uri: workflowUri() },
    })) as DocumentSymbol[];
    assert.equal(symbols[0]?.name, 'copy_readme');
    assert.deepEqual(
      symbols[0]?.children?.map((c) => c.name),
      ['read', 'write'],
    );
    const catalog = (await server.client.connection.sendRequest(DocumentSymbolRequest.type, {
      textDocument: { uri: catalogUri() },
    })) as DocumentSymbol[];
    assert.equal(catalog[0]?.name, 'filesystem');
    assert.deepEqual(
      catalog[0]?.children?.map((c) => c.name),
      ['read_file', 'write_file', 'applets'],
    );
  });

  test('a code lens above each composite tool: advertised annotations and unknown steps', async () => {
    const lenses = (await server.client.connection.sendRequest(CodeLensRequest.type, {
      textDocument: { uri: workflowUri() },
    })) as {
      range: { start: { line: number } };
      command: { title: string; command: string };
    }[];
    assert.equal(lenses.length, 1);
    assert.equal(lenses[0]!.range.start.line, lineOf(WORKFLOW, '  - name: copy_readme'));
    // copy_readme claims read-only while it writes: the gateway drops it, and the lens says so.
    assert.equal(
      lenses[0]!.command.title,
      'Dropped by the gateway: readOnly ✓ claimed, floor ✗ · 2/2 tool steps known',
    );
    assert.equal(lenses[0]!.command.command, 'toolLens.showFloor');
  });

  test('commands: floor, dynamic tools, call envelope, workflow graph, refresh', async () => {
    const send = <T>(command: string, args: unknown[]) =>
      server.client.connection.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }) as Promise<T>;
    const floors = await send<FloorReport[]>(SERVER_COMMANDS.floor, [{ uri: workflowUri() }]);
    assert.equal(floors[0]?.workflow, 'copy_readme');
    assert.match(floors[0].markdown, /\| readOnlyHint \|/);

    const dynamic = await send<DynamicToolItem[]>(SERVER_COMMANDS.dynamicTools, []);
    assert.deepEqual(
      dynamic.map((d) => `${d.server}/${d.namespace}/${d.tool}/${d.external}`),
      ['filesystem/applets/applet_create/true'],
    );

    const callsUri = ws.uri('calls/example.calls.yaml');
    await server.client.open(callsUri, 'calls:\n  - \n');
    const envelope = await send<{ text: string; range: { start: { line: number; character: number } } }>(
      SERVER_COMMANDS.callEnvelope,
      [
        {
          uri: callsUri,
          position: { line: 1, character: 4 },
          server: 'filesystem',
          namespace: 'applets',
          tool: 'applet_create',
        },
      ],
    );
    // The empty `- ` entry becomes the envelope (test/lsp/envelope.test.ts has every other place).
    assert.deepEqual(envelope.range.start, { line: 1, character: 0 });
    assert.equal(
      envelope.text,
      [
        '  - tool: call_dynamic_tool',
        '    input:',
        '      namespace: applets',
        '      toolName: applet_create',
        '      arguments:',
        '        value: ""',
        '      mcpDetails:',
        '        description: "<one sentence saying why you are calling this>"',
      ].join('\n'),
    );
    await server.client.close(callsUri);

    const graphs = await send<WorkflowGraph[]>(SERVER_COMMANDS.workflowGraph, [{ uri: workflowUri() }]);
    assert.deepEqual(
      graphs[0]?.nodes.map((n) => `${n.id}:${n.annotationClass}`),
      ['read:read-only', 'write:destructive'],
    );
    // No dependsOn; "write" reads "read" without waiting for it: the race is an edge of its own.
    assert.deepEqual(graphs[0]?.edges, [{ from: 'read', to: 'write', kind: 'reads' }]);

    const state = await send<CatalogState>(SERVER_COMMANDS.refreshCatalogs, []);
    assert.deepEqual(state.servers, ['filesystem']);
  });

  test('the advertised tools view: what the gateway lists, what it withholds and why, each with the place it comes from', async () => {
    const send = <T>(command: string, args: unknown[]) =>
      server.client.connection.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }) as Promise<T>;
    const views = await send<AdvertisedToolsView[]>(SERVER_COMMANDS.advertisedTools, [{ uri: workflowUri() }]);
    assert.equal(views.length, 1);
    const [view] = views;
    assert.equal(view!.title, 'gateway "docs-gateway"');
    assert.equal(view!.strategy, 'prefix ({workload}_)');
    assert.deepEqual(
      view!.advertised.map((t) => `${t.name} ${t.annotations}`),
      [
        'filesystem_read_file read-only, closed-world',
        'filesystem_write_file not read-only, destructive, closed-world',
      ],
    );
    // The view shows each as the workflow graph colours a step.
    assert.deepEqual(
      view!.advertised.map((t) => t.annotationClass),
      ['read-only', 'destructive'],
    );
    // The composite claims read-only while it writes: ToolHive drops it.
    assert.deepEqual(
      view!.withheld.map((t) => `${t.name} ${t.status}`),
      ['copy_readme contradiction'],
    );
    assert.match(view!.withheld[0]!.reason!, /readOnlyHint: true but the steps give false/);
    assert.deepEqual(view!.withheld[0]!.location, {
      uri: workflowUri(),
      range: {
        start: { line: lineOf(WORKFLOW, '  - name: copy_readme'), character: 10 },
        end: { line: lineOf(WORKFLOW, '  - name: copy_readme'), character: 21 },
      },
    });
    const readFile = view!.advertised[0]!;
    assert.equal(readFile.location!.uri, catalogUri());
    assert.equal(readFile.location!.range.start.line, lineOf(CATALOG, '- name: read_file'));
    assert.deepEqual(
      await send<AdvertisedToolsView[]>(SERVER_COMMANDS.advertisedTools, [{ uri: catalogUri() }]),
      [],
      'a catalog is no gateway',
    );
  });

  test('keystroke after keystroke, the diagnostics are those of a fresh check of the same text', async () => {
    // The server re-parses only what each edit touched and moves the rest of the old parse into
    // the new one; a mirror document, opened afresh each time, is parsed in full.
    const uri = ws.uri('gateways/typed.vmcp.yaml');
    const mirror = ws.uri('gateways/mirror.vmcp.yaml');
    let text = WORKFLOW;
    await server.client.open(uri, text);
    let seed = 7;
    const random = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    const inserts = [
      'x',
      ' ',
      '\n',
      '\n      ',
      ':',
      '-',
      '{{',
      '}}',
      '"',
      '#',
      'readOnlyHint: false\n        ',
      '.params.',
      '  - id: extra\n        tool: fs.read\n',
    ];
    const shape = (items: Diagnostic[]) =>
      items
        .map(
          (d) =>
            `${d.code} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${typeof d.message === 'string' ? d.message : d.message.value}`,
        )
        .sort();
    for (let i = 0; i < 120; i++) {
      if (i % 12 === 11) {
        // Back to the valid document now and then: a broken one is always parsed in full.
        text = WORKFLOW;
        await server.client.replaceAll(uri, text);
      }
      const at = random(text.length + 1);
      const remove = random(3) === 0 ? random(12) : 0;
      // Mostly plain typing (which keeps the document valid), sometimes punctuation or whole lines.
      const insert = random(4) === 0 ? '' : random(3) > 0 ? 'abc'[random(3)]! : inserts[random(inserts.length)]!;
      const start = positionOf(text, at);
      const end = positionOf(text, Math.min(text.length, at + remove));
      text = text.slice(0, at) + insert + text.slice(Math.min(text.length, at + remove));
      await server.client.change(uri, [{ range: { start, end }, text: insert }]);
      if (i % 3 === 0) {
        // A completion parses a copy of the document with a placeholder: it must not disturb the next edit.
        await server.client.connection.sendRequest('textDocument/completion', {
          textDocument: { uri },
          position: start,
        });
      }
      const typed = await server.client.pullItems(uri);
      await server.client.open(mirror, text);
      const fresh = await server.client.pullItems(mirror);
      await server.client.close(mirror);
      assert.deepEqual(shape(typed), shape(fresh), `after edit ${i + 1}:\n${text}`);
    }
    await server.client.close(uri);
  });

  test('never crashes on what a user can type', async () => {
    const uri = ws.uri('gateways/broken.vmcp.yaml');
    const garbage = [
      'compositeTools:\n  - name: [\n    steps: {{\n',
      'compositeTools: 5\n',
      '\u0000\uffff: {"',
      'compositeTools:\n  - steps:\n      - tool: "{{ .steps. }}"\n        dependsOn: [[[]]]\n',
    ];
    for (const text of garbage) {
      await server.client.open(uri, text);
      await server.client.pullItems(uri);
      for (const position of [
        { line: 0, character: 0 },
        { line: 1, character: 9 },
        { line: 99, character: 99 },
        { line: 2, character: 20 },
      ]) {
        await server.client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
        await server.client.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position });
        await server.client.connection.sendRequest('textDocument/definition', { textDocument: { uri }, position });
        await server.client.connection.sendRequest(CodeActionRequest.type, {
          textDocument: { uri },
          range: { start: position, end: position },
          context: { diagnostics: [] },
        });
      }
      await server.client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
      await server.client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
      await server.client.close(uri);
    }
    // Unknown documents and bad command arguments.
    assert.equal(
      await server.client.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: ws.uri('nope.yaml') },
        position: { line: 0, character: 0 },
      }),
      null,
    );
    // A wrong argument is an InvalidParams error (test/lsp/commands-hostile.test.ts has every command).
    await assert.rejects(
      server.client.connection.sendRequest(ExecuteCommandRequest.type, {
        command: SERVER_COMMANDS.floor,
        arguments: [42],
      }),
      (error: { code?: number }) => error.code === -32602,
    );
    assert.deepEqual(await server.client.pullItems(workflowUri()).then((items) => items.length > 0), true);
    // No handler failed (a rule that throws is the engine's business: it logs `rule <id> failed`).
    assert.deepEqual(
      server.client.logs.filter((l) => / failed: /.test(l) && !l.startsWith('rule ')),
      [],
    );
  });
});

describe('language server in process (push client)', () => {
  test('publishes diagnostics for open documents and, in the background, for the workspace', async () => {
    const ws = makeWorkspace({
      [CATALOG_PATH]: CATALOG,
      [WORKFLOW_PATH]: WORKFLOW,
      'other/second.vmcp.yaml': WORKFLOW.replace('copy_readme', 'copy_again'),
    });
    const server = startInProcess();
    try {
      const result = await server.client.initialize(ws.root, PUSH_CAPABILITIES);
      assert.equal(result.capabilities.diagnosticProvider, undefined);
      const closedUri = ws.uri('other/second.vmcp.yaml');
      await server.client.waitFor(
        () => (server.client.published.get(closedUri) ?? []).some((d) => d.code === 'annotations/contradiction'),
        'background diagnostics of a closed file',
      );
      const uri = ws.uri(WORKFLOW_PATH);
      await server.client.open(uri, WORKFLOW);
      await server.client.replaceAll(uri, WORKFLOW.replace('readOnlyHint: true', 'readOnlyHint: false'));
      await server.client.waitFor(() => {
        const items = server.client.published.get(uri);
        return (
          items !== undefined &&
          !items.some((d) => d.code === 'annotations/contradiction') &&
          items.some((d) => d.code === 'template/not-upstream')
        );
      }, 'diagnostics of the edited text');
      // Turning workspace diagnostics off clears the closed file's, and keeps the open one's.
      await server.client.connection.sendNotification('workspace/didChangeConfiguration', {
        settings: { toolLens: { workspaceDiagnostics: false } },
      });
      await server.client.waitFor(
        () => server.client.published.get(closedUri)?.length === 0,
        'the closed file cleared',
      );
      assert.ok((server.client.published.get(uri) ?? []).length > 0);
      await server.client.shutdown();
    } finally {
      server.dispose();
      ws.dispose();
    }
  });
});

describe('language server in process (no folder)', () => {
  test('checks an open document on its own', async () => {
    const server = startInProcess();
    try {
      await server.client.initialize(undefined, PULL_CAPABILITIES);
      const uri = 'untitled:Untitled-1';
      await server.client.open(
        uri,
        'compositeTools:\n  - name: a\n    description: d\n    steps:\n      - id: x\n        tool: t\n        dependsOn: [nope]\n',
      );
      const items = await server.client.pullItems(uri);
      assert.equal(byRule(items, 'workflow/unknown-dependency').length, 1);
      await server.client.shutdown();
    } finally {
      server.dispose();
    }
  });
});
