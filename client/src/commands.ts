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
  type LiveServerList,
  type RuleItem,
  type WorkflowGraph,
} from '../../server/src/lsp/protocol.js';
import { registerFloorViews } from './derivedViews.js';
import { fetchCatalog } from './fetchCatalog.js';
import { registerGraphPanels, type GraphPanels } from './graphPanel.js';

type Position = { line: number; character: number };

/** Opens a rule's page (given its id, else chosen from every rule) in the Markdown preview. */
export const OPEN_RULE_DOCS = 'toolLens.openRuleDocs';

/** A rule id as the rule pages are named: `family/name`, nothing that could leave docs/rules/. */
const RULE_ID = /^[a-z][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/;

function serverCommand<T>(client: LanguageClient, command: string, args: unknown[] = []): Promise<T> {
  return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }) as Promise<T>;
}

/** The document a command is about: the one it was given, or the active editor's. */
function target(uriArg: unknown, positionArg: unknown): { uri: vscode.Uri; position?: Position } | undefined {
  const editor = vscode.window.activeTextEditor;
  const uri =
    typeof uriArg === 'string'
      ? vscode.Uri.parse(uriArg)
      : uriArg instanceof vscode.Uri
        ? uriArg
        : editor?.document.uri;
  if (!uri) return undefined;
  const given = positionArg as Position | undefined;
  if (given && typeof given.line === 'number' && typeof given.character === 'number')
    return { uri, position: { line: given.line, character: given.character } };
  if (editor && editor.document.uri.toString() === uri.toString()) {
    const active = editor.selection.active;
    return { uri, position: { line: active.line, character: active.character } };
  }
  return { uri };
}

