// The command line of `tool-lens-language-server`. vscode-languageserver's createConnection reads
// the transport from process.argv itself and throws (a stack trace, nothing else) when none is
// given; here the arguments are looked at first, so the server answers --help and --version as
// `tool-lens` does, takes --stdio when no transport is named (what every LSP client but VS Code
// starts it with), and refuses an unknown option with a usage line and exit code 2.
import { version as TOOL_VERSION } from '../../../package.json';
import { closest } from '../core/text/suggest.js';

export const SERVER_HELP = `Tool Lens language server ${TOOL_VERSION}: diagnostics, hovers, completion and fixes for
MCP gateway workflows, tool-face overlays, tool catalogs and tool calls, over the Language Server
Protocol.

Usage:
  tool-lens-language-server [--stdio]     talk LSP over standard input and output (the default)
  tool-lens-language-server --node-ipc    talk over a Node IPC channel (how VS Code starts it)
  tool-lens-language-server --socket=PORT connect to a client listening on PORT
  tool-lens-language-server --pipe=NAME   connect to a client's named pipe or socket file
  tool-lens-language-server --help | --version

The workspace is the root folder the client gives in its initialize request; .toollens.yaml is
read from there. --clientProcessId=PID (sent by VS Code's client) is accepted and ends the server
when that process ends.

Exit codes: 0 after the client's shutdown and exit, 1 when the client goes away without them,
2 usage error.
`;

/** What to do with the command line: answer and exit, or start with these arguments. */
export type ServerCommand =
  | { kind: 'print'; text: string; code: 0 }
  | { kind: 'usage-error'; text: string; code: 2 }
  | { kind: 'start'; argv: string[] };

const TRANSPORTS = ['--stdio', '--node-ipc', '--socket', '--pipe'];
/** Options that take a value, as `--name=value` or `--name value`. */
const WITH_VALUE = ['--socket', '--pipe', '--clientProcessId'];
const KNOWN = ['--stdio', '--node-ipc', '--socket', '--pipe', '--clientProcessId', '--help', '--version'];

/**
 * Reads the arguments after `node dist/server.js`. The arguments handed back for `start` are the
 * ones given, with `--stdio` added when none names a transport (createConnection reads
 * process.argv, so the caller puts them there).
 */
export function parseServerCommandLine(args: string[]): ServerCommand {
  let transport = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--help' || arg === '-h') return { kind: 'print', text: SERVER_HELP, code: 0 };
    if (arg === '--version' || arg === '-v') return { kind: 'print', text: `${TOOL_VERSION}\n`, code: 0 };
  }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const name = arg.split('=', 1)[0]!;
    if (!KNOWN.includes(name)) {
      const guess = arg.startsWith('-') ? closest(name, KNOWN) : undefined;
      const what = arg.startsWith('-') ? `unknown option ${name}` : `unexpected argument "${arg}"`;
      return {
        kind: 'usage-error',
        text: `tool-lens-language-server: ${what}${guess ? `; did you mean ${guess}?` : ''} (see tool-lens-language-server --help)\n`,
        code: 2,
      };
    }
    if (WITH_VALUE.includes(name) && !arg.includes('=')) {
      if (args[i + 1] === undefined || args[i + 1]!.startsWith('--'))
        return {
          kind: 'usage-error',
          text: `tool-lens-language-server: option ${name} needs a value (see tool-lens-language-server --help)\n`,
          code: 2,
        };
      i++;
    }
    if (TRANSPORTS.includes(name)) transport = true;
  }
  return { kind: 'start', argv: transport ? args : [...args, '--stdio'] };
}
