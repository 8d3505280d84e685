// Cursor-marker tests for hover, completion and definition: each fixture text holds `‸` where
// the caret is; the marker is removed before the document is opened.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CompletionRequest,
  DefinitionRequest,
  HoverRequest,
  type CompletionItem,
  type Hover,
  type Location,
} from 'vscode-languageserver-protocol/node';
import { cursor, makeWorkspace, startInProcess, type InProcess } from './harness.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG, CATALOG_PATH } from './workspace.js';

/** A server with dynamic namespaces (the one the rule docs are written against). */
const AGENT_CATALOG = readFileSync(
  join(__dirname, '..', '..', 'docs', 'rules', '_catalogs', 'agent.catalog.yaml'),
  'utf8',
);

const GATEWAY_HEAD = `name: docs-gateway
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
      readOnlyHint: false
    steps:
      - id: read
        tool: filesystem.read_file
        arguments:
          path: README.md
`;

/** The gateway with the write step written by the case (its `‸` marks the caret). */
const gateway = (writeStep: string) => GATEWAY_HEAD + writeStep;

const WRITE_STEP = `      - id: write
        tool: filesystem.write_file
        dependsOn: [read]
        arguments:
          path: "{{.params.target}}"
          content: "{{.steps.read.output.content}}"
`;

const OVERLAY = `server: filesystem
toolFaces:
  read_file:
    family: read
    pathTarget: {param: path, access: read}
`;

let server: InProcess;
let ws: ReturnType<typeof makeWorkspace>;
let counter = 0;

before(async () => {
  ws = makeWorkspace({ [CATALOG_PATH]: CATALOG, 'catalogs/agent.catalog.yaml': AGENT_CATALOG });
  server = startInProcess();
  await server.client.initialize(ws.root);
});

after(async () => {
  await server.client.shutdown();
  server.dispose();
  ws.dispose();
});

/** Opens the fixture (marker removed) under a fresh name and returns its URI and the caret. */
async function openAt(
  withMarker: string,
  extension = 'vmcp.yaml',
): Promise<{ uri: string; position: { line: number; character: number }; text: string }> {
  const { text, position } = cursor(withMarker);
  const uri = ws.uri(`cases/case${++counter}.${extension}`);
  await server.client.open(uri, text, extension.endsWith('json') ? 'json' : 'yaml');
  return { uri, position, text };
}

async function hoverAt(withMarker: string, extension?: string): Promise<string | undefined> {
  const { uri, position } = await openAt(withMarker, extension);
  const hover: Hover | null = await server.client.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri },
    position,
  });
  await server.client.close(uri);
  return hover ? (hover.contents as { value: string }).value : undefined;
}

async function completeAt(withMarker: string, extension?: string): Promise<{ items: CompletionItem[]; text: string }> {
  const { uri, position, text } = await openAt(withMarker, extension);
  const result = (await server.client.connection.sendRequest(CompletionRequest.type, {
    textDocument: { uri },
    position,
  })) as CompletionItem[] | null;
  await server.client.close(uri);
  return { items: result ?? [], text };
}

async function definitionAt(withMarker: string, extension?: string): Promise<{ locations: Location[]; uri: string }> {
  const { uri, position } = await openAt(withMarker, extension);
  const result = (await server.client.connection.sendRequest(DefinitionRequest.type, {
    textDocument: { uri },
    position,
  })) as Location[] | null;
  return { locations: result ?? [], uri };
}

/** The text a completion item's edit produces. */
function apply(text: string, item: CompletionItem): string {
  const edit = item.textEdit as {
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    newText: string;
  };
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) =>
    lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return text.slice(0, offset(edit.range.start)) + edit.newText + text.slice(offset(edit.range.end));
}

const labels = (items: CompletionItem[]) => items.map((i) => i.label).sort();

