// The node tree read straight from plain block YAML (parse/blockYaml.ts) must be exactly the one
// the library's Composer gives through yaml.ts: the same nodes, values, spans, shared marks,
// problems (codes, messages, ranges), references and document spans. Compared on every YAML file
// of the repository (also with CRLF, lone-CR and BOM line breaks), on thousands of generated
// documents written in the reader's subset with comment and blank lines at every indentation, on
// generated documents of all of YAML (anchors, aliases past the alias budget, tags, directives,
// multi-line scalars and flow collections, errors), and on mutated ones. The seed is fixed and
// printed; TOOL_LENS_SEED runs another (test/helpers/seed.ts). Where the reader declines a text,
// parseYaml composes it: the comparison then holds trivially, so the tests also count how often it
// reads, and say which texts it must decline.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { blockYamlDeclines } from '../../server/src/core/parse/blockYaml.js';
import { parseYaml } from '../../server/src/core/parse/yaml.js';
import { applyEdits, edit, ROOT, samplesOf, yamlFiles } from '../helpers/yamlCorpus.js';
import { seedFor, seedNote } from '../helpers/seed.js';

const SAMPLES = samplesOf(yamlFiles(ROOT));

/** Both reads of one text, compared; whether the block reader read it. */
function same(text: string, label: string, aliasNodes?: number): boolean {
  const before = blockYamlDeclines.declined;
  const read = parseYaml(text, 0, { aliasNodes });
  const handled = blockYamlDeclines.declined === before;
  const composed = parseYaml(text, 0, { aliasNodes, builder: 'composer' });
  assert.deepStrictEqual(read, composed, `the block reader differs from the Composer build for ${label}:\n${text}`);
  return handled;
}

test('the block reader equals the Composer build on every YAML file of the repository', () => {
  assert.ok(SAMPLES.length > 300, `only ${SAMPLES.length} YAML files found`);
  let handled = 0;
  for (const sample of SAMPLES) if (same(sample.text, sample.path)) handled++;
  console.log(`block reader: ${handled} of ${SAMPLES.length} files`);
  // Reading most files is the point: the fixtures hold many constructs on purpose, real files fewer.
  assert.ok(
    handled >= SAMPLES.length * 0.85,
    `only ${handled} of ${SAMPLES.length} files were read by the block reader`,
  );
});

test('the block reader equals the Composer build with CRLF line breaks, and declines lone CRs and a BOM', () => {
  let handled = 0;
  for (const sample of SAMPLES) {
    const lf = sample.text.replace(/\r\n/g, '\n');
    if (same(lf.replace(/\n/g, '\r\n'), `${sample.path} (CRLF)`)) handled++;
    assert.equal(same(lf.replace(/\n/g, '\r'), `${sample.path} (CR)`) && lf.includes('\n'), false);
    assert.equal(same(`\uFEFF${lf}`, `${sample.path} (BOM)`), false);
  }
  assert.ok(
    handled >= SAMPLES.length * 0.8,
    `only ${handled} of ${SAMPLES.length} CRLF files were read by the block reader`,
  );
});

test('comment and blank lines after a value give the library its spans', () => {
  // Where the library's parser attaches them decides where a mapping, its pair and its document end.
  const cases = [
    'a:\n  b: 1\n# at the parent\nd: 2\n',
    'a:\n  b: 1\n  # at the mapping\n',
    'a:\n  b: 1\n    # deeper: goes to the value\nd: 2\n',
    'a:\n  b: 1\n\n    # deeper after a blank line\n\n  c: 2\n',
    'x:\n  a:\n    b:\n      c: 1\n      # kept in the innermost\n  d: 2\n',
    'a:\n  - 1\n  # c\nb: 1',
    'a: |\n  x\n\n  y\n\n\n# c\nb: 1\n',
    'a: >-\n  x\n  y\n    z\n\nb: c\n',
    'k:\n',
    'a: # empty\nb: 1\n',
    'a:\n  # deeper\n\n# at the keys\n\nb: 1\n',
    '- # empty\n  # more\n- x\n',
    'a:\n  b: # empty\n  # c\nd: 1\n',
    'k:\n---\nj: 1\n',
    'a: 1\n# c\n---\nb: [1, {c: "d"}]  # e\n# f\n',
    '- a\n-\n- b: 1\n  c:\n- [x, y]\n',
    'a:\n- x\n- y\nb: {p: q}\n',
  ];
  for (const text of cases) assert.ok(same(text, JSON.stringify(text)), `declined ${JSON.stringify(text)}`);
});

