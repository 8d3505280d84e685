// Every name a user chooses (servers, workloads, tools, namespaces, step ids, parameters, face keys)
// spelt like a member of Object.prototype: `constructor`, `__proto__`, `toString`, `hasOwnProperty`,
// `valueOf`. A lookup in a plain object finds the prototype's member instead of nothing, so such a
// workspace once gave "function Object() { [native code] }" in messages and servers that never
// resolved. The whole checker runs over one workspace (catalog, .toollens.yaml, gateway, overlay,
// calls) twice: with those names, and with ordinary names of the same shape. The findings must be
// the same, name for name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseConfig } from '../../server/src/core/config/config.js';
import { checkFile } from '../../server/src/core/engine.js';
import { Workspace } from '../../server/src/core/workspace.js';

/**
 * Ordinary name → prototype name, each pair of one length and one shape (case and underscores in
 * the same places) and in the same sorting order, so that nothing but the spelling differs. The
 * misspellings drop the next-to-last character of each.
 */
const NAMES: [ordinary: string, prototype: string][] = [
  ['__gamma__', '__proto__'],
  ['lighthouses', 'constructor'],
  ['mixBlaCanyonsy', 'hasOwnProperty'],
  ['tiMirror', 'toString'],
  ['wobblQx', 'valueOf'],
];
const TYPOS: [string, string][] = NAMES.map(([a, b]) => [a.slice(0, -2) + a.slice(-1), b.slice(0, -2) + b.slice(-1)]);
const ALL = [...NAMES, ...TYPOS].sort((x, y) => y[0].length - x[0].length);
const [GAMMA, LIGHT, MIX, MIRROR, WOBBLE] = NAMES.map(([ordinary]) => ordinary) as [
  string,
  string,
  string,
  string,
  string,
];
const typo = (name: string) => name.slice(0, -2) + name.slice(-1);

function toPrototypeNames(text: string): string {
  const pattern = new RegExp(ALL.map(([ordinary]) => ordinary).join('|'), 'g');
  return text.replace(pattern, (found) => ALL.find(([ordinary]) => ordinary === found)![1]);
}

/** The workspace, written with ordinary names. */
const FILES: Record<string, string> = {
  '.toollens.yaml': `
workloads:
  ${WOBBLE}: ${MIX}
`,
  'servers.catalog.yaml': `
catalog: 1
servers:
  - name: ${LIGHT}
    tools:
      - name: ${MIRROR}
        description: Reads one entry.
        inputSchema:
          type: object
          properties:
            ${GAMMA}: {type: string, description: Where to read.}
            ${WOBBLE}: {type: integer}
            ${LIGHT}: {type: string, enum: [${MIRROR}, ${WOBBLE}]}
          required: [${GAMMA}]
        annotations: {readOnlyHint: true, openWorldHint: false}
      - name: ${MIX}
        description: Writes one entry.
        inputSchema:
          type: object
          properties:
            ${MIRROR}: {type: string}
          required: [${MIRROR}]
        annotations: {readOnlyHint: false, destructiveHint: true, openWorldHint: false}
      - name: ${WOBBLE}
        description: Declares no hints.
        inputSchema: {type: object, properties: {${MIX}: {type: boolean}}}
      - name: ${MIRROR}
        description: Listed twice.
        inputSchema: {type: object}
    namespaces:
      - name: ${WOBBLE}
        tools:
          - name: ${LIGHT}
            description: A dynamic tool.
            inputSchema: {type: object, properties: {${GAMMA}: {type: string}}, required: [${GAMMA}]}
  - name: ${MIX}
    tools:
      - name: ${GAMMA}
        description: Another server's tool.
        inputSchema: {type: object, properties: {${WOBBLE}: {type: string}}}
        annotations: {readOnlyHint: true, openWorldHint: false}
      - name: ${LIGHT}
        inputSchma: {type: object}
`,
  'gateway.vmcp.yaml': `
name: ${LIGHT}
groupRef: ${MIRROR}
backends:
  - name: ${LIGHT}
    url: http://localhost:8101/mcp
    transport: streamable-http
  - name: ${WOBBLE}
    url: http://localhost:8102/mcp
    transport: streamable-http
  - name: ${MIRROR}
    url: http://localhost:8103/mcp
    transport: streamable-http
incomingAuth:
  type: anonymous
outgoingAuth:
  source: inline
  default:
    type: unauthenticated
aggregation:
  conflictResolution: prefix
  conflictResolutionConfig:
    prefixFormat: "{workload}_"
  tools:
    - workload: ${LIGHT}
      filter: [${MIRROR}, ${MIX}, ${WOBBLE}]
      overrides:
        ${WOBBLE}:
          name: ${GAMMA}
          annotations: {readOnlyHint: true}
compositeTools:
  - name: ${LIGHT}
    description: Every name is a prototype's.
    parameters:
      type: object
      properties:
        ${GAMMA}: {type: string}
        ${MIRROR}: {type: integer}
      required: [${GAMMA}]
    annotations:
      readOnlyHint: true
    steps:
      - id: ${GAMMA}
        tool: ${LIGHT}.${MIRROR}
        arguments:
          ${GAMMA}: "{{.params.${GAMMA}}}"
          ${WOBBLE}: 3
          ${MIX}: extra
          ${LIGHT}: ${typo(MIRROR)}
      - id: ${MIRROR}
        tool: ${LIGHT}.${MIX}
        dependsOn: [${GAMMA}]
        arguments:
          ${MIRROR}: "{{.steps.${GAMMA}.output.text}}{{.params.${typo(GAMMA)}}}"
      - id: ${WOBBLE}
        tool: ${LIGHT}_${MIRROR}
        condition: "{{.params.${MIRROR}}}"
        arguments:
          ${GAMMA}: "{{.steps.${MIRROR}.output.text}}"
      - id: ${MIX}
        tool: ${WOBBLE}.${LIGHT}
        dependsOn: [${LIGHT}, ${typo(WOBBLE)}]
        arguments: {}
      - id: ${LIGHT}
        tool: ${MIRROR}.${WOBBLE}
      - id: ${typo(LIGHT)}
        tool: ${LIGHT}.${typo(MIX)}
      - id: ${typo(MIRROR)}
        tool: ${typo(LIGHT)}.${MIRROR}
        arguments:
          ${GAMMA}: "{{.steps.${typo(WOBBLE)}.output.text}}"
    output:
      properties:
        ${GAMMA}:
          type: string
          description: The result.
          value: "{{.steps.${WOBBLE}.output.text}}"
  - name: ${LIGHT}_${MIRROR}
    description: Named like a backend tool.
    steps:
      - id: ${LIGHT}
        tool: ${LIGHT}.${MIRROR}
        arguments: {${GAMMA}: /a}
`,
  [`${LIGHT}.faces.yaml`]: `
server: ${LIGHT}
toolFaces:
  ${MIRROR}:
    family: read
    pathTarget: {param: ${GAMMA}, access: read, base: cwd, absent: refuse}
    renderHints: {userFacingName: Read one, summaryParams: [${GAMMA}, ${WOBBLE}, ${MIX}]}
    ruleFace: {params: [${GAMMA}], primaryParams: [${typo(GAMMA)}]}
  ${WOBBLE}:
    family: writ
  ${GAMMA}:
    family: read
  ${typo(MIX)}:
    family: read
`,
  [`${LIGHT}.calls.yaml`]: `
server: ${LIGHT}
calls:
  - tool: ${MIRROR}
    input: {${GAMMA}: /a, ${WOBBLE}: x, ${LIGHT}: ${WOBBLE}}
  - tool: call_dynamic_tool
    input: {namespace: ${WOBBLE}, toolName: ${LIGHT}, arguments: {${GAMMA}: x}}
  - tool: call_dynamic_tool
    input: {namespace: ${typo(WOBBLE)}, toolName: ${LIGHT}, arguments: {}}
  - tool: call_dynamic_tool
    input: {namespace: ${WOBBLE}, toolName: ${typo(LIGHT)}, arguments: {}}
  - tool: ${MIX}
    input: {}
  - tool: ${WOBBLE}
    input: {${LIGHT}: 1, ${typo(MIX)}: true}
  - tool: ${typo(MIRROR)}
    input: {}
  - tool: ${LIGHT}
    input: {}
`,
};

