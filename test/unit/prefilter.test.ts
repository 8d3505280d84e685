// The pre-filter (parse/prefilter.ts) lets the CLI skip the parse of a file that cannot be of our
// kinds. A "no" for a file whose full parse finds a kind would lose that file's findings, so this
// is a property: whenever `mayBeOurs` says "no", `parseFile` finds no kind in any document
// (embedded ones included), and whenever `mayBeCatalog` says "no", no document is a catalog. It is
// tried on every YAML/JSON file of the repository, on those files with our words disguised (spelt
// with escapes, as !!binary, through a %-escaped tag or a %TAG directive, which must be "maybe";
// or broken by a case change, a space, a fold or a lost letter, which the full parse must then
// also refuse) and damaged further by the fuzzer's mutations, and on small documents built from
// scratch. The seed is fixed and printed; TOOL_LENS_SEED and PREFILTER_RUNS set others.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseFile, type ParsedFile } from '../../server/src/core/parse/file.js';
import { mayBeOurs, textMayBeOurs, unparsedFile } from '../../server/src/core/parse/prefilter.js';
import { Workspace } from '../../server/src/core/workspace.js';
import { mayBeCatalog } from '../../server/src/node/discovery.js';
import { loadWorkspace } from '../../server/src/node/loader.js';
import { checkFile } from '../../server/src/core/engine.js';
import { anyMutation, mutateAll, vocabularyOf, type Language } from '../fuzz/mutations.js';
import { seedFor, seedNote } from '../helpers/seed.js';

const ROOT = join(__dirname, '..', '..');
const SEED = seedFor(20261215);
const RUNS = process.env.PREFILTER_RUNS !== undefined ? Number(process.env.PREFILTER_RUNS) : 3000;

/** Every YAML/JSON file git knows in the repository (fixtures, corpus, docs, examples, schemas...). */
const repoFiles = execFileSync('git', ['ls-files', '-z', '--', '*.yaml', '*.yml', '*.json', '*.jsonc', '*.jsonl'], {
  cwd: ROOT,
  encoding: 'utf8',
  maxBuffer: 1 << 28,
})
  .split('\0')
  .filter(Boolean)
  .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

const workspace = new Workspace('');

/** What is wrong with the pre-filter's answers for this file, or undefined. */
function wrong(path: string, text: string): string | undefined {
  const file = parseFile(path, text);
  const kinds = kindsOf(file);
  if (!mayBeOurs(path, text, null) && kinds.length > 0)
    return `mayBeOurs said "no" to ${path}, which parses as ${kinds.join(', ')}:\n${JSON.stringify(text.slice(0, 2000))}`;
  if (!mayBeCatalog(workspace, path, text) && kinds.includes('tool-catalog'))
    return `mayBeCatalog said "no" to ${path}, which parses as a catalog:\n${JSON.stringify(text.slice(0, 2000))}`;
  return undefined;
}

function kindsOf(file: ParsedFile): string[] {
  return [
    ...new Set([file.kind, ...file.documents.map((d) => d.kind)].filter((k): k is NonNullable<typeof k> => k !== null)),
  ];
}

const languageOf = (path: string): Language =>
  /\.jsonl$/i.test(path) ? 'jsonl' : /\.jsonc?$/i.test(path) ? 'json' : 'yaml';

/** The words a kind is recognised by (prefilter.ts), each of which a disguise replaces. */
const WORDS = [
  'VirtualMCPServer',
  'VirtualMCPCompositeToolDefinition',
  'compositeTools',
  'catalog',
  'inputSchema',
  'toolFaces',
  'calls',
  'mcpServers',
  'groupRef',
  'incomingAuth',
  'outgoingAuth',
  'aggregation',
  'backends',
];
const WORD = new RegExp(WORDS.join('|'), 'g');

type Disguise =
  | 'xEscape'
  | 'uEscape'
  | 'lineEscape'
  | 'binary'
  | 'binaryVerbatim'
  | 'binaryPercent'
  | 'binaryTagDirective'
  | 'case'
  | 'space'
  | 'fold'
  | 'drop'
  | 'keep';
