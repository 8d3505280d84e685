// Wires every LSP feature onto a connection. `server.ts` calls this for the real process; the
// in-process tests call it on a connection over a stream pair. Every handler is wrapped: an
// exception becomes a logged error and an empty result, never a crashed server.
import { pathToFileURL } from 'node:url';
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
import { version as TOOL_VERSION } from '../../../package.json';
import { codeActions, CODE_ACTION_KINDS } from './codeActions.js';
import { codeLenses } from './codeLens.js';
import { executeCommand, SERVER_COMMAND_IDS } from './commands.js';
import { completion, COMPLETION_TRIGGERS } from './completion.js';
import { definition } from './definition.js';
import { Diagnostics, requestCancelled } from './diagnostics.js';
import { Folders } from './folders.js';
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
import { isWithin } from './paths.js';
import { references } from './references.js';
import { configCompletion, configHover } from './configEditing.js';
import { validCommandName } from './ruleActions.js';
import { errorText } from './listeners.js';
import type { Session } from './session.js';
import { documentSymbols } from './symbols.js';

/** The first log line: which Tool Lens, on which Node, for which client and folders. */
function startWords(params: InitializeParams, trusted: boolean): string {
  const client = params.clientInfo ? `${params.clientInfo.name}${params.clientInfo.version ? ` ${params.clientInfo.version}` : ''}` : 'an unnamed client';
  const folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
  const where = folders.length ? `workspace folder${folders.length === 1 ? '' : 's'} ${folders.join(', ')}` : 'no workspace folder';
  return `Tool Lens ${TOOL_VERSION} language server (Node ${process.version}) for ${client}; ${where}; ${trusted ? 'trusted' : 'not trusted: no live fetches'}`;
}

export const WATCHED_GLOBS = ['**/*.{yaml,yml,json,jsonc,jsonl}', '**/.toollens.yaml'];

export interface ServerHandle {
  /** Every workspace folder, each its own Session (lsp/folders.ts). */
  folders: Folders;
  /** The first folder's session. */
  readonly session: Session;
  documents: TextDocuments<TextDocument>;
  /** The live fetcher of the first folder (the one live fetches read and write). */
  readonly live: LiveFetcher;
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
  const folders = new Folders(log);
  // One fetcher per folder's session, made when first needed; fetches are the first folder's.
  const fetchers = new WeakMap<Session, LiveFetcher>();
  const liveOf = (session: Session): LiveFetcher => {
    let fetcher = fetchers.get(session);
    if (!fetcher) fetchers.set(session, (fetcher = new LiveFetcher(connection, session, options.live)));
    return fetcher;
  };
  const documents = new TextDocuments(TextDocument);
  let diagnostics: Diagnostics | undefined;
  let watchFiles = false;
  let documentChanges = false;
  /** The client's command that shows a rule's page (InitializationOptions.ruleDocsCommand). */
  let ruleDocsCommand: string | undefined;
  let createFiles = false;
  let folderEvents = false;
  let scopedConfiguration = false;
  let startLine: string | undefined;

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
    // Only an explicit `trusted: true` counts: a client that says nothing gets no live fetching.
    folders.trusted = init.trusted === true;
    if (init.settings) folders.settings = { ...init.settings };
    const given = params.workspaceFolders?.map((folder) => folder.uri) ?? [];
    const rootUri = params.rootUri ?? undefined;
    folders.initialize(given.length > 0 ? given : rootUri !== undefined ? [rootUri] : []);
    // Logged once initialized: a client reads the initialize answer first (the spec allows a log
    // line before it, but not every client expects one).
    startLine = startWords(params, folders.trusted);
    for (const session of folders.all()) session.onCatalogState(() => publishCatalogState());
    folders.onAdded((session) => session.onCatalogState(() => publishCatalogState()));
    const pull = capabilities.textDocument?.diagnostic !== undefined;
    ruleDocsCommand = validCommandName(init.ruleDocsCommand) ? init.ruleDocsCommand : undefined;
    diagnostics = new Diagnostics(connection, folders, {
      pull,
      refresh: capabilities.workspace?.diagnostics?.refreshSupport === true,
      ...(ruleDocsCommand ? { ruleDocsCommand } : {}),
    });
    watchFiles = capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    documentChanges = capabilities.workspace?.workspaceEdit?.documentChanges === true;
    createFiles = documentChanges && (capabilities.workspace?.workspaceEdit?.resourceOperations ?? []).includes('create');
    folderEvents = capabilities.workspace?.workspaceFolders === true;
    scopedConfiguration = capabilities.workspace?.configuration === true;
    return {
      capabilities: {
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
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
    if (startLine) log(startLine);
    if (watchFiles) {
      connection.client
        .register(DidChangeWatchedFilesNotification.type, { watchers: WATCHED_GLOBS.map((globPattern) => ({ globPattern })) })
        .catch((error: unknown) => log(`could not register file watching: ${errorText(error)}`));
    }
    if (folderEvents) {
      connection.workspace.onDidChangeWorkspaceFolders((event) => {
        try {
          foldersChanged(event.added.map((f) => f.uri), event.removed.map((f) => f.uri));
        } catch (error) {
          connection.console.error(`applying a change of workspace folders failed: ${errorText(error)}`);
        }
      });
    }
    // Read the folders after answering, so the client is not kept waiting; requests wait for them.
    setImmediate(() => {
      for (const session of folders.all()) session.load();
      void readFolderSettings(folders.all());
    });
  });

