// The server entries of an MCP client's configuration (an `mcp-servers` document), with the client
// its path names (parse/clients.ts) and what Tool Lens knows of how that client reads an entry: its
// keys, its transport names, and what it does with anything else. Facts are per client and say
// where they come from (the client's source, or its documentation where the source is closed);
// a client without facts here gets only the client-neutral checks (docs/clients.md).
import type { DocumentContext } from '../context.js';
import { memoKey } from '../memo.js';
import { clientOfPath, type ClientId, type ClientInfo } from '../parse/clients.js';
import { getMap, isMap, keyText, type MapNode, type Pair } from '../parse/nodes.js';
import type { Severity } from '../types.js';

export interface ClientServer {
  name: string;
  pair: Pair;
  /** The entry, when it is a mapping. */
  entry: MapNode | undefined;
}

export interface ClientView {
  /** The client the path names; null for a file recognised by content only. */
  client: ClientInfo | null;
  servers: ClientServer[];
}

const VIEW = memoKey<ClientView>('client-servers');

/** The servers of the context's `mcp-servers` document, under its client's key (both keys without a client). */
export function clientViewOf(ctx: DocumentContext): ClientView {
  return ctx.memo.get(VIEW, () => {
    const client = ctx.doc.kind === 'mcp-servers' ? clientOfPath(ctx.file.path) : null;
    const keys = client
      ? [client.serversKey, ...(client.alsoReads ? [client.alsoReads] : [])]
      : (['servers', 'mcpServers'] as const);
    const servers: ClientServer[] = [];
    for (const key of keys) {
      for (const pair of getMap(ctx.doc.root, key)?.pairs ?? []) {
        servers.push({ name: keyText(pair), pair, entry: isMap(pair.value) ? pair.value : undefined });
      }
    }
    return { client, servers };
  });
}

/** Where a fact about a client was read. */
export interface FactSource {
  from: 'source' | 'documentation';
  /** The file and function (source) or the page (documentation). */
  where: string;
}

/** How a client reads one server entry. */
export interface EntryFacts {
  /** Every key of a server entry the client reads. */
  keys: readonly string[];
  /** What the client does with a key it does not read, and where that is decided. */
  unknownKey: { severity: Severity; effect: string; source: FactSource };
  /** The `type` values the client accepts. */
  transports: readonly string[];
  /** What the client does with another `type` value; `equivalent` maps another client's name for the same transport to its own. */
  otherTransport: {
    severity: Severity;
    effect: string;
    equivalent: Readonly<Record<string, string>>;
    source: FactSource;
  };
}

const ROO_HUB: FactSource = {
  from: 'source',
  where: 'Roo-Code src/services/mcp/McpHub.ts: ServerConfigSchema, updateProjectMcpServers',
};
const GEMINI_SETTINGS: FactSource = {
  from: 'source',
  where:
    'gemini-cli packages/cli/src/config/settingsSchema.ts: MCPServerConfig; settings.ts: validateSettings (a warning); packages/core/src/tools/mcp-client.ts: createUrlTransport',
};

const VSCODE_MCP: FactSource = {
  from: 'source',
  where:
    'vscode src/vs/workbench/contrib/mcp/common/mcpConfiguration.ts: mcpServerSchema; src/vs/platform/mcp/common/mcpResourceScannerService.ts: sanitizeServer; mcpPlatformTypes.ts',
};

const CODEX_MCP: FactSource = {
  from: 'source',
  where:
    'codex codex-rs/config/src/mcp_types.rs: RawMcpServerConfig (serde without deny_unknown_fields), TryFrom<RawMcpServerConfig> for McpServerConfig; strict_config.rs: validate_config_toml_layer',
};

/** The clients whose entries Tool Lens knows in full; the others get the client-neutral checks only. */
export const ENTRY_FACTS: Partial<Record<ClientId, EntryFacts>> = {
  vscode: {
    keys: [
      'type',
      'command',
      'args',
      'env',
      'envFile',
      'cwd',
      'dev',
      'sandboxEnabled',
      'version',
      'gallery',
      'url',
      'headers',
      'oauth',
      'transport',
    ],
    unknownKey: {
      severity: 'warning',
      effect: "VS Code's schema flags it and the server is started without reading it",
      source: VSCODE_MCP,
    },
    transports: ['stdio', 'http', 'sse'],
    otherTransport: {
      severity: 'warning',
      effect: "VS Code's schema flags it, and VS Code reads the entry as stdio (with a command) or http (with a url)",
      equivalent: { 'streamable-http': 'http' },
      source: VSCODE_MCP,
    },
  },
  roo: {
    keys: [
      'type',
      'command',
      'args',
      'cwd',
      'env',
      'url',
      'headers',
      'disabled',
      'timeout',
      'alwaysAllow',
      'watchPaths',
      'disabledTools',
    ],
    unknownKey: { severity: 'warning', effect: 'Roo Code drops it when it reads the entry', source: ROO_HUB },
    transports: ['stdio', 'sse', 'streamable-http'],
    otherTransport: {
      severity: 'error',
      effect: 'Roo Code refuses the whole file and starts none of its servers',
      equivalent: { http: 'streamable-http' },
      source: ROO_HUB,
    },
  },
  gemini: {
    keys: [
      'command',
      'args',
      'env',
      'cwd',
      'url',
      'httpUrl',
      'headers',
      'tcp',
      'type',
      'timeout',
      'trust',
      'description',
      'includeTools',
      'excludeTools',
      'extension',
      'oauth',
      'authProviderType',
      'targetAudience',
      'targetServiceAccount',
    ],
    unknownKey: {
      severity: 'warning',
      effect: 'Gemini CLI warns about the settings file at start and reads nothing from the key',
      source: GEMINI_SETTINGS,
    },
    transports: ['stdio', 'sse', 'http'],
    otherTransport: {
      severity: 'warning',
      effect: 'Gemini CLI warns about the settings file at start and picks the transport from the URL instead',
      equivalent: { 'streamable-http': 'http' },
      source: GEMINI_SETTINGS,
    },
  },
  // Codex has no `type` key: `command` makes a stdio server and `url` a streamable HTTP one
  // (TryFrom<RawMcpServerConfig>), so `type` is an unknown key there (client/unknown-key).
  codex: {
    keys: [
      'command',
      'args',
      'env',
      'env_vars',
      'cwd',
      'http_headers',
      'env_http_headers',
      'url',
      'bearer_token',
      'bearer_token_env_var',
      'experimental_environment',
      'startup_timeout_sec',
      'startup_timeout_ms',
      'tool_timeout_sec',
      'enabled',
      'required',
      'supports_parallel_tool_calls',
      'default_tools_approval_mode',
      'enabled_tools',
      'disabled_tools',
      'scopes',
      'oauth',
      'oauth_resource',
      'name',
      'tools',
    ],
    unknownKey: {
      severity: 'warning',
      effect: 'Codex ignores it when it reads the entry (with strict config validation on, it refuses the config)',
      source: CODEX_MCP,
    },
    transports: [],
    otherTransport: {
      severity: 'warning',
      effect: 'Codex has no `type`: it picks stdio for a `command` and streamable HTTP for a `url`',
      equivalent: {},
      source: CODEX_MCP,
    },
  },
};

/** What Tool Lens knows of how the context's client reads an entry, if it knows. */
export function entryFactsOf(view: ClientView): EntryFacts | undefined {
  return view.client ? ENTRY_FACTS[view.client.id] : undefined;
}

/** Keys of an entry that are Tool Lens's own (the face overlay): no client reads them, on purpose. */
export const OWN_KEYS: ReadonlySet<string> = new Set(['toolFaces']);