const DISGUISES: Disguise[] = [
  'xEscape',
  'uEscape',
  'lineEscape',
  'binary',
  'binaryVerbatim',
  'binaryPercent',
  'binaryTagDirective',
  'case',
  'space',
  'fold',
  'drop',
  'keep',
];

const hex = (c: string, width: number) => c.charCodeAt(0).toString(16).padStart(width, '0');

/**
 * The word spelt otherwise at its place in the text: inside a double-quoted string (JSON, or YAML)
 * only escapes fit; elsewhere as a quoted or tagged scalar of its own. Those spellings keep what it
 * reads as; `case`, `space`, `fold` and `drop` change it.
 */
function disguise(word: string, how: Disguise, quoted: boolean, at: number): { text: string; directive?: string } {
  const i = at % word.length;
  const [head, c, tail] = [word.slice(0, i), word[i]!, word.slice(i + 1)];
  const b64 = Buffer.from(word).toString('base64');
  switch (how) {
    case 'xEscape':
      return { text: quoted ? `${head}\\x${hex(c, 2)}${tail}` : `"${head}\\x${hex(c, 2)}${tail}"` };
    case 'uEscape':
      return { text: quoted ? `${head}\\u${hex(c, 4)}${tail}` : `"${head}\\u${hex(c, 4)}${tail}"` };
    case 'lineEscape':
      return { text: quoted ? `${head}\\\n  ${c}${tail}` : `"${head}\\\n  ${c}${tail}"` };
    case 'binary':
      return { text: quoted ? word : `!!binary ${b64}` };
    case 'binaryVerbatim':
      return { text: quoted ? word : `!<tag:yaml.org,2002:binary> ${b64}` };
    case 'binaryPercent':
      return { text: quoted ? word : `!!bin%61ry ${b64}` };
    case 'binaryTagDirective':
      return quoted ? { text: word } : { text: `!t!ary ${b64}`, directive: '%TAG !t! tag:yaml.org,2002:bin\n' };
    case 'case':
      return { text: head + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + tail };
    case 'space':
      return { text: `${head} ${c}${tail}` };
    case 'fold':
      return { text: quoted ? `${head}\n  ${c}${tail}` : `"${head}\n  ${c}${tail}"` };
    case 'drop':
      return { text: head + tail };
    case 'keep':
      return { text: word };
  }
}

/** Each of our words in the text replaced by a disguise (the i-th word by the i-th choice, cycling). */
function disguised(text: string, choices: readonly { how: Disguise; at: number }[]): string {
  let n = 0;
  let directive: string | undefined;
  const out = text.replace(WORD, (word, offset: number) => {
    const choice = choices[n++ % choices.length]!;
    const quoted = text[offset - 1] === '"';
    const result = disguise(word, choice.how, quoted, choice.at);
    directive ??= result.directive;
    return result.text;
  });
  // A %TAG directive stands before the first document, which then needs its `---`.
  return directive ? `${directive}---\n${out}` : out;
}

