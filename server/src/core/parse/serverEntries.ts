// The MCP servers one client config file declares, read as that client reads them: the file's
// client by its path, the key that holds its servers, and for each server how the client starts or
// reaches it (a command with its arguments, or a URL with its transport), as plain values. Shared
// by `tool-lens servers` (cli/servers.ts), which lists them, and `catalog fetch` (live/servers.ts),
// which builds its launches from them. Nothing is expanded or resolved here: values are as written.
//
// Per client (docs/internals/client-facts.md says where each fact was read):
// - VS Code `servers`; Cursor, Claude Code, Claude Desktop, Roo Code, Amazon Q `mcpServers`:
//   `command`/`args`/`env`/`cwd`, or `url`/`headers` with `type` (`sse` is SSE, any other remote is
//   streamable HTTP);
// - Gemini CLI `mcpServers`: `httpUrl` (streamable HTTP) wins over `url` (SSE with `type: sse`,
//   else streamable HTTP), then `command`; `tcp` is a WebSocket;
// - Windsurf `mcpServers`: `serverUrl` or `url`;
// - Codex `[mcp_servers.NAME]` in TOML: `command` (stdio) or `url` (streamable HTTP only), with
//   `http_headers`, and credentials named by environment variable (`env_vars`,
//   `bearer_token_env_var`, `env_http_headers`); `enabled = false` turns a server off;
// - Zed `context_servers`: `command` or `url`; an entry with neither is an extension's server when
//   it has `settings`, and one Zed cannot read without it (ContextServerSettingsContent);
// - Continue `.continue/mcpServers/*.yaml`: a list under `mcpServers`, headers under
//   `requestOptions.headers`; a JSON file in that folder is read in Claude Desktop's shape;
// - opencode `opencode.json(c)` `mcp`: `type: local` with `command` a list (the program, then its
//   arguments) and `environment`, or `type: remote` with `url` and `headers`; `enabled: false`
//   turns a server off.
import { CLIENT_FILES } from './clients.js';
import { parseFile } from './file.js';
import type { ParseProblem } from './problems.js';
import { isMap, isSeq, keyText, getNode, type Node, type Pair } from './nodes.js';
import { tomlParser } from './toml.js';

export type ServerFileFormat = 'json' | 'yaml' | 'toml';

export interface ServerFileKind {
  /** A stable id (a public interface: `tool-lens servers --format json` prints it). */
  client: string;
  /** The client's name as users know it. */
  label: string;
  format: ServerFileFormat;
  /** The key that holds the servers. */
  key: string;
  /** The servers are a list of entries with a `name` (Continue), not a map by name. */
  list?: boolean;
  /** Another key the client also reads servers from (VS Code moves a root `mcpServers` into `servers`). */
  alsoKey?: string;
  /** The path (suffix, `/`-separated, case-insensitive). */
  path: RegExp;
}

/**
 * Every client config file Tool Lens reads servers from, the first matching path winning: the one
 * client table (core/parse/clients.ts CLIENT_FILES) in this module's terms.
 */
export const SERVER_FILE_KINDS: readonly ServerFileKind[] = CLIENT_FILES.map((c) => ({
  client: c.id,
  label: c.label,
  format: c.format,
  key: c.serversKey,
  ...(c.list ? { list: true } : {}),
  ...('alsoReads' in c && c.alsoReads ? { alsoKey: c.alsoReads } : {}),
  path: c.path,
}));

/** A file recognised by its content only (an `mcpServers` map elsewhere): no client is known. */
export const UNKNOWN_CLIENT: ServerFileKind = {
  client: 'unknown',
  label: 'unknown client',
  format: 'json',
  key: 'mcpServers',
  path: /$^/,
};

/** The client config kind of a path, if its path names one. */
export function serverFileKindOf(path: string): ServerFileKind | undefined {
  const normalized = path.replace(/\\/g, '/');
  return SERVER_FILE_KINDS.find((kind) => kind.path.test(normalized));
}

