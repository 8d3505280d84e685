// Extension-host checks of the derived views (issue 12), called from codeserver.host.ts: "Show
// Derived Floor" opens a read-only virtual document (our `tool-lens:` scheme) and leaves no
// untitled or dirty document behind; the workflow graph's tab names the composite and the file,
// and the graph the server sends it marks the composite the gateway leaves out, the step that
// breaks its claim, the race and the unknown step; the open panel follows a quick fix (the race
// goes), and a file with no composite tool opens no panel (issue 26).
import * as vscode from 'vscode';
import type { HostPlan } from './codeserver.host.js';

type Check = (name: string, body: () => string | Promise<string>) => Promise<void>;

interface GraphNode {
  id: string;
  marks?: { kind: string; text: string }[];
}
interface Graph {
  workflow: string;
  nodes: GraphNode[];
  edges: { from: string; to: string; kind?: string }[];
  dropped?: string;
}

const WAIT_MS = 20000;

/** What the extension exports for the panel (client/src/extension.ts's ToolLensApi). */
interface GraphApi {
  workflowGraph(): { title: string; graphs: Graph[] } | undefined;
}

// A gateway with everything the graph marks: copy_readme claims read-only while "write" writes,
// "write" reads "read" without waiting for it, and "notify" names a tool the catalog lacks.
const PROBE = 'gateways/views-probe.vmcp.yaml';
const PROBE_TEXT = `name: views-probe
groupRef: docs
incomingAuth: {type: anonymous}
outgoingAuth: {source: inline, default: {type: unauthenticated}}
backends:
  - name: filesystem
    url: http://filesystem:8080/mcp
    transport: streamable-http
compositeTools:
  - name: copy_readme
    description: Copy the README.
    annotations:
      readOnlyHint: true
    steps:
      - id: read
        tool: filesystem.read_text_file
        arguments:
          path: README.md
      - id: write
        tool: filesystem.write_file
        arguments:
          path: published/README.md
          content: "{{.steps.read.output.content}}"
      - id: notify
        tool: filesystem.notify_all
        dependsOn: [write]
`;

function fail(message: string): never {
  throw new Error(message);
}

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = WAIT_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) fail(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function allTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs);
}

function describeDocuments(): string {
  return JSON.stringify(
    vscode.workspace.textDocuments.map((d) => ({ uri: d.uri.toString(), untitled: d.isUntitled, dirty: d.isDirty })),
  );
}

