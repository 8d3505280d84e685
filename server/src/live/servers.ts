// The MCP servers a workspace declares in its client configs (.vscode/mcp.json, .cursor/mcp.json,
// .mcp.json, claude_desktop_config.json, .gemini/settings.json, .roo/mcp.json, .kilocode/mcp.json,
// .kiro/settings/mcp.json, .amazonq/mcp.json,
// .codex/config.toml, .zed/settings.json, .continue/mcpServers/*.yaml, opencode.json(c)), as launch descriptions the
// fetcher can start. Nothing here starts anything. Values that need a prompt or the user's
// environment (`${input:…}`, `${env:…}`, `envFile`, Gemini's `$X`, Continue's `${{ secrets.X }}`,
// Codex's `env_vars`) are never resolved: such a server is reported as not fetchable, and its
// launch is not even built, so no value of it travels further. Codex and Zed expand no variable at
// all: an entry that still holds one is refused too, since what it would start is not what its
// author meant. The VS Code-style files (VS Code, Cursor, Claude, Roo Code, Kilo Code, Kiro, Amazon Q) share one
// reader here; Gemini CLI, Codex, Zed, Continue and OpenCode (`{env:X}`, `{file:path}`: never
// resolved) are read as core/parse/serverEntries.ts reads them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, resolve, sep } from 'node:path';
import { parseFile } from '../core/parse/file.js';
import { readServerFile, serverFileKindOf, type ServerEntry } from '../core/parse/serverEntries.js';
import { parserWords } from '../core/wording/parserWords.js';
import { getNode, getString, isMap, isScalar, isSeq, keyText, type Node } from '../core/parse/nodes.js';
import type { Span } from '../core/types.js';

/** The workspace files that list MCP servers, in the order a name declared twice is taken from. */
export const MCP_CONFIG_FILES: readonly { path: string; key: string }[] = [
  { path: '.vscode/mcp.json', key: 'servers' },
  { path: '.cursor/mcp.json', key: 'mcpServers' },
  { path: '.mcp.json', key: 'mcpServers' },
  { path: 'claude_desktop_config.json', key: 'mcpServers' },
  { path: '.gemini/settings.json', key: 'mcpServers' },
  { path: '.roo/mcp.json', key: 'mcpServers' },
  { path: '.kilocode/mcp.json', key: 'mcpServers' },
  { path: '.kiro/settings/mcp.json', key: 'mcpServers' },
  { path: '.amazonq/mcp.json', key: 'mcpServers' },
  { path: '.codex/config.toml', key: 'mcp_servers' },
  { path: '.zed/settings.json', key: 'context_servers' },
  { path: '.continue/mcpServers/*.yaml', key: 'mcpServers' },
  { path: 'opencode.json', key: 'mcp' },
  { path: 'opencode.jsonc', key: 'mcp' },
];

/** The files of a MCP_CONFIG_FILES path at the root: itself, or the `*.yaml` / `*.yml` of its folder, sorted. */
function configPathsOf(root: string, path: string): string[] {
  if (!path.endsWith('/*.yaml')) return existsSync(resolve(root, path)) ? [path] : [];
  const folder = path.slice(0, -'/*.yaml'.length);
  let names: string[];
  try {
    names = readdirSync(resolve(root, folder));
  } catch {
    return [];
  }
  return names
    .filter((name) => /\.ya?ml$/i.test(name))
    .sort()
    .map((name) => `${folder}/${name}`);
}

export interface StdioLaunch {
  type: 'stdio';
  command: string;
  args: string[];
  /** The entry's own `env` only; the fetcher adds PATH and HOME. Every value counts as a secret. */
  env: Record<string, string>;
  cwd: string;
}

export interface HttpLaunch {
  /** `http`: Streamable HTTP, falling back to SSE; `sse`: SSE only. */
  type: 'http' | 'sse';
  url: string;
  /** Every value counts as a secret. */
  headers: Record<string, string>;
}

export type Launch = StdioLaunch | HttpLaunch;