test('what the block reader leaves to the library', () => {
  const declined = [
    'a:\tb\n', // a tab
    'a: &x 1\nb: *x\n', // anchors and aliases
    'a: !!str 1\n', // a tag
    '? a\n: b\n', // an explicit key
    'a: b\n  c\n', // a plain scalar over two lines
    'a: "b\n  c"\n', // a quoted one
    'a: [b,\n  c]\n', // a flow collection over two lines
    '%YAML 1.2\n---\na: 1\n', // a directive
    'a: 1\n...\n', // a document end marker
    '# only a comment\n',
    'a: |+\n  kept\n\n', // keep chomping
    'a: b: c\n', // an error the library reports
    'a: "\\q"\n', // a bad escape
  ];
  for (const text of declined) assert.equal(same(text, JSON.stringify(text)), false, `read ${JSON.stringify(text)}`);
});

// ---- generated documents in the reader's subset --------------------------------------------------

const PLAIN = [
  'a',
  'name',
  'x y',
  '42',
  '-7',
  '0x1F',
  '0o17',
  '1.5',
  '.5',
  '1e3',
  '.inf',
  '-.Inf',
  '.nan',
  'true',
  'False',
  'null',
  '~',
  'Null',
  'http://x:1/y',
  'a#b',
  'x{{.params.x}}',
  'a,b',
  'x]',
  'a:b',
  '-x',
];
const QUOTED = [
  '"dq"',
  '"a\\nb"',
  '"\\u00e9\\x41"',
  '"tab\\there"',
  '""',
  "'sq'",
  "'it''s'",
  "''",
  '"{{ .params.x }}"',
  '"a # not a comment"',
  '"\\"q\\""',
];
const FLOW = [
  '[]',
  '{}',
  '[a, b]',
  '[1, "two", \'three\']',
  '{a: 1, b: x}',
  '{a: [1, 2], b: {c: d}}',
  '[ a , b ]',
  '[a:b, c]',
  '{url: http://x:1/y}',
  '[a, [b, [c]]]',
  '{a: 1, a: 2}',
];
const KEYS = ['k', 'key', 'a', 'b', 'k', '"q k"', "'s'", '1', 'null', 'x y', 'a:b'];
const COMMENTS = [' # c', '  #c', ''];

interface Gen {
  /** Written on the lines after its key or `-`. */
  block: boolean;
  write: (indent: number) => string;
}

const blockScalar = fc
  .tuple(
    fc.constantFrom('|', '>', '|-', '>-', '| # c'),
    fc.array(fc.constantFrom('text', 'more words', '', '  deeper', 'x: y', '# not a comment', '    much deeper'), {
      minLength: 1,
      maxLength: 5,
    }),
    fc.constantFrom('', '\n', '\n\n'),
  )
  // The first line sets the content's indentation: a later line less indented would end it.
  .filter(([, lines]) => lines[0] !== '' && !lines[0]!.startsWith(' '))
  .map(([header, lines, after]): Gen => ({
    block: false,
    write: (indent) =>
      `${header}\n${lines.map((l) => (l === '' ? '' : `${' '.repeat(indent + 2)}${l}`)).join('\n')}${after}`,
  }));

const leaf: fc.Arbitrary<Gen> = fc
  .oneof(
    { weight: 6, arbitrary: fc.constantFrom(...PLAIN) },
    { weight: 3, arbitrary: fc.constantFrom(...QUOTED) },
    { weight: 2, arbitrary: fc.constantFrom(...FLOW) },
    { weight: 1, arbitrary: fc.constant('') },
  )
  .map((s): Gen => ({ block: false, write: () => s }));