export async function hostViews(
  check: Check,
  folder: vscode.Uri,
  plan: HostPlan,
  extension: vscode.Extension<unknown> | undefined,
): Promise<void> {
  const gatewayUri = vscode.Uri.joinPath(folder, plan.gateway);
  const api = extension?.exports as GraphApi | undefined;

  await check(
    'Show Derived Floor opens a read-only tool-lens: document and leaves nothing untitled or dirty',
    async () => {
      const document = await vscode.workspace.openTextDocument(gatewayUri);
      await vscode.window.showTextDocument(document);
      const name = document.positionAt(plan.gatewayText.indexOf(`name: ${plan.composite}`) + 'name: '.length + 1);
      // As the code lens runs it: the file and the position of the composite's name.
      await vscode.commands.executeCommand('toolLens.showFloor', gatewayUri.toString(), {
        line: name.line,
        character: name.character,
      });
      const view = await waitFor('the floor document', () =>
        vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'tool-lens'),
      );
      if (!view.getText().includes('| hint | floor | explicit | advertised | decided by |'))
        fail(`no floor table in ${view.uri.toString()}: ${view.getText().slice(0, 300)}`);
      if (!view.uri.path.includes(`Floor of ${plan.composite}`))
        fail(`the view's name does not name the composite: ${view.uri.path}`);
      const preview = await waitFor('the Markdown preview tab', () =>
        allTabs().find(
          (t) => t.input instanceof vscode.TabInputWebview && t.label.includes(`Floor of ${plan.composite}`),
        ),
      );
      const mess = vscode.workspace.textDocuments.filter((d) => d.isUntitled || d.isDirty);
      if (mess.length) fail(`documents left untitled or dirty: ${describeDocuments()}`);
      // Closing the preview asks nothing (a dirty or untitled document would ask to be saved).
      if (!(await vscode.window.tabGroups.close(preview))) fail('the preview tab did not close');
      const stillThere = allTabs().filter((t) => t.label.includes('Floor of'));
      if (stillThere.length) fail(`tabs left after closing the preview: ${stillThere.map((t) => t.label).join(', ')}`);
      return `${view.uri.toString()} (${view.lineCount} lines), shown as "${preview.label}"; documents: ${describeDocuments()}`;
    },
  );

  await check(
    'the workflow graph marks the composite left out, the step that breaks its claim, the race and the unknown step; its tab names both; it follows a quick fix; no panel for a file without composites',
    async () => {
      const probe = vscode.Uri.joinPath(folder, PROBE);
      await vscode.workspace.fs.writeFile(probe, new TextEncoder().encode(PROBE_TEXT));
      const document = await vscode.workspace.openTextDocument(probe);
      await vscode.window.showTextDocument(document);
      // The race is the diagnostics' (template/not-upstream): wait until the server has checked the file.
      await waitFor("the probe's template/not-upstream diagnostic", () =>
        vscode.languages
          .getDiagnostics(probe)
          .some((d) => (typeof d.code === 'object' ? d.code.value : d.code) === 'template/not-upstream')
          ? true
          : undefined,
      );
      // The language client registers the server's commands: this is the graph the panel is given.
      const graphs = await vscode.commands.executeCommand<Graph[]>('toolLens.server.workflowGraph', {
        uri: probe.toString(),
      });
      const graph = graphs?.[0] ?? fail(`no graph: ${JSON.stringify(graphs)}`);
      const marks = Object.fromEntries(
        graph.nodes.map((n) => [
          n.id,
          (n.marks ?? [])
            .map((m) => m.kind)
            .sort()
            .join(','),
        ]),
      );
      // "notify" does not resolve: the gateway leaves the composite out for it, and it decides no claim.
      const expected = { read: '', write: 'breaks-claim,race', notify: 'unknown' };
      if (JSON.stringify(marks) !== JSON.stringify(expected))
        fail(`marks ${JSON.stringify(marks)}, expected ${JSON.stringify(expected)}`);
      if (!graph.dropped?.startsWith('Left out by the gateway: step "notify" does not resolve'))
        fail(`the composite is not marked left out: ${JSON.stringify(graph.dropped)}`);
      if (!graph.edges.some((e) => e.from === 'read' && e.to === 'write' && e.kind === 'reads'))
        fail(`no reads edge for the race: ${JSON.stringify(graph.edges)}`);
      await vscode.commands.executeCommand('toolLens.showWorkflowGraph', probe);
      const title = 'Graph: copy_readme · views-probe.vmcp.yaml';
      const tab = await waitFor(`a webview tab "${title}"`, () =>
        allTabs().find((t) => t.input instanceof vscode.TabInputWebview && t.label === title),
      ).catch((error: unknown) => {
        throw new Error(
          `${error instanceof Error ? error.message : String(error)}; tabs: ${allTabs()
            .map((t) => t.label)
            .join(', ')}`,
        );
      });
      // The panel follows its file: the quick fix that adds the missing dependsOn takes the race away.
      if (!api) fail('the extension exports no API');
      const raceOf = () =>
        api
          .workflowGraph()
          ?.graphs[0]?.nodes.find((n) => n.id === 'write')
          ?.marks?.some((m) => m.kind === 'race');
      if (!raceOf()) fail(`the panel shows no race before the fix: ${JSON.stringify(api.workflowGraph())}`);
      const race = vscode.languages
        .getDiagnostics(probe)
        .find((d) => (typeof d.code === 'object' ? d.code.value : d.code) === 'template/not-upstream')!;
      const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
        'vscode.executeCodeActionProvider',
        probe,
        race.range,
        vscode.CodeActionKind.QuickFix.value,
      );
      const add = actions.find((a): a is vscode.CodeAction => a.title === 'Add "read" to dependsOn' && 'edit' in a);
      if (!add?.edit) fail(`no "Add "read" to dependsOn" fix; offered: ${JSON.stringify(actions.map((a) => a.title))}`);
      if (!(await vscode.workspace.applyEdit(add.edit))) fail('workspace.applyEdit refused the fix');
      await waitFor('the panel without the race after the fix', () => (raceOf() === false ? true : undefined));
      await document.save();
      await vscode.window.tabGroups.close(tab);
      await waitFor('the panel closed', () => (api.workflowGraph() === undefined ? true : undefined));
      // A file with no composite tool: a message, as "Show Derived Floor" gives, and no panel.
      await vscode.commands.executeCommand(
        'toolLens.showWorkflowGraph',
        vscode.Uri.joinPath(folder, 'catalogs/filesystem.json'),
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const opened = allTabs().filter((t) => t.label.startsWith('Graph: '));
      if (opened.length || api.workflowGraph())
        fail(`a graph panel opened for a file with no composite tool: ${opened.map((t) => t.label).join(', ')}`);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.workspace.fs.delete(probe);
      return `marks ${JSON.stringify(marks)}; ${graph.dropped}; tab "${tab.label}"; the race gone after the fix; no panel for a catalog`;
    },
  );
}
