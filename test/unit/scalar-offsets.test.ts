// valueSpanMapper: value indexes of a scalar mapped back to the characters the user typed. Block
// scalars (literal `|` and folded `>`) are replayed exactly; the property tests build many of them
// (indentation indicators, chomping, more-indented and empty lines, CRLF, every placement) and check
// each value character against the source the mapper points at, with the `yaml` library's value
// (through our parse) as the oracle.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { parseFile } from '../../server/src/core/parse/file.js';
import type { Node, ScalarNode } from '../../server/src/core/parse/nodes.js';
import { valueSpanMapper } from '../../server/src/core/parse/scalarOffsets.js';
import { loneCrAsLf } from '../../server/src/core/text/source.js';
import type { Span } from '../../server/src/core/types.js';
import { seedFor } from '../helpers/seed.js';

const SEED = seedFor(20261207, 'scalar-offsets properties');

// ---------------------------------------------------------------------------------------------
// helpers

function scalars(node: Node | null, out: ScalarNode[] = []): ScalarNode[] {
  if (!node) return out;
  if (node.type === 'scalar') out.push(node);
  else if (node.type === 'seq') node.items.forEach((item) => scalars(item, out));
  else
    for (const pair of node.pairs) {
      scalars(pair.key, out);
      scalars(pair.value, out);
    }
  return out;
}

/** The block scalars of a text (through our parse), with the parse's problems. */
function blockScalars(text: string): { nodes: ScalarNode[]; problems: number } {
  const file = parseFile('case.yaml', text);
  const nodes = file.documents
    .flatMap((doc) => scalars(doc.root))
    .filter((n) => n.style === 'folded' || n.style === 'literal');
  const problems = file.documents.reduce((sum, doc) => sum + doc.problems.length, 0);
  return { nodes, problems };
}

function only(text: string): ScalarNode {
  const { nodes } = blockScalars(text);
  assert.equal(nodes.length, 1, `one block scalar in ${JSON.stringify(text)}`);
  return nodes[0]!;
}

function isExact(text: string, node: ScalarNode): boolean {
  const probe = valueSpanMapper(text, node)(0, 0);
  return probe.start === probe.end;
}

/** What each value character maps to: [value char, source text] pairs. */
function pairs(text: string, node: ScalarNode): [string, string][] {
  const map = valueSpanMapper(text, node);
  const value = node.value as string;
  return [...Array(value.length).keys()].map((i) => {
    const span = map(i, i + 1);
    return [value[i]!, text.slice(span.start, span.end)];
  });
}

const LINE_BREAK = /^(?:\n|\r\n|\r)$/;

/**
 * The property: every value character maps inside the scalar, in order and without overlap, either
 * to the very same source character or (a space or newline made by folding, clipping or keeping)
 * to one line break; only the final newline of a scalar that ends the file without a line break
 * has no source and maps to the empty span at the scalar's end. Every other non-blank source
 * character of the content is the source of exactly one value character, and ranges map to the
 * span from their first character's start to their last one's end.
 */
