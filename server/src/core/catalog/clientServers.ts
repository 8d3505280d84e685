// The MCP servers the workspace's client configs declare, by name (an index of files beside the
// catalog, as the composite tool definitions are: definitions.ts), and what each of them runs,
// written one way whatever the client's syntax: for client/differs-across-clients, which notes a
// server that two clients of one project start differently, and `tool-lens servers`, which marks
// such rows (`differsFrom`). Both compare with `runsDifferently` over `whatRuns`: one comparison.
//
// Only files whose client is known by their path take part (parse/clients.ts CLIENTS); a file
// recognised by its content names no client. Plain data only (no parse is kept): each server's
// file, client, project folder (the folder the client is opened in to read it), name, the place of
// its name, and what runs. The CLI (node/loader.ts) and the language server (lsp/session.ts) fill
// it from the client files of the workspace, parsed under the workspace's limits like any other.
import { clientOfPath, projectFolderOf, serversIn, type ClientId } from '../parse/clients.js';
import type { ParsedDocument, ParsedFile } from '../parse/file.js';
import { isScalar } from '../parse/nodes.js';
import { launchOfNode, serverFileKindOf, type ServerLaunch } from '../parse/serverEntries.js';
import type { Span } from '../types.js';
import { FileIndex } from './fileIndex.js';

/**
 * What a server entry runs, written one way. A remote transport is `remote` where the client picks
 * it itself (VS Code falls back from streamable HTTP to SSE whatever `type` says; Cursor detects
 * it; Windsurf does not say), so that it matches both fixed ones.
 */
export type WhatRuns =
  | { transport: 'stdio'; command: string; args: string[] }
  | { transport: 'http' | 'sse' | 'remote' | 'websocket'; url: string };

/** What two definitions of a server differ in, in the order a message names them. */
export type Difference = 'transport' | 'command' | 'arguments' | 'package version' | 'URL';

/** Clients that choose a remote transport themselves, whatever `type` says (docs/internals/client-facts.md). */
const PICKS_TRANSPORT = new Set<string>(['vscode', 'cursor', 'windsurf', 'opencode', 'unknown']);

/** Clients whose remote transport follows `type` only when it is written (another entry is refused or detected). */
const TYPE_WHEN_WRITTEN = new Set<string>(['claude-code', 'roo', 'kilo', 'continue']);

/**
 * What an entry of `client` (a ClientId, or `unknown`) runs, written one way; undefined for an
 * entry that starts nothing by itself (no command or URL: a Codex fragment over the user's own
 * config, a Zed extension's server; a url entry of Claude Desktop, which starts local servers only).
 *
 * In the command and every argument and URL, each client's variable syntax is one form:
 * `${env:X}`, `${X}`, `${X:-default}`, `$X`, `${input:x}`, `${{ secrets.X }}`, `${process.env.X}` and OpenCode's `{env:X}`
 * all read `${X}`, the name upper-cased with `-` and `.` read as `_` (VS Code input ids are written
 * in lower case).
 * A path from the project folder is one form too: `${workspaceFolder}/a` (VS Code, Cursor),
 * `${CLAUDE_PROJECT_DIR}/a` (Claude Code), `./a` and `a` are the same file, since every client starts
 * a local server in the project folder. `npx -y pkg` is `npx pkg`: a client starts the server with
 * pipes, not a terminal, and npm's exec (libnpmexec lib/index.js, with lib/no-tty.js) installs a
 * missing package without asking when stdin is no TTY. `cmd /c npx` is `npx`, and options written
 * one after the other are read in any order (`docker run --rm -i` is `docker run -i --rm`).
 */
export function whatRuns(launch: ServerLaunch, client: string): WhatRuns | undefined {
  const start = launch.start;
  if (start.transport === 'none') return undefined;
  if (start.transport === 'stdio') {
    let words = [start.command, ...start.args.map(wordOf)].map(sameWord);
    if (/^cmd(\.exe)?$/i.test(words[0] ?? '') && /^\/c$/i.test(words[1] ?? '')) words = words.slice(2);
    const [command = '', ...args] = words;
    const program = programOf(command);
    return { transport: 'stdio', command: program, args: optionsInOrder(program === 'npx' ? withoutYes(args) : args) };
  }
  // Claude Desktop starts local servers only: its url entry runs nothing (client/invalid-transport says so).
  if (client === 'claude-desktop') return undefined;
  const url = sameWord(start.url).replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i, (head) => head.toLowerCase());
  const transport =
    start.transport === 'websocket'
      ? 'websocket'
      : PICKS_TRANSPORT.has(client) || (TYPE_WHEN_WRITTEN.has(client) && launch.type === undefined)
        ? 'remote'
        : start.transport;
  return { transport, url: url.replace(/\/$/, '') };
}

