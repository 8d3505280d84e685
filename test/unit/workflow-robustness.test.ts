// Workflows as people (and generators) really break them: huge, deep, odd keys, wrong shapes. The
// workflow and template rules must give a clean finding or a clean pass, never throw (a throwing
// rule is logged: the log must stay empty); every span must sit in the text and every fix apply.
// Also the exact character mapping of template findings through quoting styles and line ends,
// and the templatesOf analysis the hover builds on.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkFile } from '../../server/src/core/engine.js';
import { documentContext } from '../../server/src/core/context.js';
import { LIMITS } from '../../server/src/core/limits.js';
import { templatesOf } from '../../server/src/core/model/templates.js';
import type { ParsedFile } from '../../server/src/core/parse/file.js';
import { parseGoDuration } from '../../server/src/core/text/durations.js';
import { applyEdits } from '../../server/src/core/text/edits.js';
import type { Finding } from '../../server/src/core/types.js';
import { Workspace } from '../../server/src/core/workspace.js';

const CATALOG = join(__dirname, '..', 'fixtures', 'template', 'not-upstream', 'fs.catalog.yaml');
const OURS = /^(workflow|template)\//;

interface Checked {
  file: ParsedFile;
  findings: Finding[];
  workspace: Workspace;
}

function check(path: string, text: string): Checked {
  const logs: string[] = [];
  const workspace = new Workspace('/ws', (message) => logs.push(message));
  workspace.catalog.addFile(workspace.parse('fs.catalog.yaml', readFileSync(CATALOG, 'utf8')));
  const file = workspace.parse(path, text);
  const { findings } = checkFile(file, workspace);
  assert.deepEqual(logs, [], `a rule failed on ${path}`);
  for (const finding of findings) {
    assert.ok(
      finding.span.start >= 0 && finding.span.start <= finding.span.end && finding.span.end <= text.length,
      `span out of the text: ${JSON.stringify(finding)}`,
    );
    for (const fix of finding.fixes ?? [])
      assert.doesNotThrow(() => applyEdits(text, fix.edits), `fix "${fix.title}" does not apply`);
  }
  return { file, findings, workspace };
}

function ours(findings: Finding[]): Finding[] {
  return findings.filter((f) => OURS.test(f.rule));
}

/** The source text a finding points at. */
function at(checked: Checked, finding: Finding): string {
  return checked.file.source.text.slice(finding.span.start, finding.span.end);
}

function only(checked: Checked, rule: string): Finding[] {
  return checked.findings.filter((f) => f.rule === rule);
}