function checkExactMapping(text: string, node: ScalarNode): void {
  const value = node.value as string;
  const map = valueSpanMapper(text, node);
  const where = (): string => `in ${JSON.stringify(text)} (value ${JSON.stringify(value)})`;
  const spans: Span[] = [];
  let previousEnd = node.span.start;
  for (let i = 0; i < value.length; i++) {
    const span = map(i, i + 1);
    spans.push(span);
    const source = text.slice(span.start, span.end);
    assert.ok(
      span.start >= previousEnd && span.end <= node.span.end,
      `value[${i}] maps outside or out of order ${where()}`,
    );
    previousEnd = span.end;
    if (source === value[i]) continue;
    if (value[i] === ' ' || value[i] === '\n') {
      if (LINE_BREAK.test(source)) continue;
      if (
        value[i] === '\n' &&
        i === value.length - 1 &&
        source === '' &&
        span.start === node.span.end &&
        !/[\r\n]$/.test(text.slice(0, node.span.end))
      )
        continue;
    }
    assert.fail(`value[${i}] = ${JSON.stringify(value[i])} maps to ${JSON.stringify(source)} ${where()}`);
  }
  // The header line is the scalar's own; every non-blank character after it is read exactly once.
  const headerBreak = /\r\n?|\n/g;
  headerBreak.lastIndex = node.span.start;
  const contentStart = headerBreak.exec(text) ? headerBreak.lastIndex : 0;
  if (contentStart > 0) {
    for (let p = contentStart; p < node.span.end; p++) {
      if (/[ \r\n]/.test(text[p]!)) continue;
      const covering = spans.filter((s) => s.start <= p && p < s.end).length;
      assert.equal(covering, 1, `source ${p} (${JSON.stringify(text[p])}) is read ${covering} times ${where()}`);
    }
  }
  // Ranges, and empty ranges (a caret) before each character.
  for (let i = 0; i <= value.length; i++) {
    const caret = map(i, i);
    assert.equal(caret.start, caret.end);
    assert.equal(
      caret.start,
      i < value.length ? spans[i]!.start : value.length ? spans[value.length - 1]!.end : caret.start,
    );
    for (const j of [i + 1, i + 2, value.length]) {
      if (j <= i || j > value.length) continue;
      assert.deepEqual(map(i, j), { start: spans[i]!.start, end: spans[j - 1]!.end });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// generated block scalars

interface LineSpec {
  kind: 'text' | 'more' | 'tab' | 'empty' | 'blank-more';
  text: string;
  extra: number; // spaces beyond the indentation (more, blank-more), or spaces on an empty line
}

/** Text that starts a line: never blank, never a document marker or a comment at column 0. */
const word = fc
  .tuple(
    fc.constantFrom('a', 'Z', '{', '7', 'é', '😀', '"', "'", '#', ':'),
    // No `\r`: a lone CR is a line break (as in an editor), never a line's content.
    fc.array(fc.constantFrom('a', 'b', ' ', '.', '{', '}', '#', ':', '-', '"', "'", '\\', '\t', 'é', '😀'), {
      maxLength: 12,
    }),
  )
  .map(([head, tail]) => head + tail.join(''));

const lineSpec: fc.Arbitrary<LineSpec> = fc.oneof(
  { weight: 5, arbitrary: word.map((text): LineSpec => ({ kind: 'text', text, extra: 0 })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(word, fc.integer({ min: 1, max: 3 }))
      .map(([text, extra]): LineSpec => ({ kind: 'more', text, extra })),
  },
  { weight: 1, arbitrary: word.map((text): LineSpec => ({ kind: 'tab', text: '\t' + text, extra: 0 })) },
  {
    weight: 3,
    arbitrary: fc.integer({ min: 0, max: 6 }).map((extra): LineSpec => ({ kind: 'empty', text: '', extra })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 3 }).map((extra): LineSpec => ({ kind: 'blank-more', text: '', extra })),
  },
);

interface Placement {
  name: string;
  /** Text before the header, and the parent's indentation. */
  before: string;
  parent: number;
  /** Text after the scalar (a sibling, a dedented comment, or nothing). */
  after: string[];
}

const PLACEMENTS: Placement[] = [
  { name: 'map value', before: 'message: ', parent: 0, after: ['next: 1', '# a comment', ''] },
  { name: 'nested map value', before: 'step:\n  message: ', parent: 2, after: ['  next: 1', 'other: 2', ''] },
  { name: 'deeper map value', before: 'a:\n  b:\n    condition: ', parent: 4, after: ['    c: 1', ''] },
  { name: 'value with properties', before: 'message: &m !!str ', parent: 0, after: ['next: 1', ''] },
  { name: 'sequence item', before: 'items:\n  - ', parent: 2, after: ['  - two', ''] },
  { name: 'map in a sequence', before: 'steps:\n  - id: one\n    message: ', parent: 4, after: ['  - id: two', ''] },
  { name: 'value on its own line', before: 'message:\n  ', parent: 0, after: ['next: 1', ''] },
  { name: 'top-level', before: '--- ', parent: 0, after: ['...', ''] },
];

interface Case {
  placement: Placement;
  folded: boolean;
  indicator: number; // 0: detected
  chomp: '' | '-' | '+';
  headerFirst: boolean; // `>2-` or `>-2`
  comment: boolean;
  relative: number; // content indentation beyond the parent (the indicator when there is one)
  lines: LineSpec[];
  trailing: number[]; // spaces on each trailing empty line
  after: number;
  finalBreak: boolean;
  /** The line break the case is written with. */
  eol: '\n' | '\r\n' | '\r';
}

function render(c: Case): string {
  const { placement } = c;
  const indicator = c.indicator ? String(c.indicator) : '';
  const header =
    (c.folded ? '>' : '|') +
    (c.headerFirst ? indicator + c.chomp : c.chomp + indicator) +
    (c.comment ? '  # note' : '');
  const indent = placement.parent + (c.indicator || c.relative);
  const lines = c.lines.map((line) => {
    switch (line.kind) {
      case 'text':
      case 'tab':
        return ' '.repeat(indent) + line.text;
      case 'more':
        return ' '.repeat(indent + line.extra) + line.text;
      case 'blank-more':
        return ' '.repeat(indent + line.extra);
      case 'empty':
        return ' '.repeat(Math.min(line.extra, indent));
    }
  });
  const trailing = c.trailing.map((spaces) => ' '.repeat(Math.min(spaces, indent)));
  const after = placement.after[c.after % placement.after.length]!;
  let text = placement.before + header + '\n' + [...lines, ...trailing].join('\n');
  if (after) text += '\n' + after + (c.finalBreak ? '\n' : '');
  else if (c.finalBreak) text += '\n';
  return c.eol === '\n' ? text : text.replace(/\n/g, c.eol);
}

const caseArbitrary = (lines: fc.Arbitrary<LineSpec[]>): fc.Arbitrary<Case> =>
  fc.record({
    placement: fc.constantFrom(...PLACEMENTS),
    folded: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    indicator: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4 })),
    chomp: fc.constantFrom('' as const, '-' as const, '+' as const),
    headerFirst: fc.boolean(),
    comment: fc.boolean(),
    relative: fc.integer({ min: 1, max: 3 }),
    lines,
    trailing: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 3 }),
    after: fc.nat(),
    finalBreak: fc.boolean(),
    eol: fc.oneof(
      { weight: 4, arbitrary: fc.constant('\n' as const) },
      { weight: 1, arbitrary: fc.constant('\r\n' as const) },
      { weight: 1, arbitrary: fc.constant('\r' as const) },
    ),
  });

