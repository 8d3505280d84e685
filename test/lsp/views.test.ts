// What the editor shows beside the diagnostics, over the protocol (issue 12): the code lens in one
// short line (and a composite the gateway drops says so), one mistake one message (no hover part
// repeating the diagnostic under the cursor, no fix offered twice in the menu), and the workflow
// graph's marks (the contradiction, the race, the unknown step).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CodeActionRequest,
  CodeLensRequest,
  ExecuteCommandRequest,
  HoverRequest,
  type CodeAction,
  type Diagnostic,
  type Hover,
} from 'vscode-languageserver-protocol/node';
import { lensTitle } from '../../server/src/core/ide/lens.js';
import { SERVER_COMMANDS, type WorkflowGraph } from '../../server/src/lsp/protocol.js';
import { makeWorkspace, startInProcess, type InProcess } from './harness.js';
import { CATALOG, CATALOG_PATH } from './workspace.js';

const GATEWAY_PATH = 'gateways/views.vmcp.yaml';
// copy_readme claims read-only while "write" writes; "write" reads "read" twice on one line without
// waiting for it; "notify" names a tool the catalog lacks. list_docs is right.
const GATEWAY = `name: views-gateway
groupRef: docs
backends:
  - name: filesystem
    url: http://filesystem:8080/mcp
    transport: streamable-http
compositeTools:
  - name: copy_readme
    description: Copy the README into the docs folder.
    parameters:
      type: object
      properties:
        target: {type: string}
    annotations:
      readOnlyHint: true
    steps:
      - id: read
        tool: filesystem.read_file
        arguments:
          path: README.md
      - id: write
        tool: filesystem.write_file
        arguments:
          path: "{{.params.target}}"
          content: "{{.steps.read.output.content}} {{.steps.read.output.content}}"
      - id: notify
        tool: filesystem.notify_all
        dependsOn: [write]
  - name: list_docs
    description: Read the index.
    steps:
      - id: index
        tool: filesystem.read_file
        arguments:
          path: site/index.md
`;

const FACES_PATH = 'faces/filesystem.faces.yaml';
// raed_file is listed by no server: face/undeclared. read_file is listed.
const FACES = `server: filesystem
toolFaces:
  raed_file: {family: read}
  read_file: {family: read}
`;

function at(text: string, needle: string, delta = 0): { line: number; character: number } {
  const index = text.indexOf(needle);
  assert.ok(index >= 0, `fixture lacks ${needle}`);
  const before = text.slice(0, index + delta).split('\n');
  return { line: before.length - 1, character: before[before.length - 1]!.length };
}