/** Registers the commands; returns the workflow graph's panels (the extension's API reads them). */
export function registerCommands(context: vscode.ExtensionContext, client: LanguageClient): GraphPanels {
  const floorViews = registerFloorViews(context, client);
  const graphPanels = registerGraphPanels(context, (uri, position) =>
    serverCommand<WorkflowGraph[]>(client, SERVER_COMMANDS.workflowGraph, [{ uri, ...(position ? { position } : {}) }]),
  );
  const register = (id: string, run: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          await run(...args);
        } catch (error) {
          client.error(`${id} failed`, error, false);
          void vscode.window.showErrorMessage(
            `Tool Lens: ${id} failed: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }),
    );

  register('toolLens.showFloor', async (uriArg, positionArg) => {
    const at = target(uriArg, positionArg);
    if (!at)
      return void vscode.window.showInformationMessage('Tool Lens: open a workflow file to see its derived floor.');
    // A read-only virtual document (derivedViews.ts), never an untitled buffer to be saved.
    await floorViews.show(at.uri, at.position);
  });

  register('toolLens.refreshCatalogs', async () => {
    const state = await serverCommand<CatalogState>(client, SERVER_COMMANDS.refreshCatalogs);
    void vscode.window.setStatusBarMessage(
      `Tool Lens: ${state.servers.length} catalog server(s) reloaded from disk`,
      4000,
    );
  });

  // The quick fix of aggregation/advertised-rename calls the server command itself; this is the palette's way.
  register('toolLens.acceptCatalog', async () => {
    await serverCommand<null>(client, SERVER_COMMANDS.acceptCatalog);
    void vscode.window.setStatusBarMessage(
      'Tool Lens: the catalog as it is now is the baseline for advertised names',
      4000,
    );
  });

  register('toolLens.fetchCatalog', (serverArg) =>
    fetchCatalog(
      context,
      {
        listServers: () => serverCommand<LiveServerList>(client, SERVER_COMMANDS.liveServers),
        fetch: (params: FetchCatalogParams, token?: vscode.CancellationToken) =>
          client.sendRequest<FetchCatalogResult>(FETCH_CATALOG_REQUEST, params, token),
        onProgress: (token, handler) => client.onProgress(WorkDoneProgress.type, token, handler),
        showOutput: () => client.outputChannel.show(true),
        log: (line) => client.outputChannel.appendLine(line),
      },
      typeof serverArg === 'string' ? serverArg : undefined,
    ),
  );

  // With (server, namespace, tool) given, as a key binding may give them, the tool is not asked for.
  register('toolLens.insertCallEnvelope', async (serverArg, namespaceArg, toolArg) => {
    const editor = vscode.window.activeTextEditor;
    if (!editor)
      return void vscode.window.showInformationMessage('Tool Lens: open a document to insert a call envelope into.');
    const tools = await serverCommand<DynamicToolItem[]>(client, SERVER_COMMANDS.dynamicTools);
    if (!tools.length)
      return void vscode.window.showInformationMessage(
        'Tool Lens: no catalog in this workspace declares dynamic tools (namespaces).',
      );
    const given = tools.find((t) => t.server === serverArg && t.namespace === namespaceArg && t.tool === toolArg);
    if (typeof serverArg === 'string' && !given)
      return void vscode.window.showWarningMessage(
        `Tool Lens: no dynamic tool ${String(serverArg)} / ${String(namespaceArg)} / ${String(toolArg)} in the catalog.`,
      );
    const picked = given
      ? { tool: given }
      : await vscode.window.showQuickPick(
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
    if ('refused' in result) return void vscode.window.showWarningMessage(`Tool Lens: ${result.refused}`);
    // Placed and indented by the server for the document's structure: VS Code must not re-indent it.
    const range = client.protocol2CodeConverter.asRange(result.range);
    await editor.insertSnippet(new vscode.SnippetString(result.snippet), range, {
      undoStopBefore: true,
      undoStopAfter: true,
      keepWhitespace: true,
    });
  });

  register('toolLens.showWorkflowGraph', async (uriArg, positionArg) => {
    const at = target(uriArg, positionArg);
    if (!at) return void vscode.window.showInformationMessage('Tool Lens: open a workflow file to see its graph.');
    // The composite around the cursor (every composite of the file when the cursor is in none).
    await graphPanels.show(at.uri, at.position);
  });

  register(OPEN_RULE_DOCS, async (ruleArg) => {
    const rule = typeof ruleArg === 'string' ? ruleArg : await pickRule(client);
    if (rule) await openRulePage(context, rule);
  });
  return graphPanels;
}

/**
 * Every rule in a quick pick: those of the diagnostics at the cursor first, then the others of the
 * active file, then the rest, each with its default severity and summary.
 */
async function pickRule(client: LanguageClient): Promise<string | undefined> {
  const rules = await serverCommand<RuleItem[]>(client, SERVER_COMMANDS.rules);
  const editor = vscode.window.activeTextEditor;
  const ours = editor
    ? vscode.languages.getDiagnostics(editor.document.uri).filter((d) => d.source === 'tool-lens')
    : [];
  const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? String(d.code.value) : String(d.code));
  const here = new Set(editor ? ours.filter((d) => d.range.contains(editor.selection.active)).map(codeOf) : []);
  const inFile = new Set(ours.map(codeOf));
  const rank = (id: string) => (here.has(id) ? 0 : inFile.has(id) ? 1 : 2);
  const groups = ['At the cursor', 'In this file', 'Every rule'];
  type Item = vscode.QuickPickItem & { rule?: string };
  const items: Item[] = [];
  let group = -1;
  for (const rule of [...rules].sort((a, b) => rank(a.id) - rank(b.id))) {
    const r = rank(rule.id);
    if (r !== group && (here.size > 0 || inFile.size > 0))
      items.push({ label: groups[r]!, kind: vscode.QuickPickItemKind.Separator });
    group = r;
    items.push({ label: rule.id, description: rule.defaultSeverity, detail: rule.summary, rule: rule.id });
  }
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder: 'Rule whose documentation to open',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.rule;
}

/**
 * The rule's page bundled in the extension (docs/rules/ ships in the .vsix), in the Markdown
 * preview; the web page only when the bundled one is missing (a build without the pages).
 */
async function openRulePage(context: vscode.ExtensionContext, rule: string): Promise<void> {
  if (!RULE_ID.test(rule)) return void vscode.window.showWarningMessage(`Tool Lens: "${rule}" is not a rule id.`);
  const page = vscode.Uri.joinPath(context.extensionUri, 'docs', 'rules', ...`${rule}.md`.split('/'));
  try {
    await vscode.workspace.fs.stat(page);
  } catch {
    await vscode.env.openExternal(vscode.Uri.parse(ruleDocsUrl(rule)));
    return;
  }
  await vscode.commands.executeCommand('markdown.showPreview', page);
}