/**
 * Valid blocks: with a detected indentation, the first non-empty line sets it, so it starts with text
 * (or a tab, which is content) and no empty line before it is longer. With an indicator, any line
 * may come first, a more-indented one included.
 */
const validCase = caseArbitrary(fc.array(lineSpec, { minLength: 1, maxLength: 8 })).map((c): Case => {
  if (c.indicator) return c;
  const lines = [...c.lines];
  const first = lines.findIndex((l) => l.kind !== 'empty');
  if (first < 0) return c;
  if (lines[first]!.kind !== 'text' && lines[first]!.kind !== 'tab')
    lines[first] = { kind: 'text', text: 'first', extra: 0 };
  return { ...c, lines };
});

test('folded and literal block scalars map every value character to what the user typed', () => {
  // How often each feature came up, so the generator cannot quietly stop covering one.
  const seen = {
    folded: 0,
    literal: 0,
    indicator: 0,
    moreIndentedFirst: 0,
    moreIndented: 0,
    tabLine: 0,
    keep: 0,
    strip: 0,
    keptTrailing: 0,
    crlf: 0,
    loneCr: 0,
    foldedSpace: 0,
    foldedNewlines: 0,
    noFinalBreak: 0,
    comment: 0,
  };
  fc.assert(
    fc.property(validCase, (c) => {
      const text = render(c);
      const { nodes, problems } = blockScalars(text);
      assert.equal(nodes.length, 1, `one block scalar in ${JSON.stringify(text)}`);
      const node = nodes[0]!;
      assert.equal(problems, 0, `valid case ${JSON.stringify(text)}`);
      assert.equal(typeof node.value, 'string');
      // Every valid block scalar is replayed exactly, whatever its placement.
      assert.ok(isExact(text, node), `not exact: ${JSON.stringify(text)} (value ${JSON.stringify(node.value)})`);
      checkExactMapping(text, node);

      const firstLine = c.lines.find((l) => l.kind !== 'empty');
      const mapped = pairs(text, node);
      seen[c.folded ? 'folded' : 'literal']++;
      if (c.indicator) seen.indicator++;
      if (c.indicator && firstLine && (firstLine.kind === 'more' || firstLine.kind === 'blank-more'))
        seen.moreIndentedFirst++;
      if (c.lines.some((l) => l.kind === 'more')) seen.moreIndented++;
      if (c.lines.some((l) => l.kind === 'tab')) seen.tabLine++;
      if (c.chomp === '+') seen.keep++;
      if (c.chomp === '-') seen.strip++;
      if (c.chomp === '+' && c.trailing.length > 0) seen.keptTrailing++;
      if (c.eol === '\r\n') seen.crlf++;
      if (c.eol === '\r') seen.loneCr++;
      if (c.comment) seen.comment++;
      if (mapped.some(([v, s]) => v === ' ' && LINE_BREAK.test(s))) seen.foldedSpace++;
      if (c.folded && /\n\n/.test(node.value as string)) seen.foldedNewlines++;
      if (mapped.some(([v, s]) => v === '\n' && s === '')) seen.noFinalBreak++;
    }),
    { numRuns: 3000, seed: SEED },
  );
  for (const [feature, count] of Object.entries(seen)) assert.ok(count >= 50, `${feature} came up ${count} times only`);
});

