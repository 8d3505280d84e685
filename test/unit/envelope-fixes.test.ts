// The envelope and result rules on the fixture folders and on input people really break:
// - applying every safe fix of a file at once gives a file that parses, no longer has those
//   findings, and differs from the original only where the edits are (each edit either inserts
//   text or replaces exactly one scalar; every line no edit touches comes through unchanged);
// - the calls model reads all four entry shapes, pairs JSON-RPC responses across JSONL lines, and
//   sees envelope fields under aliases;
// - broken input gets a clear finding and never a crash (a throwing rule is logged: the log must
//   stay empty);
// - the argument and tool findings of calls that the args/* and tool/unknown rules report.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkFile } from '../../server/src/core/engine.js';
import { documentContext } from '../../server/src/core/context.js';
import { callsOf, type CallsDocument } from '../../server/src/core/calls/calls.js';
import type { ParsedFile } from '../../server/src/core/parse/file.js';
import { walk, type Node } from '../../server/src/core/parse/nodes.js';
import { applyEdits, chooseCompatibleFixes } from '../../server/src/core/text/edits.js';
import type { Finding, Span, TextEdit } from '../../server/src/core/types.js';
import { Workspace } from '../../server/src/core/workspace.js';
import { loadWorkspace } from '../../server/src/node/loader.js';
import { fullText } from '../helpers/text.js';

const FIXTURES = join(__dirname, '..', 'fixtures');
const FOLDERS = ['envelope', 'result'].flatMap((family) =>
  readdirSync(join(FIXTURES, family))
    .filter((name) => statSync(join(FIXTURES, family, name)).isDirectory())
    .map((name) => join(FIXTURES, family, name)),
);
const CATALOG = readFileSync(join(FIXTURES, 'envelope', 'bare-dynamic-name', 'agent.catalog.yaml'), 'utf8');

/** Spans of every scalar (keys included) of a parsed file. */
function scalarSpans(file: ParsedFile): Span[] {
  const spans: Span[] = [];
  for (const doc of file.documents) {
    walk(doc.root, (node: Node) => {
      if (node.type === 'scalar') spans.push(node.span);
      if (node.type === 'map') for (const pair of node.pairs) spans.push(pair.key.span);
    });
  }
  return spans;
}

/** Line ranges [start, end) of a text, by offset. */
function lines(text: string): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  let start = 0;
  const re = /\r\n|\n|\r/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push({ start, end: m.index + m[0].length, text: text.slice(start, m.index + m[0].length) });
    start = m.index + m[0].length;
  }
  if (start < text.length || text.length === 0) out.push({ start, end: text.length, text: text.slice(start) });
  return out;
}

/** Every line no edit touches must come through, unchanged and in order. */
function assertUntouchedLinesKept(original: string, fixed: string, edits: readonly TextEdit[], path: string): void {
  const touched = (line: { start: number; end: number }) =>
    edits.some((e) =>
      e.span.start === e.span.end
        ? e.span.start >= line.start && e.span.start < line.end
        : e.span.start < line.end && line.start < e.span.end,
    );
  let cursor = 0;
  for (const line of lines(original)) {
    if (touched(line)) continue;
    const at = fixed.indexOf(line.text, cursor);
    assert.ok(
      at >= 0,
      `${path}: the untouched line ${JSON.stringify(line.text)} is missing or out of order after the safe fixes`,
    );
    cursor = at + line.text.length;
  }
}