describe('the editor says each thing once, briefly', () => {
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;
  let uri: string;
  let items: Diagnostic[];

  before(async () => {
    ws = makeWorkspace({ [CATALOG_PATH]: CATALOG, [GATEWAY_PATH]: GATEWAY, [FACES_PATH]: FACES });
    server = startInProcess();
    await server.client.initialize(ws.root);
    uri = ws.uri(GATEWAY_PATH);
    await server.client.open(uri, GATEWAY);
    items = await server.client.pullItems(uri);
  });

  after(async () => {
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
  });

  const hoverAt = async (position: { line: number; character: number }): Promise<string | null> => {
    const hover: Hover | null = await server.client.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position,
    });
    return hover ? (hover.contents as { value: string }).value : null;
  };

  test('the lens line: the advertised hints as ✓/✗, the known steps, and a dropped composite says so', async () => {
    const lenses = (await server.client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) as {
      command: { title: string };
    }[];
    assert.deepEqual(
      lenses.map((l) => l.command.title),
      [
        // "notify" does not resolve: the gateway leaves the composite out for it first; the claim the
        // "write" step breaks is its own mistake, and the line says both.
        'Left out by the gateway: step "notify" does not resolve; readOnly ✓ claimed, floor ✗ · 2/3 tool steps known',
        'readOnly ✓ · openWorld ✗ · 1/1 tool step known',
      ],
    );
  });

  test('the lens line for each shape of floor', () => {
    assert.equal(
      lensTitle({ readOnlyHint: false, destructiveHint: true, openWorldHint: true }, [], 2, 2),
      'readOnly ✗ · destructive ✓ · openWorld ✓ · 2/2 tool steps known',
    );
    assert.equal(
      lensTitle({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }, [], 3, 1),
      'readOnly ✗ · destructive ✗ · idempotent ✓ · openWorld ✗ · 1/3 tool steps known',
    );
    assert.equal(lensTitle(undefined, [], 0, 0), 'no hints advertised · no tool steps, no floor');
    assert.equal(lensTitle({ readOnlyHint: true }, [], 0, 0), 'readOnly ✓ · no tool steps, no floor');
    // destructive and idempotent mean nothing on a read-only tool (MCP): the line leaves them out.
    assert.equal(
      lensTitle({ readOnlyHint: true, destructiveHint: true, idempotentHint: false, openWorldHint: false }, [], 2, 2),
      'readOnly ✓ · openWorld ✗ · 2/2 tool steps known',
    );
    assert.equal(
      lensTitle(
        { readOnlyHint: true, destructiveHint: false },
        [
          { hint: 'readOnlyHint', explicit: true, floor: false },
          { hint: 'destructiveHint', explicit: false, floor: true },
        ],
        1,
        1,
      ),
      'Dropped by the gateway: readOnly ✓ claimed, floor ✗; destructive ✗ claimed, floor ✓ · 1/1 tool step known',
    );
    assert.equal(
      lensTitle({ readOnlyHint: true }, [], 2, 1, ['fetch']),
      'Left out by the gateway: step "fetch" does not resolve · 1/2 tool steps known',
    );
    assert.equal(
      lensTitle({ readOnlyHint: true }, [], 5, 1, ['a', 'b', 'c', 'd']),
      'Left out by the gateway: steps "a", "b", "c" and 1 more do not resolve · 1/5 tool steps known',
    );
  });

  test('the hover on the contradicting hint leaves the contradiction to the diagnostic; on the name it says it', async () => {
    assert.equal(items.filter((d) => d.code === 'annotations/contradiction').length, 1);
    const onHint = await hoverAt(at(GATEWAY, 'readOnlyHint: true', 2));
    assert.ok(onHint?.includes('| hint | floor | explicit | advertised | decided by |'), `the floor table: ${onHint}`);
    assert.doesNotMatch(onHint!, /contradict/);
    const onName = await hoverAt(at(GATEWAY, 'name: copy_readme', 'name: '.length + 2));
    assert.match(onName!, /⚠ The explicit annotations contradict the floor/);
  });

  test('the hover on a tool that does not resolve adds nothing to tool/unknown; on its key it explains', async () => {
    const unknown = items.filter((d) => d.code === 'tool/unknown');
    assert.equal(unknown.length, 1);
    assert.match(
      typeof unknown[0]!.message === 'string' ? unknown[0]!.message : unknown[0]!.message.value,
      /notify_all/,
    );
    assert.equal(await hoverAt(at(GATEWAY, 'filesystem.notify_all', 3)), null);
    const onKey = await hoverAt(at(GATEWAY, 'tool: filesystem.notify_all', 1));
    assert.match(onKey!, /Does not resolve/);
    // A tool that resolves keeps its hover on the value.
    assert.match((await hoverAt(at(GATEWAY, 'filesystem.write_file', 3)))!, /Write file/);
  });

  test('the hover on a face for a tool no server lists adds nothing to face/undeclared; a listed one has its hover', async () => {
    const facesUri = ws.uri(FACES_PATH);
    await server.client.open(facesUri, FACES);
    const undeclared = (await server.client.pullItems(facesUri)).filter((d) => d.code === 'face/undeclared');
    assert.equal(undeclared.length, 1);
    const hoverOn = async (needle: string) => {
      const hover: Hover | null = await server.client.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: facesUri },
        position: at(FACES, needle, 2),
      });
      return hover ? (hover.contents as { value: string }).value : null;
    };
    assert.equal(await hoverOn('raed_file'), null);
    assert.match((await hoverOn('read_file:'))!, /Read file/);
    await server.client.close(facesUri);
  });

  test('the hover on a namespace no server has adds nothing to envelope/unknown-namespace; a known one has its hover', async () => {
    const callsUri = ws.uri('calls/views.calls.yaml');
    const calls = [
      'server: filesystem',
      'calls:',
      '  - tool: call_dynamic_tool',
      '    input:',
      '      namespace: aplets',
      '      toolName: applet_create',
      '      arguments: {value: x}',
      '  - tool: call_dynamic_tool',
      '    input:',
      '      namespace: applets',
      '      toolName: applet_create',
      '      arguments: {value: x}',
      '      mcpDetails: {description: Make the applet the user asked for.}',
      '',
    ].join('\n');
    await server.client.open(callsUri, calls);
    const unknown = (await server.client.pullItems(callsUri)).filter((d) => d.code === 'envelope/unknown-namespace');
    assert.equal(unknown.length, 1);
    const hoverOn = async (needle: string) => {
      const hover: Hover | null = await server.client.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: callsUri },
        position: at(calls, needle, 2),
      });
      return hover ? (hover.contents as { value: string }).value : null;
    };
    assert.equal(await hoverOn('aplets'), null);
    assert.match((await hoverOn('applets\n'))!, /Namespace `applets` of server `filesystem`/);
    await server.client.close(callsUri);
  });

  test('a fix two findings share is offered once, tied to both', async () => {
    const races = items.filter((d) => d.code === 'template/not-upstream');
    assert.equal(races.length, 2, 'two reads of "read" on one line');
    const actions = (await server.client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: races[0]!.range.start, end: races[1]!.range.end },
      context: { diagnostics: races },
    })) as CodeAction[];
    const titles = actions.map((a) => a.title);
    assert.deepEqual(titles, [...new Set(titles)], `a title offered twice: ${JSON.stringify(titles)}`);
    const add = actions.find((a) => a.title === 'Add "read" to dependsOn');
    assert.ok(add, JSON.stringify(titles));
    assert.equal(add.diagnostics?.length, 2);
    assert.equal(add.isPreferred, true);
  });

  test('the graph: the dropped composite, the steps that break its claim, the race and the unknown step', async () => {
    const graphs = (await server.client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: SERVER_COMMANDS.workflowGraph,
      arguments: [{ uri }],
    })) as WorkflowGraph[];
    assert.deepEqual(
      graphs.map((g) => g.workflow),
      ['copy_readme', 'list_docs'],
    );
    const [copy, list] = graphs as [WorkflowGraph, WorkflowGraph];
    assert.equal(
      copy.dropped,
      'Left out by the gateway: step "notify" does not resolve, and the composite claims readOnlyHint: true, which its steps contradict.',
    );
    assert.equal(list.dropped, undefined);
    const marks = Object.fromEntries(copy.nodes.map((n) => [n.id, (n.marks ?? []).map((m) => m.kind)]));
    assert.deepEqual(marks, { read: [], write: ['breaks-claim', 'race'], notify: ['unknown'] });
    const race = copy.nodes.find((n) => n.id === 'write')!.marks!.find((m) => m.kind === 'race')!;
    assert.equal(race.text, 'reads .steps.read without waiting for it: a race');
    assert.deepEqual(copy.edges, [
      { from: 'write', to: 'notify' },
      { from: 'read', to: 'write', kind: 'reads' },
    ]);
    assert.ok(
      list.nodes.every((n) => !n.marks),
      'a right composite has no marks',
    );
  });
});