test('the value the mapper reads agrees with the yaml library read directly', () => {
  // Our parse hands the library's value on; this pins the oracle of the property above.
  fc.assert(
    fc.property(validCase, (c) => {
      const text = render(c);
      const node = only(text);
      // The text as our parse gives it to the library: a lone CR read as the line break it is.
      const doc = parseDocument(loneCrAsLf(text));
      const found: unknown[] = [];
      const visit = (n: unknown): void => {
        if (!n || typeof n !== 'object') return;
        const any = n as { type?: string; value?: unknown; items?: unknown[]; key?: unknown };
        if (any.type === 'BLOCK_FOLDED' || any.type === 'BLOCK_LITERAL') found.push(any.value);
        if (Array.isArray(any.items)) any.items.forEach(visit);
        if ('key' in any) visit(any.key);
        if ('value' in any && typeof any.value === 'object') visit(any.value);
      };
      visit(doc.contents);
      assert.deepEqual(found, [node.value]);
    }),
    { numRuns: 500, seed: SEED },
  );
});

test('any block scalar, valid or not: the mapper is exact or falls back to the whole scalar', () => {
  // Indentation errors, more-indented leading lines without an indicator, less-indented lines.
  const anyLines = fc.array(
    fc.oneof(
      lineSpec,
      fc.tuple(word, fc.integer({ min: 0, max: 6 })).map(([text, extra]): LineSpec => ({ kind: 'more', text, extra })),
    ),
    { maxLength: 8 },
  );
  fc.assert(
    fc.property(caseArbitrary(anyLines), fc.integer({ min: -2, max: 2 }), (c, shift) => {
      let text = render(c);
      // Shift one content line left or right to make indentation errors.
      const lines = text.split(c.eol);
      const at = lines.findIndex((l, i) => i > 0 && /^\s*\S/.test(l) && i < lines.length - 1);
      if (at > 0 && shift)
        lines[at] = shift > 0 ? ' '.repeat(shift) + lines[at] : lines[at]!.replace(new RegExp(`^ {0,${-shift}}`), '');
      text = lines.join(c.eol);
      for (const node of blockScalars(text).nodes) {
        if (typeof node.value !== 'string') continue;
        const map = valueSpanMapper(text, node);
        if (isExact(text, node)) checkExactMapping(text, node);
        else
          for (const [a, b] of [
            [0, 1],
            [0, node.value.length],
            [2, 3],
          ] as const)
            assert.deepEqual(map(a, b), node.span);
      }
    }),
    { numRuns: 2000, seed: SEED },
  );
});

// ---------------------------------------------------------------------------------------------
// examples

test('folded: normal lines fold into spaces, empty lines into newlines', () => {
  const text = 'message: >\n  Read {{.params.pathh}}\n  now.\n\n  Then stop.\n';
  const node = only(text);
  assert.equal(node.value, 'Read {{.params.pathh}} now.\nThen stop.\n');
  const map = valueSpanMapper(text, node);
  const at = (node.value as string).indexOf('{{');
  const span = map(at, at + '{{.params.pathh}}'.length);
  assert.equal(text.slice(span.start, span.end), '{{.params.pathh}}');
  const fold = map(at + '{{.params.pathh}}'.length, at + '{{.params.pathh}}'.length + 1);
  assert.equal(text.slice(fold.start, fold.end), '\n'); // the space is the line break
  // The empty line: the break before it is dropped, its own break is the newline.
  assert.deepEqual(pairs(text, node).slice(-13), [
    ['.', '.'],
    ['\n', '\n'],
    ['T', 'T'],
    ['h', 'h'],
    ['e', 'e'],
    ['n', 'n'],
    [' ', ' '],
    ['s', 's'],
    ['t', 't'],
    ['o', 'o'],
    ['p', 'p'],
    ['.', '.'],
    ['\n', '\n'],
  ]);
  const blank = valueSpanMapper(text, node)(
    (node.value as string).indexOf('\nThen'),
    (node.value as string).indexOf('\nThen') + 1,
  );
  assert.equal(blank.start, text.indexOf('\n\n') + 1);
});

