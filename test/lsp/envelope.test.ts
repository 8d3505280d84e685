// "Insert Call Envelope" by context (issue 12, defect 2): the server command places the envelope by
// the calls document's structure, never where the cursor happens to be. For each context (the end
// of the file, a blank line after the list, between entries, inside an unfinished entry, JSON with
// its commas, JSONL, an empty file, a file with comments) the result is exact, its snippet has tab
// stops on the arguments and the mcpDetails sentence, and the file re-checks with no finding.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ExecuteCommandRequest } from 'vscode-languageserver-protocol/node';
import { SERVER_COMMANDS, type CallEnvelopeResult } from '../../server/src/lsp/protocol.js';
import { applyLspEdits, cursor, makeWorkspace, startInProcess, type InProcess } from './harness.js';
import { CATALOG, CATALOG_PATH } from './workspace.js';

/** A snippet as VS Code writes it when the user only presses Tab: each tab stop's offered text, escapes undone. */
function expandSnippet(snippet: string): { text: string; stops: string[] } {
  let text = '';
  const stops: string[] = [];
  let i = 0;
  const readUntilClose = (): string => {
    let out = '';
    while (i < snippet.length && snippet[i] !== '}') {
      if (snippet[i] === '\\' && i + 1 < snippet.length) {
        out += snippet[i + 1];
        i += 2;
      } else if (snippet[i] === '$') throw new Error(`nested or unescaped $ in a placeholder at ${i}: ${snippet}`);
      else out += snippet[i++];
    }
    assert.equal(snippet[i], '}', `unclosed placeholder in ${snippet}`);
    i++;
    return out;
  };
  while (i < snippet.length) {
    const c = snippet[i]!;
    if (c === '\\') {
      text += snippet[i + 1];
      i += 2;
    } else if (c === '$') {
      const match = /^\$\{(\d+):/.exec(snippet.slice(i));
      assert.ok(match, `a bare $ that is no tab stop at ${i}: ${snippet}`);
      i += match[0].length;
      const offered = readUntilClose();
      stops[Number(match[1])] = offered;
      text += offered;
    } else if (c === '}') throw new Error(`unescaped } at ${i}: ${snippet}`);
    else text += snippet[i++];
  }
  return { text, stops };
}

describe("Insert Call Envelope: placed by the calls document's structure", () => {
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;
  let n = 0;

  before(async () => {
    ws = makeWorkspace({ [CATALOG_PATH]: CATALOG });
    server = startInProcess();
    await server.client.initialize(ws.root);
  });

  after(async () => {
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
  });

  /** Inserts the applets/applet_create envelope at the cursor of `marked`; returns the new text, after checking it re-checks clean. */
  async function insert(
    name: string,
    marked: string,
    options: { language?: string; clean?: boolean } = {},
  ): Promise<string> {
    const { text, position } = cursor(marked);
    const uri = ws.uri(`calls/${n++}-${name}`);
    await server.client.open(uri, text, options.language ?? (name.endsWith('.yaml') ? 'yaml' : 'json'));
    const result = (await server.client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: SERVER_COMMANDS.callEnvelope,
      arguments: [{ uri, position, server: 'filesystem', namespace: 'applets', tool: 'applet_create' }],
    })) as CallEnvelopeResult | null;
    assert.ok(result && !('refused' in result), `an insertion, got ${JSON.stringify(result)}`);
    const expanded = expandSnippet(result.snippet);
    assert.equal(expanded.text, result.text, 'the snippet writes the text when only Tab is pressed');
    const after = applyLspEdits(text, [{ range: result.range, newText: result.text }]);
    if (options.clean !== false) {
      await server.client.replaceAll(uri, after);
      const items = await server.client.pullItems(uri);
      assert.deepEqual(
        items.map(
          (d) =>
            `${d.range.start.line + 1}: ${String(d.code)} ${typeof d.message === 'string' ? d.message : d.message.value}`,
        ),
        [],
        `no finding after the insertion:\n${after}`,
      );
    }
    await server.client.close(uri);
    return after;
  }

  const ENTRY = [
    '  - tool: call_dynamic_tool',
    '    input:',
    '      namespace: applets',
    '      toolName: applet_create',
    '      arguments:',
    '        value: ""',
    '      mcpDetails:',
    '        description: "<one sentence saying why you are calling this>"',
  ];
  const LIST = [
    '# Calls replayed by the prompt tests.',
    'calls:',
    '  - tool: read_file',
    '    input:',
    '      path: README.md',
  ];

  test("the snippet's tab stops: each argument, then the mcpDetails sentence", async () => {
    const { text, position } = cursor('calls:\n  - tool: read_file\n    input: {path: a}\n‸');
    const uri = ws.uri('calls/stops.calls.yaml');
    await server.client.open(uri, text);
    const result = (await server.client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: SERVER_COMMANDS.callEnvelope,
      arguments: [{ uri, position, server: 'filesystem', namespace: 'applets', tool: 'applet_create' }],
    })) as CallEnvelopeResult;
    assert.ok(!('refused' in result));
    assert.match(result.snippet, /value: "\$\{1:\}"/);
    assert.match(result.snippet, /description: "\$\{2:<one sentence saying why you are calling this>\}"/);
    assert.deepEqual(expandSnippet(result.snippet).stops.slice(1), [
      '',
      '<one sentence saying why you are calling this>',
    ]);
    await server.client.close(uri);
  });

  test('YAML, at the end of a file without a final line break: a whole entry after the last one, at its indentation', async () => {
    const after = await insert('end.calls.yaml', `${LIST.join('\n')}‸`);
    assert.equal(after, [...LIST, ...ENTRY].join('\n'));
  });

  test('YAML, on the empty last line after the list: a whole entry there', async () => {
    const after = await insert('eol.calls.yaml', `${LIST.join('\n')}\n‸`);
    assert.equal(after, `${[...LIST, ...ENTRY].join('\n')}\n`);
  });

  test('YAML, on a blank line after the list with a top-level key below it', async () => {
    const after = await insert('between.calls.yaml', `${LIST.join('\n')}\n\n‸\nserver: filesystem\n`);
    assert.equal(after, `${LIST.join('\n')}\n\n${ENTRY.join('\n')}\nserver: filesystem\n`);
  });

  test('YAML, on the line of a top-level key after the list: after the last entry, never a top-level key', async () => {
    const after = await insert('below.calls.yaml', `${LIST.join('\n')}\nserver: file‸system\n`);
    assert.equal(after, `${[...LIST, ...ENTRY].join('\n')}\nserver: filesystem\n`);
  });

  test('YAML, on a comment between entries: the entry above the comment, which stays with its own entry', async () => {
    const after = await insert(
      'comment.calls.yaml',
      `calls:\n  - tool: read_file\n    input: {path: a}\n  ‸# the next one\n  - tool: read_file\n    input: {path: b}\n`,
    );
    assert.equal(
      after,
      `calls:\n  - tool: read_file\n    input: {path: a}\n${ENTRY.join('\n')}\n  # the next one\n  - tool: read_file\n    input: {path: b}\n`,
    );
  });

  test('YAML, inside an entry that calls another tool: a new entry after it', async () => {
    const after = await insert(
      'other.calls.yaml',
      `calls:\n  - tool: read_file\n    inp‸ut: {path: a}\n  - tool: read_file\n    input: {path: b}\n`,
    );
    assert.equal(
      after,
      `calls:\n  - tool: read_file\n    input: {path: a}\n${ENTRY.join('\n')}\n  - tool: read_file\n    input: {path: b}\n`,
    );
  });

  test('YAML, inside an unfinished envelope: only what it lacks', async () => {
    const after = await insert(
      'partial.calls.yaml',
      'calls:\n  - tool: call_dynamic_tool\n    input:\n      namespace: applets‸\n',
    );
    assert.equal(after, `calls:\n${ENTRY.join('\n')}\n`);
  });

  test('YAML, inside an entry with only `tool: call_dynamic_tool`: its input', async () => {
    const after = await insert('bare.calls.yaml', 'calls:\n  - tool: call_dynamic_tool‸');
    assert.equal(after, `calls:\n${ENTRY.join('\n')}`);
  });

  test('YAML, inside an entry with an input and no tool: the tool and the missing fields, in one edit', async () => {
    const after = await insert(
      'notool.calls.yaml',
      'calls:\n  - input:\n      namespace: applets\n      toolName: applet_create‸\n',
    );
    assert.equal(
      after,
      'calls:\n  - input:\n      namespace: applets\n      toolName: applet_create\n      arguments:\n        value: ""\n      mcpDetails:\n        description: "<one sentence saying why you are calling this>"\n    tool: call_dynamic_tool\n',
    );
  });

  test('YAML, on an empty `- ` entry: the envelope becomes that entry', async () => {
    const after = await insert('dash.calls.yaml', `${LIST.join('\n')}\n  - ‸\n`);
    assert.equal(after, `${[...LIST, ...ENTRY].join('\n')}\n`);
  });

  test('YAML, an empty file: the calls list with the entry', async () => {
    const after = await insert('empty.calls.yaml', '‸');
    assert.equal(after, `calls:\n${ENTRY.join('\n')}\n`);
  });

  test('YAML, a file of comments only: the list after them', async () => {
    const after = await insert('comments.calls.yaml', '# Calls for the applets namespace.\n# Filled in by hand.\n‸');
    assert.equal(after, `# Calls for the applets namespace.\n# Filled in by hand.\ncalls:\n${ENTRY.join('\n')}\n`);
  });

  test('YAML, `calls:` with nothing under it yet', async () => {
    const after = await insert('nolist.calls.yaml', 'server: filesystem\ncalls:\n‸');
    assert.equal(after, `server: filesystem\ncalls:\n${ENTRY.join('\n')}\n`);
  });

  test('YAML, a list indented at the key (dashes in column 1)', async () => {
    const after = await insert('flush.calls.yaml', 'calls:\n- tool: read_file\n  input: {path: a}\n‸');
    assert.equal(after, `calls:\n- tool: read_file\n  input: {path: a}\n${ENTRY.map((l) => l.slice(2)).join('\n')}\n`);
  });

  test('YAML, CRLF line breaks are kept', async () => {
    const after = await insert('crlf.calls.yaml', 'calls:\r\n  - tool: read_file\r\n    input: {path: a}\r\n‸');
    assert.equal(after, `calls:\r\n  - tool: read_file\r\n    input: {path: a}\r\n${ENTRY.join('\r\n')}\r\n`);
  });

  const JSON_ENTRY = (indent: string) =>
    [
      '{',
      '  "tool": "call_dynamic_tool",',
      '  "input": {',
      '    "namespace": "applets",',
      '    "toolName": "applet_create",',
      '    "arguments": {',
      '      "value": ""',
      '    },',
      '    "mcpDetails": {',
      '      "description": "<one sentence saying why you are calling this>"',
      '    }',
      '  }',
      '}',
    ].join(`\n${indent}`);

  test("JSON, after the last element: a comma after it, the element at the elements' indentation", async () => {
    const after = await insert(
      'end.calls.json',
      '{\n  "calls": [\n    {"tool": "read_file", "input": {"path": "a"}}\n  ]\n}\n‸',
    );
    assert.equal(
      after,
      `{\n  "calls": [\n    {"tool": "read_file", "input": {"path": "a"}},\n    ${JSON_ENTRY('    ')}\n  ]\n}\n`,
    );
  });

  test('JSON, between two elements: the commas right on both sides', async () => {
    const after = await insert(
      'mid.calls.json',
      '{\n  "calls": [\n    {"tool": "read_file", "input": {"path": "a"}},‸\n    {"tool": "read_file", "input": {"path": "b"}}\n  ]\n}\n',
    );
    assert.equal(
      after,
      `{\n  "calls": [\n    {"tool": "read_file", "input": {"path": "a"}},\n    ${JSON_ENTRY('    ')},\n    {"tool": "read_file", "input": {"path": "b"}}\n  ]\n}\n`,
    );
  });

  test('JSON, before the first element', async () => {
    const after = await insert(
      'first.calls.json',
      '{\n  "calls": [‸\n    {"tool": "read_file", "input": {"path": "a"}}\n  ]\n}\n',
    );
    assert.equal(
      after,
      `{\n  "calls": [\n    ${JSON_ENTRY('    ')},\n    {"tool": "read_file", "input": {"path": "a"}}\n  ]\n}\n`,
    );
  });

  test('JSON, an empty array', async () => {
    const after = await insert('emptyarray.calls.json', '{\n  "calls": [‸]\n}\n');
    assert.equal(after, `{\n  "calls": [\n    ${JSON_ENTRY('    ')}\n  ]\n}\n`);
  });

  test('JSON, inside an unfinished envelope: only the members it lacks, with their commas', async () => {
    const after = await insert(
      'partial.calls.json',
      '{\n  "calls": [\n    {\n      "tool": "call_dynamic_tool",\n      "input": {\n        "namespace": "applets"‸\n      }\n    }\n  ]\n}\n',
    );
    assert.equal(after, `{\n  "calls": [\n    ${JSON_ENTRY('    ')}\n  ]\n}\n`);
  });

  test('JSON, an empty file: the whole document', async () => {
    const after = await insert('empty.calls.json', '‸');
    assert.equal(after, `{\n  "calls": [\n    ${JSON_ENTRY('    ')}\n  ]\n}\n`);
  });

  test('JSONC, a file with comments and no calls member yet', async () => {
    const after = await insert(
      'comments.calls.json',
      '// Calls of the applets namespace.\n{\n  // the server they go to\n  "server": "filesystem"‸\n}\n',
      { language: 'jsonc' },
    );
    assert.equal(
      after,
      `// Calls of the applets namespace.\n{\n  // the server they go to\n  "server": "filesystem",\n  "calls": [\n    ${JSON_ENTRY('    ')}\n  ]\n}\n`,
    );
  });

  const LINE =
    '{"tool":"call_dynamic_tool","input":{"namespace":"applets","toolName":"applet_create","arguments":{"value":""},"mcpDetails":{"description":"<one sentence saying why you are calling this>"}}}';

  test('JSONL, at the end of a line: a line of its own after it', async () => {
    const after = await insert('end.calls.jsonl', '{"tool":"read_file","input":{"path":"a"}}‸\n', {
      language: 'jsonl',
    });
    assert.equal(after, `{"tool":"read_file","input":{"path":"a"}}\n${LINE}\n`);
  });

  test('JSONL, on the empty last line', async () => {
    const after = await insert('eol.calls.jsonl', '{"tool":"read_file","input":{"path":"a"}}\n‸', {
      language: 'jsonl',
    });
    assert.equal(after, `{"tool":"read_file","input":{"path":"a"}}\n${LINE}`);
  });

  test('JSONL, inside a line that is an unfinished envelope: the members it lacks', async () => {
    const after = await insert(
      'partial.calls.jsonl',
      '{"tool":"call_dynamic_tool","input":{"namespace":"applets"‸}}\n',
      { language: 'jsonl' },
    );
    assert.equal(after, `${LINE}\n`);
  });

  test('JSONL, an empty file', async () => {
    const after = await insert('empty.calls.jsonl', '‸', { language: 'jsonl' });
    assert.equal(after, LINE);
  });

  test('a calls list in flow style is refused with what to do, not broken', async () => {
    const { text, position } = cursor('calls: [‸]\n');
    const uri = ws.uri('calls/flow.calls.yaml');
    await server.client.open(uri, text);
    const result = (await server.client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: SERVER_COMMANDS.callEnvelope,
      arguments: [{ uri, position, server: 'filesystem', namespace: 'applets', tool: 'applet_create' }],
    })) as CallEnvelopeResult;
    assert.ok('refused' in result);
    assert.match(result.refused, /flow style/);
    await server.client.close(uri);
  });
});
