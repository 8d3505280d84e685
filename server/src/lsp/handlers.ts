// Wires every LSP feature onto a connection. `server.ts` calls this for the real process; the
// in-process tests call it on a connection over a stream pair. Every handler is wrapped: an
// exception becomes a logged error and an empty result, never a crashed server.
import {
  DidChangeWatchedFilesNotification,
  FileChangeType,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { codeActions, CODE_ACTION_KINDS } from './codeActions.js';
import { codeLenses } from './codeLens.js';
import { executeCommand, SERVER_COMMAND_IDS } from './commands.js';
import { completion, COMPLETION_TRIGGERS } from './completion.js';
import { definition } from './definition.js';
import { Diagnostics, requestCancelled } from './diagnostics.js';
import { hover } from './hover.js';
import { LiveFetcher, type LiveFetchOptions } from './liveFetch.js';
import {
  CATALOG_STATE_NOTIFICATION,
  FETCH_CATALOG_REQUEST,
  TRUST_NOTIFICATION,
  type FetchCatalogParams,
  type FetchCatalogResult,
  type InitializationOptions,
  type ToolLensSettings,
} from './protocol.js';
import { references } from './references.js';
import { errorText, Session } from './session.js';
import { documentSymbols } from './symbols.js';

export const WATCHED_GLOBS = ['**/*.{yaml,yml,json,jsonc,jsonl}', '**/.toollens.yaml'];

export interface ServerHandle {
  session: Session;
  documents: TextDocuments<TextDocument>;
  live: LiveFetcher;
  /** Set at initialize. */
  diagnostics(): Diagnostics | undefined;
}

export interface HandlerOptions {
  live?: LiveFetchOptions;
}

export function registerHandlers(connection: Connection, options: HandlerOptions = {}): ServerHandle {
  const log = (message: string) => {
    try {
      connection.console.log(message);
    } catch {
      // The connection is gone (sendNotification throws once it is disposed): nowhere to log to.
    }
  };
  const session = new Session(log);
  const live = new LiveFetcher(connection, session, options.live);
  const documents = new TextDocuments(TextDocument);
  let diagnostics: Diagnostics | undefined;
  let watchFiles = false;
  let documentChanges = false;

  /** Runs a handler; a failure is logged and answered with the fallback (cancellations pass through). */
  async function guard<T>(name: string, fallback: T, run: () => T | Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ResponseError) throw error;
      connection.console.error(`${name} failed: ${errorText(error)}`);
      return fallback;
    }
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const capabilities = params.capabilities;
    const init = (params.initializationOptions ?? {}) as InitializationOptions;
    session.setRoot(params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined);
    // Only an explicit `trusted: true` counts: a client that says nothing gets no live fetching.
    session.trusted = init.trusted === true;
    if (init.settings) session.settings = { ...init.settings };
    const pull = capabilities.textDocument?.diagnostic !== undefined;
    diagnostics = new Diagnostics(connection, session, {
      pull,
      refresh: capabilities.workspace?.diagnostics?.refreshSupport === true,
    });
    watchFiles = capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    documentChanges = capabilities.workspace?.workspaceEdit?.documentChanges === true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        ...(pull ? { diagnosticProvider: { identifier: 'tool-lens', interFileDependencies: true, workspaceDiagnostics: true } } : {}),
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
  });

  connection.onInitialized(() => {
    if (watchFiles) {
      connection.client
        .register(DidChangeWatchedFilesNotification.type, { watchers: WATCHED_GLOBS.map((globPattern) => ({ globPattern })) })
        .catch((error: unknown) => log(`could not register file watching: ${errorText(error)}`));
    }
    // Read the folder after answering, so the client is not kept waiting; requests wait for it.
    setImmediate(() => session.load());
  });

  session.onCatalogState((state) => void connection.sendNotification(CATALOG_STATE_NOTIFICATION, state));

  documents.onDidChangeContent((event) => {
    try {
      session.editorChanged(event.document);
    } catch (error) {
      connection.console.error(`applying an edit failed: ${errorText(error)}`);
    }
  });
  documents.onDidClose((event) => {
    try {
      const path = session.pathOf(event.document.uri);
      session.editorClosed(event.document.uri);
      diagnostics?.documentClosed(path);
    } catch (error) {
      connection.console.error(`closing a document failed: ${errorText(error)}`);
    }
  });
  documents.listen(connection);

  connection.onDidChangeWatchedFiles((params) => {
    for (const change of params.changes) {
      const kind = change.type === FileChangeType.Created ? 'created' : change.type === FileChangeType.Deleted ? 'deleted' : 'changed';
      void session.diskChanged(change.uri, kind);
    }
  });

  connection.onDidChangeConfiguration((params) => {
    const settings = (params.settings as { toolLens?: ToolLensSettings } | null | undefined)?.toolLens;
    if (settings) {
      try {
        session.updateSettings(settings);
      } catch (error) {
        connection.console.error(`applying settings failed: ${errorText(error)}`);
      }
    }
  });

  connection.onNotification(TRUST_NOTIFICATION, (params: { trusted?: unknown }) => {
    if (typeof params?.trusted === 'boolean') session.setTrusted(params.trusted);
  });

  connection.languages.diagnostics.on((params, token) =>
    guard('document diagnostics', { kind: 'full' as const, items: [] }, () => diagnostics!.pullDocument(params, token)),
  );
  connection.languages.diagnostics.onWorkspace((params, token, _workDone, partial) =>
    guard('workspace diagnostics', { items: [] }, () => diagnostics!.pullWorkspace(params, token, partial)),
  );

  /** A request that needs the loaded workspace: waits for it, and gives up when the client cancels. */
  const feature = <T>(name: string, fallback: T, token: CancellationToken, run: () => T): Promise<T> =>
    guard(name, fallback, async () => {
      await session.ready;
      if (token.isCancellationRequested) throw requestCancelled();
      return run();
    });

  connection.onCodeAction((params, token) =>
    feature('code actions', [], token, () => (diagnostics ? codeActions(session, diagnostics, params, { documentChanges }) : [])),
  );
  connection.onHover((params, token) => feature('hover', null, token, () => hover(session, params)));
  connection.onCompletion((params, token) => feature('completion', [], token, () => completion(session, params)));
  connection.onDefinition((params, token) => feature('definition', [], token, () => definition(session, params)));
  connection.onReferences((params, token) => feature('references', [], token, () => references(session, params, token)));
  connection.onDocumentSymbol((params, token) => feature('document symbols', [], token, () => documentSymbols(session, params)));
  connection.onCodeLens((params, token) => feature('code lens', [], token, () => codeLenses(session, params)));
  connection.onExecuteCommand((params) => guard(`command ${params.command}`, null, () => executeCommand(session, params)));
  // Answered when the fetch is over; the fetch is a promise like any other, so every request that
  // arrives meanwhile is answered as usual.
  connection.onRequest(FETCH_CATALOG_REQUEST, (params: FetchCatalogParams, token: CancellationToken) =>
    guard<FetchCatalogResult>('fetch catalog', { ok: false, server: String(params?.server ?? ''), reason: 'failed', message: 'the fetch failed inside Tool Lens; see the Tool Lens output.' }, () =>
      live.fetch(params, token),
    ),
  );

  connection.onShutdown(() => {
    diagnostics?.dispose();
  });

  return { session, documents, live, diagnostics: () => diagnostics };
}
