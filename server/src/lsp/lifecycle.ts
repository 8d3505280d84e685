// The connection's life: initialize (the folders, what the client can do, the diagnostics),
// initialized (file watching, folder events, the first read of every folder), shutdown.
import {
  DidChangeWatchedFilesNotification,
  MessageType,
  ShowMessageNotification,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver';
import { clientFeaturesOf, serverCapabilities, startWords } from './capabilities.js';
import { Diagnostics } from './diagnostics.js';
import { foldersChanged, publishCatalogState } from './folderChanges.js';
import { readFolderSettings } from './folderSettings.js';
import { errorText } from './listeners.js';
import type { InitializationOptions } from './protocol.js';
import type { ServerState } from './serverState.js';

export const WATCHED_GLOBS = ['**/*.{yaml,yml,json,jsonc,jsonl}', '**/.toollens.yaml'];

export function registerLifecycle(state: ServerState): void {
  const { connection, folders } = state;

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const init = (params.initializationOptions ?? {}) as InitializationOptions;
    // Only an explicit `trusted: true` counts: a client that says nothing gets no live fetching.
    folders.trusted = init.trusted === true;
    if (init.settings) folders.settings = { ...init.settings };
    const given = params.workspaceFolders?.map((folder) => folder.uri) ?? [];
    const rootUri = params.rootUri ?? undefined;
    folders.initialize(given.length > 0 ? given : rootUri !== undefined ? [rootUri] : []);
    // Logged once initialized: a client reads the initialize answer first (the spec allows a log
    // line before it, but not every client expects one).
    state.startLine = startWords(params, folders.trusted);
    for (const session of folders.all()) session.onCatalogState(() => publishCatalogState(state));
    folders.onAdded((session) => session.onCatalogState(() => publishCatalogState(state)));
    // What the user must see (a configuration that cannot be read): a warning, not only a log line.
    folders.onAdded((session) =>
      session.onNotice(
        (message) =>
          void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message }),
      ),
    );
    const client = clientFeaturesOf(params);
    state.client = client;
    state.diagnostics = new Diagnostics(connection, folders, {
      pull: client.pull,
      refresh: client.refresh,
      ...(client.ruleDocsCommand ? { ruleDocsCommand: client.ruleDocsCommand } : {}),
    });
    return serverCapabilities(client);
  });

  connection.onInitialized(() => {
    if (state.startLine) state.log(state.startLine);
    if (state.client?.watchFiles) {
      connection.client
        .register(DidChangeWatchedFilesNotification.type, {
          watchers: WATCHED_GLOBS.map((globPattern) => ({ globPattern })),
        })
        .catch((error: unknown) => state.log(`could not register file watching: ${errorText(error)}`));
    }
    if (state.client?.folderEvents) {
      connection.workspace.onDidChangeWorkspaceFolders((event) => {
        try {
          foldersChanged(
            state,
            event.added.map((f) => f.uri),
            event.removed.map((f) => f.uri),
          );
        } catch (error) {
          connection.console.error(`applying a change of workspace folders failed: ${errorText(error)}`);
        }
      });
    }
    // Read the folders after answering, so the client is not kept waiting; requests wait for them.
    setImmediate(() => {
      for (const session of folders.all()) session.load();
      void readFolderSettings(state, folders.all());
    });
  });

  connection.onShutdown(() => {
    state.diagnostics?.dispose();
  });
}
