// Whatever a user can type: every realistic file of the clean corpus cut off at many points, with
// random damage, with tabs, with other roots, nested absurdly deep. The checker must answer each
// with diagnostics or silence, never a throw, a rule failure, or a range outside the text.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { checkFile, type FileReport } from '../../server/src/core/engine.js';
import { getMap, getNode, getSeq, isSeq } from '../../server/src/core/parse/nodes.js';
import type { Workspace } from '../../server/src/core/workspace.js';
import { loadWorkspace } from '../../server/src/node/loader.js';
import { seedFor } from '../helpers/seed.js';

const CLEAN = join(__dirname, '..', 'corpus', 'clean');

function corpusFiles(dir = CLEAN): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...corpusFiles(full));
    else if (/\.(ya?ml|jsonc?|jsonl)$/.test(name) && !name.startsWith('.toollens')) out.push(full);
  }
  return out.sort();
}

function workspaceWithLog(): { workspace: Workspace; logs: string[] } {
  const logs: string[] = [];
  const loaded = loadWorkspace({ paths: ['.'], cwd: CLEAN, log: (m) => logs.push(m) });
  return { workspace: loaded.workspace, logs };
}

/** Checks a text as if it were the file at `path`; asserts the invariants every answer keeps. */
function assertSane(workspace: Workspace, logs: string[], path: string, text: string): FileReport {
  const file = workspace.parse(path, text);
  const report = checkFile(file, workspace);
  for (const finding of report.findings) {
    assert.ok(
      finding.span.start >= 0 && finding.span.end <= text.length && finding.span.start <= finding.span.end,
      `${path}: ${finding.rule} has a range outside the text`,
    );
    for (const fix of finding.fixes ?? []) {
      for (const edit of fix.edits)
        assert.ok(
          edit.span.start >= 0 && edit.span.end <= text.length,
          `${path}: a fix of ${finding.rule} edits outside the text`,
        );
    }
  }
  assert.deepEqual(logs, [], `${path}: a rule failed on this input:\n${text.slice(0, 400)}`);
  return report;
}

test('every corpus file cut off at 40 points', () => {
  const { workspace, logs } = workspaceWithLog();
  for (const absolute of corpusFiles()) {
    const text = readFileSync(absolute, 'utf8');
    const path = relative(CLEAN, absolute).replace(/\\/g, '/');
    for (let i = 1; i <= 40; i++) assertSane(workspace, logs, path, text.slice(0, Math.floor((text.length * i) / 41)));
  }
});

