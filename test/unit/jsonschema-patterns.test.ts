// Tool-schema patterns run on RE2 (jsonschema/patterns.ts): they match what JavaScript's RegExp
// matches, a pattern that backtracks exponentially there completes, what RE2 cannot run is passed
// and named (never a guess), and a document's pattern work is bounded.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { compilePattern, decidingPatterns, PatternBudget } from '../../server/src/core/jsonschema/patterns.js';
import {
  compileSchema,
  validateAgainstSchema,
  type ValidationResult,
} from '../../server/src/core/jsonschema/validate.js';
import { LIMITS } from '../../server/src/core/limits.js';
import { seedFor } from '../helpers/seed.js';

const SEED = seedFor(20261207, 'jsonschema-patterns properties');

function validated(result: ValidationResult) {
  assert.ok(result.compiled, result.compiled ? '' : result.error);
  return {
    issues: result.issues.map((issue) => `${issue.instancePath} ${issue.keyword}`),
    unchecked: result.unchecked,
  };
}

function matches(pattern: string, text: string): boolean {
  const verdict = compilePattern(pattern);
  assert.ok(verdict.ok, verdict.ok ? '' : `${pattern}: ${verdict.reason}`);
  return verdict.regex.test(text);
}

describe('the translation to RE2 matches what RegExp matches', () => {
  // The characters where JavaScript and RE2 differ: `.` stops at \r and \u2028 in JavaScript only,
  // and JavaScript's `\s` holds \v, no-break space and the other Unicode spaces.
  const CHARS = [
    'a',
    'b',
    'Z',
    '0',
    '_',
    ' ',
    '\n',
    '\r',
    '\v',
    '\u00a0',
    '\u2028',
    '\u3000',
    '\ufeff',
    'é',
    '😀',
    '-',
    ']',
    '[',
  ];
  const atom = fc.constantFrom(
    'a',
    'b',
    '.',
    '\\s',
    '\\S',
    '\\d',
    '\\D',
    '\\w',
    '\\W',
    '\\b',
    '\\B',
    '[ab]',
    '[^a]',
    '[\\s]',
    '[^\\s]',
    '[a\\S]',
    '[\\S]',
    '[\\s\\S]',
    '[]',
    '[^]',
    '\\u00a0',
    '\\u{1F600}',
    '\\uD83D\\uDE00',
    'é',
    '\\p{L}',
    '\\p{Lu}',
    '\\P{L}',
    '[\\p{N}_]',
    '\\-',
    '\\.',
    '\\/',
    '[\\-\\]\\[]',
    '[[:alpha:]]',
    '\\v',
    '\\x41',
    '\\cJ',
    '[\\b]',
    '\\p{Script=Latin}',
    '(?<n>a)',
    '-',
    ']'.replace(']', '\\]'),
  );
  const quantifier = fc.constantFrom('', '', '*', '+', '?', '{2}', '{0,2}', '{1,}', '*?', '+?');
  const sequence = fc
    .array(
      fc.tuple(atom, quantifier).map(([a, q]) => a + q),
      { minLength: 1, maxLength: 4 },
    )
    .map((parts) => parts.join(''));
  const pattern = fc
    .tuple(fc.boolean(), fc.array(sequence, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.boolean())
    .map(
      ([start, branches, group, end]) =>
        `${start ? '^' : ''}${group ? `(?:${branches.join('|')})` : branches.join('|')}${end ? '$' : ''}`,
    );
  const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 6 }).map((chars) => chars.join(''));

  test('property: random patterns and strings', () => {
    fc.assert(
      fc.property(pattern, text, (source, input) => {
        let native: RegExp;
        try {
          native = new RegExp(source, 'u');
        } catch {
          return; // not a JSON Schema pattern at all (ajv refuses the schema)
        }
        const verdict = compilePattern(source);
        if (!verdict.ok) {
          // Only what the translation refuses on purpose: nothing here is a backreference or lookaround.
          assert.match(verdict.reason, /negated class/, `${source}: ${verdict.reason}`);
          return;
        }
        assert.equal(
          verdict.regex.test(input),
          native.test(input),
          `${JSON.stringify(source)} on ${JSON.stringify(input)}`,
        );
      }),
      { numRuns: 3000, seed: SEED },
    );
  });

  test('the differences, one by one', () => {
    assert.equal(matches('^\\s$', '\u00a0'), true);
    assert.equal(matches('^\\s$', '\v'), true);
    assert.equal(matches('^\\S$', '\u3000'), false);
    assert.equal(matches('^.$', '\r'), false);
    assert.equal(matches('^.$', '\u2028'), false);
    assert.equal(matches('^.$', '😀'), true);
    assert.equal(matches('^[]a]$', ']a]'), false); // `[]` matches nothing; RE2 would read a class holding `]` and `a`
    assert.equal(matches('^[[:alpha:]]$', 'b]'), false); // no POSIX classes in JavaScript
    assert.equal(matches('^[[:alpha:]]$', ':]'), true);
    assert.equal(matches('^\\uD83D\\uDE00$', '😀'), true);
    assert.equal(matches('^\\p{Script=Greek}+$', 'λόγος'), true);
  });
});