function node(depth: number): fc.Arbitrary<Gen> {
  const value = fc.oneof({ weight: 5, arbitrary: leaf }, { weight: 1, arbitrary: blockScalar });
  if (depth <= 0) return value;
  const child = node(depth - 1);
  const entry = (indent: number, head: string, v: Gen, comment: string, indentless: boolean): string => {
    if (v.block)
      return `${head}${comment}\n${' '.repeat(indentless ? indent : indent + 2)}${v.write(indentless ? indent : indent + 2)}`;
    const text = v.write(indent);
    return text === '' ? `${head}${comment}` : `${head} ${text}${text.includes('\n') ? '' : comment}`;
  };
  const map = fc
    .array(fc.tuple(fc.constantFrom(...KEYS), child, fc.constantFrom(...COMMENTS), fc.boolean()), {
      minLength: 1,
      maxLength: 4,
    })
    .map((entries): Gen => ({
      block: true,
      write: (indent) =>
        entries
          .map(([key, v, comment, indentless], i) => {
            // A sequence may sit at its key's column.
            const lines = entry(indent, `${key}:`, v, comment, indentless && v.block && v.write(0).startsWith('-'));
            return `${i === 0 ? '' : ' '.repeat(indent)}${lines}`;
          })
          .join('\n'),
    }));
  const seq = fc
    .array(fc.tuple(child, fc.constantFrom(...COMMENTS)), { minLength: 1, maxLength: 4 })
    .map((items): Gen => ({
      block: true,
      write: (indent) =>
        items
          .map(([v, comment], i) => {
            // A mapping may start on the `-` line itself (its keys then sit two columns in).
            const compact = v.block && !v.write(0).startsWith('-');
            const lines = compact ? `- ${v.write(indent + 2)}` : entry(indent, '-', v, comment, false);
            return `${i === 0 ? '' : ' '.repeat(indent)}${lines}`;
          })
          .join('\n'),
    }));
  return fc.oneof({ weight: 1, arbitrary: value }, { weight: 3, arbitrary: map }, { weight: 2, arbitrary: seq });
}

/** Filler lines spliced in after random lines of a document, at random columns. */
function withFiller(text: string, at: readonly number[], lines: readonly string[]): string {
  const out = text.split('\n');
  at.forEach((n, i) =>
    out.splice(Math.min(out.length, 1 + (n % Math.max(1, out.length))), 0, lines[i % lines.length]!),
  );
  return out.join('\n');
}

const documentText = fc
  .tuple(
    fc.array(
      node(4).filter((g) => g.block),
      { minLength: 1, maxLength: 3 },
    ),
    fc.constantFrom('---\n', '\n---\n', '\n--- # c\n'),
    fc.constantFrom('', '# head\n', '\n\n', '---\n'),
    fc.array(fc.nat(), { maxLength: 6 }),
    fc.array(fc.constantFrom('', '  ', '# c0', '  # c2', '    # c4', '      # c6', '   '), {
      minLength: 1,
      maxLength: 6,
    }),
    fc.constantFrom('\n', '', '\n\n', '\n# tail\n'),
  )
  .map(
    ([docs, sep, head, at, lines, tail]) =>
      withFiller(head + docs.map((d) => d.write(0)).join(`\n${sep}`), at, lines) + tail,
  );

const SEED = seedFor(0x5eed);

test(`the block reader equals the Composer build on generated and mutated documents (seed ${SEED})`, () => {
  console.log(`block reader differential: ${seedNote(SEED)}`);
  let handled = 0;
  let runs = 0;
  const edits = fc.oneof(
    { weight: 2, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.array(edit, { minLength: 1, maxLength: 3 }) },
  );
  fc.assert(
    fc.property(documentText, edits, fc.boolean(), (text, changes, crlf) => {
      let written = changes.length ? applyEdits(text, changes) : text;
      if (crlf) written = written.replace(/\r?\n/g, '\r\n');
      const ok = same(written, `a generated document (seed ${SEED})`);
      if (changes.length === 0) {
        runs++;
        if (ok) handled++;
      }
    }),
    { numRuns: 4000, seed: SEED },
  );
  console.log(`generated: ${handled} of ${runs} unmutated documents read by the block reader`);
  // The generator must reach the reader often, or the comparison says little.
  assert.ok(handled > runs / 4, `only ${handled} of ${runs} generated documents were read by the block reader`);
});

test(`the block reader equals the Composer build on mutated repository files (seed ${SEED})`, () => {
  fc.assert(
    fc.property(
      fc.nat({ max: SAMPLES.length - 1 }),
      fc.array(edit, { minLength: 1, maxLength: 4 }),
      (index, changes) => {
        const sample = SAMPLES[index]!;
        same(applyEdits(sample.text, changes), `${sample.path} mutated (seed ${SEED})`);
      },
    ),
    { numRuns: 3000, seed: SEED + 1 },
  );
});

// ---- generated documents of all of YAML ---------------------------------------------------------
// Anchors and aliases (within the alias budget and past it), tags, directives, explicit keys,
// multi-line scalars and flow collections, and what the Composer reports: the reader must decline
// each of them, or read it as the Composer does.