interface Declaration {
  /** The config file, relative to the workspace root, with `/` separators. */
  file: string;
  /** The server's name key in that file. */
  span: Span;
  /** 1-based line of the name key. */
  line: number;
}

type BlockReason = 'needs-input' | 'unsupported' | 'invalid';

interface Blocked {
  reason: BlockReason;
  /** Says why, in a sentence that names no value. */
  message: string;
}

export interface McpServerEntry {
  name: string;
  declared: Declaration;
  /** How to start or reach it; absent when it cannot be fetched non-interactively. */
  launch?: Launch;
  blocked?: Blocked;
}

export interface WorkspaceServers {
  /** One entry per name, from the first file that declares it. */
  servers: McpServerEntry[];
  /** Entries whose name an earlier file already declared. */
  shadowed: McpServerEntry[];
  /** Config files that could not be read or do not have the expected shape. */
  problems: string[];
  /** The config files that were read, relative to the root. */
  files: string[];
}

/** Reads every MCP client config at the workspace root. */
export function readWorkspaceServers(root: string): WorkspaceServers {
  const out: WorkspaceServers = { servers: [], shadowed: [], problems: [], files: [] };
  const byName = new Map<string, McpServerEntry>();
  for (const path of MCP_CONFIG_FILES.flatMap((config) => configPathsOf(root, config.path))) {
    const absolute = resolve(root, path);
    let text: string;
    try {
      text = readFileSync(absolute, 'utf8');
    } catch (error) {
      out.problems.push(`${path}: cannot be read (${error instanceof Error ? error.message : String(error)})`);
      continue;
    }
    out.files.push(path);
    const result = serversFromConfig(path, text, root);
    out.problems.push(...result.problems);
    for (const entry of result.servers) {
      if (byName.has(entry.name)) out.shadowed.push(entry);
      else {
        byName.set(entry.name, entry);
        out.servers.push(entry);
      }
    }
  }
  return out;
}

/** The servers of one config file; `file` is its root-relative path, which decides its top-level key. */
export function serversFromConfig(
  file: string,
  text: string,
  root: string,
): { servers: McpServerEntry[]; problems: string[] } {
  const kind = serverFileKindOf(file);
  if (kind && OWN_SYNTAX.has(kind.client)) return serversOfOwnSyntax(file, text, root);
  const parsed = parseFile(file, text, { language: 'json' });
  const doc = parsed.documents[0];
  const problems: string[] = [];
  if (doc && doc.problems.length > 0) {
    const first = doc.problems[0]!;
    const pos = parsed.source.positionAt(first.span.start);
    problems.push(`${file}:${pos.line + 1}:${pos.character + 1}: ${parserWords(first)}`);
  }
  const top = doc?.root ?? null;
  if (!isMap(top)) {
    problems.push(`${file}: expected a JSON object with the servers under "${topKeyOf(file)}"`);
    return { servers: [], problems };
  }
  const key = topKeyOf(file);
  const list = getNode(top, key);
  // VS Code also starts a root `mcpServers` of its file, moved into `servers` (core/parse/clients.ts).
  const alsoKey = kind?.alsoKey;
  const also = alsoKey === undefined ? undefined : getNode(top, alsoKey);
  if (list === undefined && !isMap(also)) return { servers: [], problems };
  if (list !== undefined && !isMap(list)) {
    problems.push(`${file}: "${key}" should map server names to their settings`);
    return { servers: [], problems };
  }
  const context: VariableContext = { root: resolve(root) };
  const servers: McpServerEntry[] = [];
  for (const map of [list, also]) {
    if (!isMap(map)) continue;
    for (const pair of map.pairs) {
      const name = keyText(pair);
      const pos = parsed.source.positionAt(pair.key.span.start);
      const declared: Declaration = { file, span: pair.key.span, line: pos.line + 1 };
      servers.push({ name, declared, ...launchOf(pair.value, context) });
    }
  }
  return { servers, problems };
}

/** The key of a VS Code-style file's servers, from the one client table. */
function topKeyOf(file: string): string {
  return serverFileKindOf(file)?.key ?? 'mcpServers';
}

