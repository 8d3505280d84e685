// Tool schemas that refer to themselves, as servers nobody here wrote publish them: recursion
// through `#` compiles and validates, schemas that share an `$id` never meet, a loop of in-place
// keywords is said rather than recursed into, and every walk over `$ref`s ends however the
// references fan out or come back; the ajv instances write nothing to the console, walk no
// reference's target in exponential time, and keep nothing of a schema once it is compiled.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { placeholderFor } from '../../server/src/core/jsonschema/arguments.js';
import { inPlaceLoop } from '../../server/src/core/jsonschema/loops.js';
import { followRefs, resolveLocalRef, topLevelProperties } from '../../server/src/core/jsonschema/properties.js';
import {
  compileSchema,
  validateAgainstSchema,
  type ValidationResult,
} from '../../server/src/core/jsonschema/validate.js';
import { someCallsOf } from '../helpers/counting.js';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

function issuesOf(result: ValidationResult): string[] {
  assert.ok(result.compiled, result.compiled ? '' : result.error);
  return result.issues.map((issue) => `${issue.instancePath} ${issue.keyword}`);
}

describe('a schema that refers to itself', () => {
  // Before: ajv (with `addUsedSchema: false`) could not resolve `#` and the schema was "invalid".
  test('`$ref: "#"` compiles, in both dialects, and validates every level', () => {
    for (const $schema of [undefined, DRAFT_07]) {
      const schema = {
        ...($schema ? { $schema } : {}),
        type: 'object',
        properties: { name: { type: 'string' }, child: { $ref: '#' } },
      };
      assert.deepEqual(
        issuesOf(validateAgainstSchema(schema, { name: 'a', child: { name: 'b', child: { name: 3 } } })),
        ['/child/child/name type'],
      );
      assert.deepEqual(issuesOf(validateAgainstSchema(schema, { name: 'a', child: { name: 'b' } })), []);
    }
  });

  test('with a root `$id`, `#` and the `$id` itself both name the schema', () => {
    const schema = {
      $id: 'https://x.example.com/node.json',
      type: 'object',
      properties: { n: { type: 'string' }, a: { $ref: '#' }, b: { $ref: 'https://x.example.com/node.json' } },
    };
    assert.deepEqual(issuesOf(validateAgainstSchema(schema, { a: { n: 1 }, b: { n: 2 } })), ['/a/n type', '/b/n type']);
  });

  // Registering a schema while it compiles must not leave it registered: the second would fail with
  // "schema with key or id ... already exists", or resolve `#` to the first.
  test('two schemas with one `$id` each compile on their own and keep their own rules', () => {
    const first = {
      $id: 'https://x.example.com/same.json',
      type: 'object',
      properties: { v: { type: 'string' }, again: { $ref: '#' } },
    };
    const second = {
      $id: 'https://x.example.com/same.json',
      type: 'object',
      properties: { v: { type: 'integer' }, again: { $ref: '#' } },
    };
    assert.deepEqual(issuesOf(validateAgainstSchema(first, { again: { v: 'x' } })), []);
    assert.deepEqual(issuesOf(validateAgainstSchema(second, { again: { v: 'x' } })), ['/again/v type']);
    assert.deepEqual(issuesOf(validateAgainstSchema(first, { again: { v: 1 } })), ['/again/v type']);
  });

  test("a root `$id` that is a meta-schema's compiles, and leaves that meta-schema in place", () => {
    const squatter = { $schema: DRAFT_07, $id: DRAFT_07, type: 'object', properties: { v: { type: 'string' } } };
    assert.deepEqual(issuesOf(validateAgainstSchema(squatter, { v: 1 })), ['/v type']);
    // Removing the squatter must not have removed draft-07's meta-schema, which compiling needs.
    assert.deepEqual(
      issuesOf(
        validateAgainstSchema({ $schema: DRAFT_07, type: 'object', properties: { w: { type: 'string' } } }, { w: 1 }),
      ),
      ['/w type'],
    );
  });

  test('a remote `$ref` is not fetched: the schema does not compile, and says where the reference points', () => {
    const compiled = compileSchema({
      type: 'object',
      properties: { r: { $ref: 'https://schemas.example.com/record.json' } },
    });
    assert.equal(compiled.ok, false);
    assert.match(
      compiled.ok ? '' : compiled.error,
      /can't resolve reference https:\/\/schemas\.example\.com\/record\.json/,
    );
  });
});