const SCALARS = [
  'a',
  'name',
  'x y',
  '42',
  '-7',
  '0x1F',
  '0o17',
  '1.5',
  '.5',
  '1e3',
  '.inf',
  '-.Inf',
  '.nan',
  'true',
  'False',
  'TRUE',
  'null',
  '~',
  'Null',
  '',
  '"dq"',
  '"a\\nb"',
  '"\\u00e9\\x41"',
  '"tab\\there"',
  "'sq'",
  "'it''s'",
  '"{{ .params.x }}"',
  '{{ .a }}',
  'a # c',
  'a#b',
  'http://x:1/y',
  '"multi\n  line"',
  "'multi\n  line'",
  'plain\n  folded',
  '*a',
  '*b',
  '*nope',
];
/** Scalars the Composer complains about, or with a tag. */
const BAD_SCALARS = [
  '"bad \\q"',
  '@bad',
  '`bad',
  '!!str 1',
  '!t x',
  '- -',
  ': x',
  '? k',
  'a: b',
  '[1, 2',
  '{a: 1',
  ']',
  '}',
  ',',
  '"unterminated',
  "'un",
];

const anchorName = fc.constantFrom('a', 'b', 'c');

/** A generated node: written at an indentation; `block` when it is a block collection (it then goes on a line of its own after a key or props). */
interface AnyGen {
  block: boolean;
  alias: boolean;
  write: (indent: number) => string;
}