describe('the kind pre-filter', () => {
  test('every YAML/JSON file of the repository: a "no" only where the full parse finds no kind', (t) => {
    let skipped = 0;
    let ours = 0;
    for (const { path, text } of repoFiles) {
      const problem = wrong(path, text);
      assert.equal(problem, undefined, problem);
      if (!mayBeOurs(path, text, null)) skipped++;
      if (kindsOf(parseFile(path, text)).length > 0) ours++;
    }
    t.diagnostic(`${repoFiles.length} files, ${ours} of our kinds, ${skipped} skipped by the pre-filter`);
    // The property must bite both ways: files of ours, and files it skips.
    assert.ok(ours > 100 && skipped > 10, `${ours} files of ours, ${skipped} skipped`);
  });

  test('files with our words disguised and damaged, and documents built from scratch (seeded)', (t) => {
    t.diagnostic(`${seedNote(SEED)}, ${RUNS} cases (PREFILTER_RUNS)`);
    const samples = repoFiles.filter(
      ({ path, text }) => text.length < 60_000 && kindsOf(parseFile(path, text)).length > 0,
    );
    const vocabulary = vocabularyOf(samples.map((s) => s.text));
    const choice = fc.record({ how: fc.constantFrom(...DISGUISES), at: fc.nat(40) });
    const fromFile = fc
      .record({
        sample: fc.nat(samples.length - 1),
        choices: fc.array(choice, { minLength: 1, maxLength: 6 }),
        mutations: fc.array(anyMutation(vocabulary), { maxLength: 3 }),
      })
      .map(({ sample, choices, mutations }) => {
        const { path, text } = samples[sample]!;
        return { path, text: mutateAll(disguised(text, choices), mutations, languageOf(path)) };
      });
    // A small document of our keys and others', in YAML or JSON, with the keys disguised.
    const key = fc.oneof(
      fc.constantFrom(...WORDS),
      fc.constantFrom(
        'name',
        'tools',
        'server',
        'kind',
        'apiVersion',
        'items',
        'spec',
        'tool',
        'url',
        'type',
        'workload',
        'source',
        'command',
      ),
    );
    const leaf = fc.oneof(
      fc.constantFrom(
        '1',
        'x',
        'VirtualMCPServer',
        'toolhive.stacklok.dev/v1alpha1',
        'v1',
        'List',
        '[]',
        '{}',
        'anonymous',
        'http://x',
      ),
      fc.constantFrom(...WORDS),
    );
    type Tree = string | { seq: Tree[] } | { map: [string, Tree][] };
    const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record({ seq: fc.array(tie('node'), { maxLength: 3 }) }),
        fc.record({ map: fc.array(fc.tuple(key, tie('node')), { maxLength: 4 }) }),
      ),
    })).node;
    const render = (node: Tree, json: boolean): string => {
      if (typeof node === 'string') return json ? JSON.stringify(node) : node;
      if ('seq' in node) return `[${node.seq.map((v) => render(v, json)).join(', ')}]`;
      return `{${node.map.map(([k, v]) => `${json ? JSON.stringify(k) : k}: ${render(v, json)}`).join(', ')}}`;
    };
    const fromScratch = fc
      .record({
        root: fc.array(fc.tuple(key, tree), { minLength: 1, maxLength: 5 }),
        json: fc.boolean(),
        choices: fc.array(choice, { minLength: 1, maxLength: 6 }),
      })
      .map(({ root, json, choices }) => {
        const text = json
          ? `{${root.map(([k, v]) => `${JSON.stringify(k)}: ${render(v, true)}`).join(',\n')}}\n`
          : root.map(([k, v]) => `${k}: ${render(v, false)}\n`).join('');
        return { path: json ? 'scratch.json' : 'scratch.yaml', text: disguised(text, choices) };
      });
    let skipped = 0;
    fc.assert(
      fc.property(
        fc.oneof({ weight: 3, arbitrary: fromFile }, { weight: 1, arbitrary: fromScratch }),
        ({ path, text }) => {
          const problem = wrong(path, text);
          if (problem) throw new Error(problem);
          if (!mayBeOurs(path, text, null)) skipped++;
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
    t.diagnostic(`${skipped} of ${RUNS} cases skipped by the pre-filter`);
    assert.ok(skipped > RUNS / 20, `the cases must often be skipped for the property to bite (${skipped})`);
  });

  test('each way of spelling a word otherwise is a "maybe", and it does read as ours', () => {
    for (const how of [
      'xEscape',
      'uEscape',
      'lineEscape',
      'binary',
      'binaryVerbatim',
      'binaryPercent',
      'binaryTagDirective',
    ] as const) {
      const text = disguised('calls:\n  - tool: a.b\n', [{ how, at: 2 }]);
      assert.equal(
        parseFile('x.yaml', text).kind,
        'tool-calls',
        `${how}: ${JSON.stringify(text)} reads as a calls file`,
      );
      assert.ok(textMayBeOurs(text), `${how}: ${JSON.stringify(text)}`);
    }
    const catalog = '? !!binary Y2F0YWxvZw==\n: 1\nservers: []\n';
    assert.equal(parseFile('x.yaml', catalog).kind, 'tool-catalog');
    assert.ok(mayBeCatalog(workspace, 'x.yaml', catalog), 'a !!binary catalog key is a "maybe" for the catalog');
  });

  test('a name or a forced kind is a "maybe" whatever the text; an unparsed file has no kind and keeps its text', () => {
    assert.ok(!mayBeOurs('a.yaml', 'a: 1\n', null));
    assert.ok(mayBeOurs('a.calls.yaml', 'a: 1\n', null));
    assert.ok(mayBeOurs('.vscode/mcp.json', '{}', null));
    assert.ok(mayBeOurs('a.yaml', 'a: 1\n', 'vmcp-config'));
    assert.ok(!mayBeOurs('a.yaml', 'groupRef: x\nname: y\n', null), 'one CLI setting is not enough');
    assert.ok(mayBeOurs('a.yaml', 'groupRef: x\nbackends: []\n', null));
    const file = unparsedFile('a.json', '{"a": 1}');
    assert.equal(file.kind, null);
    assert.equal(file.language, 'json');
    assert.equal(file.source.text, '{"a": 1}');
    assert.deepEqual(file.documents, []);
    assert.deepEqual(file.comments, []);
  });
});