interface Seen {
  file: string;
  rule: string;
  severity: string;
  start: number;
  end: number;
  message: string;
  related: string[];
  fixes: string[];
}

function checkAll(files: Record<string, string>): Seen[] {
  const logs: string[] = [];
  const workspace = new Workspace('/ws', (message) => logs.push(message));
  const { config, problems } = parseConfig('/ws/.toollens.yaml', files['.toollens.yaml']!, new Set());
  assert.deepEqual(problems, [], 'the configuration reads');
  workspace.config = config;
  for (const [name, text] of Object.entries(files))
    if (name.endsWith('.catalog.yaml')) workspace.catalog.addFile(workspace.parse(`/ws/${name}`, text));
  const seen: Seen[] = [];
  for (const [name, text] of Object.entries(files)) {
    if (name === '.toollens.yaml') continue;
    const { findings } = checkFile(workspace.parse(`/ws/${name}`, text), workspace);
    for (const f of findings) {
      seen.push({
        file: name,
        rule: f.rule,
        severity: f.severity,
        start: f.span.start,
        end: f.span.end,
        message: f.message,
        related: (f.related ?? []).map((r) => `${r.file ?? ''}@${r.span.start}: ${r.message}`),
        fixes: (f.fixes ?? []).map(
          (x) => `${x.title}: ${x.edits.map((e) => `${e.span.start}-${e.span.end}=${e.newText}`).join('|')}`,
        ),
      });
    }
  }
  assert.deepEqual(logs, [], 'no rule failed');
  return seen;
}

test('names spelt like Object.prototype members are names like any other, in every rule', () => {
  const ordinary = checkAll(FILES);
  const prototype = checkAll(
    Object.fromEntries(Object.entries(FILES).map(([name, text]) => [toPrototypeNames(name), toPrototypeNames(text)])),
  );
  for (const f of prototype) {
    const text = [f.message, ...f.related, ...f.fixes].join('\n');
    assert.doesNotMatch(text, /\[native code\]|function \w*\(/, `${f.rule}: ${text}`);
  }
  const expected = ordinary.map((f) => ({
    ...f,
    file: toPrototypeNames(f.file),
    message: toPrototypeNames(f.message),
    related: f.related.map(toPrototypeNames),
    fixes: f.fixes.map(toPrototypeNames),
  }));
  assert.deepEqual(prototype, expected);
  // The workspace is worth checking: every family has something to say about it.
  const rules = new Set(ordinary.map((f) => f.rule));
  for (const rule of [
    'tool/unknown',
    'tool/name-conflict',
    'args/unknown',
    'args/wrong-type',
    'args/missing-required',
    'annotations/contradiction',
    'template/unknown-param',
    'template/unknown-step',
    'template/not-upstream',
    'workflow/unknown-dependency',
    'catalog/duplicate-name',
    'catalog/unknown-field',
    'face/undeclared',
    'face/unknown-param',
    'envelope/unknown-namespace',
  ]) {
    assert.ok(rules.has(rule), `no ${rule} finding in the workspace: ${[...rules].join(', ')}`);
  }
  assert.ok(
    ordinary.some((f) => /[Dd]id you mean/.test(f.message)),
    'suggestions are compared too',
  );
});