describe('safe envelope fixes, all at once', () => {
  for (const dir of FOLDERS) {
    const loaded = loadWorkspace({ paths: ['.'], cwd: dir });
    for (const file of loaded.files) {
      if (!file.kind || /\.fixed\.[a-z]+$/.test(file.path)) continue;
      test(`${dir.slice(FIXTURES.length + 1)}/${file.path}`, () => {
        const before = checkFile(file, loaded.workspace).findings;
        const safe = before.filter((f) => f.fixes?.some((x) => x.safe));
        if (safe.length === 0) return;
        const { chosen } = chooseCompatibleFixes(safe.map((f) => f.fixes!.find((x) => x.safe)!));
        const edits = chosen.flatMap((f) => f.edits);
        const text = file.source.text;
        const fixed = applyEdits(text, edits);

        // Minimal: an edit inserts, or replaces exactly one scalar (a name, a key, a JSON string).
        const scalars = scalarSpans(file);
        for (const edit of edits) {
          if (edit.span.start === edit.span.end) continue;
          assert.ok(
            scalars.some((s) => s.start === edit.span.start && s.end === edit.span.end),
            `${file.path}: a safe fix replaces ${JSON.stringify(text.slice(edit.span.start, edit.span.end))}, which is no single scalar`,
          );
        }
        assertUntouchedLinesKept(text, fixed, edits, file.path);
        if (file.language === 'jsonl')
          assert.equal(lines(fixed).length, lines(text).length, `${file.path}: a JSONL entry must stay on its line`);

        // Parses, and the fixed findings are gone.
        const reparsed = loaded.workspace.parse(file.path, fixed);
        const after = checkFile(reparsed, loaded.workspace).findings;
        assert.equal(
          after.filter((f) => f.rule === 'yaml/syntax').length,
          before.filter((f) => f.rule === 'yaml/syntax').length,
          `${file.path}: the fixes broke the syntax`,
        );
        for (const rule of new Set(safe.map((f) => f.rule))) {
          const fixedHere =
            chosen.length &&
            safe.filter((f) => f.rule === rule && chosen.includes(f.fixes!.find((x) => x.safe)!)).length;
          const was = before.filter((f) => f.rule === rule).length;
          const now = after.filter((f) => f.rule === rule).length;
          assert.ok(
            now <= was - fixedHere,
            `${file.path}: ${rule} had ${was} findings, ${fixedHere} fixed, ${now} left:\n${after.map((f) => `  ${f.rule} ${f.message}`).join('\n')}`,
          );
        }
      });
    }
  }
});

test('the rewritten workflow step is clean: the envelope resolves and nothing else complains', () => {
  const dir = join(FIXTURES, 'envelope', 'bare-dynamic-name');
  const loaded = loadWorkspace({ paths: ['.'], cwd: dir });
  const fixed = loaded.workspace.parse(
    'assistant.vmcp.yaml',
    readFileSync(join(dir, 'assistant.vmcp.fixed.yaml'), 'utf8'),
  );
  assert.deepEqual(
    checkFile(fixed, loaded.workspace).findings.map((f) => `${f.rule}: ${f.message}`),
    [],
  );
});

// ---------------------------------------------------------------------------------------------

interface Checked {
  file: ParsedFile;
  findings: Finding[];
  workspace: Workspace;
  logs: string[];
}

function workspace(extraCatalogs: Record<string, string> = {}): { workspace: Workspace; logs: string[] } {
  const logs: string[] = [];
  const ws = new Workspace('/ws', (message) => logs.push(message));
  ws.catalog.addFile(ws.parse('/ws/agent.catalog.yaml', CATALOG));
  for (const [path, text] of Object.entries(extraCatalogs)) ws.catalog.addFile(ws.parse(`/ws/${path}`, text));
  return { workspace: ws, logs };
}

/** Checks a file; every finding must lie inside the text and every fix must apply without breaking the syntax. */
function check(path: string, text: string, extraCatalogs?: Record<string, string>): Checked {
  const { workspace: ws, logs } = workspace(extraCatalogs);
  const file = ws.parse(`/ws/${path}`, text);
  const { findings } = checkFile(file, ws);
  assert.deepEqual(logs, [], `a rule failed on ${path}`);
  const syntax = findings.filter((f) => f.rule === 'yaml/syntax').length;
  for (const finding of findings) {
    assert.ok(
      finding.span.start >= 0 && finding.span.start <= finding.span.end && finding.span.end <= text.length,
      `span out of the text: ${JSON.stringify(finding)}`,
    );
    for (const fix of finding.fixes ?? []) {
      const after = checkFile(ws.parse(`/ws/${path}`, applyEdits(text, fix.edits)), ws);
      assert.deepEqual(logs, [], `a rule failed on ${path} after "${fix.title}"`);
      assert.ok(
        after.findings.filter((f) => f.rule === 'yaml/syntax').length <= syntax,
        `"${fix.title}" broke the syntax of ${path}`,
      );
    }
  }
  return { file, findings, workspace: ws, logs };
}

