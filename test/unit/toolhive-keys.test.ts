// schemas/toolhive-keys.schema.json (generated from ToolHive by scripts/generate-toolhive-schemas.mjs)
// and the hand-written schemas that close the same objects must name the same keys: where both
// close an object, validate.ts reports the hand-written schema's error, so a key ToolHive added
// that only the generated file knows would still be refused there. A re-run of the script that
// changes a key set fails here until the hand-written schema follows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const SCHEMA_DIR = path.join(__dirname, '../../schemas');

interface Schema {
  properties?: Record<string, unknown>;
  additionalProperties?: unknown;
  definitions?: Record<string, Schema>;
  description?: string;
  $comment?: string;
}

const read = (file: string): Schema => JSON.parse(readFileSync(path.join(SCHEMA_DIR, file), 'utf8')) as Schema;
const keys = read('toolhive-keys.schema.json');
const common = read('vmcp-common.schema.json');
const server = read('vmcp-server.schema.json');

const keysOf = (schema: Schema | undefined): string[] => Object.keys(schema?.properties ?? {}).sort();
const go = (type: string): Schema | undefined => keys.definitions?.[`KeysGo:vmcp.config.${type}`];

/** Hand-written definitions of vmcp-common that close an object, and the Go type they stand for. */
const PAIRS: [string, string][] = [
  ['VmcpConfig', 'Config'],
  ['CompositeTool', 'CompositeToolConfig'],
  ['WorkflowStep', 'WorkflowStepConfig'],
  ['ForEachInnerStep', 'WorkflowStepConfig'],
  ['StepErrorHandling', 'StepErrorHandling'],
  ['ElicitationResponseHandler', 'ElicitationResponseConfig'],
  ['OutputConfig', 'OutputConfig'],
  ['OutputProperty', 'OutputProperty'],
  ['ToolAnnotations', 'ToolAnnotationsOverride'],
  ['Aggregation', 'AggregationConfig'],
  ['ConflictResolutionConfig', 'ConflictResolutionConfig'],
  ['WorkloadToolConfig', 'WorkloadToolConfig'],
  ['ToolOverride', 'ToolOverride'],
  ['CompositeToolRef', 'CompositeToolRef'],
];

test('the generated file records the ToolHive commit it was read from', () => {
  assert.match(keys.description ?? '', /ToolHive commit [0-9a-f]{40}/);
  assert.match(keys.$comment ?? '', /^toolhive [0-9a-f]{40}/);
});

for (const [hand, type] of PAIRS) {
  test(`vmcp-common ${hand} closes the keys of config.${type}`, () => {
    const handSchema = common.definitions?.[hand];
    assert.equal(handSchema?.additionalProperties, false, `${hand} is no longer closed: drop it from PAIRS`);
    assert.ok(go(type), `no generated config.${type}`);
    assert.deepEqual(keysOf(handSchema), keysOf(go(type)));
  });
}

test("vmcp-server's spec closes the keys of the CRD's spec", () => {
  const spec = (server.properties as Record<string, Schema>)['spec'];
  assert.equal(spec?.additionalProperties, false);
  assert.deepEqual(keysOf(spec), keysOf(keys.definitions?.['KeysVirtualMCPServerSpec']));
});

test('every closed block of a CLI file is closed in the generated file, every map open', () => {
  const config = go('Config');
  assert.equal(config?.additionalProperties, false);
  for (const type of ['IncomingAuthConfig', 'OIDCConfig', 'AuthzConfig', 'OperationalConfig', 'TimeoutConfig'])
    assert.equal(go(type)?.additionalProperties, false, type);
  const timeouts = go('TimeoutConfig')?.properties?.['perWorkload'];
  assert.equal(timeouts, true, 'perWorkload maps names to durations: any key');
  // thvjson values decode without KnownFields: any key.
  assert.equal(go('WorkflowStepConfig')?.properties?.['arguments'], true);
});

test("the CRDs' composite tools and steps have the keys vmcp-common closes", () => {
  type Node = Schema & { items?: Node; properties?: Record<string, Node> };
  const definition = keys.definitions?.['KeysCompositeToolDefinitionSpec'] as Node;
  const inline = (keys.definitions?.['KeysVirtualMCPServerSpec'] as Node).properties?.['config']?.properties?.[
    'compositeTools'
  ]?.items;
  for (const tool of [definition, inline]) {
    assert.deepEqual(keysOf(tool), keysOf(common.definitions?.['CompositeTool']));
    assert.deepEqual(keysOf(tool?.properties?.['steps']?.items), keysOf(common.definitions?.['WorkflowStep']));
  }
});

// ---- the values of spec.authServerConfig, carried from the CRD ------------------------------------

type ValueNode = Schema & { type?: string; pattern?: string; required?: string[]; items?: ValueNode };
const authServer = (keys.definitions?.['KeysVirtualMCPServerSpec']?.properties?.['authServerConfig'] ??
  {}) as ValueNode;
const child = (node: ValueNode | undefined, ...path: string[]): ValueNode | undefined =>
  path.reduce<ValueNode | undefined>(
    (at, key) => (key === '[]' ? at?.items : (at?.properties?.[key] as ValueNode | undefined)),
    node,
  );

test("spec.authServerConfig carries the CRD's types and required fields, but not one with a default", () => {
  assert.equal(authServer.$comment, 'CRD values');
  assert.deepEqual(authServer.required, ['issuer', 'upstreamProviders']);
  assert.deepEqual(child(authServer, 'upstreamProviders', '[]')?.required, ['name', 'type']);
  // cimd.enabled is required with a default: the API server fills it in before it validates.
  assert.equal(child(authServer, 'cimd')?.required, undefined);
  assert.equal(child(authServer, 'issuer')?.type, 'string');
  // Outside the subtree, key structure only.
  assert.equal(keys.definitions?.['KeysVirtualMCPServerSpec']?.$comment, undefined);
});

test("the CRD's Go patterns become ECMA-262 patterns that match the same strings", () => {
  const match = (node: ValueNode | undefined, text: string): boolean =>
    new RegExp(node?.pattern ?? '(?!)', 'u').test(text);
  const issuer = child(authServer, 'issuer');
  assert.ok(match(issuer, 'https://auth.example.com'));
  assert.ok(!match(issuer, 'https://auth.example.com/'));
  assert.ok(!match(issuer, 'https://auth example.com'));
  // Go's \s is ASCII only: a no-break space is no space to it.
  assert.ok(match(issuer, 'https://auth\u00a0example.com'));
  // Go's `.` stops only at \n.
  const endpoint = child(authServer, 'upstreamProviders', '[]', 'oauth2Config', 'authorizationEndpoint');
  assert.ok(match(endpoint, 'https://idp.example.com/a\rb'));
  assert.ok(!match(endpoint, 'https://idp.example.com/a\nb'));
  // [:space:] inside a class, with \v.
  const audience = child(authServer, 'trustedIssuers', '[]', 'jwtBearerGrant', 'acceptedAudiences', '[]');
  assert.ok(match(audience, 'https://mcp.example.com'));
  assert.ok(!match(audience, 'https://mcp.example.com/\u000b'));
  assert.ok(match(audience, 'https://mcp.example.com/\u00a0'));
});