/** What `a` and `b` differ in (nothing: they run the same). */
export function runsDifferently(a: WhatRuns, b: WhatRuns): Difference[] {
  if (a.transport === 'stdio' || b.transport === 'stdio') {
    if (a.transport !== 'stdio' || b.transport !== 'stdio') return ['transport'];
    const out: Difference[] = [];
    if (a.command !== b.command) out.push('command');
    const args = argumentsDiffer(a.args, b.args, IMAGE_RUNNERS.has(a.command) && IMAGE_RUNNERS.has(b.command));
    if (args) out.push(args);
    return out;
  }
  const out: Difference[] = [];
  if (a.transport !== b.transport && a.transport !== 'remote' && b.transport !== 'remote') out.push('transport');
  if (a.url !== b.url) out.push('URL');
  return out;
}

/** Programs whose words may name an image with a `:tag`. */
const IMAGE_RUNNERS = new Set(['docker', 'podman']);

/**
 * `package version` when every word that differs names the same package at another version (or
 * none); an image's tag counts where the program runs images (`images`), not a `host:port`.
 */
function argumentsDiffer(
  a: readonly string[],
  b: readonly string[],
  images: boolean,
): 'arguments' | 'package version' | undefined {
  if (a.length !== b.length) return 'arguments';
  let differs = false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    differs = true;
    const x = unversioned(a[i]!, images);
    const y = unversioned(b[i]!, images);
    if (x === undefined || x !== y) return 'arguments';
  }
  return differs ? 'package version' : undefined;
}

/**
 * A package, image or git source without its version, tag or ref (`@scope/pkg@1.2` → `@scope/pkg`,
 * `pkg==1.2` → `pkg`, `img:1.2` → `img`, `git+https://h/r@v1` → `git+https://h/r`); the word itself
 * when it names no version; undefined for an option (`--port=1`), which is no package.
 */
