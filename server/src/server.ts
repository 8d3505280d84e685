// The language server's entry point: creates the connection (`--stdio` for any LSP client,
// node-ipc when VS Code starts it) and wires the handlers. Everything else lives in lsp/.
import { createConnection } from 'vscode-languageserver/node';
import { registerHandlers } from './lsp/handlers.js';

const connection = createConnection();
registerHandlers(connection);
connection.listen();
