// One mistake, one finding, as the editor shows them (issue 26): a typo in a step's tool under a
// composite that claims read-only gives tool/unknown alone, and the lens, the hover and the graph
// say the gateway leaves the composite out for that step (not that the claim is wrong); a catalog
// that renames the step's tool does the same; a deleted colon gives the syntax error and nothing
// about the key the parser made of it; the graph the panel asks for after a quick fix has no mark
// of the finding the fix took away; and every problem of `.toollens.yaml` is a diagnostic at once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CodeActionRequest,
  CodeLensRequest,
  DidChangeWatchedFilesNotification,
  ExecuteCommandRequest,
  FileChangeType,
  HoverRequest,
  type CodeAction,
  type Diagnostic,
  type Hover,
} from 'vscode-languageserver-protocol/node';
import { SERVER_COMMANDS, type WorkflowGraph } from '../../server/src/lsp/protocol.js';
import { applyLspEdits, makeWorkspace, startInProcess, type InProcess } from './harness.js';
import { CATALOG, CATALOG_PATH } from './workspace.js';

const GATEWAY_PATH = 'gateways/readme.vmcp.yaml';
// read_readme claims read-only and closed-world, rightly: read_file declares both. copy_readme's
// "write" reads "read" without waiting for it.
const GATEWAY = `name: readme-gateway
groupRef: docs
incomingAuth: {type: anonymous}
outgoingAuth: {source: inline, default: {type: unauthenticated}}
backends:
  - name: filesystem
    url: http://filesystem:8080/mcp
    transport: streamable-http
aggregation:
  conflictResolution: prefix
  conflictResolutionConfig:
    prefixFormat: "{workload}_"
compositeTools:
  - name: read_readme
    description: Read the README.
    annotations:
      readOnlyHint: true
      openWorldHint: false
    steps:
      - id: read
        tool: filesystem.read_file
        arguments:
          path: README.md
          head: 20
  - name: copy_readme
    description: Copy the README.
    steps:
      - id: read
        tool: filesystem.read_file
        arguments:
          path: README.md
      - id: write
        tool: filesystem.write_file
        arguments:
          path: site/README.md
          content: "{{.steps.read.output.content}}"
`;

const codeOf = (d: Diagnostic): string => String(d.code);
const rulesOf = (items: Diagnostic[]): string[] => items.map(codeOf).sort();

function positionOf(text: string, needle: string, delta = 0): { line: number; character: number } {
  const index = text.indexOf(needle);
  assert.ok(index >= 0, `the text lacks ${needle}`);
  const before = text.slice(0, index + delta).split('\n');
  return { line: before.length - 1, character: before[before.length - 1]!.length };
}

