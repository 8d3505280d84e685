// The JSON Schemas in schemas/: they compile under ajv strict mode (draft-07), accept the valid
// reference documents and the real catalog captures, and reject invalid documents at the right path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { parse } from 'yaml';

const SCHEMA_DIR = path.join(__dirname, '../../schemas');
const CATALOG_DIR = path.join(__dirname, '../corpus/clean/catalogs'); // real tools/list captures, unchanged;
const BASE = 'https://tool-lens.dev/schemas/';

const SCHEMA_FILES = readdirSync(SCHEMA_DIR)
  .filter((f) => f.endsWith('.schema.json'))
  .sort();

function makeAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
  // VS Code's hover keyword; not a validation keyword.
  ajv.addKeyword('markdownDescription');
  for (const file of SCHEMA_FILES) {
    ajv.addSchema(JSON.parse(readFileSync(path.join(SCHEMA_DIR, file), 'utf8')) as object);
  }
  return ajv;
}

const ajv = makeAjv();

function validator(name: string): ValidateFunction {
  const v = ajv.getSchema(BASE + name);
  assert.ok(v, `schema ${name} not found`);
  return v;
}

function errorsOf(name: string, doc: unknown): ErrorObject[] {
  const v = validator(name);
  v(doc);
  return v.errors ?? [];
}

function assertValid(name: string, doc: unknown): void {
  const errors = errorsOf(name, doc);
  assert.deepEqual(
    errors.map((e) => `${e.instancePath} ${e.keyword} ${e.message ?? ''}`),
    [],
    `expected ${name} to accept the document`,
  );
}

/**
 * Errors counted once per place, keyword and parameters: an unknown key is stated both by the
 * hand-written schema and by the generated key structure (toolhive-keys.schema.json) where both
 * close the object; validate.ts keeps one.
 */
function distinctErrors(errors: ErrorObject[]): number {
  return new Set(errors.map((e) => `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`)).size;
}

function findError(errors: ErrorObject[], instancePath: string, keyword: string): ErrorObject | undefined {
  return errors.find((e) => e.instancePath === instancePath && e.keyword === keyword);
}

// ---- example documents in both ToolHive dialects (docs/toolhive.md#two-dialects) -------------

const EXAMPLE_10_1 = `
name: demo-vmcp
groupRef: demo
incomingAuth: {type: anonymous}
outgoingAuth: {source: inline, default: {type: unauthenticated}}
aggregation:
  conflictResolution: prefix
  conflictResolutionConfig: {prefixFormat: "{workload}_"}
  tools:
    - workload: search
      excludeAll: true
compositeTools:
  - name: find_and_summarize
    description: Search, then summarize the first hit
    parameters:
      type: object
      properties:
        query: {type: string}
        limit: {type: integer, default: 5}
      required: [query]
    timeout: 2m
    annotations: {title: Find and summarize, openWorldHint: true}
    steps:
      - id: search
        tool: search.query
        arguments: {q: "{{.params.query}}", n: "{{.params.limit}}"}
        onError: {action: retry, retryCount: 2, retryDelay: 2s}
      - id: summarize
        tool: llm_summarize
        dependsOn: [search]
        arguments:
          text: "{{(index (fromJson .steps.search.output.text).items 0).body}}"
    output:
      properties:
        summary: {type: string, description: Summary text, value: "{{.steps.summarize.output.text}}"}
      required: [summary]
`;

const EXAMPLE_10_2 = `
apiVersion: toolhive.stacklok.dev/v1beta1
kind: VirtualMCPCompositeToolDefinition
metadata: {name: guarded-release, namespace: default}
spec:
  name: guarded_release
  description: Ask before releasing
  parameters: {type: object, properties: {version: {type: string}}, required: [version]}
  steps:
    - id: ask
      type: elicitation
      message: "Release {{.params.version}}?"
      schema: {type: object, properties: {env: {type: string, enum: [staging, prod]}}, required: [env]}
      timeout: 5m
      onDecline: {action: continue}
      onCancel: {action: abort}
    - id: release
      tool: deployer.release
      dependsOn: [ask]
      condition: '{{eq .steps.ask.output.action "accept"}}'
      arguments: {version: "{{.params.version}}", env: "{{.steps.ask.output.content.env}}"}
      defaultResults: {text: "not released"}
    - id: notify
      tool: chat.post
      dependsOn: [release]
      arguments: {msg: "{{.steps.release.output.text}}"}
`;

