// Which MCP client reads a file, from its path alone: the client-config family is one document kind
// (`mcp-servers`) with the client as a property of the path, so every client shares the server-entry
// view, the face overlay and the client-neutral checks, and a client's own rules ask `clientOfPath`.
// A file recognised by its content only (an `mcpServers` map at another path) has no client: only the
// client-neutral checks run on it (docs/clients.md). CLIENT_FILES, the same rows and those of
// LISTED_CLIENT_FILES, names every file `tool-lens servers` and `catalog fetch` read
// (core/parse/serverEntries.ts): LISTED_CLIENT_FILES are those `check` does not read (Continue's
// JSON files and Windsurf's project-level file).
import {
  getMap,
  getNode,
  getPair,
  getSeq,
  isMap,
  isScalar,
  isSeq,
  keyText,
  type MapNode,
  type Node,
  type Pair,
} from './nodes.js';

export type ClientId =
  | 'vscode'
  | 'cursor'
  | 'claude-code'
  | 'claude-desktop'
  | 'gemini'
  | 'roo'
  | 'amazonq'
  | 'windsurf'
  | 'codex'
  | 'zed'
  | 'continue'
  | 'opencode'
  | 'kilo'
  | 'kiro';

export interface ClientInfo {
  id: ClientId;
  /** The client's name as users know it. */
  label: string;
  /** The root key that holds its servers by name (Zed's settings file has much else beside it). */
  serversKey: 'servers' | 'mcpServers' | 'mcp_servers' | 'context_servers' | 'mcp';
  /** Another root key the client also reads servers from (VS Code moves `mcpServers` into `servers`). */
  alsoReads?: 'mcpServers';
  /** The file's format when it is not JSON (with comments). */
  format?: 'yaml' | 'toml';
  /** The servers are a list of entries, each named by its `name` (Continue), not a map by name. */
  list?: true;
  /** The path (suffix, `/`-separated, case-insensitive) of the project or user file it reads. */
  path: RegExp;
}

/** A client file that `check` does not read, only `tool-lens servers` and `catalog fetch`. */
export interface ListedClientFile {
  id: ClientId;
  label: string;
  format: 'json' | 'toml' | 'yaml';
  /** The key that holds the servers (by name, or a list of entries with a `name` when `list`). */
  serversKey: string;
  list?: true;
  path: RegExp;
}

/** A client file of either table, with its format. */
export type ClientFile = ListedClientFile & Pick<ClientInfo, 'alsoReads'>;

export const CLIENTS: readonly ClientInfo[] = [
  // VS Code's config discovery moves a root `mcpServers` into `servers` (configMcpDiscovery.ts sync).
  {
    id: 'vscode',
    label: 'VS Code',
    serversKey: 'servers',
    alsoReads: 'mcpServers',
    path: /(^|\/)\.vscode\/mcp\.json$/i,
  },
  { id: 'cursor', label: 'Cursor', serversKey: 'mcpServers', path: /(^|\/)\.cursor\/mcp\.json$/i },
  { id: 'claude-code', label: 'Claude Code', serversKey: 'mcpServers', path: /(^|\/)\.mcp\.json$/i },
  {
    id: 'claude-desktop',
    label: 'Claude Desktop',
    serversKey: 'mcpServers',
    path: /(^|\/)claude_desktop_config\.json$/i,
  },
  { id: 'gemini', label: 'Gemini CLI', serversKey: 'mcpServers', path: /(^|\/)\.gemini\/settings\.json$/i },
  { id: 'roo', label: 'Roo Code', serversKey: 'mcpServers', path: /(^|\/)\.roo\/mcp\.json$/i },
  // Kilo Code, a fork of Roo Code, reads its project file from its own folder (McpHub.ts watchProjectMcpFile).
  { id: 'kilo', label: 'Kilo Code', serversKey: 'mcpServers', path: /(^|\/)\.kilocode\/mcp\.json$/i },
  // Kiro's workspace file (kiro.dev/docs/mcp/configuration), read by the Kiro IDE and the Kiro CLI.
  { id: 'kiro', label: 'Kiro', serversKey: 'mcpServers', path: /(^|\/)\.kiro\/settings\/mcp\.json$/i },
  { id: 'amazonq', label: 'Amazon Q Developer', serversKey: 'mcpServers', path: /(^|\/)\.amazonq\/mcp\.json$/i },
  {
    id: 'windsurf',
    label: 'Windsurf',
    serversKey: 'mcpServers',
    path: /(^|\/)\.codeium\/windsurf\/mcp_config\.json$/i,
  },
  // A settings file with much else in it: only `context_servers` is ours (crates/settings_content/src/project.rs).
  { id: 'zed', label: 'Zed', serversKey: 'context_servers', path: /(^|\/)\.zed\/settings\.json$/i },
  // A block file: name, version, schema and a list of servers (config-yaml schemas/index.ts blockSchema).
  {
    id: 'continue',
    label: 'Continue',
    serversKey: 'mcpServers',
    format: 'yaml',
    list: true,
    path: /(^|\/)\.continue\/mcpServers\/[^/]+\.ya?ml$/i,
  },
  { id: 'codex', label: 'Codex', serversKey: 'mcp_servers', format: 'toml', path: /(^|\/)\.codex\/config\.toml$/i },
  // opencode's project config, JSON or JSONC (also inside `.opencode/`): servers under `mcp`, each
  // `type: local` with the program and its arguments as one `command` list, or `type: remote`
  // (opencode packages/opencode/src/config/mcp.ts: Local, Remote).
  { id: 'opencode', label: 'OpenCode', serversKey: 'mcp', path: /(^|\/)(\.opencode\/)?opencode\.jsonc?$/i },
];

