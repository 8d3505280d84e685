// The "Show workflow graph" webview: one panel, refreshed for the active document; its tab names
// the composite (or how many) and the file.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { WorkflowGraph } from '../../server/src/lsp/protocol.js';
import { graphHtml, graphTitle } from './graph.js';

let panel: vscode.WebviewPanel | undefined;
let shownUri: vscode.Uri | undefined;

export function showGraphPanel(graphs: WorkflowGraph[], uri: vscode.Uri): void {
  if (!panel) {
    panel = vscode.window.createWebviewPanel('toolLens.workflowGraph', 'Workflow graph', vscode.ViewColumn.Beside, {
      enableScripts: true,
      // The page loads nothing: no local resources, no network.
      localResourceRoots: [],
    });
    panel.onDidDispose(() => (panel = undefined));
    panel.webview.onDidReceiveMessage(async (message: unknown) => {
      const line =
        (message as { type?: unknown; line?: unknown })?.type === 'reveal'
          ? (message as { line: unknown }).line
          : undefined;
      if (typeof line !== 'number' || !shownUri) return;
      const editor = await vscode.window.showTextDocument(shownUri, { viewColumn: vscode.ViewColumn.One });
      const position = new vscode.Position(line, 0);
      editor.selection = new vscode.Selection(position, position);
      editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenter);
    });
  }
  shownUri = uri;
  panel.title = graphTitle(graphs, uri);
  panel.webview.html = graphHtml(graphs, randomBytes(16).toString('base64'));
  panel.reveal(vscode.ViewColumn.Beside, true);
}