// EXAMPLE_10_3 is a list of steps; it is checked inside a composite tool of a fragment config
// (only `compositeTools`, which must need nothing else at the root).
const EXAMPLE_10_3 = `
compositeTools:
  - name: scan_images
    description: Scan every image in the registry
    steps:
      - id: list
        tool: registry.list_images
      - id: scan_each
        type: forEach
        dependsOn: [list]
        collection: "{{json .steps.list.output.images}}"
        itemVar: img
        maxParallel: 4
        maxIterations: 200
        onError: {action: continue}
        step:
          id: scan
          type: tool
          tool: scanner.scan
          arguments: {ref: "{{.forEach.img.ref}}", n: "{{.forEach.index}}"}
`;

const VIRTUAL_MCP_SERVER = `
apiVersion: toolhive.stacklok.dev/v1beta1
kind: VirtualMCPServer
metadata: {name: eng, namespace: default}
spec:
  groupRef: {name: engineering}
  incomingAuth: {type: anonymous}
  serviceType: ClusterIP
  config:
    groupRef: engineering
    aggregation:
      conflictResolution: priority
      conflictResolutionConfig: {priorityOrder: [github, jira]}
      defaultToolVisibility: deny
      tools:
        - workload: github
          filter: [create_pr]
          overrides:
            create_pr: {name: open_pr, description: Open a pull request, annotations: {destructiveHint: false}}
        - workload: jira
          toolConfigRef: {name: jira-tools}
    compositeToolRefs: [{name: guarded-release}]
    compositeTools:
      - name: open_and_tell
        description: Open a PR, then post a message
        steps:
          - id: pr
            tool: github.create_pr
          - id: tell
            tool: chat.post
            dependsOn: [pr]
        output:
          properties:
            result:
              type: object
              description: Everything
              properties:
                url: {type: string, description: PR URL, value: "{{.steps.pr.output.url}}"}
`;

test('every schema compiles under ajv strict mode and has an $id', () => {
  assert.ok(SCHEMA_FILES.length >= 9, `found ${SCHEMA_FILES.join(', ')}`);
  for (const file of SCHEMA_FILES) {
    const raw = JSON.parse(readFileSync(path.join(SCHEMA_DIR, file), 'utf8')) as { $id?: string; $schema?: string };
    assert.equal(raw.$id, BASE + file, `${file} $id`);
    assert.equal(raw.$schema, 'http://json-schema.org/draft-07/schema#', `${file} $schema`);
    const v = validator(file);
    assert.equal(typeof v, 'function');
  }
});

test('every property the schemas declare has a description (hover text)', () => {
  const missing: string[] = [];
  // Walks schema positions only (a property named `properties` is not a keyword).
  const visit = (schema: unknown, where: string, conditional: boolean): void => {
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return;
    const s = schema as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, unknown>;
    for (const [key, sub] of Object.entries(props)) {
      // `true` sits beside a conditional `required` (ajv strictRequired); `if` only tests values.
      if (sub === true || conditional) continue;
      const p = sub as Record<string, unknown>;
      if (typeof p.description !== 'string' && typeof p.$ref !== 'string') missing.push(`${where}/properties/${key}`);
    }
    for (const [key, sub] of Object.entries(props)) visit(sub, `${where}/properties/${key}`, conditional);
    for (const key of ['definitions', 'patternProperties'] as const) {
      for (const [k, sub] of Object.entries((s[key] ?? {}) as Record<string, unknown>))
        visit(sub, `${where}/${key}/${k}`, conditional);
    }
    for (const key of ['items', 'additionalProperties', 'then', 'else'] as const)
      visit(s[key], `${where}/${key}`, conditional);
    for (const key of ['if', 'not'] as const) visit(s[key], `${where}/${key}`, true);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = s[key];
      if (Array.isArray(list)) list.forEach((sub, i) => visit(sub, `${where}/${key}/${i}`, conditional));
    }
  };
  for (const file of SCHEMA_FILES) visit(JSON.parse(readFileSync(path.join(SCHEMA_DIR, file), 'utf8')), file, false);
  assert.deepEqual(missing, []);
});

test('example: CLI config is valid', () => {
  assertValid('vmcp-config.schema.json', parse(EXAMPLE_10_1));
});

test('example: VirtualMCPCompositeToolDefinition is valid', () => {
  assertValid('vmcp-composite.schema.json', parse(EXAMPLE_10_2));
});

