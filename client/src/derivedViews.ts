// The derived views Tool Lens shows as documents, read-only and never dirty: virtual documents
// under our own URI scheme (`tool-lens:`), whose text a TextDocumentContentProvider asks the server
// for each time the editor reads it. Closing one asks nothing, and a view follows the file it was
// derived from as that file changes. Today there is one kind, the derived floor of a file's
// composite tools ("Show Derived Floor", the code lens), shown in the Markdown preview.
import * as vscode from 'vscode';
import { ExecuteCommandRequest, type LanguageClient } from 'vscode-languageclient/node';
import { SERVER_COMMANDS, type FloorReport } from '../../server/src/lsp/protocol.js';

export const DERIVED_SCHEME = 'tool-lens';

type Position = { line: number; character: number };

/** What a floor view is derived from, kept in its URI's query so the view can be read again at any time. */
interface FloorSource {
  uri: string;
  position?: Position;
}

function baseName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1) || uri.path;
}

/** `tool-lens:/Floor of publish_readme (docs.vmcp.yaml).md?{"uri":…}`: the path is what the tab shows. */
function floorUri(source: vscode.Uri, position: Position | undefined, composite: string | undefined): vscode.Uri {
  const title = `Floor of ${composite ?? 'the composite tools'} (${baseName(source)}).md`;
  const query: FloorSource = { uri: source.toString(), ...(position ? { position } : {}) };
  return vscode.Uri.from({ scheme: DERIVED_SCHEME, path: `/${title}`, query: JSON.stringify(query) });
}

function sourceOf(uri: vscode.Uri): FloorSource | undefined {
  try {
    const parsed = JSON.parse(uri.query) as Partial<FloorSource>;
    return typeof parsed.uri === 'string' ? { uri: parsed.uri, position: parsed.position } : undefined;
  } catch {
    return undefined;
  }
}

export function floorMarkdownOf(reports: readonly FloorReport[]): string {
  return reports.map((r) => `# ${r.workflow}\n\n${r.markdown}`).join('\n\n---\n\n');
}

export interface FloorViews {
  /** Shows the floor of the composite at `position` (every composite of the file without one) beside the editor. */
  show(source: vscode.Uri, position: Position | undefined): Promise<void>;
}

export function registerFloorViews(context: vscode.ExtensionContext, client: LanguageClient): FloorViews {
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const ask = (source: FloorSource) =>
    client.sendRequest(ExecuteCommandRequest.type, { command: SERVER_COMMANDS.floor, arguments: [source] }) as Promise<
      FloorReport[]
    >;
  const provider: vscode.TextDocumentContentProvider = {
    onDidChange: changed.event,
    async provideTextDocumentContent(uri) {
      const source = sourceOf(uri);
      if (!source) return 'This Tool Lens view has lost the file it was derived from.';
      const reports = await ask(source);
      return reports.length ? floorMarkdownOf(reports) : 'This document has no composite tools.';
    },
  };
  // A view follows its file: when the file changes, the open views derived from it are read again.
  let pending: NodeJS.Timeout | undefined;
  const changedSources = new Set<string>();
  context.subscriptions.push(
    changed,
    vscode.workspace.registerTextDocumentContentProvider(DERIVED_SCHEME, provider),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document.uri.scheme === DERIVED_SCHEME) return;
      changedSources.add(event.document.uri.toString());
      clearTimeout(pending);
      pending = setTimeout(() => {
        for (const view of vscode.workspace.textDocuments) {
          if (view.uri.scheme !== DERIVED_SCHEME) continue;
          const source = sourceOf(view.uri);
          if (source && changedSources.has(source.uri)) changed.fire(view.uri);
        }
        changedSources.clear();
      }, 300);
    }),
    { dispose: () => clearTimeout(pending) },
  );
  return {
    async show(source, position) {
      const reports = await ask({ uri: source.toString(), ...(position ? { position } : {}) });
      if (!reports.length)
        return void vscode.window.showInformationMessage('Tool Lens: this document has no composite tools.');
      const view = floorUri(source, position, reports.length === 1 ? reports[0]!.workflow : undefined);
      await vscode.commands.executeCommand('markdown.showPreviewToSide', view);
    },
  };
}