describe('a loop of in-place keywords', () => {
  test('two definitions that name each other', () => {
    assert.deepEqual(
      inPlaceLoop({
        properties: { x: { $ref: '#/$defs/a' } },
        $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } },
      }),
      ['#/$defs/a', '#/$defs/b', '#/$defs/a'],
    );
  });

  test('the whole schema naming itself, and allOf, anyOf, not, if, then and dependentSchemas naming their schema', () => {
    assert.deepEqual(inPlaceLoop({ $ref: '#' }), ['#', '#']);
    for (const body of [
      { allOf: [{ $ref: '#/$defs/a' }] },
      { anyOf: [{ type: 'string' }, { $ref: '#/$defs/a' }] },
      { not: { $ref: '#/$defs/a' } },
      { if: { $ref: '#/$defs/a' } },
      { if: true, then: { $ref: '#/$defs/a' } },
      { dependentSchemas: { p: { $ref: '#/$defs/a' } } },
    ]) {
      assert.ok(inPlaceLoop({ properties: { x: { $ref: '#/$defs/a' } }, $defs: { a: body } }), JSON.stringify(body));
    }
  });

  test('recursion into a part of the value is no loop', () => {
    assert.equal(inPlaceLoop({ type: 'object', properties: { child: { $ref: '#' } } }), undefined);
    assert.equal(inPlaceLoop({ type: 'array', items: { $ref: '#' } }), undefined);
    assert.equal(
      inPlaceLoop({ $defs: { a: { additionalProperties: { $ref: '#/$defs/a' } } }, $ref: '#/$defs/a' }),
      undefined,
    );
    // `then` without `if` is not applied, and a data value that looks like a schema is data.
    assert.equal(inPlaceLoop({ $defs: { a: { then: { $ref: '#/$defs/a' } } }, $ref: '#/$defs/a' }), undefined);
    assert.equal(inPlaceLoop({ const: { $ref: '#' }, default: { allOf: [{ $ref: '#' }] } }), undefined);
  });

  test('below a nested `$id`, `#` is another resource: its references are not followed', () => {
    assert.equal(inPlaceLoop({ $defs: { inner: { $id: 'https://x.example.com/inner.json', $ref: '#' } } }), undefined);
  });

  test('a schema with a loop does not compile, in plain words and without recursing', () => {
    // Before: ajv recursed until the stack ran out (a RangeError after tens of milliseconds, or on
    // every validated value for a loop through allOf).
    const compiled = compileSchema({
      type: 'object',
      properties: { x: { $ref: '#/$defs/a' } },
      $defs: { a: { type: 'object', allOf: [{ $ref: '#/$defs/a' }] } },
    });
    assert.equal(compiled.ok, false);
    assert.match(
      compiled.ok ? '' : compiled.error,
      /^in-place loop: #\/\$defs\/a -> #\/\$defs\/a\/allOf\/0 -> #\/\$defs\/a$/,
    );
  });

  test('a chain of 20,000 references completes (the walk does not recurse)', () => {
    const $defs: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) $defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
    $defs.d20000 = { type: 'string' };
    assert.equal(inPlaceLoop({ properties: { x: { $ref: '#/$defs/d0' } }, $defs }), undefined);
    $defs.d20000 = { $ref: '#/$defs/d0' };
    assert.equal(inPlaceLoop({ properties: { x: { $ref: '#/$defs/d0' } }, $defs })?.length, 20_002);
  });
});

describe('walks over `$ref` end', () => {
  // Before: each walk stopped at 20 levels, so ten branches that all lead back made 10^20 visits.
  const fanOut = (n: number) => Array.from({ length: n }, () => ({ $ref: '#/$defs/a' }));

  test('top-level properties through allOf branches that all name the whole schema', () => {
    const schema = {
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
      allOf: Array.from({ length: 10 }, () => ({ $ref: '#' })),
    };
    const { properties } = topLevelProperties(schema);
    assert.deepEqual([...properties.keys()], ['q']);
    assert.equal(properties.get('q')!.required, true);
  });

  test('type text of branches that lead back: each reference is spelled out once, then named', () => {
    const schema = {
      type: 'object',
      properties: { p: { $ref: '#/$defs/a' } },
      $defs: { a: { anyOf: [{ type: 'string' }, ...fanOut(10)] } },
    };
    assert.equal(topLevelProperties(schema).properties.get('p')!.typeText, `string${' | a'.repeat(10)}`);
    const words = {
      type: 'object',
      properties: { p: { anyOf: [{ $ref: '#/$defs/id' }, { type: 'array', items: { $ref: '#/$defs/id' } }] } },
      $defs: { id: { type: 'string' } },
    };
    assert.equal(topLevelProperties(words).properties.get('p')!.typeText, 'string | array of string');
  });

  test('a → b → a: no scalar, no type, no placeholder loop', () => {
    const root = {
      type: 'object',
      properties: { p: { $ref: '#/$defs/a' } },
      $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } },
    };
    const p = topLevelProperties(root).properties.get('p')!;
    assert.equal(p.scalar, false);
    assert.equal(p.typeText, 'unknown');
    assert.equal(followRefs(p.schema, root), undefined);
    assert.equal(placeholderFor(p.schema, root), '');
    const firstBranch = { $defs: { a: { anyOf: [{ $ref: '#/$defs/b' }] }, b: { oneOf: [{ $ref: '#/$defs/a' }] } } };
    assert.equal(placeholderFor(firstBranch.$defs.a, firstBranch), '');
  });

  test('local references: pointers only, array indexes, and no exception on a malformed escape', () => {
    const root = { allOf: [{ type: 'string' }], $defs: { 'a/b': { type: 'integer' } }, node: { type: 'boolean' } };
    assert.deepEqual(resolveLocalRef(root, '#/allOf/0'), { type: 'string' });
    assert.deepEqual(resolveLocalRef(root, '#/$defs/a~1b'), { type: 'integer' });
    assert.equal(resolveLocalRef(root, '#'), root);
    // `#node` is an anchor, not the pointer `#/node`.
    assert.equal(resolveLocalRef(root, '#node'), undefined);
    // Before: decodeURIComponent threw a URIError out of every analysis that read the schema.
    assert.equal(resolveLocalRef(root, '#/%E0%A4%A'), undefined);
    assert.deepEqual(
      [...topLevelProperties({ type: 'object', properties: { q: { $ref: '#/%' } } }).properties.keys()],
      ['q'],
    );
  });
});