describe('odd shapes: a clean finding or a clean pass', () => {
  test('a 10,000-step chain, each step reading the one before', () => {
    const lines = ['compositeTools:', '  - name: long_chain', '    description: Generated.', '    steps:'];
    for (let i = 0; i < 10_000; i++) {
      const deps = i ? `, dependsOn: [s${i - 1}]` : '';
      const path = i ? `"{{.steps.s${i - 1}.output.text}}"` : '/start';
      lines.push(`      - {id: s${i}, tool: filesystem.read_file${deps}, arguments: {path: ${path}}}`);
    }
    const checked = check('long.vmcp.yaml', lines.join('\n') + '\n');
    const found = ours(checked.findings);
    assert.deepEqual(
      found.map((f) => f.rule),
      ['workflow/limit'],
      'only the step count is over a limit',
    );
  });

  test('a 10,000-step chain closed into one cycle', () => {
    const lines = ['compositeTools:', '  - name: ring', '    description: Generated.', '    steps:'];
    for (let i = 0; i < 10_000; i++)
      lines.push(
        `      - {id: s${i}, tool: filesystem.list_directory, dependsOn: [s${(i + 9_999) % 10_000}], arguments: {path: /}}`,
      );
    const checked = check('ring.vmcp.yaml', lines.join('\n') + '\n');
    const cycles = only(checked, 'workflow/dependency-cycle');
    assert.equal(cycles.length, 1);
    // Named by its first steps: the message and the related places stay a few lines long.
    assert.equal(cycles[0]!.related?.length, LIMITS.messageItems);
    assert.match(cycles[0]!.why ?? '', /and so on through 9,980 more steps back to "s0"/);
    assert.ok(cycles[0]!.message.length < 2_000);
  });

  test('deeply nested arguments', () => {
    let value = '"{{.params.nope}}"';
    for (let i = 0; i < 300; i++) value = i % 2 ? `[${value}]` : `{k: ${value}}`;
    const text = `compositeTools:\n  - name: deep\n    description: Deep.\n    steps:\n      - id: s\n        tool: filesystem.read_file\n        arguments: {path: /a, extra: ${value}}\n`;
    check('deep.vmcp.yaml', text);
  });

  test('__proto__, constructor and toString as ids, params, keys', () => {
    const text = [
      'compositeTools:',
      '  - name: __proto__',
      '    description: Prototype names everywhere.',
      '    parameters: {type: object, properties: {__proto__: {type: string}, constructor: {type: string}}}',
      '    steps:',
      '      - id: __proto__',
      '        tool: filesystem.read_file',
      '        arguments: {path: "{{.params.__proto__}}{{.params.constructor}}{{.params.toString}}"}',
      '        defaultResults: {__proto__: x}',
      '        condition: "{{.params.__proto__}}"',
      '      - id: constructor',
      '        tool: filesystem.read_file',
      '        dependsOn: [__proto__, hasOwnProperty]',
      '        arguments: {path: "{{.steps.__proto__.output.__proto__}}{{.steps.toString.output.x}}"}',
      '  - name: __proto__',
      '    description: Again.',
      '    steps: [{id: a, tool: filesystem.read_file, arguments: {path: /a}}]',
    ].join('\n');
    const checked = check('proto.vmcp.yaml', text + '\n');
    assert.equal(only(checked, 'workflow/duplicate-name').length, 1);
    assert.deepEqual(
      only(checked, 'template/unknown-param').map((f) => at(checked, f)),
      ['toString'],
    );
    assert.deepEqual(
      only(checked, 'workflow/unknown-dependency').map((f) => at(checked, f)),
      ['hasOwnProperty'],
    );
    assert.deepEqual(
      only(checked, 'template/unknown-step').map((f) => at(checked, f)),
      ['toString'],
    );
  });

  test('steps that are strings, numbers, nulls and lists', () => {
    const text = [
      'compositeTools:',
      '  - name: odd_steps',
      '    description: Not mappings.',
      '    steps:',
      '      - just a string',
      '      - 42',
      '      -',
      '      - [a, b]',
      '      - {id: ok, tool: filesystem.read_file, arguments: {path: "{{.steps.just.output.x}}"}}',
    ].join('\n');
    const checked = check('odd.vmcp.yaml', text + '\n');
    assert.deepEqual(
      only(checked, 'template/unknown-step').map((f) => at(checked, f)),
      ['just'],
    );
  });

  test('steps that is a mapping, a string, or missing', () => {
    for (const steps of ['steps: {a: {id: a, tool: filesystem.read_file}}', 'steps: "a, b"', 'steps:', '']) {
      const text = `compositeTools:\n  - name: n\n    description: d.\n    ${steps}\n    output: {properties: {x: {type: string, description: d, value: "{{.steps.a.output.x}}"}}}\n`;
      const checked = check('steps.vmcp.yaml', text);
      assert.deepEqual(
        only(checked, 'template/unknown-step').map((f) => at(checked, f)),
        ['a'],
      );
    }
  });

  test('dependsOn that is a string, a number, a mapping, a list of lists', () => {
    for (const deps of [
      'dependsOn: a',
      'dependsOn: 7',
      'dependsOn: {a: b}',
      'dependsOn: [[a], {b: c}, null, 3]',
      'dependsOn:',
    ]) {
      const text = `compositeTools:\n  - name: n\n    description: d.\n    steps:\n      - {id: a, tool: filesystem.list_directory, arguments: {path: /}}\n      - id: b\n        tool: filesystem.read_file\n        ${deps}\n        arguments: {path: "{{.steps.a.output.text}}"}\n`;
      const checked = check('deps.vmcp.yaml', text);
      // Whatever dependsOn holds, a is not reliably upstream: the race is reported.
      assert.equal(only(checked, 'template/not-upstream').length, 1, deps);
    }
  });

  test('wrong types in every field the rules read', () => {
    const text = [
      'compositeTools:',
      '  - name: [not, a, string]',
      '    description: {a: b}',
      '    parameters: [type, object]',
      '    output: {properties: [a, b]}',
      '    steps:',
      '      - id: {x: y}',
      '        type: [forEach]',
      '        condition: 12',
      '        message: {a: b}',
      '        collection: [1, 2]',
      '        itemVar: 3',
      '        maxParallel: "60"',
      '        maxIterations: 1.5e9',
      '        timeout: 99',
      '        onError: [retry]',
      '        arguments: "{{.params.x}}"',
      '        defaultResults: [a]',
      '        step: "not a step"',
      '      - id: e',
      '        type: elicitation',
      '        timeout: "10 minutes"',
      '        onError: {action: retry, retryCount: "3"}',
      '      - id: f',
      '        type: forEach',
      '        step: {id: inner, type: forEach, step: {id: deeper}, arguments: {p: "{{.forEach.item}}"}}',
      '        maxParallel: 1e3',
    ].join('\n');
    check('types.vmcp.yaml', text + '\n');
  });

  test('a Kubernetes stream with broken documents between good ones', () => {
    const text = [
      'apiVersion: toolhive.stacklok.dev/v1beta1',
      'kind: VirtualMCPServer',
      'spec: {config: {compositeToolRefs: [{name: x}, {name: x}, 3, {name: {a: b}}], compositeTools: "nope"}}',
      '---',
      'apiVersion: toolhive.stacklok.dev/v1beta1',
      'kind: VirtualMCPCompositeToolDefinition',
      'spec: [1, 2]',
      '---',
      'kind: VirtualMCPCompositeToolDefinition',
      'metadata: {name: x}',
      'spec: {name: y, description: d, steps: [{id: a, tool: filesystem.read_file, condition: "{{", arguments: {path: /}}]}',
    ].join('\n');
    const checked = check('stream.k8s.yaml', text + '\n');
    assert.equal(only(checked, 'workflow/duplicate-name').length, 1);
    assert.equal(only(checked, 'template/syntax').length, 1);
  });

  test('templates that are huge, or all braces', () => {
    const big = '{{.params.a}}'.repeat(5_000);
    const braces = '{{'.repeat(2_000) + '}}'.repeat(2_000);
    const parens = '{{' + '('.repeat(500) + '.params.a' + ')'.repeat(500) + '}}';
    const text = `compositeTools:\n  - name: n\n    description: d.\n    parameters: {type: object, properties: {a: {type: string}}}\n    steps:\n      - id: s\n        tool: filesystem.read_file\n        condition: "${braces}"\n        arguments: {path: "${big}", x: "${parens}"}\n`;
    check('huge.vmcp.yaml', text);
  });
});

