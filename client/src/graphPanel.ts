// The "Show Workflow Graph" webview: one panel, showing the composite around the cursor (every
// composite of the file when the cursor is in none); its tab names the composite (or how many) and
// the file. It follows what it shows: when its file changes, or the file's diagnostics do (a quick
// fix, a catalog edit), it asks the server again for the same composites, so no mark outlives the
// finding it stands for; and its state (graph.ts GraphPanelState) brings it back after a reload.
// A file with no composite tool opens no panel: a message says so, as "Show Derived Floor" does.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { WorkflowGraph } from '../../server/src/lsp/protocol.js';
import { graphHtml, graphTitle, isGraphPanelState, sameComposites, type GraphPanelState } from './graph.js';

export const GRAPH_VIEW_TYPE = 'toolLens.workflowGraph';

type Position = { line: number; character: number };

/** Asks the server for the graphs of a file: around `position`, or every composite without one. */
export type AskGraphs = (uri: string, position?: Position) => Promise<WorkflowGraph[]>;

export interface GraphPanels {
  show(uri: vscode.Uri, position: Position | undefined): Promise<void>;
  /** What the open panel shows (its tab and graphs), for the extension's API; undefined when none is open. */
  current(): { title: string; graphs: WorkflowGraph[] } | undefined;
}

/** How long the panel waits after a change before it asks again (typing changes the file often). */
const REFRESH_DELAY_MS = 300;

const WEBVIEW_OPTIONS: vscode.WebviewOptions = {
  enableScripts: true,
  // The page loads nothing: no local resources, no network.
  localResourceRoots: [],
};

export function registerGraphPanels(context: vscode.ExtensionContext, ask: AskGraphs): GraphPanels {
  let panel: vscode.WebviewPanel | undefined;
  let shown: GraphPanelState | undefined;
  let shownGraphs: WorkflowGraph[] = [];
  let pending: NodeJS.Timeout | undefined;
  /** Each refresh's number: an answer to an older one is not shown over a newer one's. */
  let asked = 0;

  const render = (graphs: WorkflowGraph[], state: GraphPanelState): void => {
    if (!panel) return;
    shown = state;
    shownGraphs = graphs;
    panel.title = graphTitle(graphs, vscode.Uri.parse(state.uri));
    panel.webview.html = graphHtml(graphs, randomBytes(16).toString('base64'), state);
  };

  const stateOf = (uri: string, position: Position | undefined, graphs: readonly WorkflowGraph[]): GraphPanelState => ({
    uri,
    ...(position ? { position } : {}),
    workflows: graphs.map((g) => g.workflow),
  });

  const refresh = async (): Promise<void> => {
    if (!panel || !shown) return;
    const state = shown;
    const ticket = ++asked;
    const all = await ask(state.uri);
    const graphs = sameComposites(all, state.workflows) ?? (await ask(state.uri, state.position));
    if (ticket === asked && shown === state) render(graphs, stateOf(state.uri, state.position, graphs));
  };

  const refreshSoon = (uri: vscode.Uri): void => {
    if (!panel || !shown || uri.toString() !== shown.uri) return;
    clearTimeout(pending);
    pending = setTimeout(() => void refresh().catch(() => undefined), REFRESH_DELAY_MS);
  };

  const adopt = (created: vscode.WebviewPanel): void => {
    panel = created;
    created.onDidDispose(() => {
      if (panel === created) {
        panel = undefined;
        shown = undefined;
      }
    });
    created.webview.onDidReceiveMessage(async (message: unknown) => {
      const line =
        (message as { type?: unknown; line?: unknown })?.type === 'reveal'
          ? (message as { line: unknown }).line
          : undefined;
      if (typeof line !== 'number' || !shown) return;
      const editor = await vscode.window.showTextDocument(vscode.Uri.parse(shown.uri), {
        viewColumn: vscode.ViewColumn.One,
      });
      const position = new vscode.Position(line, 0);
      editor.selection = new vscode.Selection(position, position);
      editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenter);
    });
  };

  context.subscriptions.push(
    vscode.workspace.onDidChangeTextDocument((event) => refreshSoon(event.document.uri)),
    vscode.languages.onDidChangeDiagnostics((event) => {
      for (const uri of event.uris) refreshSoon(uri);
    }),
    vscode.window.registerWebviewPanelSerializer(GRAPH_VIEW_TYPE, {
      async deserializeWebviewPanel(restored, state: unknown) {
        if (!isGraphPanelState(state)) return void restored.dispose();
        restored.webview.options = WEBVIEW_OPTIONS;
        panel?.dispose();
        adopt(restored);
        shown = state;
        await refresh();
      },
    }),
    { dispose: () => clearTimeout(pending) },
  );

  return {
    async show(uri, position) {
      const graphs = await ask(uri.toString(), position);
      if (!graphs.length)
        return void vscode.window.showInformationMessage('Tool Lens: this document has no composite tools.');
      if (!panel)
        adopt(
          vscode.window.createWebviewPanel(
            GRAPH_VIEW_TYPE,
            'Workflow graph',
            vscode.ViewColumn.Beside,
            WEBVIEW_OPTIONS,
          ),
        );
      render(graphs, stateOf(uri.toString(), position, graphs));
      panel!.reveal(vscode.ViewColumn.Beside, true);
    },
    current: () => (panel ? { title: panel.title, graphs: shownGraphs } : undefined),
  };
}
