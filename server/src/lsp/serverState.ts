// What the handlers of one connection share: the workspace folders, the open documents, one live
// fetcher per folder, and what initialize settles once (what the client can do, the diagnostics).
// Every handler runs through `guard`: an exception becomes a logged error and a fallback answer,
// never a crashed server.
import { ResponseError, TextDocuments, type Connection } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { ClientFeatures } from './capabilities.js';
import type { Diagnostics } from './diagnostics.js';
import { Folders } from './folders.js';
import { errorText } from './listeners.js';
import { LiveFetcher, type LiveFetchOptions } from './liveFetch.js';
import type { Session } from './session.js';

export interface ServerState {
  readonly connection: Connection;
  readonly log: (message: string) => void;
  readonly folders: Folders;
  readonly documents: TextDocuments<TextDocument>;
  /** The live fetcher of a folder, made when first needed (fetches are the first folder's). */
  liveOf(session: Session): LiveFetcher;
  /** Set at initialize. */
  client: ClientFeatures | undefined;
  /** Set at initialize. */
  diagnostics: Diagnostics | undefined;
  /** The first log line, set at initialize and said once the client is initialized. */
  startLine: string | undefined;
}

export function serverState(connection: Connection, live: LiveFetchOptions | undefined): ServerState {
  const log = (message: string) => {
    try {
      connection.console.log(message);
    } catch {
      // The connection is gone (sendNotification throws once it is disposed): nowhere to log to.
    }
  };
  const fetchers = new WeakMap<Session, LiveFetcher>();
  return {
    connection,
    log,
    folders: new Folders(log),
    documents: new TextDocuments(TextDocument),
    liveOf(session) {
      let fetcher = fetchers.get(session);
      if (!fetcher) fetchers.set(session, (fetcher = new LiveFetcher(connection, session, live)));
      return fetcher;
    },
    client: undefined,
    diagnostics: undefined,
    startLine: undefined,
  };
}

/** Runs a handler; a failure is logged and answered with the fallback (cancellations pass through). */
export async function guard<T>(state: ServerState, name: string, fallback: T, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ResponseError) throw error;
    state.connection.console.error(`${name} failed: ${errorText(error)}`);
    return fallback;
  }
}

/** Runs a notification's work; a failure is logged as `${what} failed`. */
export function logFailure(state: ServerState, what: string, run: () => void): void {
  try {
    run();
  } catch (error) {
    state.connection.console.error(`${what} failed: ${errorText(error)}`);
  }
}