/** How a client starts or reaches a server, as the entry writes it (nothing expanded). */
export type ServerStart =
  | {
      transport: 'stdio';
      command: string;
      args: unknown[];
      /** The entry's own environment, as written (values are secrets: never print them). */
      env: Record<string, unknown>;
      cwd?: string;
      /** Environment variables of the client the server gets by name (Codex `env_vars`). */
      envFromClient: string[];
      /** VS Code and Cursor `envFile`. */
      envFile?: string;
    }
  | {
      transport: 'http' | 'sse' | 'websocket';
      url: string;
      /** Header values are secrets: never print them. */
      headers: Record<string, unknown>;
      /** Headers (or the bearer token) the client fills from its environment (Codex). */
      headersFromClient: Record<string, string>;
    }
  | {
      transport: 'none';
      /** Why the entry starts nothing by itself, in a phrase that names no value. */
      why: string;
    };

export interface ServerEntry {
  name: string;
  /** 1-based line and column of the server's name (its table header in TOML). */
  line: number;
  column: number;
  /** Where the name is, as offsets in the text. */
  span: { start: number; end: number };
  /** `disabled: true` (Roo, Amazon Q) or `enabled: false` (Codex, Zed): the client starts it not. */
  disabled: boolean;
  /** The `type` as written, when there is one. */
  type?: string;
  start: ServerStart;
}

export interface ServerFile {
  kind: ServerFileKind;
  servers: ServerEntry[];
  /** Why the file (or its servers key) could not be read, in a phrase that names no value. */
  problem?: string;
  /** The parser's first problem with the file (JSON, YAML), which `parserWords` words. */
  syntax?: { line: number; column: number; problem: ParseProblem };
}

type Plain = Record<string, unknown>;
interface Place {
  line: number;
  column: number;
  span: { start: number; end: number };
}

const isPlain = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The servers of one client config file. `kind` defaults to the one its path names (else unknown). */
export function readServerFile(
  path: string,
  text: string,
  kind = serverFileKindOf(path) ?? UNKNOWN_CLIENT,
): ServerFile {
  if (kind.format === 'toml') return readToml(text, kind);
  const parsed = parseFile(path, text, { language: kind.format });
  const doc = parsed.documents[0];
  const position = (offset: number) => {
    const pos = parsed.source.positionAt(offset);
    return { line: pos.line + 1, column: pos.character + 1 };
  };
  const problem = doc?.problems[0];
  const syntax = problem ? { ...position(problem.span.start), problem } : undefined;
  const root = doc?.root ?? null;
  if (!isMap(root)) {
    return {
      kind,
      servers: [],
      problem: syntax ? `it cannot be read (line ${syntax.line}, column ${syntax.column})` : 'it is not an object',
      ...(syntax ? { syntax } : {}),
    };
  }
  const holder = getNode(root, kind.key);
  const servers: ServerEntry[] = [];
  const out: ServerFile = { kind, servers };
  if (syntax) {
    out.syntax = syntax;
    out.problem = `it has a problem at line ${syntax.line}, column ${syntax.column}; what could be read is listed`;
  }
  const also = kind.alsoKey === undefined ? undefined : getNode(root, kind.alsoKey);
  if (holder === undefined && !isMap(also)) return out;
  if (kind.list) {
    if (!isSeq(holder)) return { ...out, problem: `"${kind.key}" is not a list` };
    holder.items.forEach((item: Node, index) => {
      const value = plainOf(item);
      const name = isPlain(value) ? str(value.name) : undefined;
      servers.push(entryOf(kind, name ?? `#${index + 1}`, value, { ...position(item.span.start), span: item.span }));
    });
    return out;
  }
  if (holder !== undefined && !isMap(holder))
    return { ...out, problem: `"${kind.key}" does not map server names to their settings` };
  for (const map of [holder, also]) {
    if (!isMap(map)) continue;
    // A name given twice: JSON readers keep the last value, in the place of the first.
    const byName = new Map<string, Pair>();
    for (const pair of map.pairs) byName.set(keyText(pair), pair);
    for (const [name, pair] of byName) {
      servers.push(entryOf(kind, name, plainOf(pair.value), { ...position(pair.key.span.start), span: pair.key.span }));
    }
  }
  return out;
}