describe('one mistake, one finding, in the editor', () => {
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;
  let uri: string;

  before(async () => {
    ws = makeWorkspace({ [CATALOG_PATH]: CATALOG, [GATEWAY_PATH]: GATEWAY });
    server = startInProcess();
    await server.client.initialize(ws.root);
    uri = ws.uri(GATEWAY_PATH);
    await server.client.open(uri, GATEWAY);
  });

  after(async () => {
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
  });

  /** The document's rules once they are `wanted` (a change on disk is read in the background), or as they are after a while. */
  const settled = async (wanted: string[]): Promise<string[]> => {
    let rules: string[] = [];
    for (let i = 0; i < 50; i++) {
      rules = rulesOf(await server.client.pullItems(uri));
      if (JSON.stringify(rules) === JSON.stringify(wanted)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return rules;
  };

  const lenses = async (): Promise<string[]> =>
    (
      (await server.client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) as {
        command: { title: string };
      }[]
    ).map((l) => l.command.title);

  const graphs = async (): Promise<WorkflowGraph[]> =>
    (await server.client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: SERVER_COMMANDS.workflowGraph,
      arguments: [{ uri }],
    })) as WorkflowGraph[];

  const hoverAt = async (text: string, needle: string): Promise<string> => {
    const hover: Hover | null = await server.client.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: positionOf(text, needle, 2),
    });
    return hover ? (hover.contents as { value: string }).value : '';
  };

  test('as written: the race alone, and the read-only claim holds', async () => {
    assert.deepEqual(rulesOf(await server.client.pullItems(uri)), ['template/not-upstream']);
    assert.equal((await lenses())[0], 'readOnly ✓ · openWorld ✗ · 1/1 tool step known');
  });

  test('a typo in the step tool: tool/unknown alone, and the gateway leaves the composite out for it', async () => {
    const typo = GATEWAY.replace(
      'tool: filesystem.read_file\n        arguments:\n          path: README.md\n          head',
      'tool: filesystem.read_fil\n        arguments:\n          path: README.md\n          head',
    );
    assert.notEqual(typo, GATEWAY);
    await server.client.replaceAll(uri, typo);
    const items = await server.client.pullItems(uri);
    assert.deepEqual(rulesOf(items), ['template/not-upstream', 'tool/unknown'], JSON.stringify(items));
    const unknown = items.find((d) => codeOf(d) === 'tool/unknown')!;
    assert.deepEqual(
      unknown.relatedInformation?.map((r) => [r.location.range.start, r.message]),
      [
        [
          positionOf(typo, 'read_readme'),
          `composite tool "read_readme" is left out of every session's tool list while this step does not resolve`,
        ],
      ],
    );
    assert.equal((await lenses())[0], 'Left out by the gateway: step "read" does not resolve · 0/1 tool step known');
    const [graph] = await graphs();
    assert.equal(graph!.dropped, 'Left out by the gateway: step "read" does not resolve.');
    assert.deepEqual(
      graph!.nodes.map((n) => (n.marks ?? []).map((m) => m.kind)),
      [['unknown']],
    );
    const hover = await hoverAt(typo, 'name: read_readme');
    assert.match(hover, /⚠ Step `read` does not resolve: the gateway leaves this composite tool out/);
    assert.doesNotMatch(hover, /contradict/);
    await server.client.replaceAll(uri, GATEWAY);
    assert.deepEqual(rulesOf(await server.client.pullItems(uri)), ['template/not-upstream']);
  });

  test('a catalog that renames the tool: no contradiction beside the rename and the step it breaks', async () => {
    const renamed = CATALOG.replace('- name: read_file', '- name: read_text_file');
    ws.write(CATALOG_PATH, renamed);
    const refreshes = server.client.refreshes;
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: ws.uri(CATALOG_PATH), type: FileChangeType.Changed }],
    });
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'a refresh after the catalog changed');
    const items = await server.client.pullItems(uri);
    assert.ok(!items.some((d) => codeOf(d) === 'annotations/contradiction'), JSON.stringify(items));
    assert.ok(items.some((d) => codeOf(d) === 'tool/unknown'));
    assert.match((await lenses())[0]!, /^Left out by the gateway: step "read" does not resolve/);
    assert.ok(items.some((d) => codeOf(d) === 'aggregation/advertised-rename'));
    ws.write(CATALOG_PATH, CATALOG);
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: ws.uri(CATALOG_PATH), type: FileChangeType.Changed }],
    });
    assert.deepEqual(await settled(['template/not-upstream']), ['template/not-upstream']);
  });

  test('a deleted colon: the syntax error alone, nothing on the key the parser made of it', async () => {
    // As typed: one character taken away.
    const at = positionOf(GATEWAY, 'path: README.md\n          head', 4);
    await server.client.change(uri, [{ range: { start: at, end: { ...at, character: at.character + 1 } }, text: '' }]);
    const items = await server.client.pullItems(uri);
    assert.deepEqual(
      items.map((d) => [codeOf(d), d.range.start.line]),
      [
        ['yaml/syntax', at.line],
        ['template/not-upstream', positionOf(GATEWAY, '{{.steps.read').line],
      ],
      JSON.stringify(items),
    );
    await server.client.replaceAll(uri, GATEWAY);
  });

  test('after the quick fix, the graph has no mark of the race it took away', async () => {
    const [race] = (await server.client.pullItems(uri)).filter((d) => codeOf(d) === 'template/not-upstream');
    assert.ok(
      (await graphs())[1]!.nodes.find((n) => n.id === 'write')!.marks?.some((m) => m.kind === 'race'),
      'the race before the fix',
    );
    const actions = (await server.client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: race!.range,
      context: { diagnostics: [race!] },
    })) as CodeAction[];
    const add = actions.find((a) => a.title === 'Add "read" to dependsOn');
    assert.ok(add?.edit?.changes?.[uri], JSON.stringify(actions.map((a) => a.title)));
    const fixed = applyLspEdits(GATEWAY, add.edit.changes[uri]!);
    await server.client.replaceAll(uri, fixed);
    assert.deepEqual(await server.client.pullItems(uri), []);
    const write = (await graphs())[1]!.nodes.find((n) => n.id === 'write')!;
    assert.deepEqual(write.marks ?? [], []);
    assert.equal((await graphs())[1]!.edges.filter((e) => e.kind === 'reads').length, 0);
    await server.client.replaceAll(uri, GATEWAY);
  });

  test('.toollens.yaml: every problem at once, a misspelt id and severity on one line included', async () => {
    const config = 'rulse:\n  tool/unknown: eror\nrules:\n  tool/unknwn: warnin\n';
    ws.write('.toollens.yaml', config);
    const configUri = ws.uri('.toollens.yaml');
    const refreshes = server.client.refreshes;
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: configUri, type: FileChangeType.Created }],
    });
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'a refresh after the configuration came');
    await server.client.open(configUri, config);
    const items = await server.client.pullItems(configUri);
    assert.deepEqual(
      items.map((d) => [d.range.start.line, d.range.start.character]),
      [
        [0, 0],
        [1, 16],
        [3, 2],
        [3, 15],
      ],
      JSON.stringify(items.map((d) => d.message)),
    );
  });
});
