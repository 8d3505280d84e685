// Wires every LSP feature onto a connection. `server.ts` calls this for the real process; the
// in-process tests call it on a connection over a stream pair. The handlers share one ServerState
// (serverState.ts) and are registered by job: the connection's life (lifecycle.ts), what the
// client tells of texts and settings (documentSync.ts), and the requests it makes (requests.ts).
import type { Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostics } from './diagnostics.js';
import { registerDocumentSync } from './documentSync.js';
import type { Folders } from './folders.js';
import { registerLifecycle } from './lifecycle.js';
import type { LiveFetcher, LiveFetchOptions } from './liveFetch.js';
import { registerRequests } from './requests.js';
import { serverState } from './serverState.js';
import type { Session } from './session.js';

export { WATCHED_GLOBS } from './lifecycle.js';

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
  const state = serverState(connection, options.live);
  registerLifecycle(state);
  registerDocumentSync(state);
  registerRequests(state);
  return {
    folders: state.folders,
    get session() {
      return state.folders.primary;
    },
    documents: state.documents,
    get live() {
      return state.liveOf(state.folders.primary);
    },
    diagnostics: () => state.diagnostics,
  };
}