function readToml(text: string, kind: ServerFileKind): ServerFile {
  const { getStaticTOMLValue, parseTOML } = tomlParser();
  let ast: ReturnType<typeof parseTOML>;
  try {
    ast = parseTOML(text);
  } catch (error) {
    const line =
      typeof (error as { lineNumber?: unknown }).lineNumber === 'number'
        ? (error as { lineNumber: number }).lineNumber
        : undefined;
    return { kind, servers: [], problem: `it does not parse as TOML${line ? ` (line ${line})` : ''}` };
  }
  const value = getStaticTOMLValue(ast) as unknown;
  const holder = isPlain(value) ? value[kind.key] : undefined;
  if (holder === undefined) return { kind, servers: [] };
  if (!isPlain(holder)) return { kind, servers: [], problem: `"${kind.key}" is not a table of servers` };
  // Where each server is named: its `[mcp_servers.NAME]` header, else the key that first names it.
  const places = new Map<string, Place>();
  for (const table of ast.body[0]?.body ?? []) {
    if (table.type === 'TOMLTable') {
      const keys = table.resolvedKey;
      if (keys[0] === kind.key && typeof keys[1] === 'string' && !places.has(keys[1]))
        places.set(keys[1], {
          line: table.loc.start.line,
          column: table.loc.start.column + 1,
          span: { start: table.range[0], end: table.range[1] },
        });
    } else if (table.type === 'TOMLKeyValue') {
      const keys = table.key.keys.map((k) => (k.type === 'TOMLBare' ? k.name : k.value));
      if (keys[0] === kind.key && typeof keys[1] === 'string' && !places.has(keys[1]))
        places.set(keys[1], {
          line: table.loc.start.line,
          column: table.loc.start.column + 1,
          span: { start: table.range[0], end: table.range[1] },
        });
    }
  }
  const servers: ServerEntry[] = [];
  for (const [name, entry] of Object.entries(holder)) {
    servers.push(entryOf(kind, name, entry, places.get(name) ?? { line: 1, column: 1, span: { start: 0, end: 0 } }));
  }
  return { kind, servers };
}

function entryOf(kind: ServerFileKind, name: string, value: unknown, at: Place): ServerEntry {
  return { name, ...at, ...launchOf(kind, value) };
}

/** How a client starts a server: the part of a ServerEntry its settings give. */
export type ServerLaunch = Pick<ServerEntry, 'disabled' | 'type' | 'start'>;

/** How the client of `kind` starts the server whose settings are `node`, a node of a tree already parsed (check's own). */
export function launchOfNode(kind: ServerFileKind, node: Node | null): ServerLaunch {
  return launchOf(kind, plainOf(node));
}

function launchOf(kind: ServerFileKind, value: unknown): ServerLaunch {
  if (!isPlain(value)) return { disabled: false, start: { transport: 'none', why: 'its settings are not an object' } };
  const type = str(value.type);
  const disabled = value.disabled === true || value.enabled === false;
  return { disabled, ...(type === undefined ? {} : { type }), start: startOf(kind, value, type) };
}

