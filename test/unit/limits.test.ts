// The limits the parsers apply (core/limits.ts): a file too large or holding too many values is
// declined whole, aliases past the budget are left unexpanded, content nested too deep is cut off
// before the libraries see it. Each is said once, as lens/declined, and the rest is checked. The
// hostile inputs are built here rather than committed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkFile } from '../../server/src/core/engine.js';
import { LIMITS } from '../../server/src/core/limits.js';
import { parseFile } from '../../server/src/core/parse/file.js';
import { reparseFile } from '../../server/src/core/parse/incremental.js';
import { parseJson } from '../../server/src/core/parse/json.js';
import { getNode, type Node } from '../../server/src/core/parse/nodes.js';
import { tooManyValues } from '../../server/src/core/parse/size.js';
import { parseYaml } from '../../server/src/core/parse/yaml.js';
import { Workspace } from '../../server/src/core/workspace.js';
import { parserWords } from '../../server/src/core/wording/parserWords.js';

const workspace = () => new Workspace('/ws');
const rulesOf = (path: string, text: string) =>
  checkFile(parseFile(path, text), workspace()).findings.map((f) => f.rule);

test('a file larger than LIMITS.fileBytes is declined whole, with one info at its start', () => {
  // 8 MB and a bit of comments under a gateway key: the old code parsed all of it.
  const filler = `# ${'x'.repeat(98)}\n`.repeat(Math.ceil(LIMITS.fileBytes / 100));
  for (const [path, text] of [
    ['big.vmcp.yaml', `compositeTools: []  # tool-lens-disable-line lens/declined\n${filler}`],
    ['big.vmcp.json', `{"compositeTools": [], "pad": "${'x'.repeat(LIMITS.fileBytes)}"}`],
    ['big.calls.jsonl', `{"calls": []}\n`.repeat(Math.ceil(LIMITS.fileBytes / 14))],
  ]) {
    const file = parseFile(path!, text!);
    assert.equal(file.documents.length, 1, path);
    const [doc] = file.documents;
    assert.equal(doc!.root, null, `${path}: nothing is parsed`);
    assert.deepEqual(
      doc!.problems.map((p) => [p.rule, p.span.start, p.span.end]),
      [['lens/declined', 0, 1]],
      path,
    );
    assert.match(
      parserWords(doc!.problems[0]!),
      /^This file is 8\.\d MB, more than the 8 MB Tool Lens reads, so none of it is checked/,
    );
    assert.deepEqual(
      file.comments,
      [],
      `${path}: not read for comments either (a suppression in it counts for nothing)`,
    );
    assert.deepEqual(rulesOf(path!, text!), ['lens/declined'], `${path}: the decline and nothing else`);
  }
  // Bytes, not UTF-16 units: 2.8 million three-byte characters are 8.4 MB.
  assert.deepEqual(rulesOf('euro.vmcp.yaml', `compositeTools: []\n# ${'€'.repeat(2_800_000)}\n`), ['lens/declined']);
  // A large file that names none of our keys stays someone else's: silence, as for any such file.
  assert.deepEqual(rulesOf('package-lock.json', `{"name": "x", "pad": "${'x'.repeat(LIMITS.fileBytes)}"}`), []);
  // At the limit, a file is read.
  const exact = `compositeTools: []\n# ${'x'.repeat(LIMITS.fileBytes - 22)}\n`;
  assert.equal(Buffer.byteLength(exact), LIMITS.fileBytes);
  assert.deepEqual(rulesOf('exact.vmcp.yaml', exact), []);
});

test('a file holding more than LIMITS.fileValues values is declined whole', () => {
  // About a megabyte of `0,0,0,...`: half a million values, which yaml builds at a kilobyte each
  // (the old code took seconds and gigabytes on a few megabytes of it).
  const values = LIMITS.fileValues + 10;
  for (const [path, text] of [
    ['dense.vmcp.yaml', `compositeTools: []\nx: [${'0,'.repeat(values)}0]\n`],
    ['dense.vmcp.json', `{"compositeTools": [], "x": [${'0,'.repeat(values)}0]}`],
  ]) {
    const file = parseFile(path!, text!);
    assert.equal(file.documents[0]!.root, null, path);
    assert.match(
      parserWords(file.documents[0]!.problems[0]!),
      /^This file holds more than the 500,000 values Tool Lens reads in one file/,
      path,
    );
    assert.deepEqual(
      checkFile(file, workspace()).findings.map((f) => f.rule),
      ['lens/declined'],
      path,
    );
  }
  // The cheap bound counts commas and colons in strings too; the count on tokens does not.
  const manyCommas = `compositeTools: []\nnote: "${', :'.repeat(LIMITS.fileValues)}"\n`;
  assert.equal(tooManyValues(manyCommas, 'yaml'), false);
  assert.equal(tooManyValues(`{"note": "${', :'.repeat(LIMITS.fileValues)}"}`, 'json'), false);
});

test('an edit that pastes many values, or grows the file past the limit, is re-parsed whole', () => {
  const before = 'compositeTools:\n  - name: t\n    description: d\n    steps: []\n';
  const previous = parseFile('t.vmcp.yaml', before);
  const paste = `compositeTools:\n  - name: t\n    description: d\n    x: [${'0,'.repeat(LIMITS.fileValues)}0]\n    steps: []\n`;
  assert.equal(reparseFile(previous, paste, null), undefined);
  const grown = `${before}# ${'x'.repeat(LIMITS.fileBytes)}\n`;
  assert.equal(reparseFile(previous, grown, null), undefined);
  // A small edit still re-reads just its entry.
  assert.ok(reparseFile(previous, before.replace('description: d', 'description: e'), null));
});

