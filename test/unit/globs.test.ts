// Globs from the configuration (core/config/glob.ts): what they match, that a match takes bounded
// time whatever the glob, and which globs `.toollens.yaml` refuses (config/config.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { parseConfig } from '../../server/src/core/config/config.js';
import { Glob, leavesFolder } from '../../server/src/core/config/glob.js';
import { LIMITS } from '../../server/src/core/limits.js';
import { seedFor } from '../helpers/seed.js';

const matches = (glob: string, path: string) => new Glob(glob).matches(path);

describe('what a glob matches', () => {
  const cases: [string, string, boolean][] = [
    ['*.yaml', 'a.yaml', true],
    ['*.yaml', 'dir/a.yaml', false],
    ['*', '.hidden', true],
    ['?', 'a', true],
    ['?', '/', false],
    ['a?c', 'a/c', false],
    ['**', 'a/b/c', true],
    ['**/x.json', 'x.json', true],
    ['**/x.json', 'a/b/x.json', true],
    ['a/**/b', 'a/b', true],
    ['a/**/b', 'a/x/y/b', true],
    ['a/**/b', 'ab', false],
    ['legacy/**', 'legacy', true],
    ['legacy/**', 'legacy/x/y.yaml', true],
    ['legacy/**', 'legacyx/y.yaml', false],
    ['*/**', 'a', true], // picomatch: false, though `a/**` and `?/**` match `a` there
    ['***/x', 'a/x', true], // three stars are one
    ['***/x', 'a/b/x', false],
    ['a**b', 'axxb', true], // `**` inside a segment is `*`
    ['a**b', 'ax/xb', false],
    ['**/*.{yaml,yml}', '.github/workflows/ci.yml', true],
    ['{a,b}/c', 'b/c', true],
    ['a{b,c{d,e}}f', 'acef', true],
    ['a{,b}', 'a', true],
    ['{a}', '{a}', true], // a group with nothing to choose between is plain text
    ['{a}', 'a', false],
    ['x{', 'x{', true],
    ['[abc]', 'b', true],
    ['[a-c]x', 'bx', true],
    ['[!a]x', 'bx', true], // negated, as in the shell (picomatch reads `[!a]` as `!` or `a`)
    ['[!a]x', 'ax', false],
    ['[^a]', '/', false], // a class never matches `/`
    ['[]a]', ']', true],
    ['[[:digit:]]', '7', true],
    ['[a-', '[a-', true], // no closing bracket: plain text
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
    ['a(b)', 'a(b)', true],
    ['a|b', 'a|b', true],
    ['./a/*.json', 'a/x.json', true],
    ['recordings/**/*.json', 'recordings/a.json', true],
  ];
  for (const [glob, path, expected] of cases) {
    test(`${glob} ${expected ? 'matches' : 'does not match'} ${path}`, () =>
      assert.equal(matches(glob, path), expected));
  }

  test('on the documented subset, the same as picomatch (the library it replaces) with dot: true', () => {
    const letter = fc.constantFrom('a', 'b', '.');
    const literal = fc.string({ unit: letter, minLength: 1, maxLength: 3 });
    const piece = fc.oneof(
      literal,
      fc.constant('*'),
      fc.constant('?'),
      fc.constant('[ab]'),
      fc.constant('[a-b]'),
      fc.tuple(literal, literal).map(([x, y]) => `{${x},${y}}`),
    );
    const segment = fc.oneof(
      { weight: 5, arbitrary: fc.array(piece, { minLength: 1, maxLength: 3 }).map((p) => p.join('')) },
      { weight: 1, arbitrary: fc.constant('**') },
    );
    // No `..` anywhere (picomatch reads `{a,b..}` as a range of some kind, and `..` segments are
    // refused), and no `**` within a segment (picomatch's `**{a,b}` crosses folders, its `**a` does not).
    const glob = fc
      .array(segment, { minLength: 1, maxLength: 4 })
      .map((s) => s.join('/'))
      .filter((g) => !g.includes('..') && !g.replace(/(^|\/)\*\*(?=\/|$)/g, '$1').includes('**'));
    // Paths as a walk finds them: no empty segment, none that is `.` or `..`.
    const name = fc
      .string({ unit: fc.constantFrom('a', 'b', '.'), minLength: 1, maxLength: 4 })
      .filter((n) => n !== '.' && n !== '..');
    const path = fc.array(name, { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));
    fc.assert(
      fc.property(glob, path, (g, p) => {
        // `dir/**` (and `dir/**/**`) matches `dir` itself, whatever `dir` is; picomatch only when
        // `dir` has no `*` or class.
        let base = g;
        while (base.endsWith('/**')) base = base.slice(0, -3);
        fc.pre(!(base !== g && matches(base, p)));
        assert.equal(matches(g, p), picomatch(g, { dot: true })(p), `${g} against ${p}`);
      }),
      // A fixed seed: the same cases on every run (npm run fuzz explores further).
      { numRuns: 3000, seed: seedFor(0x61b, 'globs property') },
    );
  });

  test('the folders a glob starts with, for the walk', () => {
    const prefix = (glob: string) => {
      const compiled = new Glob(glob);
      return [compiled.prefix, compiled.literal, compiled.depthBelowPrefix];
    };
    assert.deepEqual(prefix('vendor/*.json'), ['vendor', undefined, 1]);
    assert.deepEqual(prefix('vendor/a.json'), ['vendor', 'vendor/a.json', 1]);
    assert.deepEqual(prefix('a\\*b/c/*'), ['a*b/c', undefined, 1]);
    assert.deepEqual(prefix('catalogs/**/*.json'), ['catalogs', undefined, Infinity]);
    assert.deepEqual(prefix('legacy/**'), ['legacy', undefined, Infinity]);
    assert.deepEqual(prefix('{a,b/c}/*.json'), ['', undefined, 3]);
    assert.deepEqual(prefix('/abs/*.json'), ['/abs', undefined, 1]);
  });
});