function rules(checked: Checked): string[] {
  return checked.findings.map((f) => `${checked.file.source.positionAt(f.span.start).line + 1} ${f.rule}`);
}

function calls(checked: Checked, index = 0): CallsDocument {
  return callsOf(documentContext(checked.file, checked.file.documents[index]!, checked.workspace));
}

describe('the calls model', () => {
  test('four entry shapes in one list, with the top-level server', () => {
    const checked = check(
      'shapes.calls.yaml',
      [
        'server: agent',
        'calls:',
        '  - {tool: notify_user, input: {message: a}}',
        '  - {type: tool_use, id: toolu_1, name: notify_user, input: {message: b}}',
        '  - {name: notify_user, arguments: {message: c}}',
        '  - {jsonrpc: "2.0", id: 4, method: tools/call, params: {name: notify_user, arguments: {message: d}}}',
        '  - {jsonrpc: "2.0", id: 4, result: {content: []}}',
        '  - {jsonrpc: "2.0", method: notifications/cancelled, params: {requestId: 4}}',
        '',
      ].join('\n'),
    );
    const doc = calls(checked);
    assert.equal(doc.serverName, 'agent');
    assert.deepEqual(
      doc.calls.map((c) => [c.shape, c.argsKey, c.target.kind, c.nameText]),
      [
        ['tool-input', 'input', 'tool', 'notify_user'],
        ['tool-use', 'input', 'tool', 'notify_user'],
        ['tools-call', 'arguments', 'tool', 'notify_user'],
        ['jsonrpc', 'arguments', 'tool', 'notify_user'],
      ],
    );
    assert.ok(doc.calls[3]!.result, 'the JSON-RPC response attaches to its request');
    assert.equal(doc.calls[0]!.result, undefined);
    assert.deepEqual(rules(checked), []);
  });

  test('a tool_use block may carry its own result (it has an id, but it is no JSON-RPC response)', () => {
    const checked = check(
      'use.calls.yaml',
      'calls:\n  - {type: tool_use, id: toolu_2, name: list_reminders, input: {}, result: {content: []}}\n',
    );
    assert.equal(calls(checked).calls[0]?.shape, 'tool-use');
    assert.deepEqual(rules(checked), ['2 result/missing-structured']);
  });

  test('JSONL: a response attaches to the unanswered request with its id, across lines', () => {
    const text = [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_reminders","arguments":{}}}',
      '{"jsonrpc":"2.0","id":"1","result":{"content":[],"structuredContent":{"reminders":[]}}}',
      '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_reminders","arguments":{}}}',
      '{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"reminders":[]}}}',
    ].join('\n');
    const checked = check('log.calls.jsonl', text);
    // id "1" (a string) is not id 1: the first request gets the third line's result, which lacks structuredContent.
    assert.deepEqual(rules(checked), ['3 result/missing-structured']);
    assert.equal(calls(checked, 0).calls[0]!.result?.structured, undefined);
    assert.ok(calls(checked, 3).calls[0]!.result?.structured);
  });

  test('envelope fields under aliases, and the dynamic tool they reach', () => {
    const checked = check(
      'alias.calls.yaml',
      'server: agent\ncalls:\n  - tool: call_dynamic_tool\n    input: {ns: applets, tool: applet_create, args: {value: x}}\n',
    );
    const site = calls(checked).calls[0]!;
    assert.equal(site.target.kind, 'envelope');
    assert.deepEqual(
      Object.values(site.envelope!.fields).map((f) => `${f.field}<-${f.key}`),
      ['namespace<-ns', 'toolName<-tool', 'arguments<-args'],
    );
    assert.equal(site.envelope!.resolution.kind, 'ok');
    assert.equal(site.tool?.name, 'applet_create');
    assert.deepEqual(rules(checked), ['4 envelope/field-alias', '4 envelope/field-alias', '4 envelope/field-alias']);
  });

  test('without `server:` a name is looked up in every server; found in several, it is ambiguous', () => {
    const other =
      'catalog: 1\nservers:\n  - name: phone\n    tools:\n      - name: notify_user\n        inputSchema: {type: object}\n';
    const checked = check(
      'amb.calls.yaml',
      'calls:\n  - {tool: notify_user, input: {message: hi}}\n  - {tool: list_reminders}\n',
      { 'phone.catalog.yaml': other },
    );
    const doc = calls(checked);
    assert.equal(doc.calls[0]!.target.kind, 'ambiguous');
    assert.equal(doc.calls[1]!.target.kind, 'tool');
    const tool = checked.findings.filter((f) => f.rule === 'tool/unknown');
    assert.equal(tool.length, 1);
    assert.equal(tool[0]!.severity, 'info');
    assert.match(fullText(tool[0]!), /"agent" and "phone"/);
  });
});