describe('hover', () => {
  test('on a composite name: the floor table', async () => {
    const markdown = await hoverAt(gateway(WRITE_STEP).replace('name: copy_readme', 'name: copy_re‸adme'));
    assert.match(markdown ?? '', /\| hint \| floor \| explicit \| advertised \| decided by \|/);
    assert.match(markdown ?? '', /\| destructiveHint \| `true` \| — \| `true` \|/);
  });

  test('on the annotations key: the floor table', async () => {
    const markdown = await hoverAt(gateway(WRITE_STEP).replace('    annotations:', '    annota‸tions:'));
    assert.match(markdown ?? '', /\| readOnlyHint \| `false` \| `false` \| `false` \|/);
  });

  test("on a step's tool: title, description, annotations and arguments", async () => {
    const markdown = await hoverAt(
      gateway(WRITE_STEP).replace('tool: filesystem.read_file', 'tool: filesystem.rea‸d_file'),
    );
    assert.match(markdown ?? '', /\*Read file\*/);
    assert.match(markdown ?? '', /Read the complete contents of a file\./);
    assert.match(markdown ?? '', /readOnlyHint: `true`, openWorldHint: `false`/);
    assert.match(markdown ?? '', /\| `path` \| string \| yes \| Path of the file to read \|/);
    assert.match(markdown ?? '', /\| `head` \| number \| no \|/);
  });

  test('on a face: the mounted name and the properties', async () => {
    const markdown = await hoverAt(OVERLAY.replace('  read_file:', '  read_‸file:'), 'faces.yaml');
    assert.match(markdown ?? '', /mcp__filesystem__read_file/);
    assert.match(markdown ?? '', /\| `path` \| string \| yes \| yes \|/);
  });

  test('on an envelope: the namespace and the dynamic tool it reaches', async () => {
    const calls = `server: agent
calls:
  - tool: call_dynamic_tool
    input:
      namespace: not‸ion
      toolName: page_search
      arguments: {query: roadmap}
      mcpDetails: {description: Find the roadmap page the user asked about.}
`;
    const value = (await hoverAt(calls, 'calls.yaml')) ?? '';
    assert.match(value, /call_dynamic_tool` → `notion\/page_search`/);
    assert.match(value, /external: every call must carry `mcpDetails.description`/);
    assert.match(value, /\| `query` \|/);
  });

  test('on a call into a namespace that is not ready', async () => {
    const calls = `server: agent
calls:
  - tool: call_dyn‸amic_tool
    input: {namespace: legacy, toolName: old_tool, arguments: {}}
`;
    const value = (await hoverAt(calls, 'calls.yaml')) ?? '';
    assert.match(value, /status \*\*disabled\*\*: the runtime refuses every call into it/);
  });

  test('nothing on other keys', async () => {
    assert.equal(await hoverAt(gateway(WRITE_STEP).replace('    description:', '    descr‸iption:')), undefined);
  });
});

describe('completion', () => {
  test('tool references from the catalog in a step tool value', async () => {
    const { items, text } = await completeAt(
      gateway(WRITE_STEP.replace('tool: filesystem.write_file', 'tool: filesystem.wr‸')),
    );
    assert.ok(labels(items).includes('filesystem.write_file'));
    assert.ok(labels(items).includes('filesystem_write_file'), 'the prefixed name too');
    const item = items.find((i) => i.label === 'filesystem.write_file')!;
    assert.match(apply(text, item), /tool: filesystem\.write_file\n/);
  });

  test('tool references in an empty value', async () => {
    const { items } = await completeAt(gateway(WRITE_STEP.replace('tool: filesystem.write_file', 'tool: ‸')));
    assert.deepEqual(labels(items), [
      'filesystem.read_file',
      'filesystem.write_file',
      'filesystem_read_file',
      'filesystem_write_file',
    ]);
  });

  test('step ids in dependsOn (flow and block)', async () => {
    const flow = await completeAt(gateway(WRITE_STEP.replace('dependsOn: [read]', 'dependsOn: [‸]')));
    assert.deepEqual(labels(flow.items), ['read']);
    const block = await completeAt(gateway(WRITE_STEP.replace('dependsOn: [read]', 'dependsOn:\n          - ‸')));
    assert.deepEqual(labels(block.items), ['read']);
    assert.match(apply(block.text, block.items[0]!), /dependsOn:\n {10}- read\n/);
  });

  test('template roots and fields inside {{ }}', async () => {
    const roots = await completeAt(gateway(WRITE_STEP.replace('{{.params.target}}', '{{.‸}}')));
    assert.deepEqual(labels(roots.items), ['params', 'steps', 'workflow']);
    const params = await completeAt(gateway(WRITE_STEP.replace('{{.params.target}}', '{{.params.t‸}}')));
    assert.deepEqual(labels(params.items), ['target']);
    assert.match(apply(params.text, params.items[0]!), /path: "\{\{\.params\.target\}\}"/);
    const steps = await completeAt(gateway(WRITE_STEP.replace('{{.steps.read.output.content}}', '{{.steps.‸}}')));
    assert.deepEqual(labels(steps.items), ['read']);
    const fields = await completeAt(gateway(WRITE_STEP.replace('{{.steps.read.output.content}}', '{{.steps.read.‸}}')));
    assert.deepEqual(labels(fields.items), ['error', 'output', 'status']);
    const output = await completeAt(
      gateway(WRITE_STEP.replace('{{.steps.read.output.content}}', '{{.steps.read.output.c‸}}')),
    );
    assert.deepEqual(labels(output.items), ['content']);
    const outside = await completeAt(gateway(WRITE_STEP.replace('"{{.params.target}}"', '"plain ‸ text"')));
    assert.deepEqual(outside.items, []);
  });

  test("argument names from the resolved tool's input schema", async () => {
    const blank = await completeAt(
      gateway(WRITE_STEP.replace('          content: "{{.steps.read.output.content}}"\n', '          ‸\n')),
    );
    assert.deepEqual(labels(blank.items), ['content'], 'path is already there');
    assert.match(apply(blank.text, blank.items[0]!), /\n {10}content: \n/);
    const typed = await completeAt(
      gateway(WRITE_STEP.replace('          content: "{{.steps.read.output.content}}"\n', '          co‸\n')),
    );
    assert.deepEqual(labels(typed.items), ['content']);
    assert.match(apply(typed.text, typed.items[0]!), /\n {10}content: \n/);
  });

  test('argument names in JSON', async () => {
    const json = `{
  "compositeTools": [{
    "name": "copy", "description": "Copy.",
    "steps": [{"id": "write", "tool": "filesystem.write_file", "arguments": {"path": "x", ‸}}]
  }]
}
`;
    const { items, text } = await completeAt(json, 'vmcp.json');
    assert.deepEqual(labels(items), ['content']);
    assert.match(apply(text, items[0]!), /"arguments": \{"path": "x", "content": \}/);
  });

  test('face closed-set values and tool names under toolFaces', async () => {
    const family = await completeAt(OVERLAY.replace('family: read', 'family: ‸'), 'faces.yaml');
    assert.ok(labels(family.items).includes('write'));
    assert.ok(labels(family.items).includes('search'));
    const card = await completeAt(OVERLAY + '    renderHints:\n      approvalCard: ‸\n', 'faces.yaml');
    assert.ok(labels(card.items).includes('generic'));
    assert.ok(!labels(card.items).includes('plan'), 'reserved cards are not offered');
    const tools = await completeAt(OVERLAY + '  ‸\n', 'faces.yaml');
    assert.deepEqual(labels(tools.items), ['write_file'], 'read_file already has a face');
  });
});

describe('definition', () => {
  const lineOfText = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length - 1;

  test('a step id in dependsOn → the step', async () => {
    const text = gateway(WRITE_STEP.replace('dependsOn: [read]', 'dependsOn: [re‸ad]'));
    const { locations, uri } = await definitionAt(text);
    assert.equal(locations.length, 1);
    assert.equal(locations[0]!.uri, uri);
    assert.equal(locations[0]!.range.start.line, lineOfText(text, '- id: read'));
    assert.equal(locations[0]!.range.start.character, '      - id: '.length);
  });

  test('a template step reference → the step', async () => {
    const text = gateway(WRITE_STEP.replace('{{.steps.read.output.content}}', '{{.steps.re‸ad.output.content}}'));
    const { locations } = await definitionAt(text);
    assert.equal(locations[0]?.range.start.line, lineOfText(text, '- id: read'));
  });

  test('a template parameter reference → the parameter', async () => {
    const text = gateway(WRITE_STEP.replace('{{.params.target}}', '{{.params.tar‸get}}'));
    const { locations } = await definitionAt(text);
    assert.equal(locations[0]?.range.start.line, lineOfText(text, 'target: {type: string}'));
  });

  test("a step's tool → the tool in the catalog file", async () => {
    const { locations } = await definitionAt(
      gateway(WRITE_STEP.replace('tool: filesystem.write_file', 'tool: filesystem.write‸_file')),
    );
    assert.equal(locations[0]?.uri, ws.uri(CATALOG_PATH));
    assert.equal(locations[0]?.range.start.line, lineOfText(CATALOG, 'name: write_file'));
  });

  test('a face key → the catalog tool', async () => {
    const { locations } = await definitionAt(OVERLAY.replace('  read_file:', '  read‸_file:'), 'faces.yaml');
    assert.equal(locations[0]?.uri, ws.uri(CATALOG_PATH));
    assert.equal(locations[0]?.range.start.line, lineOfText(CATALOG, 'name: read_file'));
  });
});
