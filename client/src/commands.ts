// The commands of docs/behaviour.md#editor-commands. They ask the server (workspace/executeCommand) and show the result;
// no analysis happens here.
import * as vscode from 'vscode';
import { ExecuteCommandRequest, WorkDoneProgress, type LanguageClient } from 'vscode-languageclient/node';
import { ruleDocsUrl } from '../../server/src/core/rules/rule.js';
import {
  FETCH_CATALOG_REQUEST,
  SERVER_COMMANDS,
  type CallEnvelopeParams,
  type CallEnvelopeResult,
  type CatalogState,
  type DynamicToolItem,
  type FetchCatalogParams,
  type FetchCatalogResult,
  type FloorReport,
  type LiveServerList,
  type WorkflowGraph,
} from '../../server/src/lsp/protocol.js';
import { fetchCatalog } from './fetchCatalog.js';
import { showGraphPanel } from './graphPanel.js';

type Position = { line: number; character: number };

function serverCommand<T>(client: LanguageClient, command: string, args: unknown[] = []): Promise<T> {
  return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }) as Promise<T>;
}

/** The document a command is about: the one it was given, or the active editor's. */
function target(uriArg: unknown, positionArg: unknown): { uri: vscode.Uri; position?: Position } | undefined {
  const editor = vscode.window.activeTextEditor;
  const uri = typeof uriArg === 'string' ? vscode.Uri.parse(uriArg) : uriArg instanceof vscode.Uri ? uriArg : editor?.document.uri;
  if (!uri) return undefined;
  const given = positionArg as Position | undefined;
  if (given && typeof given.line === 'number' && typeof given.character === 'number') return { uri, position: { line: given.line, character: given.character } };
  if (editor && editor.document.uri.toString() === uri.toString()) {
    const active = editor.selection.active;
    return { uri, position: { line: active.line, character: active.character } };
  }
  return { uri };
}

export function registerCommands(context: vscode.ExtensionContext, client: LanguageClient): void {
  const register = (id: string, run: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          await run(...args);
        } catch (error) {
          client.error(`${id} failed`, error, false);
          void vscode.window.showErrorMessage(`Tool Lens: ${id} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }),
    );

  register('toolLens.showFloor', async (uriArg, positionArg) => {
    const at = target(uriArg, positionArg);
    if (!at) return void vscode.window.showInformationMessage('Tool Lens: open a workflow file to see its derived floor.');
    const reports = await serverCommand<FloorReport[]>(client, SERVER_COMMANDS.floor, [{ uri: at.uri.toString(), position: at.position }]);
    if (!reports.length) return void vscode.window.showInformationMessage('Tool Lens: this document has no composite tools.');
    const content = reports.map((r) => `# ${r.workflow}\n\n${r.markdown}`).join('\n\n---\n\n');
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content });
    await vscode.commands.executeCommand('markdown.showPreviewToSide', document.uri);
  });

  register('toolLens.refreshCatalogs', async () => {
    const state = await serverCommand<CatalogState>(client, SERVER_COMMANDS.refreshCatalogs);
    void vscode.window.setStatusBarMessage(`Tool Lens: ${state.servers.length} catalog server(s) reloaded from disk`, 4000);
  });

  // The quick fix of aggregation/advertised-rename calls the server command itself; this is the palette's way.
  register('toolLens.acceptCatalog', async () => {
    await serverCommand<null>(client, SERVER_COMMANDS.acceptCatalog);
    void vscode.window.setStatusBarMessage('Tool Lens: the catalog as it is now is the baseline for advertised names', 4000);
  });

  register('toolLens.fetchCatalog', (serverArg) =>
    fetchCatalog(context, {
      listServers: () => serverCommand<LiveServerList>(client, SERVER_COMMANDS.liveServers),
      fetch: (params: FetchCatalogParams, token?: vscode.CancellationToken) => client.sendRequest<FetchCatalogResult>(FETCH_CATALOG_REQUEST, params, token),
      onProgress: (token, handler) => client.onProgress(WorkDoneProgress.type, token, handler),
      showOutput: () => client.outputChannel.show(true),
      log: (line) => client.outputChannel.appendLine(line),
    }, typeof serverArg === 'string' ? serverArg : undefined),
  );

  register('toolLens.insertCallEnvelope', async () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return void vscode.window.showInformationMessage('Tool Lens: open a document to insert a call envelope into.');
    const tools = await serverCommand<DynamicToolItem[]>(client, SERVER_COMMANDS.dynamicTools);
    if (!tools.length) return void vscode.window.showInformationMessage('Tool Lens: no catalog in this workspace declares dynamic tools (namespaces).');
    const picked = await vscode.window.showQuickPick(
      tools.map((t) => ({
        label: t.tool,
        description: `${t.server} / ${t.namespace}${t.external ? ' (external)' : ''}${t.status !== 'ready' ? ` (${t.status})` : ''}`,
        detail: t.description,
        tool: t,
      })),
      { placeHolder: 'Dynamic tool to call', matchOnDescription: true, matchOnDetail: true },
    );
    if (!picked) return;
    const position = editor.selection.active;
    const params: CallEnvelopeParams = {
      uri: editor.document.uri.toString(),
      position: { line: position.line, character: position.character },
      server: picked.tool.server,
      namespace: picked.tool.namespace,
      tool: picked.tool.tool,
    };
    const result = await serverCommand<CallEnvelopeResult | null>(client, SERVER_COMMANDS.callEnvelope, [params]);
    if (!result) return void vscode.window.showWarningMessage('Tool Lens: that tool is no longer in the catalog.');
    await editor.edit((builder) => builder.insert(position, result.text));
  });

  register('toolLens.showWorkflowGraph', async (uriArg, positionArg) => {
    const at = target(uriArg, positionArg);
    if (!at) return void vscode.window.showInformationMessage('Tool Lens: open a workflow file to see its graph.');
    const graphs = await serverCommand<WorkflowGraph[]>(client, SERVER_COMMANDS.workflowGraph, [{ uri: at.uri.toString() }]);
    showGraphPanel(graphs, at.uri);
  });

  register('toolLens.openRuleDocs', async (ruleArg) => {
    let rule = typeof ruleArg === 'string' ? ruleArg : undefined;
    if (!rule) {
      const editor = vscode.window.activeTextEditor;
      const ours = editor ? vscode.languages.getDiagnostics(editor.document.uri).filter((d) => d.source === 'tool-lens') : [];
      const here = editor ? ours.filter((d) => d.range.contains(editor.selection.active)) : [];
      const ids = [...new Set((here.length ? here : ours).map((d) => (typeof d.code === 'object' ? String(d.code.value) : String(d.code))))];
      rule = ids.length === 1 ? ids[0] : await vscode.window.showQuickPick(ids, { placeHolder: ids.length ? 'Rule' : 'No Tool Lens diagnostics here' });
    }
    if (rule) await vscode.env.openExternal(vscode.Uri.parse(ruleDocsUrl(rule)));
  });
}