const HTTP_TYPES: Record<string, 'http' | 'sse'> = {
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  sse: 'sse',
};

function launchOf(node: Node | null, context: VariableContext): { launch: Launch } | { blocked: Blocked } {
  if (!isMap(node)) return invalid('its settings are not an object');
  const type = getString(node, 'type');
  const command = getString(node, 'command');
  const url = getString(node, 'url');
  const isStdio = type === 'stdio' || (type === undefined && command !== undefined);
  const httpType =
    type === undefined
      ? url !== undefined && command === undefined
        ? 'http'
        : undefined
      : Object.hasOwn(HTTP_TYPES, type)
        ? HTTP_TYPES[type]
        : undefined;
  if (type !== undefined && type !== 'stdio' && httpType === undefined) {
    return {
      blocked: {
        reason: 'unsupported',
        message: `its type "${type}" is not one Tool Lens can connect to (stdio, http, sse)`,
      },
    };
  }

  // Everything the launch would need is collected first, so that a server needing a prompt is
  // refused as a whole and nothing of it is resolved.
  const known = knownVariables(context.root);
  const needs = new Set<string>();
  const unknown = new Set<string>();
  const scan = (value: string): void => {
    for (const variable of variablesIn(value)) {
      if (variable.startsWith('input:')) needs.add(`input "${variable.slice(6)}"`);
      else if (variable.startsWith('env:')) needs.add(`environment variable ${variable.slice(4)}`);
      else if (!Object.prototype.hasOwnProperty.call(known, variable)) unknown.add(variable);
    }
  };

  if (isStdio) {
    if (command === undefined || command.trim() === '') return invalid('it has no "command" to start');
    const args = stringList(getNode(node, 'args'));
    if (args === undefined) return invalid('its "args" is not a list of strings');
    const env = stringMap(getNode(node, 'env'));
    if (env === undefined) return invalid('its "env" is not an object of strings');
    const cwd = getString(node, 'cwd');
    for (const value of [command, ...args, ...Object.values(env), ...(cwd === undefined ? [] : [cwd])]) scan(value);
    if (getNode(node, 'envFile') !== undefined) needs.add('the file named by "envFile"');
    const refusal = refusalFor(needs, unknown);
    if (refusal) return { blocked: refusal };
    const expand = (value: string): string => expandVariables(value, context);
    const resolvedCwd = cwd === undefined ? context.root : resolve(context.root, expand(cwd));
    // fromEntries defines own properties: a variable named `__proto__` stays a variable.
    const resolvedEnv: Record<string, string> = Object.fromEntries(
      Object.entries(env).map(([key, value]) => [key, expand(value)]),
    );
    return {
      launch: { type: 'stdio', command: expand(command), args: args.map(expand), env: resolvedEnv, cwd: resolvedCwd },
    };
  }

  if (httpType === undefined || url === undefined || url.trim() === '')
    return invalid('it has neither a "command" nor a "url"');
  const headers = stringMap(getNode(node, 'headers'));
  if (headers === undefined) return invalid('its "headers" is not an object of strings');
  for (const value of [url, ...Object.values(headers)]) scan(value);
  const refusal = refusalFor(needs, unknown);
  if (refusal) return { blocked: refusal };
  const expandedUrl = expandVariables(url, context);
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(expandedUrl);
  } catch (error) {
    return invalid(`its "url" is not a valid URL (${error instanceof Error ? error.name : 'invalid'})`);
  }
  if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:') {
    return {
      blocked: {
        reason: 'unsupported',
        message: `its url uses ${parsedUrl.protocol}, and Tool Lens connects over http: and https: only`,
      },
    };
  }
  const resolvedHeaders: Record<string, string> = Object.fromEntries(
    Object.entries(headers).map(([key, value]) => [key, expandVariables(value, context)]),
  );
  return { launch: { type: httpType, url: expandedUrl, headers: resolvedHeaders } };
}

function invalid(why: string): { blocked: Blocked } {
  return { blocked: { reason: 'invalid', message: why } };
}