test('example: forEach fan-out in a compositeTools-only fragment is valid', () => {
  assertValid('vmcp-config.schema.json', parse(EXAMPLE_10_3));
});

test('VirtualMCPServer with spec.config is valid', () => {
  assertValid('vmcp-server.schema.json', parse(VIRTUAL_MCP_SERVER));
});

test('a key the CRD does not declare directly under spec is refused, as the CRD prunes it', () => {
  const doc = parse(VIRTUAL_MCP_SERVER) as { spec: Record<string, unknown> };
  doc.spec['someFutureField'] = { enabled: true };
  const error = findError(errorsOf('vmcp-server.schema.json', doc), '/spec', 'additionalProperties');
  assert.equal(error?.params['additionalProperty'], 'someFutureField');
});

test('real catalog captures validate against the catalog schema', () => {
  const files = readdirSync(CATALOG_DIR).filter((f) => f.endsWith('.json'));
  assert.ok(files.length >= 4, `catalog captures in ${CATALOG_DIR}`);
  for (const file of files) {
    const doc = JSON.parse(readFileSync(path.join(CATALOG_DIR, file), 'utf8')) as unknown;
    assertValid('tool-catalog.schema.json', doc);
  }
});

test('catalog snapshot format and bare tools/list result are valid', () => {
  assertValid(
    'tool-catalog.schema.json',
    parse(`
catalog: 1
servers:
  - name: agent
    fetched: {at: 2026-11-29T10:00:00Z, protocolVersion: 2025-11-25, serverInfo: {name: agent, version: 1.0.0}}
    tools:
      - name: get_dynamic_tools
        inputSchema: {type: object}
        annotations: {readOnlyHint: true, x-vendor: 1}
        vendorExtra: kept      # unknown tool keys are catalog/unknown-field's business
    namespaces:
      - name: applets
        external: false
        status: ready
        tools:
          - {name: applet_create, description: Create an applet, inputSchema: {type: object}}
`),
  );
  assertValid('tool-catalog.schema.json', {
    tools: [{ name: 'x', inputSchema: { type: 'object' } }],
    nextCursor: 'abc',
  });
});

test('catalog: missing inputSchema and a wrong snapshot version are reported', () => {
  const errors = errorsOf('tool-catalog.schema.json', { tools: [{ name: 'x' }] });
  assert.equal(findError(errors, '/tools/0', 'required')?.params.missingProperty, 'inputSchema');
  const snap = errorsOf('tool-catalog.schema.json', { catalog: 2, servers: [] });
  assert.ok(findError(snap, '/catalog', 'const'));
  const extra = errorsOf('tool-catalog.schema.json', { catalog: 1, servers: [{ name: 'a', tool: [] }] });
  assert.equal(findError(extra, '/servers/0', 'additionalProperties')?.params.additionalProperty, 'tool');
});

// ---- invalid workflow documents -----------------------------------------------------------------

test('maxRetries in onError is an unknown key at the onError mapping', () => {
  const doc: unknown = parse(`
compositeTools:
  - name: t
    description: d
    steps:
      - id: a
        tool: be.x
      - id: b
        tool: be.y
        onError: {action: retry, maxRetries: 3}
`);
  const errors = errorsOf('vmcp-config.schema.json', doc);
  const e = findError(errors, '/compositeTools/0/steps/1/onError', 'additionalProperties');
  assert.ok(e, JSON.stringify(errors));
  assert.equal(e.params.additionalProperty, 'maxRetries');
  // retry without retryCount is workflow/retry-needs-count's business, not the schema's.
  assert.equal(distinctErrors(errors), 1, JSON.stringify(errors));
});

test('failureMode on a composite tool is an unknown key', () => {
  const doc: unknown = parse(`
compositeTools:
  - name: t
    description: d
    failureMode: abort
    steps: [{id: a, tool: be.x}]
`);
  const errors = errorsOf('vmcp-config.schema.json', doc);
  const e = findError(errors, '/compositeTools/0', 'additionalProperties');
  assert.ok(e, JSON.stringify(errors));
  assert.equal(e.params.additionalProperty, 'failureMode');
  assert.equal(distinctErrors(errors), 1, JSON.stringify(errors));
});