/**
 * The client files `tool-lens servers` and `catalog fetch` read besides CLIENTS. `check` reads
 * none of them: no client/* rule has facts for them, so none of them gets a client's finding.
 */
export const LISTED_CLIENT_FILES: readonly ListedClientFile[] = [
  // Windsurf's project-level file, beside the user file that CLIENTS names.
  {
    id: 'windsurf',
    label: 'Windsurf',
    format: 'json',
    serversKey: 'mcpServers',
    path: /(^|\/)\.windsurf\/mcp_config\.json$/i,
  },
  // A JSON file in Continue's folder is read in Claude Desktop's shape.
  {
    id: 'continue',
    label: 'Continue',
    format: 'json',
    serversKey: 'mcpServers',
    path: /(^|\/)\.continue\/mcpServers\/[^/]+\.json$/i,
  },
];

/** Every client file, those `check` reads first. */
export const CLIENT_FILES: readonly ClientFile[] = [
  ...CLIENTS.map((c) => ({ ...c, format: c.format ?? ('json' as const) })),
  ...LISTED_CLIENT_FILES,
];

/**
 * Whether the client-neutral schema (schemas/mcp-servers.schema.json: a map of entries under
 * `servers` or `mcpServers`) describes the client's file. Not Zed's settings, where an extension
 * server has neither command nor url, nor Continue's list of entries, nor opencode's `mcp` (a
 * `command` list and its own `type` names).
 */
export function neutralSchemaFits(client: ClientInfo | null): boolean {
  return !client || (!client.list && client.serversKey !== 'context_servers' && client.serversKey !== 'mcp');
}

/** The client whose configuration file this path is, or null when the path names none `check` reads. */
export function clientOfPath(path: string): ClientInfo | null {
  const normalized = path.replace(/\\/g, '/');
  return CLIENTS.find((c) => c.path.test(normalized)) ?? null;
}

/** One server of a client file: its name, the pair that names it, and its entry when that is a mapping. */
export interface ServerPair {
  name: string;
  /** The pair that names the server: its entry in a map of servers, or the item's `name` in a list (Continue). */
  pair: Pair;
  /** The entry, when it is a mapping. */
  entry: MapNode | undefined;
}

/**
 * The servers of a client file's root, under its client's key (and the one it also reads); without
 * a client (a file recognised by content), under `servers` and `mcpServers`. For Zed only
 * `context_servers` is read: the rest of its settings file is not ours.
 */
export function serversIn(root: Node | null, client: ClientInfo | null): ServerPair[] {
  const keys = client
    ? [client.serversKey, ...(client.alsoReads ? [client.alsoReads] : [])]
    : (['servers', 'mcpServers'] as const);
  const servers: ServerPair[] = [];
  for (const key of keys) {
    if (client?.list) {
      servers.push(...listedServers(getSeq(root, key)?.items ?? []));
      continue;
    }
    for (const pair of getMap(root, key)?.pairs ?? [])
      servers.push({ name: keyText(pair), pair, entry: isMap(pair.value) ? pair.value : undefined });
  }
  return servers;
}

/** The entries of a list of servers (Continue's block), each named by its `name`; an item without one names no server. */
function listedServers(items: readonly Node[]): ServerPair[] {
  const out: ServerPair[] = [];
  for (const item of items) {
    const pair = isMap(item) ? getPair(item, 'name') : undefined;
    if (!isMap(item) || !pair || !isScalar(pair.value) || typeof pair.value.value !== 'string') continue;
    out.push({ name: pair.value.value, pair, entry: item });
  }
  return out;
}

/**
 * The folder a client is opened in to read this client file (its project): the folder that holds
 * `.vscode/`, `.cursor/`, `.continue/`... or `.mcp.json` itself, `/`-separated, without a trailing
 * slash (`''` for the workspace's own folder). Two clients' files of one project are read by two
 * agents working in the same folder. A path no client names: its own folder.
 */
export function projectFolderOf(path: string, pattern: RegExp | undefined = clientOfPath(path)?.path): string {
  const normalized = path.replace(/\\/g, '/');
  const match = pattern?.exec(normalized);
  const end = match ? match.index : normalized.lastIndexOf('/') + 1;
  return normalized.slice(0, end).replace(/\/$/, '');
}

/**
 * What an entry starts, as its client reads it: the program, its arguments and its environment
 * map. opencode writes the program and its arguments as one `command` list and the environment
 * under `environment`; every other client `command`, `args` and `env`.
 */
export function launchNodesOf(
  entry: MapNode | undefined,
  client: ClientId | undefined,
): { command: Node | undefined; args: readonly Node[] | undefined; env: Node | undefined } {
  if (client === 'opencode') {
    const line = getNode(entry, 'command');
    return isSeq(line)
      ? { command: line.items[0], args: line.items.slice(1), env: getNode(entry, 'environment') }
      : { command: line, args: undefined, env: getNode(entry, 'environment') };
  }
  const args = getNode(entry, 'args');
  return { command: getNode(entry, 'command'), args: isSeq(args) ? args.items : undefined, env: getNode(entry, 'env') };
}
