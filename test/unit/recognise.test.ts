// Recognising files (docs/behaviour.md#recognising-files): the CLI config without composite tools
// by its server settings, never a file of another format; resources inside a `kind: List` or a
// Chainsaw test as documents of their own, at their own ranges, checked once.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkFile } from '../../server/src/core/engine.js';
import { parseFile } from '../../server/src/core/parse/file.js';
import { kindFromText } from '../../server/src/core/parse/kinds.js';
import { reparseFile } from '../../server/src/core/parse/incremental.js';
import { Workspace } from '../../server/src/core/workspace.js';
import { locate } from '../../server/src/core/ide/cursor.js';
import { loadRecording, describeFindings, failuresLogged } from '../helpers/fixtures.js';

const UNRELATED = join(__dirname, '..', 'corpus', 'unrelated');

test('no file of the unrelated corpus is recognised, and none gets a finding', () => {
  const logged: string[] = [];
  const loaded = loadRecording({ paths: ['.'], cwd: UNRELATED }, logged);
  assert.deepEqual(loaded.configProblems, []);
  assert.ok(loaded.files.length >= 20, `expected at least 20 unrelated files, found ${loaded.files.length}`);
  for (const file of loaded.files) {
    const name = file.path;
    assert.equal(file.kind, null, `${name} is recognised as ${file.kind}`);
    assert.deepEqual(file.documents.map((d) => d.kind).filter(Boolean), [], `${name} has a recognised document`);
    // What a file no parser could read would be taken as, by its text: nothing either.
    assert.equal(kindFromText(file.source.text), null, `${name}: its text reads as one of ours`);
    const report = checkFile(file, loaded.workspace);
    assert.deepEqual(report.findings, [], `${name}:\n${describeFindings(report)}`);
  }
  assert.equal(failuresLogged(logged), undefined);
});

// ---- the CLI config without composite tools -------------------------------------------------------

/** What `thv vmcp init` writes (pkg/vmcp/cli/init.go configTemplate), for a group with one backend. */
const INIT_OUTPUT = `# Generated for review.
name: local-vmcp
groupRef: default
incomingAuth:
  type: anonymous
outgoingAuth:
  source: inline
aggregation:
  conflictResolution: prefix
  conflictResolutionConfig:
    prefixFormat: "{workload}_"
backends:
  - name: fetch
    url: http://127.0.0.1:18080/mcp
    transport: streamable-http
`;

const CLI_CONFIGS: Record<string, string> = {
  'the init template': INIT_OUTPUT,
  'the README quick start (cmd/vmcp/README.md)':
    'name: "my-vmcp"\ngroupRef: "my-team"\nincomingAuth:\n  type: anonymous\noutgoingAuth:\n  source: inline\n  default:\n    type: unauthenticated\n',
  'groupRef and aggregation tools only':
    'groupRef: team\naggregation:\n  tools:\n    - workload: github\n      filter: [list_issues]\n',
  'no groupRef yet (ToolHive refuses it, so it must be checked)':
    'name: x\nincomingAuth:\n  type: oidc\noutgoingAuth:\n  source: inline\n',
  'a misspelt root key':
    'name: x\ngroupRef: g\nincommingAuth:\n  type: anonymous\noutgoingAuth:\n  source: inline\naggregation:\n  conflictResolution: prefix\n',
  'static backends with groupRef':
    'name: x\ngroupRef: g\nbackends:\n  - name: a\n    url: http://a:8080/mcp\n    transport: sse\n',
  JSON: '{"name": "x", "groupRef": "g", "incomingAuth": {"type": "anonymous"}, "outgoingAuth": {"source": "inline"}, "aggregation": {"conflictResolution": "priority"}}',
};

for (const [what, text] of Object.entries(CLI_CONFIGS)) {
  test(`a CLI config without composite tools is a vmcp-config: ${what}`, () => {
    const path = what === 'JSON' ? 'vmcp.json' : 'vmcp.yaml';
    assert.equal(parseFile(path, text).kind, 'vmcp-config');
    // Text shows no shapes, so its marker wants every root key to be the config's (a misspelt one is not).
    if (what !== 'a misspelt root key')
      assert.equal(kindFromText(text), 'vmcp-config', 'its text says so too (a file no parser reads)');
  });
}