test('a wrong onError.action is an enum error at the action value', () => {
  const doc: unknown = parse(`
compositeTools:
  - name: t
    description: d
    steps:
      - {id: a, tool: be.x, onError: {action: skip}}
`);
  const errors = errorsOf('vmcp-config.schema.json', doc);
  const e = findError(errors, '/compositeTools/0/steps/0/onError/action', 'enum');
  assert.ok(e, JSON.stringify(errors));
  assert.deepEqual(e.params.allowedValues, ['abort', 'continue', 'retry']);
});

test('example: the missing description is reported; semantic problems are left to rules', () => {
  const doc: unknown = parse(`
compositeTools:
  - name: broken
    parameters: {type: string}
    steps:
      - id: a
        tool: "be.x"
        condition: "{{.params.enabled}}"
        dependsOn: [c]
      - id: b
        tool: "be.y"
        onError: {action: retry}
        arguments: {v: "{{.steps.a.output.v}}"}
`);
  const errors = errorsOf('vmcp-config.schema.json', doc);
  assert.equal(findError(errors, '/compositeTools/0', 'required')?.params.missingProperty, 'description');
  assert.equal(errors.length, 1, JSON.stringify(errors));
});

test('hard bounds: negative maxIterations, itemVar, durations, step type, tool pattern', () => {
  const doc: unknown = parse(`
compositeTools:
  - name: t
    description: d
    timeout: 30 minutes
    steps:
      - id: each
        type: forEach
        collection: "{{json .params.xs}}"
        itemVar: index
        maxParallel: 51
        maxIterations: -1
        step: {id: inner, type: elicitation, tool: be.x}
      - {id: b, type: Tool, tool: "-bad"}
`);
  const errors = errorsOf('vmcp-config.schema.json', doc);
  const at = (p: string, k: string) => assert.ok(findError(errors, p, k), `${p} ${k}: ${JSON.stringify(errors)}`);
  at('/compositeTools/0/timeout', 'pattern');
  at('/compositeTools/0/steps/0/itemVar', 'pattern');
  // Upper bounds belong to workflow/limit (docs/rules/workflow/limit.md), not to the schema.
  assert.ok(!findError(errors, '/compositeTools/0/steps/0/maxParallel', 'maximum'));
  at('/compositeTools/0/steps/0/maxIterations', 'minimum');
  at('/compositeTools/0/steps/0/step/type', 'enum');
  at('/compositeTools/0/steps/1/type', 'enum');
  at('/compositeTools/0/steps/1/tool', 'pattern');
});

test('soft caps and rule-owned checks are not schema errors', () => {
  const steps = Array.from({ length: 101 }, (_, i) => ({ id: `s${i}`, tool: 'be.x' }));
  const doc = {
    compositeTools: [
      {
        name: 't',
        description: 'd',
        parameters: { type: 'string' },
        steps: [
          ...steps,
          { id: 'r', tool: 'be.x', onError: { action: 'retry', retryCount: 50 } },
          { id: 'e', type: 'elicitation', message: 'ok?', timeout: '1h' },
          { id: 'amb', tool: 'be.x', message: 'both' },
          { id: 'f', type: 'forEach', collection: '{{json .params.xs}}', step: { tool: 'be.x' } },
        ],
      },
    ],
  };
  assertValid('vmcp-config.schema.json', doc);
});

test('a whole CLI config needs name, groupRef, incomingAuth, outgoingAuth and aggregation; a fragment does not', () => {
  const errors = errorsOf(
    'vmcp-config.schema.json',
    parse(`
name: demo
compositeTools:
  - {name: t, description: d, steps: [{id: a, tool: be.x}]}
`),
  );
  const missing = errors
    .filter((e) => e.keyword === 'required' && e.instancePath === '')
    .map((e): unknown => e.params.missingProperty);
  assert.deepEqual(missing.sort(), ['aggregation', 'groupRef', 'incomingAuth', 'outgoingAuth']);
  assertValid(
    'vmcp-config.schema.json',
    parse(`
aggregation: {conflictResolution: prefix}
compositeTools:
  - {name: t, description: d, steps: [{id: a, tool: be.x}]}
`),
  );
});