test('the alias budget is one per file, and said once per document', () => {
  // 30 documents, each aliasing a 1,000-item anchor 10 times: 300,000 values asked, 100,000 built.
  const doc = `compositeTools: []\nx: &grid [${Array(1000).fill('0').join(',')}]\ny: [${Array(10).fill('*grid').join(',')}]\n`;
  const text = Array(30).fill(doc).join('---\n');
  const file = parseFile('stream.vmcp.yaml', text);
  const declined = file.documents.map((d) => d.problems.filter((p) => p.rule === 'lens/declined').length);
  assert.equal(declined.slice(0, 9).join(''), '000000000', 'the first documents are within the budget');
  assert.equal(declined[9], 1, 'the budget runs out in the tenth');
  assert.deepEqual(declined.slice(10), Array(20).fill(1), 'then each document says it once');
  assert.match(
    parserWords(file.documents[20]!.problems[0]!),
    /^This alias and the 9 after it in this document are not expanded/,
  );
});

test('a problem inside an anchor is reported once, not once for each alias of it', () => {
  const text = 'compositeTools: []\nx: &m {k: 1, k: 2}\ny: *m\nz: *m\n';
  assert.deepEqual(
    rulesOf('dup.vmcp.yaml', text).filter((r) => r === 'yaml/duplicate-key'),
    ['yaml/duplicate-key'],
  );
});

/** A node tree without spans that differ only in how a cut region is placed: the same tree. */
function same(a: unknown, b: unknown): void {
  assert.equal(JSON.stringify(a), JSON.stringify(b));
}

test('cutting deep content before parsing gives what the converters alone make of the same text', () => {
  // Below the depth where the libraries run out of stack both ways can be compared: the cut text
  // must give the same tree, spans and problems as the whole text. (Where a deep block collection
  // ends in an empty value, the cut span takes its final line break too; that case is left out.)
  const cases: string[] = [];
  for (const d of [401, 450]) {
    cases.push(`a: ${'['.repeat(d)}${']'.repeat(d)}\nb: 1\n`);
    cases.push(`${'['.repeat(d)}1${']'.repeat(d)}\n`);
    cases.push(`a: ${'{k: '.repeat(d)}1${'}'.repeat(d)}\nb: [1, 2] # c\n`);
    cases.push(`a: ${'[{k: '.repeat(d / 2)}x${'}]'.repeat(d / 2)} # tail\nb: 2\n`);
    cases.push(`a: [${'[ '.repeat(d)}x${' ] # c\n'.repeat(d)}, 3]\nb: 2\n`);
    cases.push(`a:\n${'- '.repeat(d)}x\nb: 1\n`);
    cases.push(`${'- '.repeat(d)}x\n- y\n`);
    cases.push(`a:\n  ${'- '.repeat(d)}x\n  ${' '.repeat(2 * d + 2)}- y\n  - z\nb: 1\n`);
    cases.push(
      `top:\n${Array.from({ length: d }, (_, i) => `${' '.repeat(i + 1)}k${i}:`).join('\n')}\n${' '.repeat(d + 1)}leaf\nafter: 1\n`,
    );
    cases.push(`a: &x ${'['.repeat(d)}${']'.repeat(d)}\nb: *x\n`);
    cases.push(
      `a:\n${Array.from({ length: d }, (_, i) => `${' '.repeat(i + 1)}k:`).join('\n')} |\n${' '.repeat(d + 2)}text\nb: 1\n`,
    );
  }
  for (const text of cases) {
    const whole = parseYaml(text, 0, { cut: 'never' });
    same(parseYaml(text, 0, { cut: 'always' }), whole);
    same(parseYaml(text, 0), whole);
  }
  for (const d of [401, 450]) {
    for (const text of [
      `{"a": ${'['.repeat(d)}${']'.repeat(d)}, "b": 1}`,
      `{"a": ${'{"k": '.repeat(d)}1${'}'.repeat(d)}, "b": [1]}`,
      `${'['.repeat(d)}1${']'.repeat(d)}`,
      `{"a": ${'[ /* ] */ "]", '.repeat(d)}0${']'.repeat(d)}, "b": 1}`,
    ]) {
      same(parseJson(text, 0, { cut: 'always' }), parseJson(text, 0, { cut: 'never' }));
    }
  }
});

test('a deep value is declined as one span, and what follows it is read as written', () => {
  const text = `a: [${'['.repeat(5000)}x${']'.repeat(5000)}, after]\nb: 2\n`;
  const [doc] = parseYaml(text);
  assert.deepEqual(
    doc!.problems.map((p) => p.rule),
    ['lens/declined'],
  );
  const value = getNode(doc!.root, 'a');
  const items = value?.type === 'seq' ? value.items : [];
  assert.deepEqual(
    items.map((item: Node) => text.slice(item.span.start, item.span.end).length),
    [10_001, 5],
    'the deep item spans its whole text; `after` is the next item',
  );
  assert.equal(getNode(doc!.root, 'b')?.type, 'scalar');
  // JSON: the same through jsonc-parser, which would otherwise lose the whole document.
  const json = parseJson(`{"a": [${'['.repeat(5000)}${']'.repeat(5000)}, "after"], "b": 2}`);
  assert.deepEqual(
    json.problems.map((p) => p.rule),
    ['lens/declined'],
  );
  assert.equal(getNode(json.root, 'b')?.type, 'scalar');
});
