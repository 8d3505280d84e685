// aggregation/advertised-rename in the editor: the session keeps the catalog it first read from
// disk as its baseline; a snapshot added on disk or edited in the editor that renames an
// advertised tool gives the gateway one finding per changed name, at the setting that decides it,
// with the steps and calls that write the old name as related places; the quick fix's command
// makes the current catalog the baseline and the finding goes away. The CLI has no baseline.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CodeActionRequest,
  DidChangeWatchedFilesNotification,
  ExecuteCommandRequest,
  FileChangeType,
  type CodeAction,
  type Diagnostic,
} from 'vscode-languageserver-protocol/node';
import { SERVER_COMMANDS } from '../../server/src/lsp/protocol.js';
import { runCli } from '../cli/harness.js';
import { makeWorkspace, startInProcess, type InProcess } from './harness.js';

const RULE = 'aggregation/advertised-rename';

const GITHUB = `catalog: 1
servers:
  - name: github
    tools:
      - name: create_issue
        description: Open an issue in a repository.
        inputSchema: {type: object, properties: {title: {type: string}}, required: [title]}
        annotations: {readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true}
`;

const NOTES = `catalog: 1
servers:
  - name: notes
    tools:
      - name: add_note
        description: Add a note.
        inputSchema: {type: object, properties: {text: {type: string}}, required: [text]}
        annotations: {readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false}
`;

const GITLAB = `catalog: 1
servers:
  - name: gitlab
    tools:
      - name: create_issue
        description: Open an issue in a GitLab project.
        inputSchema: {type: object, properties: {title: {type: string}}, required: [title]}
        annotations: {readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true}
`;

const GATEWAY = `name: issues-gateway
groupRef: issues
incomingAuth: {type: anonymous}
outgoingAuth: {source: inline}
backends:
  - {name: github, url: "http://github:8080/mcp", transport: streamable-http}
  - {name: gitlab, url: "http://gitlab:8080/mcp", transport: streamable-http}
  - {name: notes, url: "http://notes:8080/mcp", transport: streamable-http}
aggregation:
  conflictResolution: priority
  conflictResolutionConfig:
    priorityOrder: [notes]
compositeTools:
  - name: file_bug
    description: File a bug.
    parameters: {type: object, properties: {title: {type: string}}}
    steps:
      - id: open
        tool: create_issue
        arguments: {title: "{{.params.title}}"}
`;

const DEFINITION = `apiVersion: toolhive.stacklok.dev/v1alpha1
kind: VirtualMCPCompositeToolDefinition
metadata:
  name: triage
spec:
  name: triage
  description: Open an issue for triage.
  steps:
    - id: file
      tool: create_issue
      arguments: {title: triage}
`;

/** Calls recorded against the gitlab server: by its own tool names, which only a rename on the backend changes. */
const CALLS = `server: gitlab
calls:
  - name: create_issue
    arguments: {title: recorded}
`;

const byRule = (items: Diagnostic[]) => items.filter((d) => d.code === RULE);
/** The message and the why under it: the related information at the diagnostic's own range. */
const messageOf = (d: Diagnostic): string =>
  [
    typeof d.message === 'string' ? d.message : d.message.value,
    ...(d.relatedInformation ?? [])
      .filter((r) => JSON.stringify(r.location.range) === JSON.stringify(d.range))
      .map((r) => r.message),
  ].join(' ');

function lineOf(text: string, needle: string): number {
  const index = text.indexOf(needle);
  assert.ok(index >= 0, `fixture lacks ${needle}`);
  return text.slice(0, index).split('\n').length - 1;
}