test('aggregation children are closed and typed', () => {
  const errors = errorsOf(
    'vmcp-config.schema.json',
    parse(`
aggregation:
  conflictResolution: first
  conflictResolutionConfig: {prefix: "{workload}_"}
  defaultToolVisibility: hidden
  tools:
    - filter: [a]
      overrides:
        a: {rename: b, annotations: {readOnly: true}}
compositeTools: []
`),
  );
  assert.ok(findError(errors, '/aggregation/conflictResolution', 'enum'));
  assert.ok(findError(errors, '/aggregation/defaultToolVisibility', 'enum'));
  assert.equal(
    findError(errors, '/aggregation/conflictResolutionConfig', 'additionalProperties')?.params.additionalProperty,
    'prefix',
  );
  assert.equal(findError(errors, '/aggregation/tools/0', 'required')?.params.missingProperty, 'workload');
  assert.equal(
    findError(errors, '/aggregation/tools/0/overrides/a', 'additionalProperties')?.params.additionalProperty,
    'rename',
  );
  assert.equal(
    findError(errors, '/aggregation/tools/0/overrides/a/annotations', 'additionalProperties')?.params
      .additionalProperty,
    'readOnly',
  );
});

test('output properties: unknown keys, type enum, value/properties combinations', () => {
  const errors = errorsOf(
    'vmcp-config.schema.json',
    parse(`
compositeTools:
  - name: t
    description: d
    steps: [{id: a, tool: be.x}]
    output:
      properties:
        a: {type: text, description: x, value: "{{.steps.a.output.text}}"}
        b: {type: string, description: x}
        c: {type: object, description: x, value: "{}", properties: {d: {type: string, description: y, value: v, format: z}}}
`),
  );
  assert.ok(findError(errors, '/compositeTools/0/output/properties/a/type', 'enum'));
  assert.equal(findError(errors, '/compositeTools/0/output/properties/b', 'required')?.params.missingProperty, 'value');
  assert.ok(findError(errors, '/compositeTools/0/output/properties/c', 'not'));
  assert.equal(
    findError(errors, '/compositeTools/0/output/properties/c/properties/d', 'additionalProperties')?.params
      .additionalProperty,
    'format',
  );
});

test('VirtualMCPServer: workflows written directly under spec are unknown keys', () => {
  const errors = errorsOf(
    'vmcp-server.schema.json',
    parse(`
apiVersion: toolhive.stacklok.dev/v1alpha1
kind: VirtualMCPServer
metadata: {name: eng}
spec:
  groupRef: {name: eng}
  compositeTools: []
  config:
    compositeTools:
      - {name: t, description: d, steps: [{id: a, tool: be.x, onError: {maxRetries: 1}}]}
`),
  );
  assert.equal(findError(errors, '/spec', 'additionalProperties')?.params.additionalProperty, 'compositeTools');
  assert.equal(
    findError(errors, '/spec/config/compositeTools/0/steps/0/onError', 'additionalProperties')?.params
      .additionalProperty,
    'maxRetries',
  );
  const wrongKind = errorsOf('vmcp-server.schema.json', {
    apiVersion: 'toolhive.stacklok.dev/v2',
    kind: 'VirtualMCPServer',
    spec: { groupRef: { name: 'g' } },
  });
  assert.ok(findError(wrongKind, '/apiVersion', 'enum'));
});

// ---- faces, client configs, calls, project config ----------------------------------------------

const FACES = {
  write_file: {
    family: 'write',
    pathTarget: { param: 'path', access: 'write', base: 'cwd', absent: 'refuse', aliases: ['file'] },
    renderHints: {
      approvalCard: 'file-write',
      userFacingName: 'Write file',
      activity: 'Writing a file',
      summaryParams: ['path'],
      resultCards: ['diff'],
    },
    ruleFace: { params: ['path'], primaryParams: ['path'] },
  },
};

test('face overlay: valid; closed sets and bounds are left to the face rules', () => {
  assertValid('face-overlay.schema.json', { server: 'filesystem', toolFaces: FACES });
  assertValid('face-overlay.schema.json', {
    server: 'filesystem',
    toolFaces: {
      read_file: {
        family: 'wrte',
        pathTarget: { param: 'p', access: 'modify' },
        renderHints: { userFacingName: 'x'.repeat(200), summaryParams: Array(20).fill('p') },
      },
    },
  });
});

test('face overlay: unknown keys and wrong types are reported where they are', () => {
  const errors = errorsOf('face-overlay.schema.json', {
    server: 'fs',
    toolFaces: {
      write_file: {
        family: 'write',
        pathTarget: { param: 'path', access: 'write', mode: 'x' },
        renderHints: { summaryParams: 'path' },
      },
    },
  });
  assert.equal(
    findError(errors, '/toolFaces/write_file/pathTarget', 'additionalProperties')?.params.additionalProperty,
    'mode',
  );
  assert.ok(findError(errors, '/toolFaces/write_file/renderHints/summaryParams', 'type'));
  const noServer = errorsOf('face-overlay.schema.json', { toolFaces: {} });
  assert.equal(findError(noServer, '', 'required')?.params.missingProperty, 'server');
});

