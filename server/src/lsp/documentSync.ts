// What the client tells of texts and settings: open documents and their edits, files changed on
// disk, the `toolLens` settings, the workspace's trust. Each goes to the folder it belongs to.
import { FileChangeType } from 'vscode-languageserver';
import { readFolderSettings } from './folderSettings.js';
import { TRUST_NOTIFICATION, type ToolLensSettings } from './protocol.js';
import { logFailure, type ServerState } from './serverState.js';

export function registerDocumentSync(state: ServerState): void {
  const { connection, folders, documents } = state;

  documents.onDidChangeContent((event) => {
    logFailure(state, 'applying an edit', () => folders.ofUri(event.document.uri).editorChanged(event.document));
  });
  documents.onDidClose((event) => {
    logFailure(state, 'closing a document', () => {
      const session = folders.ofUri(event.document.uri);
      const path = session.pathOf(event.document.uri);
      session.editorClosed(event.document.uri);
      state.diagnostics?.documentClosed(session, path);
    });
  });
  documents.listen(connection);

  connection.onDidChangeWatchedFiles((params) => {
    for (const change of params.changes) {
      const kind =
        change.type === FileChangeType.Created
          ? 'created'
          : change.type === FileChangeType.Deleted
            ? 'deleted'
            : 'changed';
      // The folder that holds the file first; then the others, which take what is theirs too: a
      // file a catalog glob of a folder around it names, a configuration found upward from theirs.
      const owner = folders.ofUri(change.uri);
      void owner.diskChanged(change.uri, kind);
      for (const session of folders.all())
        if (session !== owner && session.root !== undefined) void session.diskChanged(change.uri, kind);
    }
  });

  connection.onDidChangeConfiguration((params) => {
    const settings = (params.settings as { toolLens?: ToolLensSettings } | null | undefined)?.toolLens;
    if (!settings) return;
    logFailure(state, 'applying settings', () => {
      folders.updateSettings(settings);
      void readFolderSettings(state, folders.all());
    });
  });

  connection.onNotification(TRUST_NOTIFICATION, (params: { trusted?: unknown }) => {
    if (typeof params?.trusted === 'boolean') folders.setTrusted(params.trusted);
  });
}