describe('aggregation/advertised-rename in the language server', () => {
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;
  const gateway = () => ws.uri('gateway.vmcp.yaml');

  before(async () => {
    ws = makeWorkspace({
      'catalogs/github.catalog.yaml': GITHUB,
      'catalogs/notes.catalog.yaml': NOTES,
      'gateway.vmcp.yaml': GATEWAY,
      'triage.composite.yaml': DEFINITION,
      'gitlab.calls.yaml': CALLS,
    });
    server = startInProcess();
    await server.client.initialize(ws.root);
  });

  after(async () => {
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
  });

  async function diskChanged(path: string, type: FileChangeType): Promise<void> {
    const refreshes = server.client.refreshes;
    await server.client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: ws.uri(path), type }],
    });
    await server.client.waitFor(() => server.client.refreshes > refreshes, `a refresh after ${path} changed on disk`);
  }

  test('nothing at start: the catalog is its own baseline', async () => {
    assert.deepEqual(byRule(await server.client.pullItems(gateway())), []);
  });

  test("a snapshot added on disk that clashes under priority: one finding at priorityOrder, the old name's steps as related places", async () => {
    ws.write('catalogs/gitlab.catalog.yaml', GITLAB);
    await diskChanged('catalogs/gitlab.catalog.yaml', FileChangeType.Created);
    const found = byRule(await server.client.pullItems(gateway()));
    assert.equal(found.length, 1, JSON.stringify(found));
    const [finding] = found;
    assert.match(
      messageOf(finding!),
      /renames the advertised tool "create_issue" \(github\.create_issue\) to "github_create_issue"/,
    );
    assert.match(messageOf(finding!), /Workload "gitlab" now serves a tool named "create_issue" too/);
    assert.match(messageOf(finding!), /2 steps of the workspace/);
    const line = lineOf(GATEWAY, 'priorityOrder: [notes]');
    assert.deepEqual(finding!.range, { start: { line, character: 19 }, end: { line, character: 26 } });
    const related = finding!.relatedInformation ?? [];
    const at = (uri: string, needle: string, text: string) =>
      related.find((r) => r.location.uri === uri && r.location.range.start.line === lineOf(text, needle));
    assert.match(
      at(gateway(), 'tool: create_issue', GATEWAY)?.message ?? '',
      /step "open" of composite tool "file_bug" calls "create_issue"/,
    );
    assert.match(
      at(ws.uri('triage.composite.yaml'), 'tool: create_issue', DEFINITION)?.message ?? '',
      /step "file" of composite tool "triage"/,
    );
    assert.match(
      at(ws.uri('catalogs/gitlab.catalog.yaml'), 'name: create_issue', GITLAB)?.message ?? '',
      /gitlab\.create_issue, which now serves "create_issue" too/,
    );
    assert.ok(
      !related.some((r) => r.location.uri === ws.uri('gitlab.calls.yaml')),
      'a call recorded against a server does not go through the gateway',
    );
    // The steps keep their own finding (tool/unknown), not a second one of this rule.
    assert.ok(
      (await server.client.pullItems(gateway())).some(
        (d) => d.code === 'tool/unknown' && d.range.start.line === lineOf(GATEWAY, 'tool: create_issue'),
      ),
    );
    assert.deepEqual(byRule(await server.client.pullItems(ws.uri('triage.composite.yaml'))), []);
  });

  test('the quick fix accepts the catalog as it is now, and the finding goes away', async () => {
    const [finding] = byRule(await server.client.pullItems(gateway()));
    const actions = (await server.client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: gateway() },
      range: finding!.range,
      context: { diagnostics: [finding!] },
    })) as CodeAction[];
    const accept = actions.find((a) => a.command?.command === SERVER_COMMANDS.acceptCatalog);
    assert.ok(accept, `an accept action among: ${actions.map((a) => a.title).join(', ')}`);
    assert.equal(accept.edit, undefined);
    // A change, not a mistake: accepting answers it, a suppression comment would only hide the next one.
    assert.deepEqual(
      actions.filter((a) => a.title.startsWith('Disable ')).map((a) => a.title),
      [],
      'no suppression offered for a rename',
    );
    const refreshes = server.client.refreshes;
    await server.client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: accept.command!.command,
      arguments: accept.command!.arguments,
    });
    await server.client.waitFor(() => server.client.refreshes > refreshes, 'a refresh after accepting');
    assert.deepEqual(byRule(await server.client.pullItems(gateway())), []);
  });

  test('an edit in the editor that changes no advertised name gives no finding', async () => {
    const uri = ws.uri('catalogs/gitlab.catalog.yaml');
    await server.client.open(uri, GITLAB);
    await server.client.replaceAll(uri, GITLAB.replace('Open an issue in a GitLab project.', 'Open a GitLab issue.'));
    assert.deepEqual(byRule(await server.client.pullItems(gateway())), []);
  });

  test('an edit in the editor that renames the clashing tool: two renames against the accepted baseline; undoing it clears them', async () => {
    const uri = ws.uri('catalogs/gitlab.catalog.yaml');
    // Same schema and description under another name: the server renamed the tool.
    await server.client.replaceAll(uri, GITLAB.replace('name: create_issue', 'name: open_issue'));
    const found = byRule(await server.client.pullItems(gateway()));
    assert.equal(found.length, 2, JSON.stringify(found.map((d) => d.message)));
    const renamed = found.find((d) => messageOf(d).includes('(gitlab.create_issue)'));
    assert.match(
      messageOf(renamed!),
      /renames the advertised tool "gitlab_create_issue" \(gitlab\.create_issue\) to "open_issue"/,
    );
    assert.match(messageOf(renamed!), /The server renamed the tool to "open_issue"/);
    assert.equal(renamed!.range.start.line, lineOf(GATEWAY, '{name: gitlab'), "at the workload's entry in backends");
    assert.match(messageOf(renamed!), /1 recorded call of the workspace/);
    const call = renamed!.relatedInformation?.find((r) => r.location.uri === ws.uri('gitlab.calls.yaml'));
    assert.equal(
      call?.location.range.start.line,
      lineOf(CALLS, 'name: create_issue'),
      'the call recorded against gitlab by the old name',
    );
    const unclashed = found.find((d) => messageOf(d).includes('(github.create_issue)'));
    assert.match(
      messageOf(unclashed!),
      /renames the advertised tool "github_create_issue" \(github\.create_issue\) to "create_issue"/,
    );
    assert.match(messageOf(unclashed!), /clash with workload "gitlab", which the catalog no longer has/);
    assert.match(
      messageOf(unclashed!),
      /clients that use "github_create_issue" no longer reach it \(no step or call of the workspace writes it\)/,
    );
    await server.client.replaceAll(uri, GITLAB);
    assert.deepEqual(byRule(await server.client.pullItems(gateway())), []);
    await server.client.close(uri);
  });

  test('a snapshot removed from disk renames back, at the same place', async () => {
    rmSync(join(ws.root, 'catalogs', 'gitlab.catalog.yaml'));
    await diskChanged('catalogs/gitlab.catalog.yaml', FileChangeType.Deleted);
    const [finding, ...rest] = byRule(await server.client.pullItems(gateway()));
    assert.equal(rest.length, 0, JSON.stringify(rest.map((d) => messageOf(d))));
    assert.match(messageOf(finding!), /to "create_issue"/);
    assert.equal(finding!.range.start.line, lineOf(GATEWAY, 'priorityOrder: [notes]'));
  });

  test('the CLI has no baseline: check reports nothing of the rule on the same workspace', () => {
    ws.write('catalogs/gitlab.catalog.yaml', GITLAB);
    const run = runCli(['check', '--format', 'json', '.'], { cwd: ws.root });
    const report = JSON.parse(run.stdout) as { files: { diagnostics: { rule: string }[] }[] };
    const rules = report.files.flatMap((f) => f.diagnostics.map((x) => x.rule));
    assert.ok(rules.includes('tool/unknown'), 'the steps that name the clashing name are reported');
    assert.ok(!rules.includes(RULE), `no ${RULE} in the CLI`);
  });
});