  /**
   * `toolLens.catalogs` is a per-folder setting: when the client answers `workspace/configuration`,
   * each folder gets its own value (relative to that folder); otherwise every folder has the one
   * the client sent.
   */
  async function readFolderSettings(sessions: readonly Session[]): Promise<void> {
    if (!scopedConfiguration) return;
    for (const session of sessions) {
      if (session.root === undefined || session.closed) continue;
      let value: unknown;
      try {
        value = await connection.workspace.getConfiguration({ scopeUri: pathToFileURL(session.root).href, section: 'toolLens' });
      } catch (error) {
        log(`could not read the settings of ${session.root}: ${errorText(error)}`);
        continue;
      }
      const catalogs = (value as { catalogs?: unknown } | null | undefined)?.catalogs;
      if (session.closed || !Array.isArray(catalogs) || !catalogs.every((glob) => typeof glob === 'string')) continue;
      try {
        session.updateSettings({ ...session.settings, catalogs });
      } catch (error) {
        connection.console.error(`applying the settings of ${session.root} failed: ${errorText(error)}`);
      }
    }
  }

  /** Every folder's catalog state as one (the language status items'), once every folder has been read. */
  function publishCatalogState(): void {
    void connection.sendNotification(CATALOG_STATE_NOTIFICATION, folders.catalogState());
  }

  /**
   * Folders were added or removed: the removed ones' state is dropped and their diagnostics
   * cleared; the added ones are read and checked; a folder that holds a changed one is read again
   * (which files are its own changed); every open editor moves to the folder that now holds it.
   */
  function foldersChanged(added: readonly string[], removed: readonly string[]): void {
    const change = folders.change(added, removed);
    if (!change) return;
    const moved = [...change.added, ...change.removed].map((s) => s.root).filter((root): root is string => root !== undefined);
    const outer = folders.all().filter((s) => !change.added.includes(s) && s.root !== undefined && moved.some((root) => root !== s.root && isWithin(s.root!, root)));
    for (const session of folders.all()) {
      for (const document of documents.all()) {
        const entry = session.entryOf(document.uri);
        if (entry?.editor && folders.ofUri(document.uri) !== session) session.editorClosed(document.uri);
      }
    }
    for (const document of documents.all()) {
      const owner = folders.ofUri(document.uri);
      if (!owner.entryOf(document.uri)?.editor) owner.editorChanged(document);
    }
    for (const session of [...change.added, ...outer]) session.load();
    void readFolderSettings(change.added);
    diagnostics?.folderAdded();
    publishCatalogState();
  }

  documents.onDidChangeContent((event) => {
    try {
      folders.ofUri(event.document.uri).editorChanged(event.document);
    } catch (error) {
      connection.console.error(`applying an edit failed: ${errorText(error)}`);
    }
  });
  documents.onDidClose((event) => {
    try {
      const session = folders.ofUri(event.document.uri);
      const path = session.pathOf(event.document.uri);
      session.editorClosed(event.document.uri);
      diagnostics?.documentClosed(session, path);
    } catch (error) {
      connection.console.error(`closing a document failed: ${errorText(error)}`);
    }
  });
  documents.listen(connection);