describe('exact characters through quoting, escapes and line ends', () => {
  const header =
    'compositeTools:\n  - name: spans\n    description: d.\n    parameters: {type: object, properties: {path: {type: string}}}\n    steps:\n';

  test('double-quoted with escapes before the reference', () => {
    const checked = check(
      'a.vmcp.yaml',
      header + '      - {id: s, tool: filesystem.read_file, arguments: {path: "\\t\\u00e9\\"{{.params.pth}}"}}\n',
    );
    const [finding] = only(checked, 'template/unknown-param');
    assert.equal(at(checked, finding!), 'pth');
  });

  test('single-quoted with doubled quotes before the error', () => {
    const checked = check(
      'a.vmcp.yaml',
      header + "      - {id: s, tool: filesystem.read_file, condition: '{{eq ''ab'' \"ab\"}}', arguments: {path: /}}\n",
    );
    const [finding] = only(checked, 'template/syntax');
    // The Go token 'ab' is written ''ab'' inside the YAML single-quoted string: the span covers
    // both doubled quotes, the last one included.
    assert.equal(at(checked, finding!), "''ab''");
  });

  test('literal block scalar, second line, CRLF', () => {
    const text = (
      header +
      '      - id: s\n        tool: filesystem.write_file\n        arguments:\n          path: /a\n          content: |\n            first {{.params.path}}\n            second {{.params.nope}}\n'
    ).replace(/\n/g, '\r\n');
    const checked = check('a.vmcp.yaml', text);
    const [finding] = only(checked, 'template/unknown-param');
    assert.equal(at(checked, finding!), 'nope');
    assert.equal(checked.file.source.positionAt(finding!.span.start).line, 11);
  });

  test('JSON string with \\u escapes', () => {
    const text = JSON.stringify({
      compositeTools: [
        { name: 'j', description: 'd', steps: [{ id: 's', tool: 'filesystem.read_file', arguments: { path: 'x' } }] },
      ],
    }).replace('"x"', '"\\u0041\\u00e9{{.steps.zz.output.a}}"');
    const checked = check('a.json', text);
    const [finding] = only(checked, 'template/unknown-step');
    assert.equal(at(checked, finding!), 'zz');
  });

  test('a fix inside a string with escapes edits exactly the name', () => {
    const checked = check(
      'a.vmcp.yaml',
      header + '      - {id: s, tool: filesystem.read_file, arguments: {path: "\\"{{.params.pth}}\\""}}\n',
    );
    const [finding] = only(checked, 'template/unknown-param');
    const fixed = applyEdits(checked.file.source.text, finding!.fixes![0]!.edits);
    assert.ok(fixed.includes('path: "\\"{{.params.path}}\\""'), fixed);
  });

  test('folded scalar: the finding covers exactly the name, and the fix edits it in place', () => {
    const checked = check(
      'a.vmcp.yaml',
      header +
        '      - id: s\n        tool: filesystem.read_file\n        arguments:\n          path: >-\n            {{.params.pth}}\n',
    );
    const [finding] = only(checked, 'template/unknown-param');
    assert.equal(at(checked, finding!), 'pth');
    const fixed = applyEdits(checked.file.source.text, finding!.fixes![0]!.edits);
    assert.ok(fixed.endsWith('path: >-\n            {{.params.path}}\n'), fixed);
  });
});