const NOT_CLI_CONFIGS: Record<string, string> = {
  'one setting alone': 'name: edge\nbackends:\n  - name: a\n    url: http://a\n',
  'groupRef alone': 'name: team\ngroupRef: admins\nmembers: [ana, bo]\n',
  'settings in other shapes':
    'groupRef: g\nincomingAuth: ldap\noutgoingAuth: none\naggregation: union\nbackends: {ldap: {url: ldaps://x}}\n',
  'a Kubernetes object': 'apiVersion: example.com/v1\nkind: Thing\ngroupRef: g\nincomingAuth:\n  type: oidc\n',
  'mostly other keys':
    'groupRef: g\nincomingAuth:\n  type: jwt\nreplicaCount: 2\nimage: x\nservice: {}\ningress: {}\nresources: {}\n',
};

for (const [what, text] of Object.entries(NOT_CLI_CONFIGS)) {
  test(`not a vmcp-config: ${what}`, () => {
    assert.equal(parseFile('values.yaml', text).kind, null);
  });
}

test('the text marker of the CLI config needs two of its settings and none but its root keys', () => {
  assert.equal(kindFromText('groupRef: g\nincomingAuth:\n  type: [oops\n'), 'vmcp-config');
  assert.equal(kindFromText('groupRef: g\nmembers: [a]\n'), null);
  assert.equal(kindFromText('groupRef: g\naggregation:\n  interval: 60s\nschedule: daily\n'), null);
  assert.equal(kindFromText('apiVersion: v1\nkind: ConfigMap\ngroupRef: g\naggregation: {}\n'), null);
});

// ---- resources inside other YAML -------------------------------------------------------------------

const LIST = `apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: c}
  - apiVersion: toolhive.stacklok.dev/v1beta1
    kind: VirtualMCPServer
    metadata:
      name: gw
    spec:
      groupRef:
        name: team
      incomingAuth:
        type: anonymous
      config:
        aggregation:
          conflictResolution: prefixed
`;

test('the items of a kind: List are documents of their own, at their own ranges', () => {
  const file = parseFile('list.yaml', LIST);
  assert.equal(file.kind, 'vmcp-server');
  assert.equal(file.documents.length, 2);
  const [host, item] = file.documents;
  assert.equal(host!.kind, null);
  assert.equal(item!.kind, 'vmcp-server');
  assert.equal(item!.embedded?.host, 0);
  assert.equal(item!.embedded?.partial, false);
  assert.equal(item!.index, 1);
  assert.equal(LIST.slice(item!.span.start, item!.span.start + 'apiVersion'.length), 'apiVersion');
  const findings = checkFile(file, new Workspace('/ws')).findings;
  assert.deepEqual(
    findings.map((f) => [f.rule, LIST.slice(f.span.start, f.span.end)]),
    [['schema/invalid-value', 'prefixed']],
  );
});

const CHAINSAW = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: t
spec:
  steps:
    - name: create
      try:
        - apply:
            resource:
              apiVersion: toolhive.stacklok.dev/v1beta1
              kind: VirtualMCPServer
              metadata:
                name: gw
                namespace: ($namespace)
              spec:
                groupRef:
                  name: team
                incomingAuth:
                  type: anonymous
        - assert:
            resource:
              apiVersion: toolhive.stacklok.dev/v1beta1
              kind: VirtualMCPServer
              metadata:
                name: gw
              status:
                phase: Ready
        - apply:
            resource:
              apiVersion: toolhive.stacklok.dev/v1beta1
              kind: VirtualMCPServer
              metadata: {name: bad}
              spec:
                incomingAuth: {type: oidc}
            expect:
              - check:
                  ($error != null): true
