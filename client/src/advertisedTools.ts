// The "Advertised tools" tree view (Explorer): for the gateway file in focus, the tools its clients
// will see, what it withholds and why, and what cannot be known; a click opens where each tool
// comes from. The server computes the list (toolLens.server.advertisedTools); this only draws it.
import * as vscode from 'vscode';
import { ExecuteCommandRequest, type LanguageClient } from 'vscode-languageclient/node';
import {
  SERVER_COMMANDS,
  type AdvertisedToolItem,
  type AdvertisedToolsView,
  type ViewLocation,
} from '../../server/src/lsp/protocol.js';
import { CLASS_STYLE } from './graph.js';

export const ADVERTISED_TOOLS_VIEW = 'toolLens.advertisedTools';
/** Context key: a gateway file has been in focus and its list is shown (the view appears only then). */
const GATEWAY_SEEN = 'toolLens.gatewaySeen';

type Node =
  | { type: 'gateway'; view: AdvertisedToolsView }
  | { type: 'group'; label: string; items: AdvertisedToolItem[]; notes?: string[] }
  | { type: 'tool'; item: AdvertisedToolItem }
  | { type: 'note'; text: string };

class AdvertisedToolsProvider implements vscode.TreeDataProvider<Node> {
  private views: AdvertisedToolsView[] = [];
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  show(views: AdvertisedToolsView[]): void {
    this.views = views;
    this.changed.fire(undefined);
  }

  getChildren(node?: Node): Node[] {
    if (!node) {
      // One gateway in the file: its groups at the top, without a level that says nothing.
      return this.views.length === 1 ? groupsOf(this.views[0]!) : this.views.map((view) => ({ type: 'gateway', view }));
    }
    if (node.type === 'gateway') return groupsOf(node.view);
    if (node.type === 'group')
      return [
        ...node.items.map((item): Node => ({ type: 'tool', item })),
        ...(node.notes ?? []).map((text): Node => ({ type: 'note', text })),
      ];
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.type) {
      case 'gateway': {
        const item = new vscode.TreeItem(node.view.title, vscode.TreeItemCollapsibleState.Expanded);
        item.description = `${node.view.strategy} strategy`;
        if (node.view.location) item.command = openCommand(node.view.location);
        return item;
      }
      case 'group':
        return new vscode.TreeItem(
          node.label,
          node.label.startsWith('Advertised')
            ? vscode.TreeItemCollapsibleState.Expanded
            : vscode.TreeItemCollapsibleState.Collapsed,
        );
      case 'note': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon('question');
        item.tooltip = node.text;
        return item;
      }
      case 'tool':
        return toolItem(node.item);
    }
  }
}

function groupsOf(view: AdvertisedToolsView): Node[] {
  const groups: Node[] = [{ type: 'group', label: `Advertised (${view.advertised.length})`, items: view.advertised }];
  if (view.withheld.length > 0)
    groups.push({ type: 'group', label: `Withheld (${view.withheld.length})`, items: view.withheld });
  if (view.notes.length > 0) groups.push({ type: 'group', label: 'Not known', items: [], notes: view.notes });
  return groups;
}

function toolItem(tool: AdvertisedToolItem): vscode.TreeItem {
  const item = new vscode.TreeItem(tool.name, vscode.TreeItemCollapsibleState.None);
  const origin = tool.kind === 'composite' ? 'composite' : tool.from;
  if (tool.status) {
    item.description = `${tool.status} · ${origin}`;
    item.tooltip = `${tool.name} (${origin}): ${tool.reason}`;
    item.iconPath = new vscode.ThemeIcon(tool.kind === 'composite' ? 'error' : 'eye-closed');
  } else {
    // The hints as the workflow graph shows them: one short class, in its colour; the words in the tooltip.
    const maybe = tool.certain ? '' : ' (if the uncatalogued steps resolve)';
    const style = tool.annotationClass ? CLASS_STYLE[tool.annotationClass] : undefined;
    item.description = `${style ? style.short : tool.annotations}${tool.certain ? '' : '?'} · ${origin}`;
    item.tooltip = `${tool.name} (${origin}): ${tool.annotations}${maybe}`;
    item.iconPath = new vscode.ThemeIcon(
      tool.kind === 'composite' ? 'symbol-method' : 'tools',
      style ? new vscode.ThemeColor(style.themeColor) : undefined,
    );
  }
  if (tool.location) item.command = openCommand(tool.location);
  return item;
}

function openCommand(location: ViewLocation): vscode.Command {
  const { start, end } = location.range;
  const selection = new vscode.Range(start.line, start.character, end.line, end.character);
  return {
    title: 'Open',
    command: 'vscode.open',
    arguments: [vscode.Uri.parse(location.uri), { selection, preview: true }],
  };
}

/**
 * Registers the view. It follows the active editor to each gateway file, and keeps the last
 * gateway's list while another file is in focus (the catalog a click opened, say), fresh after
 * each check.
 */
export function registerAdvertisedTools(context: vscode.ExtensionContext, client: LanguageClient): void {
  const provider = new AdvertisedToolsProvider();
  const treeView = vscode.window.createTreeView(ADVERTISED_TOOLS_VIEW, {
    treeDataProvider: provider,
    showCollapseAll: true,
  });
  context.subscriptions.push(treeView);
  let shown: vscode.Uri | undefined;
  let generation = 0;
  const viewsOf = async (uri: vscode.Uri): Promise<AdvertisedToolsView[]> => {
    try {
      return (await client.sendRequest(ExecuteCommandRequest.type, {
        command: SERVER_COMMANDS.advertisedTools,
        arguments: [{ uri: uri.toString() }],
      })) as AdvertisedToolsView[];
    } catch (error) {
      client.warn(`Advertised tools: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  };
  const refresh = async (): Promise<void> => {
    const mine = ++generation;
    const document = vscode.window.activeTextEditor?.document;
    const candidate =
      document && document.uri.scheme === 'file' && /^(yaml|json|jsonc)$/.test(document.languageId)
        ? document.uri
        : undefined;
    let views = candidate ? await viewsOf(candidate) : [];
    let uri = candidate;
    if (views.length === 0 && shown) {
      uri = shown;
      views = await viewsOf(shown);
    }
    if (mine !== generation) return; // a later refresh is under way
    shown = views.length > 0 ? uri : undefined;
    provider.show(views);
    treeView.description = shown ? vscode.workspace.asRelativePath(shown) : undefined;
    void vscode.commands.executeCommand('setContext', GATEWAY_SEEN, shown !== undefined);
  };
  let timer: NodeJS.Timeout | undefined;
  const soon = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), 200);
  };
  context.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor(() => void refresh()),
    // New diagnostics mean a new check: of this file, or of a catalog it reads.
    vscode.languages.onDidChangeDiagnostics(soon),
    { dispose: () => clearTimeout(timer) },
  );
  void refresh();
}
