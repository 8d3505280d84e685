// What the catalog and result rules say the official TypeScript SDK v1 client does, run against the
// SDK this repository installs: if an SDK release changes it, this fails and the messages of
// catalog/schema-root, catalog/unknown-field, result/malformed, result/schema-mismatch and
// tool/task-required need another look.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CallToolResultSchema,
  ListToolsResultSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { validateAsDraft07, validateAgainstSchema } from '../../server/src/core/jsonschema/validate.js';

const listOk = (tools: unknown[]) => ListToolsResultSchema.safeParse({ tools }).success;
const resultOk = (result: unknown) => CallToolResultSchema.safeParse(result).success;

test('SDK v1 speaks no revision past 2025-11-25', () => {
  assert.ok(!SUPPORTED_PROTOCOL_VERSIONS.includes('2026-07-28'));
  assert.ok(SUPPORTED_PROTOCOL_VERSIONS.includes('2025-11-25'));
});

test('SDK v1 rejects the whole tool list for a boolean top-level property, not for a nested one', () => {
  const fine = { name: 'b', inputSchema: { type: 'object' } };
  assert.equal(listOk([{ name: 'a', inputSchema: { type: 'object', properties: { x: true } } }, fine]), false);
  assert.equal(
    listOk([
      { name: 'a', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { x: false } } },
      fine,
    ]),
    false,
  );
  assert.equal(
    listOk([
      { name: 'a', inputSchema: { type: 'object', properties: { x: { type: 'object', properties: { y: true } } } } },
    ]),
    true,
  );
  assert.equal(listOk([{ name: 'a', inputSchema: { type: 'object' }, outputSchema: { type: 'array' } }, fine]), false);
});

test('SDK v1 drops unknown annotation keys, misspelt hints included', () => {
  const parsed = ListToolsResultSchema.parse({
    tools: [{ name: 'a', inputSchema: { type: 'object' }, annotations: { readonlyHint: true, category: 'x' } }],
  });
  assert.deepEqual(parsed.tools[0]!.annotations, {});
});

test('SDK v1 fills in a missing content, and rejects malformed blocks and non-object structuredContent', () => {
  assert.deepEqual(CallToolResultSchema.parse({}).content, []);
  assert.equal(resultOk({ content: [{ type: 'txt', text: 'a' }] }), false);
  assert.equal(resultOk({ content: [{ type: 'image', data: 'aGk=' }] }), false);
  assert.equal(resultOk({ content: [{ type: 'resource_link', uri: 'file:///a' }] }), false);
  assert.equal(resultOk({ content: [{ type: 'resource', resource: { uri: 'file:///a' } }] }), false);
  assert.equal(resultOk({ content: [], structuredContent: [1] }), false);
  assert.equal(resultOk({ content: [{ type: 'text', text: 'a' }], structuredContent: { a: 1 } }), true);
});

test('SDK v1 validates structuredContent as draft-07 whatever $schema says, as validateAsDraft07 does', () => {
  const sdk = new AjvJsonSchemaValidator();
  const cases: [object, unknown][] = [
    [
      { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false },
      { a: 'x', b: 1 },
    ],
    [
      { type: 'object', properties: { p: { type: 'array', prefixItems: [{ type: 'string' }], items: false } } },
      { p: ['a'] },
    ],
    [
      { type: 'object', properties: { p: { type: 'array', prefixItems: [{ type: 'string' }], items: false } } },
      { p: [] },
    ],
  ];
  for (const [schema, value] of cases) {
    const theirs = sdk.getValidator(schema)(value).valid;
    const ours = validateAsDraft07(schema, value);
    assert.ok(ours.compiled);
    assert.equal(ours.issues.length === 0, theirs, JSON.stringify(schema));
  }
  // And where the dialect and the SDK part ways, both ways.
  const unevaluated = cases[0]!;
  assert.equal(sdk.getValidator(unevaluated[0])(unevaluated[1]).valid, true);
  const dialect = validateAgainstSchema(unevaluated[0], unevaluated[1]);
  assert.ok(dialect.compiled && dialect.issues.length > 0);
});