// What the ajv instances are given and what they keep (jsonschema/validate.ts): they run for the
// life of the editor, over schemas nobody here wrote.
describe('the ajv instances', () => {
  test('a format ajv does not know is ignored, as JSON Schema asks, and nothing is written to the console', () => {
    const warn = console.warn;
    const log = console.log;
    const error = console.error;
    const written: unknown[][] = [];
    console.warn = console.log = console.error = (...args: unknown[]) => void written.push(args);
    try {
      const schema = {
        type: 'object',
        description: 'unknown format',
        properties: { d: { type: 'string', format: 'date-tim~e' }, t: { type: 'string', format: 'date-time' } },
      };
      assert.deepEqual(issuesOf(validateAgainstSchema(schema, { d: 'not a date', t: 'not a date' })), ['/t format']);
    } finally {
      console.warn = warn;
      console.log = log;
      console.error = error;
    }
    assert.deepEqual(written, []);
  });

  // ajv's walk of a `$ref`'s target (to decide whether to inline it) doubled per level of arrays in
  // any value: 190 levels would never end. Compiled apart, the target is not walked that way.
  test('arrays nested deep in a value beside a `$ref` cost nothing more, and the reference still works', () => {
    const schemaWith = (levels: number) => {
      let value: unknown = 1;
      for (let i = 0; i < levels; i++) value = { k: [value] };
      return {
        type: 'object',
        description: `deep value ${levels}`,
        examples: [value],
        properties: { n: { type: 'string' }, child: { $ref: '#' } },
      };
    };
    // Counted at 18 levels first (the old walk called Array.prototype.some 2^18 times there), so
    // that it fails in a moment rather than running for ever at 190.
    const calls = someCallsOf(() => assert.ok(compileSchema(schemaWith(18)).ok));
    assert.ok(calls < 1000, `compiling called Array.prototype.some ${calls} times`);
    assert.deepEqual(issuesOf(validateAgainstSchema(schemaWith(190), { child: { child: { n: 3 } } })), [
      '/child/child/n type',
    ]);
  });

  // After each compile, what it added to ajv's code-generation scope is dropped (the instance would
  // otherwise keep every schema of every catalog rebuild). A validator reads its values when it is
  // made, so the ones compiled before go on working, whatever was compiled and dropped since.
  test('validators compiled earlier still validate after many compiles since', () => {
    const first = {
      type: 'object',
      description: 'first',
      properties: {
        id: { type: 'string', pattern: '^[a-z]+$', format: 'uuid' },
        kind: { enum: [{ a: 1 }, 'b'] },
        child: { $ref: '#' },
        name: { $ref: '#/$defs/name' },
      },
      $defs: { name: { type: 'string', maxLength: 3 } },
    };
    const compiled = compileSchema(first);
    assert.ok(compiled.ok);
    const issues = () =>
      compiled
        .validate({ id: 'X', kind: { a: 2 }, child: { name: 'long' }, name: 'ok' })
        .issues.map((i) => `${i.instancePath} ${i.keyword}`);
    const before = issues();
    assert.deepEqual(before, ['/id pattern', '/id format', '/kind enum', '/child/name maxLength']);
    for (let i = 0; i < 50; i++) {
      const other = {
        type: 'object',
        description: `other ${i}`,
        properties: {
          id: { type: 'string', pattern: `^[0-9]{${i}}$`, format: 'uuid' },
          kind: { enum: [{ a: i }] },
          child: { $ref: '#' },
        },
      };
      assert.ok(compileSchema(other).ok);
    }
    assert.deepEqual(issues(), before);
  });
});