describe('templatesOf', () => {
  test('lists every templated string with its owner and field', () => {
    const text = [
      'compositeTools:',
      '  - name: t',
      '    description: "{{.params.not_templated}}"',
      '    parameters: {type: object, properties: {p: {type: string, default: "{{x}}"}}}',
      '    steps:',
      '      - id: a',
      '        tool: filesystem.read_file',
      '        condition: "true"',
      '        arguments: {path: "{{.params.p}}", nested: {list: ["{{.params.p}}", plain]}}',
      '        defaultResults: {text: "{{not templated}}"}',
      '      - id: f',
      '        type: forEach',
      '        collection: "{{json .steps.a.output.items}}"',
      '        step: {id: i, tool: filesystem.read_file, arguments: {path: "{{.forEach.item}}"}}',
      '    output:',
      '      properties:',
      '        o: {type: object, description: d, properties: {x: {type: string, description: d, value: "{{.steps.a.output.text}}"}}}',
    ].join('\n');
    const { file, workspace } = check('t.vmcp.yaml', text + '\n');
    const doc = file.documents[0]!;
    const index = templatesOf(documentContext(file, doc, workspace));
    const summary = index.strings.map(
      (s) =>
        `${s.owner}:${s.step?.idText ?? '-'}:${s.field}:${s.path.join('.')}:${s.checkedAtLoad ? 'load' : 'run'}:${s.scannedForDefaults ? 'scan' : '-'}`,
    );
    assert.deepEqual(summary, [
      'step:a:condition::load:scan',
      'step:a:arguments:path:load:scan',
      'step:a:arguments:nested.list.0:run:-',
      'step:f:collection::load:-',
      'step:i:arguments:path:load:-',
      'output:-:output:o.x:run:scan',
    ]);
    const reference = index.strings[5]!.references[0]!;
    assert.equal(reference.root, 'steps');
    assert.deepEqual(
      reference.segments.map((s) => file.source.text.slice(s.span.start, s.span.end)),
      ['steps', 'a', 'output', 'text'],
    );
    // Memoised: the same object for the same document.
    assert.equal(templatesOf(documentContext(file, doc, workspace)), index);
  });
});

test('Go durations', () => {
  const s = 1e9;
  assert.equal(parseGoDuration('10m'), 600 * s);
  assert.equal(parseGoDuration('1h30m'), 5400 * s);
  assert.equal(parseGoDuration('1.5h'), 5400 * s);
  assert.equal(parseGoDuration('.5s'), 0.5 * s);
  assert.equal(parseGoDuration('300ms'), 0.3 * s);
  assert.equal(parseGoDuration('2\u00b5s'), 2000);
  assert.equal(parseGoDuration('2\u03bcs'), 2000);
  assert.equal(parseGoDuration('-1m'), -60 * s);
  assert.equal(parseGoDuration('0'), 0);
  for (const bad of ['', '10', '1x', 'm', '.s', '1.5.5s', '10 m', '+', '1h 30m'])
    assert.equal(parseGoDuration(bad), undefined, bad);
});
