// The VS Code side of Tool Lens: starts the language server (dist/server.js over IPC), registers
// the commands (and the workflow graph's panel, restored after a reload), the language status
// items, the "Advertised tools" view and the workspace-trust plumbing. No analysis here.
import * as vscode from 'vscode';
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import {
  CATALOG_STATE_NOTIFICATION,
  TRUST_NOTIFICATION,
  type CatalogState,
  type InitializationOptions,
  type ToolLensSettings,
  type WorkflowGraph,
} from '../../server/src/lsp/protocol.js';
import { registerAdvertisedTools } from './advertisedTools.js';
import { OPEN_RULE_DOCS, registerCommands } from './commands.js';
import { DOCUMENT_SELECTOR } from './documents.js';
import { LanguageStatus } from './languageStatus.js';
import { Presence } from './presence.js';

let client: LanguageClient | undefined;

function readSettings(): ToolLensSettings {
  // `catalogs` is resource-scoped (per folder); `workspaceDiagnostics` is window-scoped, and
  // VS Code logs a warning when a window setting is read through a resource. In a multi-root
  // workspace this is only the first folder's value: the server asks for each folder's own
  // through `workspace/configuration` (lsp/handlers.ts), which the language client answers.
  const scope = vscode.workspace.workspaceFolders?.[0]?.uri;
  return {
    catalogs: vscode.workspace.getConfiguration('toolLens', scope).get<string[]>('catalogs', []),
    workspaceDiagnostics: vscode.workspace.getConfiguration('toolLens').get<boolean>('workspaceDiagnostics', true),
  };
}

/**
 * What the extension hands to other extensions (`vscode.extensions.getExtension(...).exports`):
 * only whether its language status items show for a document, which the end-to-end test asks.
 */
export interface ToolLensApi {
  languageStatusShownFor(document: vscode.TextDocument): boolean;
  /** Whether the window has Tool Lens files: the `toolLens.active` context key (presence.ts). */
  active(): boolean;
  /** The items' text and detail, as the status bar's hover shows them. */
  languageStatus(): { id: string; text: string; detail?: string; command?: string }[];
  /** The workflow graph panel's tab and the graphs it shows (undefined when none is open): what the page draws. */
  workflowGraph(): { title: string; graphs: WorkflowGraph[] } | undefined;
}

/** The languages VS Code's built-in JSON support outlines. */
const JSON_OUTLINED = new Set(['json', 'jsonc']);

export async function activate(context: vscode.ExtensionContext): Promise<ToolLensApi> {
  const output = vscode.window.createOutputChannel('Tool Lens', { log: true });
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  // The diagnostics' links and "Show documentation" quick fixes run this command (commands.ts), which
  // opens the page bundled in the extension rather than a web page.
  const initializationOptions: InitializationOptions = {
    trusted: vscode.workspace.isTrusted,
    settings: readSettings(),
    ruleDocsCommand: OPEN_RULE_DOCS,
  };
  const clientOptions: LanguageClientOptions = {
    // Every YAML and JSON file on disk, and Codex's TOML (documents.ts): the server decides from the content which ones are ours.
    documentSelector: [...DOCUMENT_SELECTOR],
    synchronize: { configurationSection: 'toolLens' },
    initializationOptions,
    outputChannel: output,
    diagnosticPullOptions: { onChange: true, onSave: true },
    middleware: {
      // VS Code's own JSON support outlines a JSON file already: a second outline group of the
      // same file beside it says nothing new. YAML and JSON Lines keep ours (editors without an
      // outline of their own keep it everywhere: the server still answers).
      provideDocumentSymbols: (document, token, next) =>
        JSON_OUTLINED.has(document.languageId) ? undefined : next(document, token),
    },
  };
  client = new LanguageClient('toolLens', 'Tool Lens', serverOptions, clientOptions);

  const presence = new Presence();
  const status = new LanguageStatus(client, () => presence.seen());
  context.subscriptions.push(presence, status, output);
  context.subscriptions.push(
    client.onNotification(CATALOG_STATE_NOTIFICATION, (state: CatalogState) => {
      presence.catalogState(state);
      status.update(state);
    }),
  );
  const graphPanels = registerCommands(context, client);
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      void client?.sendNotification(TRUST_NOTIFICATION, { trusted: true });
    }),
  );
  await client.start();
  status.start();
  registerAdvertisedTools(context, client);
  return {
    languageStatusShownFor: (document) => status.showsFor(document),
    active: () => presence.isActive,
    languageStatus: () =>
      [status.catalogs, status.config, status.fetch].map((item) => ({
        id: item.id,
        text: item.text,
        detail: item.detail,
        command: item.command?.command,
      })),
    workflowGraph: () => graphPanels.current(),
  };
}

export async function deactivate(): Promise<void> {
  if (client) await client.stop();
  client = undefined;
}
