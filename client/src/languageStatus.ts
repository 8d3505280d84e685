// The language status items (the `{}` in the status bar, beside the language): shown only for the
// documents Tool Lens checks, as the server recognises them (by content, not by name: the server
// answers `documentKind` for each YAML or JSON file, or Codex's `.codex/config.toml`, the user
// brings to the front). Three items: the catalogs loaded (how many servers; which are stale,
// pending or failed) with Refresh; the `.toollens.yaml` in use with Open; live fetching with Fetch
// (trusted workspaces only).
// No analysis here: every word comes from the server's catalog state.
import * as vscode from 'vscode';
import { ExecuteCommandRequest, type LanguageClient } from 'vscode-languageclient/node';
import {
  SERVER_COMMANDS,
  STALE_AFTER_DAYS,
  type CatalogState,
  type DocumentKindResult,
} from '../../server/src/lsp/protocol.js';
import { servedToServer } from './documents.js';

/** A file name as a glob that matches it (and, at worst, names that differ where it has glob characters). */
function globOf(name: string): string {
  return name.replace(/[*?[\]{}!]/g, '?');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export class LanguageStatus implements vscode.Disposable {
  readonly catalogs = vscode.languages.createLanguageStatusItem('toolLens.catalogs', []);
  readonly config = vscode.languages.createLanguageStatusItem('toolLens.config', []);
  readonly fetch = vscode.languages.createLanguageStatusItem('toolLens.fetch', []);
  /** Documents the server said it checks (URI strings); the items' selector names exactly these. */
  private readonly ours = new Set<string>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: LanguageClient,
    /** Told when the server says it checks a document (presence.ts). */
    private readonly onOurs: () => void = () => undefined,
  ) {
    this.catalogs.name = 'Tool Lens catalogs';
    this.config.name = 'Tool Lens configuration';
    this.fetch.name = 'Tool Lens live catalogs';
    this.catalogs.text = '$(sync~spin) Tool Lens';
    this.catalogs.detail = 'reading the workspace';
    this.catalogs.busy = true;
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor((editor) => void this.ask(editor?.document)),
      // A file can become ours (or stop being) as it is edited: asked again once typing pauses.
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document !== vscode.window.activeTextEditor?.document) return;
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.ask(event.document), 400);
      }),
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (this.ours.delete(document.uri.toString())) this.select();
      }),
    );
  }

  /** Called once the client runs: the editor already open is asked about too. */
  start(): void {
    void this.ask(vscode.window.activeTextEditor?.document);
  }

  /** Asks the server whether it checks `document`, and shows or hides the items for it. */
  async ask(document: vscode.TextDocument | undefined): Promise<void> {
    // Only what the client hands to the server (documents.ts): Codex's TOML too, no other TOML.
    if (!document || !servedToServer(document)) return;
    const uri = document.uri.toString();
    let answer: DocumentKindResult | undefined;
    try {
      answer = (await this.client.sendRequest(ExecuteCommandRequest.type, {
        command: SERVER_COMMANDS.documentKind,
        arguments: [{ uri }],
      })) as DocumentKindResult | undefined;
    } catch (error) {
      // The client stopping, or the server restarting: the next editor change asks again.
      this.client.debug(`documentKind for ${uri} failed`, error);
      return;
    }
    const had = this.ours.has(uri);
    if (answer?.kind) {
      this.ours.add(uri);
      this.onOurs();
    } else this.ours.delete(uri);
    if (had !== this.ours.has(uri)) this.select();
  }

  /** Whether the items are shown for `document` (as VS Code decides it: their selector). */
  showsFor(document: vscode.TextDocument): boolean {
    return vscode.languages.match(this.catalogs.selector, document) > 0;
  }

  private select(): void {
    const selector: vscode.DocumentFilter[] = [...this.ours].map((text) => {
      const uri = vscode.Uri.parse(text);
      const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
      return { scheme: 'file', pattern: new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..'), globOf(name)) };
    });
    for (const item of [this.catalogs, this.config, this.fetch]) item.selector = selector;
  }

  update(state: CatalogState): void {
    const count = state.servers.length;
    const parts: string[] = [];
    if (state.stale.length)
      parts.push(`stale: ${state.stale.join(', ')} (fetched more than ${STALE_AFTER_DAYS} days ago)`);
    if (state.pending.length) parts.push(`pending: ${state.pending.join(', ')}`);
    if (state.failed.length) {
      // Redacted by the server; only the first line of each.
      parts.push(
        `failed: ${state.failed.map((server) => `${server} (${(state.failures?.[server] ?? 'see the Tool Lens output').split(/\r?\n/, 1)[0]})`).join(', ')}`,
      );
    }
    const catalogs = this.catalogs;
    catalogs.busy = !state.loaded || state.pending.length > 0;
    // Each item says whose it is: the `{}` hover lists the items of every extension of the language.
    catalogs.text =
      count === 0 ? '$(tools) Tool Lens: no catalog' : `$(tools) Tool Lens: ${plural(count, 'catalog server')}`;
    catalogs.detail =
      count === 0
        ? 'add a catalog: 1 snapshot or a saved tools/list (<server>.tools.json), or fetch one'
        : parts.length
          ? parts.join('; ')
          : `from ${plural(state.files, 'snapshot file')}, all fresh`;
    catalogs.severity = state.failed.length
      ? vscode.LanguageStatusSeverity.Error
      : state.stale.length || count === 0
        ? vscode.LanguageStatusSeverity.Warning
        : vscode.LanguageStatusSeverity.Information;
    catalogs.command = {
      title: 'Refresh',
      command: 'toolLens.refreshCatalogs',
      tooltip: 'Read the catalogs, the configuration and the files from disk again',
    };

    const configs = state.configs ?? [];
    const config = this.config;
    if (configs.length) {
      const first = vscode.Uri.parse(configs[0]!);
      config.text = `$(settings-gear) Tool Lens: ${configs.map((c) => vscode.workspace.asRelativePath(vscode.Uri.parse(c), configs.length > 1)).join(', ')}`;
      config.detail = 'the configuration in use';
      config.command = { title: 'Open', command: 'vscode.open', arguments: [first], tooltip: 'Open the configuration' };
    } else {
      config.text = '$(settings-gear) Tool Lens: no .toollens.yaml';
      config.detail = 'the built-in defaults apply';
      config.command = undefined;
    }

    const fetch = this.fetch;
    fetch.text = '$(cloud-download) Tool Lens: live catalogs';
    if (state.trusted) {
      fetch.detail = 'fetch the tools of an MCP server this workspace declares';
      fetch.command = {
        title: 'Fetch',
        command: 'toolLens.fetchCatalog',
        tooltip: 'Fetch Catalog from an MCP Server (you are asked before anything starts)',
      };
    } else {
      fetch.detail = 'off in Restricted Mode: Tool Lens starts nothing in an untrusted workspace';
      fetch.command = undefined;
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.catalogs.dispose();
    this.config.dispose();
    this.fetch.dispose();
  }
}