function refusalFor(needs: Set<string>, unknown: Set<string>): Blocked | undefined {
  if (needs.size > 0) {
    return {
      reason: 'needs-input',
      message: `it needs ${[...needs].sort().join(', ')}, which Tool Lens never reads: it cannot be fetched non-interactively`,
    };
  }
  if (unknown.size > 0) {
    const names = [...unknown].sort().map((v) => '${' + v + '}');
    return { reason: 'unsupported', message: `it uses ${names.join(', ')}, which Tool Lens does not resolve` };
  }
  return undefined;
}

function stringList(node: Node | undefined): string[] | undefined {
  if (node === undefined) return [];
  if (!isSeq(node)) return undefined;
  const out: string[] = [];
  for (const item of node.items) {
    // Numbers and booleans in args are common and mean their text.
    if (!isScalar(item) || item.value === null) return undefined;
    out.push(String(item.value));
  }
  return out;
}

function stringMap(node: Node | undefined): Record<string, string> | undefined {
  if (node === undefined) return {};
  if (!isMap(node)) return undefined;
  const out: Record<string, string> = {};
  for (const pair of node.pairs) {
    const value = pair.value;
    // VS Code lets null unset an inherited variable; we inherit nothing, so it means nothing here.
    if (isScalar(value) && value.value === null) continue;
    if (!isScalar(value)) return undefined;
    Object.defineProperty(out, keyText(pair), {
      value: String(value.value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

interface VariableContext {
  root: string;
}

/** `${name}` occurrences in a value. */
function variablesIn(value: string): string[] {
  const out: string[] = [];
  for (const match of value.matchAll(/\$\{([^}]*)\}/g)) out.push(match[1]!);
  return out;
}

function knownVariables(root: string): Record<string, string> {
  return {
    workspaceFolder: root,
    workspaceRoot: root,
    workspaceFolderBasename: basename(root),
    userHome: homedir(),
    pathSeparator: sep,
    '/': sep,
  };
}

function expandVariables(value: string, context: VariableContext): string {
  const known = knownVariables(context.root);
  return value.replace(/\$\{([^}]*)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(known, name) ? known[name]! : whole,
  );
}

/** The clients whose entries are read in their own syntax (core/parse/serverEntries.ts). */
const OWN_SYNTAX: ReadonlySet<string> = new Set(['gemini', 'codex', 'zed', 'continue', 'opencode']);

const CLIENT_NAMES: Record<string, string> = {
  gemini: 'Gemini CLI',
  codex: 'Codex',
  zed: 'Zed',
  continue: 'Continue',
  opencode: 'OpenCode',
};

/** Gemini CLI, Codex, Zed, Continue and opencode files: each entry as its client reads it. */
function serversOfOwnSyntax(
  file: string,
  text: string,
  root: string,
): { servers: McpServerEntry[]; problems: string[] } {
  const read = readServerFile(file, text);
  const problems = read.problem ? [`${file}: ${read.problem}`] : [];
  const servers = read.servers.map((entry): McpServerEntry => ({
    name: entry.name,
    declared: { file, span: entry.span, line: entry.line },
    ...launchOfEntry(read.kind.client, entry, resolve(root)),
  }));
  return { servers, problems };
}

function launchOfEntry(client: string, entry: ServerEntry, root: string): { launch: Launch } | { blocked: Blocked } {
  const start = entry.start;
  if (start.transport === 'none') return invalid(start.why);
  if (start.transport === 'websocket') {
    return {
      blocked: {
        reason: 'unsupported',
        message: 'it is reached over a WebSocket ("tcp"), and Tool Lens connects over stdio, http and sse only',
      },
    };
  }
  const needs = new Set<string>();
  const literal = new Set<string>();
  const scan = (value: string): void => clientVariables(client, value, needs, literal);
  if (start.transport === 'stdio') {
    if (start.command.trim() === '') return invalid('it has no "command" to start');
    const args = plainStringList(start.args);
    if (args === undefined) return invalid('its "args" is not a list of strings');
    const env = plainStringMap(start.env);
    if (env === undefined) return invalid('its "env" is not an object of strings');
    for (const value of [
      start.command,
      ...args,
      ...Object.values(env),
      ...(start.cwd === undefined ? [] : [start.cwd]),
    ])
      scan(value);
    for (const name of start.envFromClient) needs.add(`environment variable ${name}`);
    const refusal = ownRefusal(client, needs, literal);
    if (refusal) return { blocked: refusal };
    return {
      launch: {
        type: 'stdio',
        command: start.command,
        args,
        env,
        cwd: start.cwd === undefined ? root : resolve(root, start.cwd),
      },
    };
  }
  if (start.url.trim() === '') return invalid('its url is empty');
  const headers = plainStringMap(start.headers);
  if (headers === undefined) return invalid('its headers are not an object of strings');
  for (const value of [start.url, ...Object.values(headers)]) scan(value);
  for (const name of Object.values(start.headersFromClient)) needs.add(`environment variable ${name}`);
  const refusal = ownRefusal(client, needs, literal);
  if (refusal) return { blocked: refusal };
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(start.url);
  } catch (error) {
    return invalid(`its url is not a valid URL (${error instanceof Error ? error.name : 'invalid'})`);
  }
  if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:') {
    return {
      blocked: {
        reason: 'unsupported',
        message: `its url uses ${parsedUrl.protocol}, and Tool Lens connects over http: and https: only`,
      },
    };
  }
  return { launch: { type: start.transport, url: start.url, headers } };
}

/**
 * The variables of a value as its client reads them. Gemini CLI expands `$X`, `${X}` and
 * `${X:-default}` from its environment over the whole file; Continue fills `${{ secrets.X }}` and
 * `${{ inputs.X }}`: both need what Tool Lens never reads. Codex and Zed expand nothing, so a
 * `$X` or `${X}` there reaches the server as written.
 */
function clientVariables(client: string, value: string, needs: Set<string>, literal: Set<string>): void {
  if (client === 'gemini') {
    for (const match of value.matchAll(/\$(?:\{(\w+)(?::-[^}]*)?\}|(\w+))/g))
      needs.add(`environment variable ${match[1] ?? match[2]!}`);
  } else if (client === 'continue') {
    for (const match of value.matchAll(/\$\{\{\s*(secrets|inputs)\.([\w.-]+)\s*\}\}/g))
      needs.add(`${match[1] === 'secrets' ? 'secret' : 'input'} "${match[2]!}"`);
  } else if (client === 'opencode') {
    // opencode fills `{env:X}` and `{file:path}` as it reads its config; `${X}` and `$X` stay as written.
    for (const match of value.matchAll(/\{(env|file):([^}]+)\}/g))
      needs.add(match[1] === 'env' ? `environment variable ${match[2]!}` : "a file's text ({file:...})");
    for (const match of value.matchAll(/\$(?:\{[^}]*\}|[A-Z_][A-Z0-9_]*)/g)) literal.add(match[0]);
  } else {
    for (const match of value.matchAll(/\$(?:\{[^}]*\}|[A-Za-z_]\w*)/g)) literal.add(match[0]);
  }
}

function ownRefusal(client: string, needs: Set<string>, literal: Set<string>): Blocked | undefined {
  const refusal = refusalFor(needs, new Set());
  if (refusal) return refusal;
  if (literal.size === 0) return undefined;
  return {
    reason: 'unsupported',
    message: `it holds ${[...literal].sort().join(', ')}, which ${CLIENT_NAMES[client] ?? client} passes as written (${client === 'opencode' ? 'it expands only {env:X} and {file:path}' : 'it expands no variable'}): Tool Lens starts no entry with an unexpanded variable`,
  };
}

/** Plain values (the entry as its client reads it): numbers and booleans mean their text. */
function plainStringList(values: readonly unknown[]): string[] | undefined {
  const out: string[] = [];
  for (const value of values) {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
    out.push(String(value));
  }
  return out;
}

function plainStringMap(values: Record<string, unknown>): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === null) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
    // An own property: a variable named `__proto__` stays a variable.
    Object.defineProperty(out, key, { value: String(value), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