describe('a match takes bounded time whatever the glob', () => {
  // picomatch compiles a glob to a backtracking regular expression: `*a*a*…*b` against a name of
  // a's takes exponential time there (28 characters took 9 s, 200 never ended). Here each one
  // runs every state of the glob at once over the path: glob length × path length steps.
  const long = 'a'.repeat(200);
  const hostile: [string, string, boolean][] = [
    ['*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b', `${long}.yaml`, false],
    ['*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b', `${long}b`, true],
    ['**/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b', `${'a/'.repeat(100)}${long}`, false],
    [`${'**/'.repeat(40)}b`, `${'a/'.repeat(100)}c`, false],
    [`${'{a,aa}'.repeat(30)}b`, long, false],
    [`${'?'.repeat(150)}*b`, long, false],
    [`${'[a-z]*'.repeat(30)}b`, long, false],
  ];
  for (const [glob, path, expected] of hostile) {
    test(`${glob.slice(0, 40)}… against ${path.length} characters completes`, () =>
      assert.equal(matches(glob, path), expected));
  }
});

describe('globs the configuration refuses', () => {
  const problemsOf = (text: string) =>
    parseConfig('.toollens.yaml', text, new Set()).problems.map((p) => [
      text.slice(p.span.start, p.span.end),
      p.message,
    ]);

  test('an absolute glob, or one that climbs out with ..', () => {
    const text =
      'catalogs: ["/**/*.json", "../team/*.json", "a/../../b.json", "x/{..,y}/*.json", "ok/*.json"]\noverrides:\n  - files: ["/etc/**"]\n    rules: {}\nkinds:\n  tool-calls: ["C:/calls/*.json", "..\\\\x"]\n';
    const problems = problemsOf(text);
    assert.deepEqual(
      problems.map(([at]) => at),
      ['"/**/*.json"', '"../team/*.json"', '"a/../../b.json"', '"x/{..,y}/*.json"', '"/etc/**"', '"C:/calls/*.json"'],
    );
    assert.match(
      problems[0]![1]!,
      /^"\/\*\*\/\*\.json" is an absolute path, and globs here are relative to the folder of \.toollens\.yaml/,
    );
    assert.match(
      problems[1]![1]!,
      /^"\.\.\/team\/\*\.json" climbs out with "\.\.", and Tool Lens reads only what lies inside the folder of \.toollens\.yaml/,
    );
    const config = parseConfig('.toollens.yaml', text, new Set()).config;
    assert.deepEqual(config.catalogs, ['ok/*.json'], 'a refused glob is not used');
    assert.deepEqual(config.kinds['tool-calls'], ['..\\x'], '`\\x` is an escaped x, not a path separator');
  });

  test('globs with what Tool Lens globs do not have', () => {
    const problems = problemsOf(
      'catalogs: ["!generated/**", "*(a|b).json", "{1..3}.json", "", "\\\\!x", "a\\\\(b).json"]\n',
    );
    assert.deepEqual(
      problems.map(([at]) => at),
      ['"!generated/**"', '"*(a|b).json"', '"{1..3}.json"', '""'],
    );
    assert.match(problems[0]![1]!, /Tool Lens globs have no negation/);
    assert.match(problems[1]![1]!, /"\*\(" in "\*\(a\|b\)\.json" is a pattern form Tool Lens does not read/);
    assert.match(problems[2]![1]!, /is a range, which Tool Lens globs do not have/);
    assert.match(problems[3]![1]!, /An empty glob matches no file/);
  });

  test(`a glob longer than ${LIMITS.globLength} characters, and more than ${LIMITS.globCount} globs`, () => {
    const long = `${'a/'.repeat(LIMITS.globLength / 2)}*.json`;
    const many = Array.from({ length: LIMITS.globCount + 5 }, (_, i) => `"f${i}/*.json"`).join(', ');
    const problems = problemsOf(
      `catalogs: ["${long}", "${'x'.repeat(LIMITS.globLength)}"]\noverrides:\n  - files: [${many}]\n    rules: {}\n`,
    );
    assert.deepEqual(
      problems.map(([at, message]) => [at, message!.split(';')[0]]),
      [
        [
          `"${long}"`,
          `This glob is ${long.length} characters long, and Tool Lens reads globs of at most ${LIMITS.globLength}`,
        ],
        // The one at the limit is read; the first one past the count is the problem (the rest are dropped with it).
        [
          `"f${LIMITS.globCount - 1}/*.json"`,
          `This is glob number ${LIMITS.globCount + 1} of the configuration, and Tool Lens reads at most ${LIMITS.globCount}, each matched against every file`,
        ],
      ],
    );
  });

  test('leavesFolder says nothing of globs that stay inside', () => {
    for (const glob of ['a/*.json', '**/x', '..a/b', 'a..b/c', 'a/.../b', '{a,b}/..c'])
      assert.equal(leavesFolder(glob, 'here'), undefined, glob);
  });
});