describe('what RE2 cannot run is refused, with the reason', () => {
  for (const [source, reason] of [
    ['^(a)\\1$', /backreference/],
    ['(?<x>a)\\k<x>', /backreference/],
    ['^x-(?!internal)', /lookahead/],
    ['(?<=a)b', /lookbehind/],
    ['[^\\S]', /negated class/],
    ['\\p{Letter}', /RE2 cannot compile it/],
    ['a{1001}', /RE2 cannot compile it: invalid repeat count/],
  ] as const) {
    test(source, () => {
      const verdict = compilePattern(source);
      assert.equal(verdict.ok, false);
      assert.match(verdict.ok ? '' : verdict.reason, reason);
      assert.equal(verdict.ok ? '' : verdict.limit, 'regexEngine');
    });
  }

  test(`a pattern over ${LIMITS.regexProgram} instructions is not compiled`, () => {
    const verdict = compilePattern(`^${'[ab]{999}'.repeat(11)}$`);
    assert.equal(verdict.ok ? 'compiled' : verdict.limit, 'regexProgram');
    assert.equal(compilePattern(`^${'[ab]{999}'.repeat(9)}$`).ok, true);
  });
});

describe('validating with patterns', () => {
  const schema = {
    type: 'object',
    properties: {
      label: { type: 'string', pattern: '^(a+)+$' },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
      n: { type: 'integer' },
    },
  };

  // Before: RegExp backtracked through 2^40 ways of splitting the a's (hours; the language server
  // stopped answering). RE2 answers in one pass.
  test('`^(a+)+$` against forty a and a `!` completes, and is a mismatch', () => {
    assert.deepEqual(validated(validateAgainstSchema(schema, { label: `${'a'.repeat(40)}!` })).issues, [
      '/label pattern',
    ]);
    assert.deepEqual(validated(validateAgainstSchema(schema, { label: 'a'.repeat(40), code: 'ABC' })).issues, []);
    assert.deepEqual(validated(validateAgainstSchema(schema, { code: 'abc' })).issues, ['/code pattern']);
  });

  test('a pattern RegExp refuses still fails the schema, as ajv always did', () => {
    const compiled = compileSchema({ properties: { a: { pattern: '([A-Z]+' } } });
    assert.equal(compiled.ok, false);
    assert.match(compiled.ok ? '' : compiled.error, /Invalid regular expression/);
  });

  test('an unrunnable pattern passes, is listed once by the compiled schema, and names the strings it did not check', () => {
    const twice = {
      type: 'object',
      properties: {
        twice: { type: 'string', pattern: '^(a)\\1$' },
        again: { pattern: '^(a)\\1$' },
        n: { type: 'integer' },
      },
    };
    const compiled = compileSchema(twice);
    assert.deepEqual(compiled.ok && compiled.unevaluated, [
      { pattern: '^(a)\\1$', limit: 'regexEngine', reason: 'a backreference' },
    ]);
    const { issues, unchecked } = validated(validateAgainstSchema(twice, { twice: 'ab', again: 'ba', n: 'x' }));
    // The other keywords are still checked: the pattern only adds a requirement where it is.
    assert.deepEqual(issues, ['/n type']);
    assert.deepEqual(
      unchecked.map((u) => [u.text, u.limit, u.deciding]),
      [
        ['ab', 'regexEngine', false],
        ['ba', 'regexEngine', false],
      ],
    );
  });

  test('where an unrunnable pattern decides what else applies, nothing found on the value is kept', () => {
    for (const deciding of [
      { type: 'object', patternProperties: { '^x-(?!internal)': { type: 'string' } }, additionalProperties: false },
      { type: 'object', properties: { p: { type: 'string', not: { pattern: '(?=secret)' } } } },
      { type: 'object', properties: { p: { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '(?<=a)b' }] } } },
      {
        type: 'object',
        properties: { p: { $ref: '#/$defs/p' } },
        $defs: { p: { if: { pattern: '^(a)\\1$' }, then: { minLength: 5 } } },
      },
    ]) {
      const { issues, unchecked } = validated(validateAgainstSchema(deciding, { 'x-internal': 5, p: 'secret-b' }));
      assert.deepEqual(issues, [], JSON.stringify(deciding));
      assert.ok(
        unchecked.some((u) => u.deciding),
        JSON.stringify(deciding),
      );
    }
  });

  test('deciding places, as the walk finds them', () => {
    const schema = {
      properties: {
        a: { pattern: 'plain' },
        b: { not: { $ref: '#/$defs/d' } },
        c: { items: { anyOf: [{ pattern: 'branch' }] } },
      },
      patternProperties: { '^name': { pattern: 'under-a-name' } },
      $defs: { d: { pattern: 'through-ref' } },
    };
    assert.deepEqual([...decidingPatterns(schema)!].sort(), ['^name', 'branch', 'through-ref']);
    // A reference the walk does not resolve: every pattern may decide.
    assert.equal(decidingPatterns({ properties: { a: { $ref: '#anchor' } } }), undefined);
  });

  test("a document's pattern work is bounded: past it, strings pass and are named once", () => {
    const budget = new PatternBudget();
    const program = compilePattern('^[A-Z]{3}$');
    assert.ok(program.ok);
    budget.remaining = program.program * 4 * 2; // two three-letter strings, no more
    const { issues, unchecked } = validated(validateAgainstSchema(schema, { code: 'abc' }, budget));
    assert.deepEqual([issues, unchecked], [['/code pattern'], []]);
    assert.deepEqual(validated(validateAgainstSchema(schema, { code: 'ABC' }, budget)).issues, []);
    const spent = validated(validateAgainstSchema(schema, { code: 'abc' }, budget));
    assert.deepEqual(spent.issues, []);
    assert.deepEqual(
      spent.unchecked.map((u) => [u.text, u.limit]),
      [['abc', 'regexWork']],
    );
    assert.equal(budget.spent, true);
  });
});