test('MCP client configs: VS Code servers/inputs and mcpServers with toolFaces', () => {
  assertValid('mcp-servers.schema.json', {
    inputs: [{ type: 'promptString', id: 'api-key', description: 'API Key', password: true }],
    servers: {
      local: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', 'pkg'],
        env: { K: '${input:api-key}' },
        envFile: '${workspaceFolder}/.env',
        sandboxEnabled: true,
        toolFaces: FACES,
      },
      remote: { type: 'http', url: 'https://host/mcp', headers: { Authorization: 'Bearer ${input:api-key}' } },
      inferred: { url: 'https://host/sse' },
    },
  });
  assertValid('mcp-servers.schema.json', {
    globalShortcut: 'Ctrl+Space',
    mcpServers: { filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] } },
  });
  const errors = errorsOf('mcp-servers.schema.json', {
    servers: {
      a: { type: 'http', command: 'x' },
      b: { type: 'websocket', url: 'ws://x' },
      c: { command: 'x', toolFaces: { t: { family: 'read', renderHint: {} } } },
    },
  });
  assert.equal(findError(errors, '/servers/a', 'required')?.params.missingProperty, 'url');
  assert.ok(findError(errors, '/servers/b/type', 'enum'));
  assert.equal(
    findError(errors, '/servers/c/toolFaces/t', 'additionalProperties')?.params.additionalProperty,
    'renderHint',
  );
});

test('tool calls: every entry shape, results, and JSON-RPC messages', () => {
  assertValid('tool-calls.schema.json', {
    server: 'agent',
    calls: [
      {
        tool: 'call_dynamic_tool',
        input: { namespace: 'applets', toolName: 'applet_create', arguments: { value: 'x' } },
      },
      { type: 'tool_use', id: 'toolu_1', name: 'applet_create', input: { value: 'x' } },
      {
        name: 'read_file',
        arguments: '{"path": "a"}',
        result: { content: [{ type: 'text', text: 'hi' }], structuredContent: { content: 'hi' }, isError: false },
      },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_file', arguments: { path: 'a' } } },
      { jsonrpc: '2.0', id: 1, result: { content: [] } },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
    ],
  });
  const errors = errorsOf('tool-calls.schema.json', {
    calls: [{ input: {} }, { jsonrpc: '2.0', id: 2, method: 'tools/call' }, { name: 'x', result: { isError: 'no' } }],
    extra: 1,
  });
  assert.equal(findError(errors, '', 'additionalProperties')?.params.additionalProperty, 'extra');
  assert.ok(findError(errors, '/calls/0', 'anyOf'));
  assert.equal(findError(errors, '/calls/1', 'required')?.params.missingProperty, 'params');
  assert.ok(findError(errors, '/calls/2/result/isError', 'type'));
  // A JSONL line is checked against the entry definition on its own.
  const entry = ajv.getSchema(BASE + 'tool-calls.schema.json#/definitions/CallEntry');
  assert.ok(entry);
  assert.equal(entry({ tool: 'x', input: {} }), true);
});

test('.toollens.yaml: valid configuration and typos', () => {
  assertValid(
    'toollens-config.schema.json',
    parse(`
catalogs: ["catalogs/**/*.json"]
workloads: {gh: github}
rules:
  template/unknown-param: error
  some/future-rule: off
overrides:
  - files: ["legacy/**"]
    rules: {annotations/unknown-step: off}
kinds:
  vmcp-config: ["gateway/*.yaml"]
`),
  );
  const errors = errorsOf(
    'toollens-config.schema.json',
    parse(`
rule: {}
rules: {template/unknown-param: fatal}
overrides: [{rules: {}}]
kinds: {workflow: ["x"]}
`),
  );
  assert.equal(findError(errors, '', 'additionalProperties')?.params.additionalProperty, 'rule');
  assert.ok(findError(errors, '/rules/template~1unknown-param', 'enum'));
  assert.equal(findError(errors, '/overrides/0', 'required')?.params.missingProperty, 'files');
  assert.equal(findError(errors, '/kinds', 'additionalProperties')?.params.additionalProperty, 'workflow');
});
