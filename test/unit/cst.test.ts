// The node tree built straight from the YAML library's CST (parse/cst.ts) must be exactly the one
// built through its Composer (parse/yaml.ts): the same nodes, values, spans, shared marks,
// problems (codes, messages, ranges), references and document spans. Compared on every YAML file
// of the repository, and on thousands of generated and mutated documents (the seed is printed; set
// CST_SEED to replay one run). Where the CST build gives up on a file, parseYaml composes it: the
// comparison then holds trivially, so the tests also count how often that happens.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { cstFallbacks } from '../../server/src/core/parse/cst.js';
import { parseYaml } from '../../server/src/core/parse/yaml.js';
import { applyEdits, edit, ROOT, samplesOf, yamlFiles } from '../helpers/yamlCorpus.js';

const SAMPLES = samplesOf(yamlFiles(ROOT));

/** Both builds of one text, compared; whether the CST build handled it. */
function same(text: string, label: string, aliasNodes?: number): boolean {
  const before = cstFallbacks.fellBack;
  const cst = parseYaml(text, 0, { aliasNodes, builder: 'cst' });
  const handled = cstFallbacks.fellBack === before;
  const composed = parseYaml(text, 0, { aliasNodes, builder: 'composer' });
  assert.deepStrictEqual(cst, composed, `the CST build differs from the Composer's for ${label}:\n${text}`);
  return handled;
}

test('the CST build equals the Composer build on every YAML file of the repository', () => {
  assert.ok(SAMPLES.length > 300, `only ${SAMPLES.length} YAML files found`);
  let handled = 0;
  let clean = 0;
  let cleanHandled = 0;
  const notHandled: string[] = [];
  for (const sample of SAMPLES) {
    const ok = same(sample.text, sample.path);
    if (ok) handled++;
    const hasSyntaxError = parseYaml(sample.text, 0, { builder: 'composer' }).some((doc) => doc.problems.some((p) => p.rule === 'yaml/syntax'));
    if (!hasSyntaxError) {
      clean++;
      if (ok) cleanHandled++;
      else notHandled.push(sample.path);
    }
  }
  console.log(`CST build: ${handled} of ${SAMPLES.length} files (${clean - cleanHandled} of ${clean} without syntax errors composed instead${notHandled.length ? `: ${notHandled.join(', ')}` : ''})`);
  // The fast path is the point: files without a syntax error are composed only for rare constructs.
  assert.ok(cleanHandled >= clean * 0.9, `only ${cleanHandled} of ${clean} files without syntax errors were built from the CST`);
});

test('the CST build equals the Composer build in CRLF, lone-CR and BOM texts', () => {
  for (const sample of SAMPLES.slice(0, 400)) {
    const lf = sample.text.replace(/\r\n/g, '\n');
    same(lf.replace(/\n/g, '\r\n'), `${sample.path} (CRLF)`);
    same(lf.replace(/\n/g, '\r'), `${sample.path} (CR)`);
    same(`\uFEFF${lf}`, `${sample.path} (BOM)`);
  }
});

// ---- generated documents ------------------------------------------------------------------------

const SCALARS = [
  'a', 'name', 'x y', '42', '-7', '0x1F', '0o17', '1.5', '.5', '1e3', '.inf', '-.Inf', '.nan', 'true', 'False', 'TRUE', 'null', '~', 'Null', '',
  '"dq"', '"a\\nb"', '"\\u00e9\\x41"', '"tab\\there"', "'sq'", "'it''s'", '"{{ .params.x }}"', '{{ .a }}', 'a # c', 'a#b', 'http://x:1/y',
  '"multi\n  line"', "'multi\n  line'", 'plain\n  folded', '*a', '*b', '*nope',
];
/** Scalars the Composer complains about, or that the CST build leaves to it (tags). */
const BAD_SCALARS = ['"bad \\q"', '@bad', '`bad', '!!str 1', '!t x', '- -', ': x', '? k', 'a: b', '[1, 2', '{a: 1', ']', '}', ',', '"unterminated', "'un"];

const anchorName = fc.constantFrom('a', 'b', 'c');