describe('broken input: a clear finding, never a crash', () => {
  test('a call with no name', () => {
    const checked = check(
      'noname.calls.yaml',
      'server: agent\ncalls:\n  - input: {value: x}\n  - name: ""\n    input: {}\n',
    );
    assert.ok(
      checked.findings.some(
        (f) => f.rule.startsWith('schema/') && checked.file.source.positionAt(f.span.start).line === 2,
      ),
      rules(checked).join('\n'),
    );
    assert.deepEqual(
      calls(checked).calls.map((c) => c.target.kind),
      ['no-name', 'no-name'],
    );
  });

  test('a namespace with an empty name, in the envelope and in the catalog', () => {
    const checked = check(
      'empty-ns.calls.yaml',
      'server: agent\ncalls:\n  - tool: call_dynamic_tool\n    input: {namespace: "  ", toolName: applet_list}\n',
    );
    assert.deepEqual(rules(checked), ['4 envelope/unknown-namespace']);
    assert.match(checked.findings[0]!.message, /empty namespace/);

    // A catalog namespace without a name is catalog/*'s finding: no call can reach it, so a bare
    // call is never rewritten into it, and a server with only such a namespace runs no envelopes:
    // no envelope rule speaks, and both names are unknown to the server (tool/unknown).
    const blank =
      'catalog: 1\nservers:\n  - name: box\n    namespaces:\n      - name: ""\n        tools:\n          - name: hidden_tool\n            inputSchema: {type: object}\n';
    const bare = check(
      'blank.calls.yaml',
      'server: box\ncalls:\n  - tool: hidden_tool\n  - tool: call_dynamic_tool\n    input: {namespace: "", toolName: hidden_tool}\n',
      { 'box.catalog.yaml': blank },
    );
    assert.deepEqual(rules(bare), ['3 tool/unknown', '4 tool/unknown']);
    assert.deepEqual(
      calls(bare).calls.map((c) => c.target.kind),
      ['unknown', 'unknown'],
    );
  });

  test('arguments that are a number, a list, or missing', () => {
    const checked = check(
      'numbers.calls.json',
      JSON.stringify(
        {
          server: 'agent',
          calls: [
            { name: 'notify_user', arguments: 5 },
            { name: 'call_dynamic_tool', arguments: { namespace: 'applets', toolName: 'applet_create', arguments: 7 } },
            { name: 'call_dynamic_tool', arguments: ['applets', 'applet_create'] },
            { name: 'call_dynamic_tool', arguments: { namespace: 'applets', toolName: 'applet_list' } },
          ],
        },
        null,
        2,
      ),
    );
    assert.deepEqual(rules(checked), [
      '6 envelope/arguments-not-object',
      '13 envelope/arguments-not-object',
      '18 envelope/arguments-not-object',
    ]);
    assert.match(checked.findings[0]!.message, /the number 5/);
    assert.match(checked.findings[2]!.message, /a list/);
    assert.ok(
      checked.findings.every((f) => !f.fixes?.length),
      'no fix can know what the number meant',
    );
  });

  test('`calls` that is a mapping, and other shapes that are no calls', () => {
    const mapping = check('map.calls.yaml', 'server: agent\ncalls:\n  first: {tool: applet_create}\n');
    assert.ok(
      mapping.findings.some((f) => f.rule === 'schema/wrong-type'),
      rules(mapping).join('\n'),
    );
    assert.deepEqual(calls(mapping).calls, []);

    const odd = [
      'server: agent',
      'calls:',
      '  - null',
      '  - 7',
      '  - [tool, applet_create]',
      '  - {jsonrpc: "2.0", id: 1, method: tools/call}',
      '  - {jsonrpc: "2.0", id: 1, method: tools/call, params: [applet_create]}',
      '  - {jsonrpc: "2.0", id: 9, result: {content: []}}',
      '  - {tool: [applet_create], input: {}}',
      '  - {tool: call_dynamic_tool, input: {namespace: [applets], toolName: {a: 1}, mcpDetails: [x], arguments: "{not json"}}',
      '  - {tool: call_dynamic_tool, input: {? [a, b] : c, namespace: applets, toolName: applet_list, arguments: &a {pinned_only: true}, args: *a}}',
      '  - tool: call_dynamic_tool',
      '    input:',
      '  - tool: applet_create',
      '    input: |',
      '      value: a literal block',
      '',
    ].join('\n');
    const checked = check('odd.calls.yaml', odd);
    assert.ok(checked.findings.length > 0);
    const mine = checked.findings.filter((f) => f.rule.startsWith('envelope/') || f.rule.startsWith('result/'));
    for (const finding of mine) assert.ok(finding.message.length > 40, finding.message);
  });

  test('arguments behind an anchor or an alias are not rewritten: the anchor would move to the envelope', () => {
    const checked = check(
      'anchors.calls.yaml',
      'server: agent\ncalls:\n  - tool: applet_create\n    input: &a\n      value: x\n  - tool: applet_create\n    input: &b {value: y}\n  - tool: applet_create\n    input: *a\n',
    );
    assert.deepEqual(rules(checked), [
      '3 envelope/bare-dynamic-name',
      '6 envelope/bare-dynamic-name',
      '8 envelope/bare-dynamic-name',
    ]);
    assert.ok(checked.findings.every((f) => !f.fixes?.length));
  });

  test('an empty file, a file of comments, a JSONL file with a broken line', () => {
    assert.deepEqual(rules(check('empty.calls.yaml', '')), []);
    check('comments.calls.yaml', '# nothing yet\n');
    const broken = check(
      'broken.calls.jsonl',
      '{"name":"applet_list","arguments":{}}\n{"name": \n\n{"tool":"notify_user","input":{"message":"x"}}',
    );
    assert.ok(broken.findings.some((f) => f.rule === 'yaml/syntax'));
    assert.ok(broken.findings.some((f) => f.rule === 'envelope/bare-dynamic-name'));
  });

  test('a workspace without any catalog: silence from the envelope and result rules', () => {
    const logs: string[] = [];
    const ws = new Workspace('/ws', (m) => logs.push(m));
    const file = ws.parse(
      '/ws/a.calls.yaml',
      'calls:\n  - tool: applet_create\n  - tool: call_dynamic_tool\n    input: {namespace: x, toolName: y}\n',
    );
    const { findings } = checkFile(file, ws);
    assert.deepEqual(
      findings.filter((f) => /^(envelope|result)\//.test(f.rule)),
      [],
    );
    assert.deepEqual(logs, []);
    const tool = findings.filter((f) => f.rule === 'tool/unknown');
    assert.equal(tool.length, 1, 'one info says there is no catalog');
    assert.equal(tool[0]!.severity, 'info');
  });
});

describe('argument and tool findings of calls (for args/* and tool/unknown)', () => {
  // What the args/* rules and tool/unknown report, in document order.
  function argumentFindings(path: string, text: string) {
    const checked = check(path, text);
    return {
      checked,
      findings: checked.findings.filter((f) => f.rule.startsWith('args/')),
      tool: checked.findings.filter((f) => f.rule === 'tool/unknown'),
    };
  }

  test('a plain call against the listed tool', () => {
    const { checked, findings } = argumentFindings(
      'args.calls.yaml',
      [
        'server: agent',
        'calls:',
        '  - tool: notify_user',
        '    input:',
        '      mesage: hello',
        '      urgency: hihg',
        '  - tool: list_reminders',
        '    input: {limit: "5"}',
        '',
      ].join('\n'),
    );
    const summary = findings.map(
      (f) => `${checked.file.source.positionAt(f.span.start).line + 1} ${f.rule} ${f.severity}`,
    );
    assert.deepEqual(summary, [
      '4 args/missing-required error',
      '5 args/unknown error',
      '6 args/wrong-type error',
      '8 args/wrong-type error',
    ]);
    const missing = findings[0]!.fixes![0]!;
    assert.equal(applyEdits(checked.file.source.text, missing.edits).split('\n')[6], '      message: ""');
    assert.equal(findings[1]!.fixes![0]!.title, 'Rename the argument to "message"');
    assert.equal(findings[2]!.fixes![0]!.title, 'Change to "high"');
  });

  test("an envelope's inner arguments against the dynamic tool, in JSON", () => {
    const { checked, findings } = argumentFindings(
      'inner.calls.json',
      '{"server": "agent", "calls": [\n{"name": "call_dynamic_tool", "arguments": {"namespace": "applets", "toolName": "applet_create", "arguments": {"pinned": "yes"}}},\n{"name": "call_dynamic_tool", "arguments": {"namespace": "applets", "toolName": "applet_create"}}\n]}',
    );
    assert.deepEqual(
      findings.map((f) => `${checked.file.source.positionAt(f.span.start).line + 1} ${f.rule}`),
      ['2 args/missing-required', '2 args/wrong-type', '3 args/missing-required'],
    );
    const added = applyEdits(checked.file.source.text, findings[2]!.fixes![0]!.edits);
    assert.match(added, /"toolName": "applet_create", "arguments": \{"value": ""\}\}/);
  });

  test('a workflow envelope step: templates are not type-checked, literals are', () => {
    const fixture = readFileSync(join(FIXTURES, 'envelope', 'unknown-namespace', 'assistant.vmcp.yaml'), 'utf8');
    const typo = /namespace: applet {2}# want \w+ envelope\/unknown-namespace(?::\w+)? \d+-\d+/;
    assert.match(fixture, typo, 'the fixture still has the namespace typo this test repairs');
    const gateway = fixture
      .replace(typo, 'namespace: applets')
      .replace(
        'arguments: {value: "{{.params.what}}"}',
        'arguments: {value: "{{.params.what}}", pinned: "{{.params.ns}}", title: 3}',
      );
    assert.notEqual(gateway.indexOf('title: 3}'), -1, 'the fixture still has the step this test extends');
    const { findings } = argumentFindings('assistant.vmcp.yaml', gateway);
    assert.deepEqual(
      findings.map((f) => `${f.rule} ${/argument "([^"]+)"/.exec(f.message)?.[1] ?? ''}`),
      ['args/wrong-type title'],
    );
  });

  test('an unknown name in a named server is a warning with "did you mean"; a server without a catalog one info', () => {
    const { tool } = argumentFindings(
      'unknown.calls.yaml',
      'server: agent\ncalls:\n  - tool: notify_usr\n  - tool: get_dynamic_tools\n',
    );
    assert.equal(tool.length, 1);
    assert.equal(tool[0]!.severity, 'warning');
    assert.equal(tool[0]!.fixes![0]!.title, 'Call "notify_user" instead');
    const none = argumentFindings('nocat.calls.yaml', 'server: mail\ncalls:\n  - tool: send\n  - tool: read\n');
    assert.equal(none.tool.length, 1);
    assert.equal(none.tool[0]!.severity, 'info');
    assert.match(none.tool[0]!.message, /Server "mail" has no catalog/);
  });
});
