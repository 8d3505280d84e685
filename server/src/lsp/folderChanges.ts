// Workspace folders added and removed at run time (`workspace/didChangeWorkspaceFolders`), and the
// catalog state of every folder as one notification.
import { isWithin } from './paths.js';
import { CATALOG_STATE_NOTIFICATION } from './protocol.js';
import { readFolderSettings } from './folderSettings.js';
import type { ServerState } from './serverState.js';

/** Every folder's catalog state as one (the language status items'), once every folder has been read. */
export function publishCatalogState(state: ServerState): void {
  void state.connection.sendNotification(CATALOG_STATE_NOTIFICATION, state.folders.catalogState());
}

/**
 * Folders were added or removed: the removed ones' state is dropped and their diagnostics
 * cleared; the added ones are read and checked; a folder that holds a changed one is read again
 * (which files are its own changed); every open editor moves to the folder that now holds it.
 */
export function foldersChanged(state: ServerState, added: readonly string[], removed: readonly string[]): void {
  const { folders, documents } = state;
  const change = folders.change(added, removed);
  if (!change) return;
  const moved = [...change.added, ...change.removed]
    .map((s) => s.root)
    .filter((root): root is string => root !== undefined);
  const outer = folders
    .all()
    .filter(
      (s) =>
        !change.added.includes(s) &&
        s.root !== undefined &&
        moved.some((root) => root !== s.root && isWithin(s.root!, root)),
    );
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
  void readFolderSettings(state, change.added);
  state.diagnostics?.folderAdded();
  publishCatalogState(state);
}