/** A generated node: written at an indentation; `block` when it is a block collection (it then goes on a line of its own after a key or props). */
interface Gen {
  block: boolean;
  alias: boolean;
  write: (indent: number) => string;
}

/** A YAML node, to nest `depth` more levels at most. */
function node(depth: number): fc.Arbitrary<Gen> {
  const scalar = fc
    .oneof({ weight: 60, arbitrary: fc.constantFrom(...SCALARS) }, { weight: 1, arbitrary: fc.constantFrom(...BAD_SCALARS) })
    .map((s): Gen => ({ block: false, alias: s.startsWith('*'), write: (indent) => s.replace(/\n/g, `\n${' '.repeat(indent + 2)}`) }));
  const blockScalar = fc
    .tuple(fc.constantFrom('|', '>', '|-', '>+', '|2', '>-', '|+', '> # c'), fc.array(fc.constantFrom('text', 'more words', '', '  deeper', 'x: y', '# not a comment'), { minLength: 0, maxLength: 4 }))
    .map(([header, lines]): Gen => ({ block: false, alias: false, write: (indent) => `${header}\n${lines.map((l) => (l === '' ? '' : `${' '.repeat(indent + 2)}${l}`)).join('\n')}` }));
  const flowItem = fc.oneof({ weight: 10, arbitrary: fc.constantFrom('1', 'a', '"q"', "'s'", 'k: v', '[x]', '{y: z}', '*a', '&c w', '[]', '{}', 'k:', 'true', '~') }, { weight: 1, arbitrary: fc.constantFrom('', ': v', '[x]: y', '? k') });
  const flow = fc
    .tuple(fc.boolean(), fc.array(flowItem, { maxLength: 4 }), fc.constantFrom(', ', ',', ' , ', ',\n  ', ', # c\n  '), fc.boolean())
    .map(([isMap, items, sep, trailing]): Gen => ({
      block: false,
      alias: false,
      write: (indent) => {
        const body = (isMap ? items.map((i) => (/^[\w"'~]+$/.test(i) ? `${i}: ${i}` : i.startsWith('[') || i.startsWith('{') || i.startsWith('&') || i.startsWith('*') ? `k${i.length}: ${i}` : i)) : items).join(sep.replace(/\n {2}/, `\n${' '.repeat(indent + 2)}`));
        return isMap ? `{${body}${trailing && items.length ? ',' : ''}}` : `[${body}${trailing && items.length ? ',' : ''}]`;
      },
    }));
  const leaf = fc.oneof({ weight: 6, arbitrary: scalar }, { weight: 1, arbitrary: blockScalar }, { weight: 2, arbitrary: flow });
  if (depth <= 0) return leaf;
  const child = node(depth - 1);
  const props = fc.option(fc.oneof({ weight: 60, arbitrary: anchorName.map((n) => `&${n}`) }, { weight: 1, arbitrary: fc.constant('!!map') }), { freq: 4 });
  const comment = fc.option(fc.constantFrom(' # c', '  #c', ' # c\n# own line', '\n\n# after a blank'), { freq: 5 });
  /** A value after `key:` or `- `: props, then the node on the same line, or a block collection on the next. */
  const after = (p: string | null, value: Gen, indent: number, inSeq: boolean): string => {
    const props = value.alias ? '' : (p ?? '');
    if (value.block && (props || !inSeq)) return `${props}\n${' '.repeat(indent + 2)}${value.write(indent + 2)}`;
    return `${props}${props ? ' ' : ''}${value.write(indent + 2)}`;
  };
  const map = fc
    .array(fc.tuple(fc.constantFrom('k', 'key', 'a', 'b', 'k', '"q k"', "'s'", '1', 'null', 'x y'), props, child, comment), { minLength: 1, maxLength: 4 })
    .map(
      (entries): Gen => ({
        block: true,
        alias: false,
        write: (indent) =>
          entries
            .map(([key, p, value, c], i) => {
              const v = after(p, value, indent, false);
              return `${i === 0 ? '' : ' '.repeat(indent)}${key}:${v === '' || v.startsWith('\n') ? '' : ' '}${v}${value.block ? '' : (c ?? '')}`;
            })
            .join('\n'),
      }),
    );
  const seq = fc
    .array(fc.tuple(props, child, comment), { minLength: 1, maxLength: 4 })
    .map(
      (items): Gen => ({
        block: true,
        alias: false,
        write: (indent) => items.map(([p, value, c], i) => `${i === 0 ? '' : ' '.repeat(indent)}-${((v) => (v.startsWith('\n') || v === '' ? v : ` ${v}`))(after(p, value, indent, true))}${value.block ? '' : (c ?? '')}`).join('\n'),
      }),
    );
  return fc.oneof({ weight: 2, arbitrary: leaf }, { weight: 3, arbitrary: map }, { weight: 2, arbitrary: seq });
}

const documentText = fc
  .tuple(fc.array(node(4), { minLength: 1, maxLength: 3 }), fc.constantFrom('---\n', '\n---\n', '...\n---\n', '\n--- # c\n'), fc.boolean(), fc.oneof({ weight: 20, arbitrary: fc.constantFrom('', '# head\n', '\n\n', '---\n') }, { weight: 1, arbitrary: fc.constant('%YAML 1.2\n---\n') }))
  .map(([docs, sep, endMarker, head]) => head + docs.map((d) => d.write(0)).join(`\n${sep}`) + (endMarker ? '\n...\n' : '\n'));

const SEED = process.env.CST_SEED ? Number(process.env.CST_SEED) : Date.now() % 0x7fffffff;

test(`the CST build equals the Composer build on generated and mutated documents (seed ${SEED})`, () => {
  console.log(`cst differential seed: ${SEED} (CST_SEED=${SEED} replays it)`);
  let handled = 0;
  let runs = 0;
  const edits = fc.oneof({ weight: 1, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(edit, { minLength: 1, maxLength: 3 }) });
  fc.assert(
    fc.property(documentText, edits, fc.constantFrom(undefined, 3, 50), (text, mutations, aliasNodes) => {
      const ok = same(mutations.length ? applyEdits(text, mutations) : text, `a generated document (seed ${SEED})`, aliasNodes);
      if (mutations.length === 0) {
        runs++;
        if (ok) handled++;
      }
    }),
    { numRuns: 3000, seed: SEED },
  );
  console.log(`generated: ${handled} of ${runs} unmutated documents built from the CST`);
  // The generator must reach the CST build often, or the comparison says little.
  assert.ok(handled > runs / 5, `only ${handled} of ${runs} generated documents were built from the CST`);
});

test(`the CST build equals the Composer build on mutated repository files (seed ${SEED})`, () => {
  fc.assert(
    fc.property(fc.nat({ max: SAMPLES.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 4 }), (index, edits) => {
      const sample = SAMPLES[index]!;
      same(applyEdits(sample.text, edits), `${sample.path} mutated (seed ${SEED})`);
    }),
    { numRuns: 2000, seed: SEED + 1 },
  );
});

test('aliases past the budget, and aliases of aliases, give the same declines and references', () => {
  const laughs = ['a: &a [x, x, x, x]', 'b: &b [*a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b]', 'd: &d [*c, *c, *c, *c]', 'e: [*d, *d, *d]', 'f: *a', 'g: &g {k: *a}'].join('\n');
  for (const limit of [0, 1, 4, 5, 20, 21, 64, 65, 300, 100_000]) assert.ok(same(laughs, `billion laughs (aliasNodes ${limit})`, limit), `gave up at ${limit}`);
  // An alias inside the node it stands for is left to the Composer (cst.ts, \`alias\`), with the same result.
  assert.equal(same('g: &g {k: 1, j: *g}\n', 'a self-referring anchor'), false);
  const doc = 'base: &base\n  x: 1\n  y: [1, 2]\nuse:\n  - *base\n  - <<: *base\n  - &self [a, b]\n  - *self\n---\nother: *base\n';
  assert.ok(same(doc, 'anchors across documents'));
  const tree = parseYaml(doc)[0]!;
  assert.deepEqual(tree.references?.anchors.map((a) => [a.name, a.aliases.length]), [['base', 2], ['self', 1]]);
});