`;

test('a Chainsaw test: applied resources whole, assertions partial, expected refusals left alone', () => {
  const file = parseFile('chainsaw-test.yaml', CHAINSAW);
  const embedded = file.documents.filter((d) => d.embedded);
  assert.deepEqual(
    embedded.map((d) => [d.kind, d.embedded?.via, d.embedded?.partial]),
    [
      ['vmcp-server', 'apply', false],
      ['vmcp-server', 'assert', true],
    ],
  );
  // `($namespace)` is Chainsaw's, not a literal: it is an expression span.
  assert.deepEqual(
    embedded[0]!.embedded!.expressions.map((s) => CHAINSAW.slice(s.start, s.end)),
    ['($namespace)'],
  );
  // The assertion states no spec: no schema/missing-field for it.
  assert.deepEqual(checkFile(file, new Workspace('/ws')).findings, []);
});

test('a parse problem inside an embedded resource is reported once, by that document', () => {
  const text = LIST.replace('      name: gw\n', '      name: gw\n      name: gw2\n');
  const file = parseFile('list.yaml', text);
  const findings = checkFile(file, new Workspace('/ws')).findings.filter((f) => f.rule === 'yaml/duplicate-key');
  assert.equal(findings.length, 1);
  assert.equal(text.slice(findings[0]!.span.start, findings[0]!.span.end), 'name');
});

test('a re-parse after an edit finds the embedded documents again, as a full parse does', () => {
  const file = parseFile('list.yaml', LIST);
  const edited = LIST.replace('prefixed', 'priority');
  const again = reparseFile(file, edited, null);
  const full = parseFile('list.yaml', edited);
  assert.ok(again, 'the edit is re-read in place');
  assert.deepEqual(
    again.documents.map((d) => [d.kind, d.span, d.embedded?.host]),
    full.documents.map((d) => [d.kind, d.span, d.embedded?.host]),
  );
  assert.deepEqual(checkFile(again, new Workspace('/ws')).findings, checkFile(full, new Workspace('/ws')).findings);
});

test('a document of ours is not looked into, and a forced kind embeds nothing', () => {
  const file = parseFile('list.yaml', LIST, { forcedKind: 'vmcp-config' });
  assert.equal(file.documents.length, 1);
});

test('the clean corpus holds each new shape, recognised as such (so its silence means something)', () => {
  const clean = join(__dirname, '..', 'corpus', 'clean', 'gateways');
  const read = (name: string) => parseFile(join(clean, name), readFileSync(join(clean, name), 'utf8'));
  assert.equal(read('local-dev.vmcp.yaml').kind, 'vmcp-config');
  const list = read('review-stack.list.yaml').documents.filter((d) => d.embedded);
  assert.deepEqual(
    list.map((d) => [d.kind, d.embedded?.via]),
    [
      ['vmcp-server', 'list'],
      ['vmcp-composite', 'list'],
    ],
  );
  const chainsaw = read('review-stack.chainsaw-test.yaml').documents.filter((d) => d.embedded);
  assert.deepEqual(
    chainsaw.map((d) => [d.kind, d.embedded?.via, d.embedded?.partial]),
    [
      ['vmcp-composite', 'apply', false],
      ['vmcp-server', 'apply', false],
      ['vmcp-server', 'assert', true],
      ['vmcp-composite', 'assert', true],
    ],
  );
});

test('a JSON List (kubectl get -o json) embeds its items too', () => {
  const text = JSON.stringify(
    {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        {
          apiVersion: 'toolhive.stacklok.dev/v1beta1',
          kind: 'VirtualMCPCompositeToolDefinition',
          metadata: { name: 'd' },
          spec: {
            name: 'x',
            steps: [
              { id: 'a', tool: 'fs.read' },
              { id: 'a', tool: 'fs.read' },
            ],
          },
        },
      ],
    },
    null,
    2,
  );
  const file = parseFile('list.json', text);
  assert.equal(file.documents[1]?.kind, 'vmcp-composite');
  const findings = checkFile(file, new Workspace('/ws')).findings.filter(
    (f) => f.rule === 'workflow/duplicate-step-id',
  );
  assert.equal(findings.length, 1);
  assert.equal(text.slice(findings[0]!.span.start, findings[0]!.span.end), '"a"');
  assert.ok(findings[0]!.span.start > text.lastIndexOf('"id"') - 1, 'on the second step');
});

test("the editor's cursor inside an embedded resource is in that resource's document", () => {
  const file = parseFile('list.yaml', LIST);
  const located = locate(file, LIST.indexOf('prefixed'));
  assert.equal(located?.doc.embedded?.host, 0);
  assert.deepEqual(located?.path, ['spec', 'config', 'aggregation', 'conflictResolution']);
  assert.equal(locate(file, LIST.indexOf('ConfigMap'))?.doc.embedded, undefined);
});

test('suppressions and declined content inside an embedded resource are said once', () => {
  const suppressed = LIST.replace(
    'conflictResolution: prefixed',
    'conflictResolution: prefixed # tool-lens-disable-line schema/invalid-value',
  );
  assert.deepEqual(checkFile(parseFile('list.yaml', suppressed), new Workspace('/ws')).findings, []);
  const unused = LIST.replace('name: gw', 'name: gw # tool-lens-disable-line schema/unknown-key');
  assert.deepEqual(
    checkFile(parseFile('list.yaml', unused), new Workspace('/ws')).findings.map((f) => f.rule),
    ['lens/unused-suppression', 'schema/invalid-value'],
  );
  // A value nested deeper than Tool Lens reads (LIMITS.nesting), inside the listed resource.
  const deep = LIST.replace(
    '          conflictResolution: prefixed\n',
    `          conflictResolution: prefix\n      metadataExtra: ${'['.repeat(450)}${']'.repeat(450)}\n`,
  );
  const declined = checkFile(parseFile('list.yaml', deep), new Workspace('/ws')).findings.filter(
    (f) => f.rule === 'lens/declined',
  );
  assert.equal(declined.length, 1, declined.map((f) => f.message).join('\n'));
});

test('Lists inside Lists are followed as deep as the parser reads', () => {
  const item =
    '{apiVersion: toolhive.stacklok.dev/v1beta1, kind: VirtualMCPCompositeToolDefinition, metadata: {name: d}, spec: {name: x, description: One read., steps: [{id: a, tool: fs.read}]}}';
  let node = item;
  for (let i = 0; i < 150; i++) node = `{apiVersion: v1, kind: List, items: [${node}]}`;
  const file = parseFile('deep.yaml', node);
  assert.equal(file.documents.filter((d) => d.embedded).length, 1);
  // The innermost definition is checked: its step's tool has no catalog here, said at its place.
  assert.deepEqual(
    checkFile(file, new Workspace('/ws')).findings.map((f) => [f.rule, node.slice(f.span.start, f.span.end)]),
    [['tool/unknown', 'fs.read']],
  );
});

// A Chainsaw test's `assert: {file: ...}` names a file of its own, such as ToolHive's
// assert-vmcp-status-ready.yaml: a resource stating only its status. Before, it was checked as an
// object to apply and got "The document has no `spec`".
const STATUS_ONLY = `apiVersion: toolhive.stacklok.dev/v1beta1
kind: VirtualMCPServer
metadata:
  name: gw
