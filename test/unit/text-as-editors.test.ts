// Text as editors count it (docs/behaviour.md#text-as-editors-count-it): SourceText's lines and
// characters with a BOM, lone CRs and CRLFs; the parsers reading the same lines and ignoring the
// BOM; parse problems on whole characters in CRLF files. line-breaks.test.ts holds the same
// promises over every fixture, corpus and example file.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_LIMITS } from '../../server/src/core/limits.js';
import { checkFile } from '../../server/src/core/engine.js';
import { parseFile } from '../../server/src/core/parse/file.js';
import { kindFromText } from '../../server/src/core/parse/kinds.js';
import type { ScalarNode } from '../../server/src/core/parse/nodes.js';
import { getNode } from '../../server/src/core/parse/nodes.js';
import { eolOf, lineStartOf, loneCrAsLf, SourceText, wholeCharacters } from '../../server/src/core/text/source.js';
import { Workspace } from '../../server/src/core/workspace.js';
import { parserWords } from '../../server/src/core/wording/parserWords.js';
import { seedFor } from '../helpers/seed.js';

test('SourceText: a BOM belongs to no line, so line 1 starts after it as in an editor', () => {
  const source = new SourceText('\uFEFFab\ncd');
  assert.deepEqual(source.lineStarts, [1, 4]);
  assert.deepEqual(source.positionAt(0), { line: 0, character: 0 }, 'the BOM itself is before character 0');
  assert.deepEqual(source.positionAt(1), { line: 0, character: 0 });
  assert.deepEqual(source.positionAt(2), { line: 0, character: 1 });
  assert.deepEqual(source.positionAt(5), { line: 1, character: 1 });
  assert.equal(source.offsetAt({ line: 0, character: 0 }), 1, 'an editor position maps after the BOM');
  assert.equal(source.offsetAt({ line: 0, character: 2 }), 3);
  assert.equal(source.lineText(0), 'ab');
  assert.equal(source.text, '\uFEFFab\ncd', 'the text keeps the BOM: offsets are offsets into the file');
  // A BOM only: one empty line.
  assert.deepEqual(new SourceText('\uFEFF').positionAt(1), { line: 0, character: 0 });
  assert.equal(new SourceText('\uFEFF').lineText(0), '');
  // A U+FEFF anywhere else is an ordinary character (a zero-width no-break space).
  assert.deepEqual(new SourceText('a\n\uFEFFb').positionAt(4), { line: 1, character: 2 });
});

test('SourceText: `\\n`, `\\r\\n` and a lone `\\r` each end a line', () => {
  const source = new SourceText('a\rb\r\nc\nd\r');
  assert.deepEqual(source.lineStarts, [0, 2, 5, 7, 9]);
  assert.deepEqual(
    [0, 1, 2, 3, 4].map((line) => source.lineText(line)),
    ['a', 'b', 'c', 'd', ''],
  );
  assert.deepEqual(source.positionAt(3), { line: 1, character: 1 }, 'the CR of a CRLF ends line 2');
  assert.equal(
    source.offsetAt({ line: 1, character: 9 }),
    3,
    'a character past the line end stops before its line break',
  );
  assert.equal(lineStartOf(source.text, 6), 5);
  assert.equal(lineStartOf('\uFEFFab', 2), 1, 'the first line starts after the BOM');
});

test('eolOf: the line break a text uses most, so inserted lines match', () => {
  assert.equal(eolOf('a\nb\n'), '\n');
  assert.equal(eolOf('a\r\nb\r\n'), '\r\n');
  assert.equal(eolOf('a\rb\r'), '\r');
  assert.equal(eolOf('a\r\nb\nc\n'), '\n', 'most, not first');
  assert.equal(eolOf('a\rb\nc'), '\r', 'a tie goes to the first');
  assert.equal(eolOf('no break'), '\n');
  assert.equal(new SourceText('x\ry\r').eol, '\r');
});

test('loneCrAsLf: the same length, a lone CR read as LF, a CRLF left as it is', () => {
  assert.equal(loneCrAsLf('a\rb\r\nc\r'), 'a\nb\r\nc\n');
  const text = 'no cr\nhere';
  assert.equal(loneCrAsLf(text), text);
  fc.assert(
    fc.property(fc.array(fc.constantFrom('a', '\r', '\n', ' '), { maxLength: 30 }), (chars) => {
      const input = chars.join('');
      const mapped = loneCrAsLf(input);
      assert.equal(mapped.length, input.length);
      assert.deepEqual(new SourceText(mapped).lineStarts, new SourceText(input).lineStarts, 'the same lines');
    }),
    { numRuns: 500, seed: seedFor(11, 'text-as-editors property (line breaks)') },
  );
});

test('JSON with a BOM parses: no yaml/syntax, the document starts after the BOM', () => {
  const text = '\uFEFF{"catalog": 1, "servers": []}\n';
  const file = parseFile('notes.catalog.json', text);
  assert.equal(file.kind, 'tool-catalog');
  assert.deepEqual(file.documents[0]!.problems, []);
  assert.equal(file.documents[0]!.root!.span.start, 1);
  // JSONL: the first line's BOM too.
  const lines = parseFile('calls.jsonl', '\uFEFF{"a": 1}\n{"b": 2}\n');
  assert.deepEqual(
    lines.documents.map((d) => d.problems),
    [[], []],
  );
  // And the JSONC comments after it are still found.
  assert.deepEqual(
    parseFile('c.jsonc', '\uFEFF// note\n{}').comments.map((c) => c.span),
    [{ start: 1, end: 8 }],
  );
});

