// Bugs the fuzzer found and that are fixed, each kept as its smallest case: the invariants of the
// properties hold on it (failureAlone), and what the fix changed is asserted where the invariants
// alone would not say it. Each of these failed before its fix (it was a known bug of known.ts or a
// todo test of found.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkFile, type FileReport } from '../../server/src/core/engine.js';
import { applyEdits } from '../../server/src/core/text/edits.js';
import type { Finding } from '../../server/src/core/types.js';
import { Workspace } from '../../server/src/core/workspace.js';
import { failureAlone } from './harness.js';
import { fullText } from '../helpers/text.js';

function check(path: string, text: string, catalog?: { path: string; text: string }): FileReport {
  const workspace = new Workspace('/fuzz');
  if (catalog) workspace.catalog.addFile(workspace.parse(catalog.path, catalog.text));
  return checkFile(workspace.parse(path, text), workspace);
}

function holds(path: string, text: string, catalog?: { path: string; text: string }): void {
  const failure = failureAlone(path, text, catalog);
  if (failure) throw failure;
}

const covered = (text: string, finding: Finding) => text.slice(finding.span.start, finding.span.end);

test('fixed: yaml/syntax: a range that ends between the CR and the LF of a line break', () => {
  // The library points "A block sequence may not be used as an implicit map key" at the CR.
  const text = 'catalog: 1\r\nservers:\r\n  - name: notes\r\n    tools:\r\n\t    - name: list_notes\r\n';
  holds('notes.catalog.yaml', text);
  const onCr = check('notes.catalog.yaml', text).findings.find(
    (f) => f.rule === 'yaml/syntax' && text[f.span.start] === '\r',
  );
  assert.ok(onCr, 'the library no longer points at the CR: this case shows nothing');
  assert.equal(covered(text, onCr), '\r\n', 'a range on the line break covers the whole CRLF');
});

test('fixed: yaml/syntax: a one-character range that splits an astral character', () => {
  const text = 'catalog: 1\nx: 😀\n  b: c\n';
  holds('emoji.catalog.yaml', text);
  const nested = check('emoji.catalog.yaml', text).findings.find((f) => /Nested mappings/.test(fullText(f)));
  assert.ok(nested);
  assert.equal(covered(text, nested), '😀');
});

test('fixed: schema/wrong-type: the first line of a document that is not a mapping, with the CR of its CRLF', () => {
  const text = '- a\r\n- b\r\n';
  holds('lab.faces.yaml', text);
  const wrong = check('lab.faces.yaml', text).findings.find((f) => f.rule === 'schema/wrong-type');
  assert.ok(wrong);
  assert.equal(covered(text, wrong), '- a', 'the first line, before its CR');
  // A lone CR ends the first line too (Tool Lens's lines are the editor's).
  const lone = '- a\r- b\n';
  assert.equal(
    covered(
      lone,
      check('lab.faces.yaml', lone).findings.find((f) => f.rule === 'schema/wrong-type')!,
    ),
    '- a',
  );
});

test('fixed: template/not-upstream: no fix appends to a dependsOn written as an alias, or to an anchored one', () => {
  const text =
    'compositeTools:\n  - name: t\n    description: d\n    steps:\n      - id: zero\n        tool: fs.read\n      - id: first\n        tool: fs.read\n' +
    '        dependsOn: &deps [zero]\n      - id: second\n        tool: fs.read\n        dependsOn: *deps\n        arguments: {path: "{{.steps.first.output}}"}\n';
  holds('alias.vmcp.yaml', text);
  const report = check('alias.vmcp.yaml', text);
  const finding = report.findings.find((f) => f.rule === 'template/not-upstream');
  assert.ok(finding, 'the step still reads a step it does not wait for');
  // Neither after `*deps` (a syntax error) nor into `&deps [zero]` (it would make `first` wait for itself).
  assert.deepEqual(finding.fixes ?? [], []);
});

test('fixed: lens/unused-suppression: where a lone CR ends the line, removing the comment line is safe and leaves the YAML whole', () => {
  // The YAML library read a lone CR as part of the line: the comment ran on over `description: b`,
  // and removing the comment line joined two lines. Now the parsers read a lone CR as the line
  // break the editor shows (loneCrAsLf), so the directive is unused for what is on the next line.
  const text =
    'compositeTools:\n  - name: c\r    # tool-lens-disable-next-line yaml/duplicate-key\r    description: b\n';
  holds('cr.vmcp.yaml', text);
  const unused = check('cr.vmcp.yaml', text).findings.filter((f) => f.rule === 'lens/unused-suppression');
  assert.equal(unused.length, 1);
  const fix = unused[0]!.fixes?.[0];
  assert.deepEqual([fix?.title, fix?.safe], ['Remove this suppression comment', true]);
  const fixed = applyEdits(text, fix!.edits);
  assert.equal(fixed, 'compositeTools:\n  - name: c\r    description: b\n');
  assert.deepEqual(
    check('cr.vmcp.yaml', fixed).findings.filter((f) => f.rule === 'yaml/syntax'),
    [],
  );
});

// Past an unclosed `[`, the library reads `key\n "message` as one plain scalar, and what follows
// its `#` as a comment: a directive, unused (its "rule ids" are `schema/unknown-key":` and `v`),
// whose removal took the key's closing quote with it. Found by the "any damage" property (seed
// 20261201, test/fixtures/lens/unused-suppression/strings.yaml with 193 characters deleted).
test('fixed: a fix of lens/unused-suppression removes only a comment, never part of a quoted key', () => {
  const key = '"message # tool-lens-disable-line schema/unknown-key": v';
  const text = `compositeTools:\n  - name: t\n    steps:\n      - id: a\n        dependsOn: [x,\n      - id: key\n        ${key}\n        schema: {type: object}\n`;
  const unused = check('strings.vmcp.yaml', text).findings.filter((f) => f.rule === 'lens/unused-suppression');
  assert.ok(unused.length > 0, 'the library no longer reads a comment there: this case shows nothing');
  for (const finding of unused) {
    for (const fix of finding.fixes ?? [])
      assert.ok(applyEdits(text, fix.edits).includes(key), `"${fix.title}" changes the quoted key "${key}"`);
  }
  // In a document without a syntax error, the comments are certain and the fix is there.
  const valid = 'compositeTools: []\n# tool-lens-disable-next-line yaml/duplicate-key\nname: x\n';
  assert.equal(
    check('valid.vmcp.yaml', valid).findings.find((f) => f.rule === 'lens/unused-suppression')?.fixes?.[0]?.safe,
    true,
  );
});

test('fixed: args/missing-required: for a key written without a colon (`{path}`), the fix writes `{path: "", ...}`', () => {
  const text =
    'compositeTools:\n  - name: t\n    description: d\n    steps:\n      - {id: save, tool: filesystem.write_file, arguments: {path}}\n';
  const catalog = {
    path: 'fs.catalog.yaml',
    text:
      'catalog: 1\nservers:\n  - name: filesystem\n    tools:\n      - name: write_file\n        description: Write a file.\n' +
      '        inputSchema: {type: object, properties: {path: {type: string}, content: {type: string}}, required: [path, content]}\n',
  };
  holds('save.vmcp.yaml', text, catalog);
  const missing = check('save.vmcp.yaml', text, catalog).findings.find((f) => f.rule === 'args/missing-required');
  const fix = missing?.fixes?.[0];
  assert.ok(fix);
  assert.equal(fix.edits.length, 1, 'one edit where the value and the new pair both go');
  assert.match(applyEdits(text, fix.edits), /arguments: \{path: "", content: ""\}\}/);
});