  connection.onDidChangeWatchedFiles((params) => {
    for (const change of params.changes) {
      const kind = change.type === FileChangeType.Created ? 'created' : change.type === FileChangeType.Deleted ? 'deleted' : 'changed';
      // The folder that holds the file first; then the others, which take what is theirs too: a
      // file a catalog glob of a folder around it names, a configuration found upward from theirs.
      const owner = folders.ofUri(change.uri);
      void owner.diskChanged(change.uri, kind);
      for (const session of folders.all()) if (session !== owner && session.root !== undefined) void session.diskChanged(change.uri, kind);
    }
  });

  connection.onDidChangeConfiguration((params) => {
    const settings = (params.settings as { toolLens?: ToolLensSettings } | null | undefined)?.toolLens;
    if (settings) {
      try {
        folders.updateSettings(settings);
        void readFolderSettings(folders.all());
      } catch (error) {
        connection.console.error(`applying settings failed: ${errorText(error)}`);
      }
    }
  });

  connection.onNotification(TRUST_NOTIFICATION, (params: { trusted?: unknown }) => {
    if (typeof params?.trusted === 'boolean') folders.setTrusted(params.trusted);
  });

  connection.languages.diagnostics.on((params, token) =>
    guard('document diagnostics', { kind: 'full' as const, items: [] }, () => diagnostics!.pullDocument(params, token)),
  );
  connection.languages.diagnostics.onWorkspace((params, token, _workDone, partial) =>
    guard('workspace diagnostics', { items: [] }, () => diagnostics!.pullWorkspace(params, token, partial)),
  );

  /** A request that needs the loaded workspace: waits for it, and gives up when the client cancels. */
  // Each runs in the workspace folder that holds the document.
  const feature = <T>(name: string, fallback: T, token: CancellationToken, uri: string, run: (session: Session) => T): Promise<T> =>
    guard(name, fallback, async () => {
      await folders.ready();
      if (token.isCancellationRequested) throw requestCancelled();
      return run(folders.ofUri(uri));
    });

  connection.onCodeAction((params, token) =>
    feature('code actions', [], token, params.textDocument.uri, (session) => (diagnostics ? codeActions(session, diagnostics, params, { documentChanges, ruleDocsCommand, createFiles }) : [])),
  );
  connection.onHover((params, token) => feature('hover', null, token, params.textDocument.uri, (session) => configHover(session, params) ?? hover(session, params, diagnostics?.reportOfUri(params.textDocument.uri)?.findings)));
  connection.onCompletion((params, token) => feature('completion', [], token, params.textDocument.uri, (session) => configCompletion(session, params) ?? completion(session, params)));
  connection.onDefinition((params, token) => feature('definition', [], token, params.textDocument.uri, (session) => definition(session, params)));
  connection.onReferences((params, token) => feature('references', [], token, params.textDocument.uri, (session) => references(session, params, token)));
  connection.onDocumentSymbol((params, token) => feature('document symbols', [], token, params.textDocument.uri, (session) => documentSymbols(session, params)));
  connection.onCodeLens((params, token) => feature('code lens', [], token, params.textDocument.uri, (session) => codeLenses(session, params)));
  connection.onExecuteCommand((params) => guard(`command ${params.command}`, null, () => executeCommand(folders, params, (uri) => diagnostics?.reportOfUri(uri)?.findings)));
  // Answered when the fetch is over; the fetch is a promise like any other, so every request that
  // arrives meanwhile is answered as usual.
  connection.onRequest(FETCH_CATALOG_REQUEST, (params: FetchCatalogParams, token: CancellationToken) =>
    guard<FetchCatalogResult>('fetch catalog', { ok: false, server: String(params?.server ?? ''), reason: 'failed', message: 'the fetch failed inside Tool Lens; see the Tool Lens output.' }, () =>
      liveOf(folders.primary).fetch(params, token),
    ),
  );

  connection.onShutdown(() => {
    diagnostics?.dispose();
  });

  return {
    folders,
    get session() {
      return folders.primary;
    },
    documents,
    get live() {
      return liveOf(folders.primary);
    },
    diagnostics: () => diagnostics,
  };
}