function startOf(kind: ServerFileKind, entry: Plain, type: string | undefined): ServerStart {
  const remote = (
    transport: 'http' | 'sse' | 'websocket',
    url: string,
    headers: unknown,
    fromClient: Record<string, string> = {},
  ): ServerStart => ({
    transport,
    url,
    headers: isPlain(headers) ? headers : {},
    headersFromClient: fromClient,
  });
  const command = str(entry.command);
  const stdio = (): ServerStart => ({
    transport: 'stdio',
    command: command ?? '',
    args: Array.isArray(entry.args) ? entry.args : [],
    env: isPlain(entry.env) ? entry.env : {},
    ...(str(entry.cwd) === undefined ? {} : { cwd: str(entry.cwd) }),
    envFromClient: kind.client === 'codex' ? codexEnvVars(entry.env_vars) : [],
    ...(str(entry.envFile) === undefined ? {} : { envFile: str(entry.envFile) }),
  });
  switch (kind.client) {
    case 'gemini': {
      const httpUrl = str(entry.httpUrl);
      if (httpUrl !== undefined) return remote('http', httpUrl, entry.headers);
      const url = str(entry.url);
      if (url !== undefined) return remote(type === 'sse' ? 'sse' : 'http', url, entry.headers);
      if (command !== undefined) return stdio();
      const tcp = str(entry.tcp);
      if (tcp !== undefined) return remote('websocket', tcp, {});
      return { transport: 'none', why: 'it has no "command", "url" or "httpUrl"' };
    }
    case 'windsurf': {
      const url = str(entry.serverUrl) ?? str(entry.url);
      if (command !== undefined) return stdio();
      if (url !== undefined) return remote(type === 'sse' ? 'sse' : 'http', url, entry.headers);
      return { transport: 'none', why: 'it has no "command", "serverUrl" or "url"' };
    }
    case 'codex': {
      if (command !== undefined) return stdio();
      const url = str(entry.url);
      if (url !== undefined) {
        const fromClient: Record<string, string> = {};
        const bearer = str(entry.bearer_token_env_var);
        if (bearer !== undefined) fromClient.Authorization = bearer;
        if (isPlain(entry.env_http_headers))
          for (const [header, variable] of Object.entries(entry.env_http_headers))
            if (typeof variable === 'string') defineOwn(fromClient, header, variable);
        return remote('http', url, entry.http_headers, fromClient);
      }
      return {
        transport: 'none',
        why: 'it has no "command" or "url": it only changes a server of the same name in the user\'s own Codex config',
      };
    }
    case 'zed': {
      if (command !== undefined) return stdio();
      const url = str(entry.url);
      if (url !== undefined) return remote('http', url, entry.headers);
      return {
        transport: 'none',
        why:
          entry.settings !== undefined
            ? 'it has no "command" or "url": Zed takes it for a server an extension provides'
            : entry.command !== undefined && entry.command !== null
              ? 'its "command" is not a string (the older {"path": ...} form): Zed cannot read it'
              : 'it has no "command", "url" or "settings": Zed cannot read it',
      };
    }
    case 'opencode': {
      // The type picks the shape (a discriminated union): `local` runs the `command` list.
      if (type === 'local') {
        const line = Array.isArray(entry.command) ? entry.command : [];
        const program = str(line[0]);
        if (program === undefined)
          return { transport: 'none', why: 'its "command" list does not start with a program' };
        return {
          transport: 'stdio',
          command: program,
          args: line.slice(1),
          env: isPlain(entry.environment) ? entry.environment : {},
          envFromClient: [],
        };
      }
      const url = str(entry.url);
      if (type === 'remote' && url !== undefined) return remote('http', url, entry.headers);
      // The config's `mcp` also takes `{ enabled }` alone: a switch for a server another config defines.
      if (typeof entry.enabled === 'boolean' && type !== 'local' && type !== 'remote')
        return {
          transport: 'none',
          why: 'it only turns on or off a server of the same name that another OpenCode config defines',
        };
      return {
        transport: 'none',
        why: 'it is neither a "local" entry with a "command" nor a "remote" one with a "url"',
      };
    }
    case 'continue': {
      if (command !== undefined) return stdio();
      const url = str(entry.url);
      const options = entry.requestOptions;
      if (url !== undefined)
        return remote(type === 'sse' ? 'sse' : 'http', url, isPlain(options) ? options.headers : undefined);
      return { transport: 'none', why: 'it has no "command" or "url"' };
    }
    default: {
      const url = str(entry.url);
      if (type === 'stdio' || (type === undefined && command !== undefined))
        return command === undefined ? { transport: 'none', why: 'it has no "command" to start' } : stdio();
      if (url !== undefined) return remote(type === 'sse' ? 'sse' : 'http', url, entry.headers);
      if (command !== undefined) return stdio();
      return { transport: 'none', why: 'it has neither a "command" nor a "url"' };
    }
  }
}

/** Codex `env_vars`: names, or `{ name, source }` tables. */
function codexEnvVars(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value) {
    const name = typeof item === 'string' ? item : isPlain(item) ? str(item.name) : undefined;
    if (name !== undefined) out.push(name);
  }
  return out;
}

function defineOwn(target: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A node's plain value, a key given twice keeping its last value as JSON readers do (toValue keeps the first). */
function plainOf(node: Node | null): unknown {
  if (!node) return null;
  if (node.type === 'scalar') return node.value;
  if (node.type === 'seq') return node.items.map(plainOf);
  const out: Plain = {};
  // Own properties: a key named `__proto__` stays a key.
  for (const pair of node.pairs)
    Object.defineProperty(out, keyText(pair), {
      value: plainOf(pair.value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}