test('YAML with a BOM: the same tree as without it, one offset on', () => {
  const plain = 'compositeTools:\n  - name: t\n    description: d\n    steps: []\n';
  const withBom = parseFile('g.vmcp.yaml', '\uFEFF' + plain);
  const without = parseFile('g.vmcp.yaml', plain);
  assert.equal(withBom.kind, 'vmcp-config');
  assert.deepEqual(withBom.documents[0]!.problems, []);
  const name = (file: typeof withBom) => {
    const tools = getNode(file.documents[0]!.root, 'compositeTools');
    assert.equal(tools?.type, 'seq');
    return getNode(tools.type === 'seq' ? tools.items[0]! : null, 'name') as ScalarNode;
  };
  assert.equal(name(withBom).span.start, name(without).span.start + 1);
  assert.deepEqual(
    withBom.source.positionAt(name(withBom).span.start),
    without.source.positionAt(name(without).span.start),
  );
  // A file too large to read is still recognised by its text after a BOM.
  assert.equal(kindFromText('\uFEFFcompositeTools: []\n'), 'vmcp-config');
});

test('YAML with lone CR line breaks: read as the lines the editor shows, a leading comment included', () => {
  // Before: the whole file was one comment line to the YAML library, no kind, exit 0.
  const text = '# review gateway\rcompositeTools:\r  - name: t\r    description: d\r    steps: []\r';
  const file = parseFile('g.vmcp.yaml', text);
  assert.equal(file.kind, 'vmcp-config');
  assert.deepEqual(file.documents[0]!.problems, []);
  assert.deepEqual(
    file.comments.map((c) => c.text),
    ['# review gateway'],
  );
  // Other CR-only files had spurious syntax errors.
  const nested = parseFile('n.vmcp.yaml', 'compositeTools:\r  - name: t\r    steps: []\r');
  assert.deepEqual(nested.documents[0]!.problems, []);
  // A block scalar's lines, and a quoted string folded over a lone CR, read as YAML reads line breaks.
  const values = parseFile('v.yaml', 'a: |\r  x\r  y\rb: "p\r  q"\r');
  assert.deepEqual(values.documents[0]!.problems, []);
  assert.equal((getNode(values.documents[0]!.root, 'a') as ScalarNode).value, 'x\ny\n');
  assert.equal((getNode(values.documents[0]!.root, 'b') as ScalarNode).value, 'p q');
  // JSONL: a lone CR ends a line, as it ends a document's line in the editor.
  const jsonl = parseFile('calls.jsonl', '{"a": 1}\r{"b": 2}\r\n{"c": 3}');
  assert.equal(jsonl.documents.length, 3);
  assert.deepEqual(
    jsonl.documents.map((d) => jsonl.source.positionAt(d.span.start).line),
    [0, 1, 2],
  );
});

test('a suppression comment ended by a lone CR applies to the next line the editor shows', () => {
  const text =
    'compositeTools:\r  - name: t\r    description: d\r    # tool-lens-disable-next-line yaml/duplicate-key -- kept on purpose\r    description: d\r    steps: []\r';
  const report = checkFile(parseFile('s.vmcp.yaml', text), new Workspace('/w'));
  assert.deepEqual(
    report.findings.filter((f) => f.rule === 'yaml/duplicate-key' || f.rule === 'lens/unused-suppression'),
    [],
  );
});

test('parse problems of damaged CRLF files lie on whole characters: never between the CR and the LF', () => {
  const base =
    'compositeTools:\r\n  - name: t\r\n    steps:\r\n      - id: a\r\n        tool: fs.read\r\n        arguments: {path: "x"}\r\n';
  const json = '{\r\n  "catalog": 1,\r\n  "servers": [\r\n    {"name": "a", "tools": []}\r\n  ]\r\n}\r\n';
  const damage = fc.record({
    at: fc.nat(),
    remove: fc.nat({ max: 6 }),
    insert: fc.constantFrom(
      '',
      '[',
      '{',
      '"',
      "'",
      ':',
      '\t',
      '- ',
      '&a',
      '*a',
      '}',
      ']',
      ',',
      '\r',
      '\n',
      '\r\n',
      '😀',
    ),
  });
  fc.assert(
    fc.property(
      fc.constantFrom(
        ['g.vmcp.yaml', base],
        ['c.catalog.json', json],
        ['c.jsonl', json.replace(/\r\n\s*/g, '') + '\r\n{"x":\r\n'],
      ),
      fc.array(damage, { minLength: 1, maxLength: 3 }),
      ([path, start], edits) => {
        let text = start;
        for (const e of edits) {
          const at = e.at % (text.length + 1);
          text = text.slice(0, at) + e.insert + text.slice(at + e.remove);
        }
        for (const doc of parseFile(path, text).documents) {
          for (const problem of doc.problems)
            assert.deepEqual(
              wholeCharacters(text, problem.span),
              problem.span,
              `${problem.rule} "${parserWords(problem)}" at ${JSON.stringify(problem.span)} in ${JSON.stringify(text)}`,
            );
        }
      },
    ),
    { numRuns: 1200, seed: seedFor(20261201, 'text-as-editors property (edits)') },
  );
  // A file declined whole is declined at its first character: all of a CRLF.
  const large = parseFile('big.vmcp.yaml', '\r\ncompositeTools: []\r\n' + 'x: 1\r\n'.repeat(50), {
    limits: { ...DEFAULT_LIMITS, fileBytes: 100 },
  });
  assert.deepEqual(
    large.documents[0]!.problems.map((p) => p.span),
    [{ start: 0, end: 2 }],
  );
});
