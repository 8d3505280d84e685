// ajv's `uniqueItems`, but in linear time. Where the items' type is not a plain scalar, ajv compares
// every item with every other (fast-deep-equal), so a value of 16,000 items took 18 seconds and one
// of the 250,000 a file may hold would take over an hour, on an argument of a step or a recorded
// result alike. This is the same keyword (the same errors, the same fast path for scalar items)
// with that comparison replaced by one canonical text per item, looked up in a Map.
import { _, str, type CodeKeywordDefinition, type KeywordCxt, type Name } from 'ajv';
import { checkDataTypes, DataType, getSchemaTypes } from 'ajv/dist/compile/validate/dataType.js';
import { useFunc } from 'ajv/dist/compile/util.js';

/**
 * One text per JSON value, equal exactly where JSON Schema's equality (and ajv's fast-deep-equal)
 * says the values are: object keys in any order, arrays in order, 1 and 1.0 alike. Values nest at
 * most LIMITS.nesting deep (the parse cuts deeper ones), so the recursion is bounded.
 */
function canonicalText(value: unknown): string {
  if (value === null) return 'n';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      // String(-0) is "0", as -0 === 0; NaN equals NaN, as in fast-deep-equal.
      return `d${String(value)}`;
    case 'boolean':
      return value ? 't' : 'f';
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(canonicalText).join(',')}]`;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalText(record[k])}`).join(',')}}`;
    }
    default:
      return `u${typeof value}`;
  }
}
// Only standalone code would print this; tool schemas are compiled at run time.
const canonical = Object.assign(canonicalText, { code: 'toolLensCanonicalText' });

export const uniqueItems: CodeKeywordDefinition = {
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  $data: true,
  error: {
    message: ({ params: { i, j } }) => str`must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
    params: ({ params: { i, j } }) => _`{i: ${i}, j: ${j}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, $data, parentSchema, schemaCode, it } = cxt;
    const schema: unknown = cxt.schema;
    if (!$data && !schema) return;
    const valid = gen.let('valid');
    const items = (parentSchema as { items?: unknown }).items;
    const itemTypes = items && typeof items === 'object' && !Array.isArray(items) ? getSchemaTypes(items) : [];
    cxt.block$data(valid, validateUniqueItems, _`${schemaCode} === false`);
    cxt.ok(valid);

    function validateUniqueItems(): void {
      const i = gen.let('i', _`${data}.length`);
      const j = gen.let('j');
      cxt.setParams({ i, j });
      gen.assign(valid, true);
      gen.if(_`${i} > 1`, () => (scalarItems() ? byValue(i, j) : byText(i, j)));
    }

    function scalarItems(): boolean {
      return itemTypes.length > 0 && !itemTypes.some((t) => t === 'object' || t === 'array');
    }

    // ajv's own fast path: items of the wrong type are left to `items`, the others keyed by value.
    function byValue(i: Name, j: Name): void {
      const item = gen.name('item');
      const wrongType = checkDataTypes(itemTypes, item, it.opts.strictNumbers, DataType.Wrong);
      const indices = gen.const('indices', _`{}`);
      gen.for(_`;${i}--;`, () => {
        gen.let(item, _`${data}[${i}]`);
        gen.if(wrongType, _`continue`);
        if (itemTypes.length > 1) gen.if(_`typeof ${item} == "string"`, _`${item} += "_"`);
        gen
          .if(_`typeof ${indices}[${item}] == "number"`, () => {
            gen.assign(j, _`${indices}[${item}]`);
            cxt.error();
            gen.assign(valid, false).break();
          })
          .code(_`${indices}[${item}] = ${i}`);
      });
    }

    // Every item keyed by its canonical text: one pass, where ajv compares every pair.
    function byText(i: Name, j: Name): void {
      const text = useFunc(gen, canonical);
      const seen = gen.const('seen', _`new Map()`);
      const key = gen.name('key');
      gen.for(_`;${i}--;`, () => {
        gen.let(key, _`${text}(${data}[${i}])`);
        gen
          .if(_`${seen}.has(${key})`, () => {
            gen.assign(j, _`${seen}.get(${key})`);
            cxt.error();
            gen.assign(valid, false).break();
          })
          .code(_`${seen}.set(${key}, ${i})`);
      });
    }
  },
};