describe('the load with the pre-filter', () => {
  test('a file it says no to is not parsed and checks as its full parse does; one a catalog glob names is parsed whatever it holds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tool-lens-prefilter-'));
    try {
      const texts: Record<string, string> = {
        'compose.yaml': 'services:\n  web:\n    image: nginx\n    ports: ["80:80"\n', // broken YAML, no kind: no finding
        'gw.yaml': 'compositeTools:\n  - name: t\n    steps: []\n',
        'snapshots/listed.yaml':
          '? !!binary Y2F0YWxvZw==\n: 1\nservers:\n  - name: echo\n    tools:\n      - name: say\n        inputSchema: {type: object}\n',
        'named.yaml': 'servers: []\n',
      };
      for (const [path, text] of Object.entries(texts)) {
        mkdirFor(join(dir, path));
        writeFileSync(join(dir, path), text);
      }
      writeFileSync(join(dir, '.toollens.yaml'), 'catalogs:\n  - named.yaml\n');
      const loaded = loadWorkspace({ paths: ['.'], cwd: dir });
      const byPath = new Map(loaded.files.map((f) => [f.path, f]));
      const compose = byPath.get('compose.yaml')!;
      assert.deepEqual(compose.documents, [], 'compose.yaml is not parsed');
      const full = parseFile('compose.yaml', texts['compose.yaml']!);
      assert.ok(
        full.documents[0]!.problems.length > 0 && full.kind === null,
        'its full parse has a syntax error and no kind',
      );
      assert.deepEqual(checkFile(compose, loaded.workspace).findings, checkFile(full, loaded.workspace).findings);
      assert.ok(byPath.get('gw.yaml')!.documents.length > 0, 'a gateway is parsed');
      assert.ok(
        loaded.workspace.catalog.files.includes('named.yaml'),
        'a file a catalog glob names joins the catalog, parsed',
      );
      assert.ok(byPath.get('named.yaml')!.documents.length > 0, 'and is parsed though the pre-filter would say no');
      assert.ok(
        loaded.workspace.catalog.files.includes('snapshots/listed.yaml'),
        'a catalog with a !!binary key joins the catalog',
      );
      // Not named, it is read only to see whether it may be a catalog (mayBeCatalog): it still joins.
      const one = loadWorkspace({ paths: ['gw.yaml'], cwd: dir });
      assert.deepEqual(
        one.files.map((f) => f.path),
        ['gw.yaml'],
      );
      assert.ok(
        one.workspace.catalog.files.includes('snapshots/listed.yaml'),
        'a catalog with a !!binary key joins the catalog of `check gw.yaml`',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function mkdirFor(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
}
