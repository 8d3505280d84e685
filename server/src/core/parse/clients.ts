// Which MCP client reads a file, from its path alone: the client-config family is one document kind
// (`mcp-servers`) with the client as a property of the path, so every client shares the server-entry
// view, the face overlay and the client-neutral checks, and a client's own rules ask `clientOfPath`.
// A file recognised by its content only (an `mcpServers` map at another path) has no client: only the
// client-neutral checks run on it (docs/clients.md).

export type ClientId =
  'vscode' | 'cursor' | 'claude-code' | 'claude-desktop' | 'gemini' | 'roo' | 'amazonq' | 'windsurf';

export interface ClientInfo {
  id: ClientId;
  /** The client's name as users know it. */
  label: string;
  /** The root key that holds its servers by name. */
  serversKey: 'servers' | 'mcpServers';
  /** Another root key the client also reads servers from (VS Code moves `mcpServers` into `servers`). */
  alsoReads?: 'mcpServers';
  /** The path (suffix, `/`-separated, case-insensitive) of the project or user file it reads. */
  path: RegExp;
}

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
  { id: 'amazonq', label: 'Amazon Q Developer', serversKey: 'mcpServers', path: /(^|\/)\.amazonq\/mcp\.json$/i },
  {
    id: 'windsurf',
    label: 'Windsurf',
    serversKey: 'mcpServers',
    path: /(^|\/)\.codeium\/windsurf\/mcp_config\.json$/i,
  },
];

/** The client whose configuration file this path is, or null when the path names none. */
export function clientOfPath(path: string): ClientInfo | null {
  const normalized = path.replace(/\\/g, '/');
  return CLIENTS.find((c) => c.path.test(normalized)) ?? null;
}