function unversioned(word: string, images: boolean): string | undefined {
  if (word.startsWith('-')) return undefined;
  if (/^(git\+|github:|https?:\/\/)/.test(word)) return word.replace(/(#.*|@[^/@]*)$/, '');
  const python = /^([A-Za-z0-9._[\],-]+)\s*(?:===?|>=|<=|~=|!=|<|>)/.exec(word);
  if (python) return python[1];
  const at = word.indexOf('@', word.startsWith('@') ? 1 : 0);
  if (at > 0) return word.slice(0, at);
  if (!images) return word;
  const slash = word.lastIndexOf('/');
  const colon = word.indexOf(':', slash + 1);
  return colon > 0 ? word.slice(0, colon) : word;
}

/** npx's `-y`/`--yes` before the package: without a terminal it installs without asking anyway. */
function withoutYes(args: readonly string[]): string[] {
  const out: string[] = [];
  let options = true;
  for (const arg of args) {
    if (options && !arg.startsWith('-')) options = false;
    if (options && (arg === '-y' || arg === '--yes')) continue;
    out.push(arg);
  }
  return out;
}

/**
 * Each run of options written one after the other (`--rm -i`, `-i --rm`) in one order: programs
 * read them so. An option's value is the word after the run, which stays in its place.
 */
function optionsInOrder(args: readonly string[]): string[] {
  const out: string[] = [];
  let run: string[] = [];
  for (const arg of args) {
    if (arg.startsWith('-') && arg !== '-' && arg !== '--') {
      run.push(arg);
      continue;
    }
    out.push(...run.sort(), arg);
    run = [];
  }
  return [...out, ...run.sort()];
}

/** A program named without a path is looked up: `npx.cmd` and `NPX` are `npx`. */
function programOf(command: string): string {
  return /[\\/]/.test(command) ? command : command.toLowerCase().replace(/\.(cmd|exe|bat)$/, '');
}

/** A number or boolean means its text; anything else in a command line is no word a client passes. */
function wordOf(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '<not a string>';
}

/** The project folder as each client writes it: read as `.`. */
const PROJECT_FOLDER = /\$\{(?:workspaceFolder|workspaceRoot|CLAUDE_PROJECT_DIR)\}|\$CLAUDE_PROJECT_DIR\b/g;
/** Every client's variable reference (see whatRuns). */
const REFERENCE =
  /\$\{\{\s*(?:secrets|inputs)\.([\w.-]+)\s*\}\}|\$\{(?:env:|input:|process\.env\.)?([A-Za-z_][\w.-]*)(?::-[^}]*)?\}|\$([A-Za-z_]\w*)|(?<!\$)\{env:([A-Za-z_][\w.-]*)\}/g;

/** A word with every variable reference and every path from the project folder written one way. */
function sameWord(word: string): string {
  return word
    .replace(PROJECT_FOLDER, '.')
    .replace(/(^|[\s=,:])\.[\\/]+/g, '$1')
    .replace(
      REFERENCE,
      (_, a?: string, b?: string, c?: string, d?: string) =>
        `\${${(a ?? b ?? c ?? d ?? '').toUpperCase().replace(/[-.]/g, '_')}}`,
    );
}

/** A server as the index keeps it. */
export interface IndexedClientServer {
  /** The workspace path of its file (a finding's related `file`). */
  file: string;
  client: ClientId;
  clientLabel: string;
  /** The folder the client is opened in to read the file (parse/clients.ts projectFolderOf). */
  project: string;
  name: string;
  /** Where its name is written in `file`. */
  span: Span;
  runs: WhatRuns;
}

/** Whether a path is a client file whose servers the index keeps (a file at another path is not parsed for it). */
export function mayHoldClientServers(path: string): boolean {
  return clientOfPath(path) !== null;
}

/** The servers of a parsed client file that run something, in file order (none for a file no client's path names). */
export function clientServersOf(file: ParsedFile): IndexedClientServer[] {
  return file.documents.flatMap((doc) => clientServersIn(file.path, doc));
}

/** The servers of one document of the client file at `path` that run something, in order. */
export function clientServersIn(path: string, doc: ParsedDocument): IndexedClientServer[] {
  const client = clientOfPath(path);
  const kind = serverFileKindOf(path);
  if (!client || !kind || doc.kind !== 'mcp-servers') return [];
  const project = projectFolderOf(path, client.path);
  const out: IndexedClientServer[] = [];
  for (const server of serversIn(doc.root, client)) {
    const runs = server.entry && whatRuns(launchOfNode(kind, server.entry), client.id);
    if (!runs) continue;
    // A list's item is named by its `name` value; a map's by its key.
    const named = client.list && isScalar(server.pair.value) ? server.pair.value : server.pair.key;
    out.push({
      file: path,
      client: client.id,
      clientLabel: client.label,
      project,
      name: server.name,
      span: { start: named.span.start, end: named.span.end },
      runs,
    });
  }
  return out;
}

/** Another client's definition of a server, and what it differs in. */
export interface OtherDefinition {
  server: IndexedClientServer;
  differences: Difference[];
}

export class ClientServerIndex extends FileIndex<IndexedClientServer> {
  /**
   * Sets what one file declares (none: the file is forgotten). True when that changed what a
   * look-up from another file can see, which changes the revision: a server added, removed, moved
   * or changed under a name that another client's file of its project also declares. A change no
   * other file can see (a server only this file names) leaves the revision as it was.
   */
  setFile(path: string, servers: readonly IndexedClientServer[]): boolean {
    const before = this.entriesOf(path);
    if (JSON.stringify(before) === JSON.stringify(servers)) return false;
    this.store(path, servers);
    // The servers added, removed or changed: only a look-up by one of their names can see it.
    const keyed = (list: readonly IndexedClientServer[]) => new Set(list.map((server) => JSON.stringify(server)));
    const was = keyed(before);
    const is = keyed(servers);
    const changed = [
      ...before.filter((server) => !is.has(JSON.stringify(server))),
      ...servers.filter((server) => !was.has(JSON.stringify(server))),
    ];
    const seen = changed.some((server) => this.othersOf(server).length > 0);
    if (seen) this.bump();
    return seen;
  }

  /**
   * The definitions of `server`'s name that another client's file of its project gives and that
   * run something else, each with what differs, in path order then file order. Two files of one
   * client are that client's one view (Continue's block files), so they are not compared.
   */
  differing(server: IndexedClientServer): OtherDefinition[] {
    const out: OtherDefinition[] = [];
    for (const other of this.othersOf(server)) {
      const differences = runsDifferently(server.runs, other.runs);
      if (differences.length > 0) out.push({ server: other, differences });
    }
    return out;
  }

  /** The servers of that name in another client's files of the same project. */
  private othersOf(server: IndexedClientServer): IndexedClientServer[] {
    return this.named(server.name).filter(
      (other) => other.project === server.project && other.client !== server.client && other.file !== server.file,
    );
  }
}

/** A token for the index as it is: the same object until a look-up could give something else (Workspace.revision). */
export function clientServerRevision(index: ClientServerIndex): object {
  return index.revision;
}