test('folded: a range across a fold covers the line break and the next indentation', () => {
  const text = 'a: >-\n  one\n  two\n';
  const node = only(text);
  assert.equal(node.value, 'one two');
  const span = valueSpanMapper(text, node)(1, 6);
  assert.equal(text.slice(span.start, span.end), 'ne\n  tw');
});

test('folded: more-indented lines, indentation indicators, keep and strip', () => {
  const cases: [string, string][] = [
    ['a: >\n  foo\n    bar\n  baz\n', 'foo\n  bar\nbaz\n'],
    ['a: >2\n    more first\n  then\n', '  more first\nthen\n'],
    ['a: >+\n  foo\n\n\nb: 1\n', 'foo\n\n\n'],
    ['a: >-2\n   x\n  y\n\n', ' x\ny'],
    ['a: >\n  foo\n\n    bar\n\n  baz\n', 'foo\n\n  bar\n\nbaz\n'],
    ['a: >\n  foo\n  \tbar\n', 'foo\n\tbar\n'],
    ['a: >\n\n  foo\n', '\nfoo\n'],
    ['- - >1\n     foo\n', '  foo\n'], // the inner sequence's indentation (2) + 1
    ['a: >\r\n  foo\r\n  bar\r\n\r\n  baz\r\n', 'foo bar\nbaz\n'],
    ['a: >\r  foo\r  bar\r\r  baz\r', 'foo bar\nbaz\n'], // lone CRs are line breaks too
    ['a: >\n  foo', 'foo\n'],
    ['a: >+\n', ''],
    ['a: >\n\n\n', ''],
    ['a: >+\n\n\n', '\n\n'],
  ];
  for (const [text, value] of cases) {
    const node = only(text);
    assert.equal(node.value, value, JSON.stringify(text));
    assert.ok(isExact(text, node), `exact: ${JSON.stringify(text)}`);
    checkExactMapping(text, node);
  }
});

test('literal block scalars stay exact, an indicator and a more-indented first line included', () => {
  for (const text of [
    'a: |\n  foo\n\n  bar\n',
    'a: |2\n    more\n  less\n',
    'a: |+\n  x\n\n',
    'a: |-\r\n  x\r\n  y\r\n',
    'a: |\n   \n  x\n',
  ]) {
    const node = only(text);
    if (text === 'a: |\n   \n  x\n') {
      // A leading blank line longer than the text's indentation is an error: whatever we give is right.
      if (isExact(text, node)) checkExactMapping(text, node);
      continue;
    }
    assert.ok(isExact(text, node), `exact: ${JSON.stringify(text)}`);
    checkExactMapping(text, node);
  }
});

test('block scalars that cannot be replayed fall back to the whole scalar', () => {
  // An alias: the node carries the alias's span, which is not the block's text.
  const aliasText = 'a: &x >\n  foo {{.params.b}}\nb: *x\n';
  const file = parseFile('case.yaml', aliasText);
  const alias = scalars(file.documents[0]!.root).find((n) => n.span.start === aliasText.indexOf('*x'))!;
  assert.equal(alias.style, 'folded');
  assert.deepEqual(valueSpanMapper(aliasText, alias)(4, 6), alias.span);
  // A header with extra characters.
  const badHeader = 'a: >x\n  foo\n';
  for (const node of blockScalars(badHeader).nodes) {
    if (typeof node.value === 'string' && !isExact(badHeader, node))
      assert.deepEqual(valueSpanMapper(badHeader, node)(0, 1), node.span);
  }
  // A text that no longer matches the node (a stale span) is never mapped blindly.
  const node = only('a: >\n  foo\n  bar\n');
  const stale = 'a: >\n  fox\n  bar\n';
  assert.deepEqual(valueSpanMapper(stale, node)(0, 1), node.span);
});

test('flow scalars are unchanged: quotes and escapes are exact, folded quotes fall back', () => {
  const text = 'a: "x\\ty{{.p}}"\nb: \'it\'\'s\'\nc: plain {{.q}}\nd: "two\n  lines"\n';
  const file = parseFile('case.yaml', text);
  const [, a, , b, , c, , d] = scalars(file.documents[0]!.root);
  assert.deepEqual(pairs(text, a!).slice(0, 3), [
    ['x', 'x'],
    ['\t', '\\t'],
    ['y', 'y'],
  ]);
  assert.deepEqual(pairs(text, b!).slice(2, 4), [
    ["'", "''"],
    ['s', 's'],
  ]);
  assert.ok(isExact(text, c!));
  assert.ok(!isExact(text, d!));
});