test('random damage to corpus gateways (inserted, deleted and replaced characters)', () => {
  const { workspace, logs } = workspaceWithLog();
  const gateways = corpusFiles().filter((f) => f.includes('gateways'));
  const samples = gateways.map((f) => ({
    path: relative(CLEAN, f).replace(/\\/g, '/'),
    text: readFileSync(f, 'utf8'),
  }));
  const damage = fc.record({
    file: fc.nat({ max: samples.length - 1 }),
    edits: fc.array(
      fc.record({
        at: fc.double({ min: 0, max: 1, noNaN: true }),
        remove: fc.nat({ max: 12 }),
        insert: fc.constantFrom(
          '',
          ':',
          '-',
          '{',
          '}',
          '[',
          ']',
          '"',
          "'",
          '\t',
          '\n',
          '{{',
          '}}',
          '  ',
          '#',
          '&a',
          '*a',
          '!!str',
          '|',
          '>',
          ',',
          'null',
          '__proto__: 1',
        ),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  });
  fc.assert(
    fc.property(damage, ({ file, edits }) => {
      const sample = samples[file]!;
      let text = sample.text;
      for (const edit of edits) {
        const at = Math.floor(edit.at * text.length);
        text = text.slice(0, at) + edit.insert + text.slice(at + edit.remove);
      }
      assertSane(workspace, logs, sample.path, text);
    }),
    { numRuns: 300, seed: seedFor(20261129, 'bad-input property') },
  );
});

test('tabs, CRLF, a BOM and non-mapping roots', () => {
  const { workspace, logs } = workspaceWithLog();
  const cases: [string, string][] = [
    ['tabs.vmcp.yaml', 'compositeTools:\n\t- name: t\n\t  description: d\n'],
    ['crlf.vmcp.yaml', 'compositeTools:\r\n  - name: t\r\n    description: d\r\n    steps: []\r\n'],
    ['bom.vmcp.yaml', '\uFEFFcompositeTools: []\n'],
    ['list.vmcp.yaml', '- compositeTools: []\n'],
    ['scalar.vmcp.yaml', 'just text\n'],
    ['null-root.faces.yaml', '~\n'],
    ['number-root.tools.json', '42'],
    ['array-root.calls.json', '[1, 2, 3]'],
    ['string-root.calls.jsonl', '"a"\n{"name": 5}\n[]\n'],
    ['empty.calls.yaml', ''],
    ['comments-only.faces.json', '// nothing here\n'],
    ['k8s.yaml', 'kind: VirtualMCPServer\napiVersion: toolhive.stacklok.dev/v1beta1\nspec: [1]\n'],
    [
      'k8s-composite.yaml',
      'kind: VirtualMCPCompositeToolDefinition\napiVersion: toolhive.stacklok.dev/v1beta1\nspec: "x"\n',
    ],
    [
      'proto.vmcp.yaml',
      '__proto__: {compositeTools: 1}\ncompositeTools:\n  - __proto__: {polluted: true}\n    name: p\n    description: d\n    steps: [{id: constructor, tool: filesystem.read_file, arguments: {__proto__: 1, path: x}}]\n',
    ],
  ];
  for (const [path, text] of cases) assertSane(workspace, logs, path, text);
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype was changed');
});

test('absurdly deep nesting in YAML flow, YAML block and JSON', () => {
  const { workspace, logs } = workspaceWithLog();
  // 6,000 levels: past where the libraries run out of stack (yaml's composer near 1,000 levels,
  // jsonc-parser's parseTree a few thousand). The old code reported yaml's overflow as a yaml/syntax
  // error and lost a deep JSON document whole; each deep value is now one lens/declined, nothing else.
  const depth = 6000;
  const oneDecline = (path: string, text: string) => {
    const { findings } = assertSane(workspace, logs, path, text);
    assert.deepEqual(
      findings.filter((f) => f.rule === 'yaml/syntax'),
      [],
      `${path}: no syntax error`,
    );
    assert.equal(findings.filter((f) => f.rule === 'lens/declined').length, 1, `${path}: one decline`);
  };
  oneDecline('flow.vmcp.yaml', `compositeTools: ${'['.repeat(depth)}${']'.repeat(depth)}\n`);
  oneDecline('flow-map.vmcp.yaml', `compositeTools: [${'{a: '.repeat(depth)}1${'}'.repeat(depth)}]\n`);
  oneDecline('compact.vmcp.yaml', `compositeTools:\n  - ${'- '.repeat(depth)}x\n`);
  let block = 'compositeTools:\n  - name: deep\n    description: d\n    parameters:\n';
  for (let i = 0; i < 600; i++) block += `${'  '.repeat(i + 3)}k${i}:\n`;
  oneDecline('block.vmcp.yaml', block);
  oneDecline('deep.tools.json', `{"tools": ${'['.repeat(depth)}${']'.repeat(depth)}}`);
  oneDecline('deep-obj.calls.json', `{"calls": [${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}]}`);
  oneDecline('deep.calls.jsonl', `{"calls": [${'['.repeat(depth)}${']'.repeat(depth)}]}\n`);
});

test('a billion-laughs alias bomb is bounded, and said once', () => {
  const { workspace, logs } = workspaceWithLog();
  let text = 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
  for (let i = 1; i < 9; i++)
    text += `a${i}: &a${i} [${Array(10)
      .fill(`*a${i - 1}`)
      .join(', ')}]\n`;
  text += 'compositeTools: *a8\n';
  const declined = assertSane(workspace, logs, 'bomb.vmcp.yaml', text).findings.filter(
    (f) => f.rule === 'lens/declined',
  );
  assert.equal(declined.length, 1);
  assert.match(declined[0]!.message, /not expanded/);
  assert.match(declined[0]!.why ?? '', /Tool Lens builds at most/);
});

test('a wide alias bomb (9,000 aliases of one 5,000-item anchor, 37 KB) is bounded, and said once', () => {
  // The old alias budget counted expansions (10,000), not what they produced: this file asked for
  // 45 million nodes and the checker died of memory (4.3 GB, after a minute), in the CLI and in the
  // language server alike. Now the aliases past 100,000 values are left unexpanded.
  const { workspace, logs } = workspaceWithLog();
  const text = [
    'compositeTools:',
    '  - name: grids',
    '    description: d',
    '    parameters:',
    '      type: object',
    '      properties:',
    `        grid: {type: array, default: &grid [${Array(5000).fill('0').join(',')}]}`,
    `        grids: {type: array, default: [${Array(9000).fill('*grid').join(',')}]}`,
    '    steps: []',
    '',
  ].join('\n');
  const { file, findings } = assertSane(workspace, logs, 'wide.vmcp.yaml', text);
  const declined = findings.filter((f) => f.rule === 'lens/declined');
  assert.equal(declined.length, 1, 'one finding for one cause');
  assert.match(
    `${declined[0]!.message} ${declined[0]!.why}`,
    /^Aliases here are not expanded: .*\. This alias and the 8,980 after it in this document are not expanded/,
  );
  assert.equal(
    declined[0]!.span.start,
    text.indexOf('*grid') + 19 * '*grid,'.length,
    'at the first alias left unexpanded',
  );
  const tool = getSeq(file.documents[0]!.root, 'compositeTools')?.items[0];
  const grids = getNode(getMap(getMap(getMap(tool, 'parameters'), 'properties'), 'grids'), 'default');
  assert.ok(isSeq(grids));
  // The 19 aliases that fit are expanded; the one that would go past the budget, and those after, are not.
  assert.deepEqual(
    grids.items.slice(18, 21).map((item) => item.type),
    ['seq', 'scalar', 'scalar'],
  );
});