/** A YAML node, to nest `depth` more levels at most. */
function anyNode(depth: number): fc.Arbitrary<AnyGen> {
  const scalar = fc
    .oneof(
      { weight: 60, arbitrary: fc.constantFrom(...SCALARS) },
      { weight: 1, arbitrary: fc.constantFrom(...BAD_SCALARS) },
    )
    .map((s): AnyGen => ({
      block: false,
      alias: s.startsWith('*'),
      write: (indent) => s.replace(/\n/g, `\n${' '.repeat(indent + 2)}`),
    }));
  const blockScalar = fc
    .tuple(
      fc.constantFrom('|', '>', '|-', '>+', '|2', '>-', '|+', '> # c'),
      fc.array(fc.constantFrom('text', 'more words', '', '  deeper', 'x: y', '# not a comment'), {
        minLength: 0,
        maxLength: 4,
      }),
    )
    .map(([header, lines]): AnyGen => ({
      block: false,
      alias: false,
      write: (indent) => `${header}\n${lines.map((l) => (l === '' ? '' : `${' '.repeat(indent + 2)}${l}`)).join('\n')}`,
    }));
  const flowItem = fc.oneof(
    {
      weight: 10,
      arbitrary: fc.constantFrom(
        '1',
        'a',
        '"q"',
        "'s'",
        'k: v',
        '[x]',
        '{y: z}',
        '*a',
        '&c w',
        '[]',
        '{}',
        'k:',
        'true',
        '~',
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom('', ': v', '[x]: y', '? k') },
  );
  const flow = fc
    .tuple(
      fc.boolean(),
      fc.array(flowItem, { maxLength: 4 }),
      fc.constantFrom(', ', ',', ' , ', ',\n  ', ', # c\n  '),
      fc.boolean(),
    )
    .map(([isMap, items, sep, trailing]): AnyGen => ({
      block: false,
      alias: false,
      write: (indent) => {
        const body = (
          isMap
            ? items.map((i) =>
                /^[\w"'~]+$/.test(i)
                  ? `${i}: ${i}`
                  : i.startsWith('[') || i.startsWith('{') || i.startsWith('&') || i.startsWith('*')
                    ? `k${i.length}: ${i}`
                    : i,
              )
            : items
        ).join(sep.replace(/\n {2}/, `\n${' '.repeat(indent + 2)}`));
        return isMap
          ? `{${body}${trailing && items.length ? ',' : ''}}`
          : `[${body}${trailing && items.length ? ',' : ''}]`;
      },
    }));
  const leaf = fc.oneof(
    { weight: 6, arbitrary: scalar },
    { weight: 1, arbitrary: blockScalar },
    { weight: 2, arbitrary: flow },
  );
  if (depth <= 0) return leaf;
  const child = anyNode(depth - 1);
  const props = fc.option(
    fc.oneof({ weight: 60, arbitrary: anchorName.map((n) => `&${n}`) }, { weight: 1, arbitrary: fc.constant('!!map') }),
    { freq: 4 },
  );
  const comment = fc.option(fc.constantFrom(' # c', '  #c', ' # c\n# own line', '\n\n# after a blank'), { freq: 5 });
  /** A value after `key:` or `- `: props, then the node on the same line, or a block collection on the next. */
  const after = (p: string | null, value: AnyGen, indent: number, inSeq: boolean): string => {
    const props = value.alias ? '' : (p ?? '');
    if (value.block && (props || !inSeq)) return `${props}\n${' '.repeat(indent + 2)}${value.write(indent + 2)}`;
    return `${props}${props ? ' ' : ''}${value.write(indent + 2)}`;
  };
  const map = fc
    .array(
      fc.tuple(fc.constantFrom('k', 'key', 'a', 'b', 'k', '"q k"', "'s'", '1', 'null', 'x y'), props, child, comment),
      { minLength: 1, maxLength: 4 },
    )
    .map((entries): AnyGen => ({
      block: true,
      alias: false,
      write: (indent) =>
        entries
          .map(([key, p, value, c], i) => {
            const v = after(p, value, indent, false);
            return `${i === 0 ? '' : ' '.repeat(indent)}${key}:${v === '' || v.startsWith('\n') ? '' : ' '}${v}${value.block ? '' : (c ?? '')}`;
          })
          .join('\n'),
    }));
  const seq = fc.array(fc.tuple(props, child, comment), { minLength: 1, maxLength: 4 }).map((items): AnyGen => ({
    block: true,
    alias: false,
    write: (indent) =>
      items
        .map(
          ([p, value, c], i) =>
            `${i === 0 ? '' : ' '.repeat(indent)}-${((v) => (v.startsWith('\n') || v === '' ? v : ` ${v}`))(after(p, value, indent, true))}${value.block ? '' : (c ?? '')}`,
        )
        .join('\n'),
  }));
  return fc.oneof({ weight: 2, arbitrary: leaf }, { weight: 3, arbitrary: map }, { weight: 2, arbitrary: seq });
}

const anyDocumentText = fc
  .tuple(
    fc.array(anyNode(4), { minLength: 1, maxLength: 3 }),
    fc.constantFrom('---\n', '\n---\n', '...\n---\n', '\n--- # c\n'),
    fc.boolean(),
    fc.oneof(
      { weight: 20, arbitrary: fc.constantFrom('', '# head\n', '\n\n', '---\n') },
      { weight: 1, arbitrary: fc.constant('%YAML 1.2\n---\n') },
    ),
  )
  .map(
    ([docs, sep, endMarker, head]) =>
      head + docs.map((d) => d.write(0)).join(`\n${sep}`) + (endMarker ? '\n...\n' : '\n'),
  );

test(`the block reader equals the Composer build on generated documents of all of YAML, also mutated (seed ${SEED})`, () => {
  let handled = 0;
  let runs = 0;
  const edits = fc.oneof(
    { weight: 1, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.array(edit, { minLength: 1, maxLength: 3 }) },
  );
  fc.assert(
    fc.property(anyDocumentText, edits, fc.constantFrom(undefined, 3, 50), (text, mutations, aliasNodes) => {
      const ok = same(
        mutations.length ? applyEdits(text, mutations) : text,
        `a generated document (seed ${SEED})`,
        aliasNodes,
      );
      if (mutations.length === 0) {
        runs++;
        if (ok) handled++;
      }
    }),
    { numRuns: 3000, seed: SEED + 2 },
  );
  console.log(`generated (all of YAML): ${handled} of ${runs} unmutated documents read by the block reader`);
});

test('aliases past the budget, and aliases of aliases: declined by the reader, composed with their declines and references', () => {
  const laughs = [
    'a: &a [x, x, x, x]',
    'b: &b [*a, *a, *a, *a]',
    'c: &c [*b, *b, *b, *b]',
    'd: &d [*c, *c, *c, *c]',
    'e: [*d, *d, *d]',
    'f: *a',
    'g: &g {k: *a}',
  ].join('\n');
  for (const limit of [0, 1, 4, 5, 20, 21, 64, 65, 300, 100_000])
    assert.equal(same(laughs, `billion laughs (aliasNodes ${limit})`, limit), false, `read at ${limit}`);
  assert.equal(same('g: &g {k: 1, j: *g}\n', 'a self-referring anchor'), false);
  const doc =
    'base: &base\n  x: 1\n  y: [1, 2]\nuse:\n  - *base\n  - <<: *base\n  - &self [a, b]\n  - *self\n---\nother: *base\n';
  assert.equal(same(doc, 'anchors across documents'), false);
  const tree = parseYaml(doc)[0]!;
  assert.deepEqual(
    tree.references?.anchors.map((a) => [a.name, a.aliases.length]),
    [
      ['base', 2],
      ['self', 1],
    ],
  );
});
