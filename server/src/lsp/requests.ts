// The requests the client makes: diagnostic pulls, the editor features (each in the workspace
// folder that holds its document, once the folders have been read), server commands, and the live
// fetch of a catalog.
import type { CancellationToken } from 'vscode-languageserver';
import { codeActions } from './codeActions.js';
import { codeLenses } from './codeLens.js';
import { executeCommand } from './commands.js';
import { completion } from './completion.js';
import { configCompletion, configHover } from './configEditing.js';
import { definition } from './definition.js';
import { requestCancelled } from './diagnostics.js';
import { hover } from './hover.js';
import {
  FETCH_CATALOG_REQUEST,
  SERVER_COMMANDS,
  type FetchCatalogParams,
  type FetchCatalogResult,
} from './protocol.js';
import { references } from './references.js';
import { guard, type ServerState } from './serverState.js';
import type { Session } from './session.js';
import { documentSymbols } from './symbols.js';

export function registerRequests(state: ServerState): void {
  const { connection, folders } = state;
  const findingsOf = (uri: string) => state.diagnostics?.reportOfUri(uri)?.findings;

  connection.languages.diagnostics.on((params, token) =>
    guard(state, 'document diagnostics', { kind: 'full' as const, items: [] }, () =>
      state.diagnostics!.pullDocument(params, token),
    ),
  );
  connection.languages.diagnostics.onWorkspace((params, token, _workDone, partial) =>
    guard(state, 'workspace diagnostics', { items: [] }, () =>
      state.diagnostics!.pullWorkspace(params, token, partial),
    ),
  );

  /** A request that needs the loaded workspace: waits for it, and gives up when the client cancels. */
  // Each runs in the workspace folder that holds the document.
  const feature = <T>(
    name: string,
    fallback: T,
    token: CancellationToken,
    uri: string,
    run: (session: Session) => T,
  ): Promise<T> =>
    guard(state, name, fallback, async () => {
      await folders.ready();
      if (token.isCancellationRequested) throw requestCancelled();
      return run(folders.ofUri(uri));
    });

  connection.onCodeAction((params, token) =>
    feature('code actions', [], token, params.textDocument.uri, (session) => {
      const { diagnostics, client } = state;
      if (!diagnostics || !client) return [];
      return codeActions(session, diagnostics, params, {
        documentChanges: client.documentChanges,
        ruleDocsCommand: client.ruleDocsCommand,
        createFiles: client.createFiles,
        showDocument: client.showDocument,
      });
    }),
  );
  connection.onHover((params, token) =>
    feature(
      'hover',
      null,
      token,
      params.textDocument.uri,
      (session) => configHover(session, params) ?? hover(session, params, findingsOf(params.textDocument.uri)),
    ),
  );
  connection.onCompletion((params, token) =>
    feature(
      'completion',
      [],
      token,
      params.textDocument.uri,
      (session) => configCompletion(session, params) ?? completion(session, params),
    ),
  );
  connection.onDefinition((params, token) =>
    feature('definition', [], token, params.textDocument.uri, (session) => definition(session, params)),
  );
  connection.onReferences((params, token) =>
    feature('references', [], token, params.textDocument.uri, (session) => references(session, params, token)),
  );
  connection.onDocumentSymbol((params, token) =>
    feature('document symbols', [], token, params.textDocument.uri, (session) => documentSymbols(session, params)),
  );
  connection.onCodeLens((params, token) =>
    feature('code lens', [], token, params.textDocument.uri, (session) => codeLenses(session, params)),
  );
  connection.onExecuteCommand((params) =>
    guard(state, `command ${params.command}`, null, async () => {
      if (params.command === SERVER_COMMANDS.showDocument) {
        // Only the connection can ask the client; a code action offers it to clients that show documents.
        const uri = (params.arguments?.[0] as { uri?: unknown } | undefined)?.uri;
        if (typeof uri === 'string' && state.client?.showDocument)
          await connection.window.showDocument({ uri, takeFocus: true });
        return null;
      }
      return executeCommand(folders, params, findingsOf);
    }),
  );
  // Answered when the fetch is over; the fetch is a promise like any other, so every request that
  // arrives meanwhile is answered as usual.
  connection.onRequest(FETCH_CATALOG_REQUEST, (params: FetchCatalogParams, token: CancellationToken) =>
    guard<FetchCatalogResult>(
      state,
      'fetch catalog',
      {
        ok: false,
        server: String(params?.server ?? ''),
        reason: 'failed',
        message: 'the fetch failed inside Tool Lens; see the Tool Lens output.',
      },
      () => state.liveOf(folders.primary).fetch(params, token),
    ),
  );
}
