// What initialize settles: what the client can do (read once from its capabilities and
// initialization options), what the server says it does, and the first log line.
import { TextDocumentSyncKind, type InitializeParams, type InitializeResult } from 'vscode-languageserver';
import { version as TOOL_VERSION } from '../../../package.json';
import { CODE_ACTION_KINDS } from './codeActions.js';
import { SERVER_COMMAND_IDS } from './commands.js';
import { COMPLETION_TRIGGERS } from './completion.js';
import type { InitializationOptions } from './protocol.js';
import { validCommandName } from './ruleActions.js';

export interface ClientFeatures {
  /** Pulls diagnostics (else they are pushed). */
  pull: boolean;
  /** Takes `workspace/diagnostic/refresh`. */
  refresh: boolean;
  /** Registers file watchers at run time. */
  watchFiles: boolean;
  /** Takes versioned document changes in a workspace edit. */
  documentChanges: boolean;
  /** Creates files in a workspace edit. */
  createFiles: boolean;
  /** Shows a document when the server asks (`window/showDocument`). */
  showDocument: boolean;
  /** Tells of workspace folders added and removed. */
  folderEvents: boolean;
  /** Answers `workspace/configuration` per folder. */
  scopedConfiguration: boolean;
  /** The client's command that shows a rule's page (InitializationOptions.ruleDocsCommand). */
  ruleDocsCommand: string | undefined;
}

export function clientFeaturesOf(params: InitializeParams): ClientFeatures {
  const capabilities = params.capabilities;
  const init = (params.initializationOptions ?? {}) as InitializationOptions;
  const documentChanges = capabilities.workspace?.workspaceEdit?.documentChanges === true;
  return {
    pull: capabilities.textDocument?.diagnostic !== undefined,
    refresh: capabilities.workspace?.diagnostics?.refreshSupport === true,
    watchFiles: capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
    documentChanges,
    createFiles:
      documentChanges && (capabilities.workspace?.workspaceEdit?.resourceOperations ?? []).includes('create'),
    showDocument: capabilities.window?.showDocument?.support === true,
    folderEvents: capabilities.workspace?.workspaceFolders === true,
    scopedConfiguration: capabilities.workspace?.configuration === true,
    ruleDocsCommand: validCommandName(init.ruleDocsCommand) ? init.ruleDocsCommand : undefined,
  };
}

export function serverCapabilities(client: ClientFeatures): InitializeResult {
  return {
    capabilities: {
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      ...(client.pull
        ? { diagnosticProvider: { identifier: 'tool-lens', interFileDependencies: true, workspaceDiagnostics: true } }
        : {}),
      codeActionProvider: { codeActionKinds: CODE_ACTION_KINDS },
      hoverProvider: true,
      completionProvider: { triggerCharacters: COMPLETION_TRIGGERS },
      definitionProvider: true,
      referencesProvider: true,
      documentSymbolProvider: true,
      codeLensProvider: { resolveProvider: false },
      executeCommandProvider: { commands: SERVER_COMMAND_IDS },
    },
    serverInfo: { name: 'tool-lens' },
  };
}

/** The first log line: which Tool Lens, on which Node, for which client and folders. */
export function startWords(params: InitializeParams, trusted: boolean): string {
  const client = params.clientInfo
    ? `${params.clientInfo.name}${params.clientInfo.version ? ` ${params.clientInfo.version}` : ''}`
    : 'an unnamed client';
  const folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
  const where = folders.length
    ? `workspace folder${folders.length === 1 ? '' : 's'} ${folders.join(', ')}`
    : 'no workspace folder';
  return `Tool Lens ${TOOL_VERSION} language server (Node ${process.version}) for ${client}; ${where}; ${trusted ? 'trusted' : 'not trusted: no live fetches'}`;
}
