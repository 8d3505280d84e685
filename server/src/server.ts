// The language server's entry point: reads the command line (lsp/commandLine.ts: --help,
// --version, --stdio by default, node-ipc when VS Code starts it), creates the connection and
// wires the handlers. Everything else lives in lsp/.
import { createConnection } from 'vscode-languageserver/node';
import { parseServerCommandLine } from './lsp/commandLine.js';
import { registerHandlers } from './lsp/handlers.js';

const command = parseServerCommandLine(process.argv.slice(2));
if (command.kind === 'start') {
  // createConnection finds its transport in process.argv.
  process.argv.splice(2, process.argv.length - 2, ...command.argv);
  const connection = createConnection();
  registerHandlers(connection);
  connection.listen();
} else {
  (command.kind === 'print' ? process.stdout : process.stderr).write(command.text);
  process.exitCode = command.code;
}