status:
  phase: Ready
`;

test('a resource that states a status and no spec is an assertion: nothing it leaves out is missing', () => {
  const file = parseFile('assert-ready.yaml', STATUS_ONLY);
  assert.equal(file.documents[0]!.kind, 'vmcp-server');
  assert.equal(file.documents[0]!.partial, true);
  assert.deepEqual(checkFile(file, new Workspace('/ws')).findings, []);
  // What it does state is still checked.
  const typo = parseFile('assert-ready.yaml', STATUS_ONLY.replace('metadata:', 'metdata:'));
  assert.deepEqual(
    checkFile(typo, new Workspace('/ws')).findings.map((f) => f.rule),
    ['schema/unknown-key'],
  );
});

test('a resource with a spec is an object, status or not; an edit that adds the spec makes it one', () => {
  const withSpec = STATUS_ONLY.replace('status:', 'spec:\n  groupRef: g\nstatus:');
  const file = parseFile('gw.yaml', withSpec);
  assert.equal(file.documents[0]!.partial, false);
  assert.ok(
    checkFile(file, new Workspace('/ws')).findings.some((f) => f.rule === 'schema/missing-field'),
    'a spec without incomingAuth is incomplete',
  );
  const again = reparseFile(parseFile('gw.yaml', STATUS_ONLY), withSpec, null) ?? parseFile('gw.yaml', withSpec);
  assert.equal(again.documents[0]!.partial, false);
});
