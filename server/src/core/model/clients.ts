// The server entries of an MCP client's configuration (an `mcp-servers` document), with the client
// its path names (parse/clients.ts) and what Tool Lens knows of how that client reads an entry: its
// keys, its transport names, and what it does with anything else. Facts are per client and say
// where they come from (the client's source, or its documentation where the source is closed);
// a client without facts here gets only the client-neutral checks (docs/clients.md).
import { suggestionBudgetOf, type DocumentContext } from '../context.js';
import { memoKey } from '../memo.js';
import { closest, type SuggestionBudget } from '../text/suggest.js';
import { clientOfPath, serversIn, type ClientId, type ClientInfo, type ServerPair } from '../parse/clients.js';
import { getPair, isMap, isScalar, keyText, type Pair } from '../parse/nodes.js';
import type { Severity } from '../types.js';

/** A server of the document: its name, the pair that names it, its entry when a mapping (parse/clients.ts). */
export type ClientServer = ServerPair;

export interface ClientView {
  /** The client the path names; null for a file recognised by content only. */
  client: ClientInfo | null;
  servers: ClientServer[];
}

const VIEW = memoKey<ClientView>('client-servers');

/**
 * The servers of the context's `mcp-servers` document, under its client's key (both keys without a
 * client). For Zed only `context_servers` is read: the rest of its settings file is not ours.
 */
export function clientViewOf(ctx: DocumentContext): ClientView {
  return ctx.memo.get(VIEW, () => {
    const client = ctx.doc.kind === 'mcp-servers' ? clientOfPath(ctx.file.path) : null;
    return { client, servers: serversIn(ctx.doc.root, client) };
  });
}

/** Where a fact about a client was read. */
export interface FactSource {
  from: 'source' | 'documentation';
  /** The file and function (source) or the page (documentation). */
  where: string;
}

/** The form a client requires of a value of an entry (client/invalid-value). */
export type ValueForm =
  /** `url`: must parse as a URL as written (WHATWG `new URL`, as zod's `.url()` checks it). */
  | { type: 'string'; nonEmpty?: true; url?: true }
  | { type: 'boolean' }
  /** `min`/`max` inclusive, `above` exclusive. */
  | { type: 'number'; min?: number; max?: number; above?: number }
  /** A list of strings. */
  | { type: 'strings' }
  /** A mapping whose values are strings. */
  | { type: 'stringMap' };

/**
 * How a client reads one server entry. Only `keys` is required (it feeds completion); each other
 * part is there only when it is known from the client's source or documentation, and the rule that
 * needs it stays silent for a client without it (no finding on a guess).
 */
export interface EntryFacts {
  /** Every key of a server entry the client reads. */
  keys: readonly string[];
  /** Where the keys were read, when no other part of the row names it. */
  keysSource?: FactSource;
  /** What the client does with a key it does not read, and where that is decided (client/unknown-key). */
  unknownKey?: { severity: Severity; effect: string; source: FactSource };
  /** The `type` values the client accepts and what it does with another one (client/invalid-transport). */
  transport?: {
    values: readonly string[];
    severity: Severity;
    effect: string;
    /** Another client's name for the same transport, mapped to this client's own. */
    equivalent: Readonly<Record<string, string>>;
    source: FactSource;
  };
  /** The file starts local (command) servers only: what the client does with a url entry (client/invalid-transport). */
  localOnly?: { severity: Severity; effect: string; remedy: string; source: FactSource };
  /**
   * What the client does with an entry that has neither a command nor a url: at the key it does
   * not read that is the reason (a misspelt `command`, the entry nested one level down),
   * client/unknown-key; when no key is, client/missing-field at the entry.
   */
  withoutLaunch?: {
    severity: Severity;
    effect: string;
    source: FactSource;
    /** A key that makes such an entry another kind of server (Zed's `settings`: an extension's), what the entry is then, and what the client does with it. */
    otherwise?: { key: string; readAs: string; effect: string };
  };
  /**
   * Keys the file itself must have beside its servers (Continue's block: `name`, `version`), and
   * what the client does with a file without one (client/missing-field).
   */
  fileKeys?: { keys: readonly string[]; severity: Severity; effect: string; source: FactSource };
  /**
   * Keys that belong to the other transport, which the client refuses in an entry with a `command`
   * (`stdio`) or with a `url` and no `command` (`remote`), and what it then does (client/invalid-transport).
   */
  transportKeys?: {
    stdio: readonly string[];
    remote: readonly string[];
    severity: Severity;
    effect: string;
    source: FactSource;
  };
  /** The values the client's schema refuses, by key, and what it then does (client/invalid-value). */
  values?: {
    forms: Readonly<Record<string, ValueForm>>;
    /** The same for the keys of the file itself, beside its servers (Continue's block: `name`, `version`). */
    fileForms?: Readonly<Record<string, ValueForm>>;
    severity: Severity;
    effect: string;
    source: FactSource;
  };
  /**
   * Settings the client reads from a closed set of values, refusing any other (client/invalid-value):
   * the key's path in the entry (`*` stands for any name, a tool's), the values, what another does.
   */
  valueSets?: readonly {
    path: readonly string[];
    values: readonly string[];
    severity: Severity;
    effect: string;
    source: FactSource;
  }[];
  /** Keys the client reads only to refuse them, each with the key to write instead (client/unknown-key). */
  refusedKeys?: Readonly<
    Record<string, { instead: string; remedy: string; severity: Severity; effect: string; source: FactSource }>
  >;
}

const ROO_HUB: FactSource = {
  from: 'source',
  where: 'Roo-Code src/services/mcp/McpHub.ts: ServerConfigSchema, updateProjectMcpServers',
};
const ROO_PROJECT_FILE: FactSource = {
  from: 'source',
  where:
    'Roo-Code src/services/mcp/McpHub.ts: createServerTypeSchema (a stdio shape needs `command`, a remote one `url`), McpSettingsSchema, initializeMcpServers and updateProjectMcpServers (a project file that fails the schema loads no server)',
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

const AMAZONQ_TOOL: FactSource = {
  from: 'source',
  where:
    'amazon-q-developer-cli crates/chat-cli/src/cli/chat/tools/custom_tool.rs: CustomToolConfig (serde, no deny_unknown_fields)',
};
const ZED_SETTINGS: FactSource = {
  from: 'source',
  where:
    'zed crates/settings_content/src/project.rs: ContextServerSettingsContent (untagged Stdio, Http, Extension; no deny_unknown_fields; Extension needs `settings`), ContextServerCommand',
};
const ZED_EXTENSION: FactSource = {
  from: 'source',
  where:
    'zed crates/settings_content/src/project.rs: ContextServerSettingsContent; crates/project/src/context_server_store.rs: ContextServerConfiguration::from_settings (an extension server needs a registered descriptor)',
};
const CONTINUE_SCHEMA: FactSource = {
  from: 'source',
  where:
    'continue packages/config-yaml/src/schemas/mcp/index.ts: mcpServerSchema (zod objects, not strict); src/load/unroll.ts: unrollBlocks, parseConfigYaml (a local block that fails the schema is skipped with an error)',
};
const CONTINUE_LOCAL_BLOCKS: FactSource = {
  from: 'source',
  where:
    'continue packages/config-yaml/src/load/unroll.ts: unrollBlocks (a local block that fails parseConfigYaml is skipped with a non-fatal error); core/config/yaml/loadYaml.ts: loadConfigYaml',
};
const CODEX_BEARER: FactSource = {
  from: 'source',
  where:
    'codex codex-rs/config/src/mcp_types.rs: TryFrom<RawMcpServerConfig> for McpServerConfig (throw_if_set on bearer_token); codex-rs/exec/src/lib.rs: run_main ("Error loading config.toml", exit 1)',
};
const CODEX_TRANSPORT: FactSource = {
  from: 'source',
  where:
    'codex codex-rs/config/src/mcp_types.rs: TryFrom<RawMcpServerConfig> for McpServerConfig (throw_if_set per transport); codex-rs/exec/src/lib.rs: run_main ("Error loading config.toml", exit 1)',
};
const CODEX_APPROVAL: FactSource = {
  from: 'source',
  where:
    'codex codex-rs/config/src/mcp_types.rs: AppToolApproval (a serde enum, no fallback: auto, prompt, approve, and writes in newer versions), RawMcpServerConfig.default_tools_approval_mode, McpServerToolConfig.approval_mode; codex-rs/exec/src/lib.rs: run_main ("Error loading config.toml", exit 1)',
};
/** Codex's approval modes, in every version read: `writes` (ask for the tools that write) came later. */
const CODEX_APPROVAL_MODES = ['auto', 'prompt', 'writes', 'approve'];
const CODEX_APPROVAL_EFFECT =
  'Codex fails to read its configuration (the value is none of its approval modes) and stops before starting ("Error loading config.toml")';
const OPENCODE_MCP: FactSource = {
  from: 'source',
  where:
    'opencode packages/opencode/src/config/mcp.ts: Local, Remote, Info (a union on `type`, decoded with Effect Schema, which drops keys it does not read); config.ts: Info.mcp (a server, or `{ enabled }` alone); config/parse.ts: schema (a config that fails to decode throws InvalidError)',
};
const KILO_HUB: FactSource = {
  from: 'source',
  where:
    "kilocode src/services/mcp/McpHub.ts: BaseConfigSchema, ServerConfigSchema (Roo Code's, with `oauth` on remote entries), updateProjectMcpServers",
};
const KIRO_DOCS: FactSource = { from: 'documentation', where: 'https://kiro.dev/docs/mcp/configuration' };
const CURSOR_DOCS: FactSource = { from: 'documentation', where: 'https://cursor.com/docs/mcp' };
const WINDSURF_DOCS: FactSource = { from: 'documentation', where: 'https://docs.windsurf.com/windsurf/cascade/mcp' };
const CLAUDE_DESKTOP_DOCS: FactSource = {
  from: 'documentation',
  where:
    'https://modelcontextprotocol.io/quickstart/user (local servers); https://support.claude.com/en/articles/11175166 (remote servers are custom connectors)',
};

/**
 * What Tool Lens knows of each client's entries (docs/internals/client-facts.md has every fact with
 * its source). A client missing here, or a part missing from its row, gets no client-specific
 * finding for it: Cursor, Windsurf and Kiro document their keys but not what they do with another key or
 * `type`, Amazon Q's source ignores an unknown key but what it does with an unknown `type` is not
 * verified, Zed has no `type` key at all, and Claude Desktop's file is documented for local servers
 * only (what it does with another key is not). Claude Code has no row.
 */
export const ENTRY_FACTS: Partial<Record<ClientId, EntryFacts>> = {
  // Cursor: the documented keys only (CURSOR_DOCS); it detects the transport itself, `type` is optional.
  cursor: { keys: ['type', 'command', 'args', 'env', 'url', 'headers'], keysSource: CURSOR_DOCS },
  // Kiro: the documented keys only (KIRO_DOCS; its source is closed). Neither what it does with another
  // key nor a `type` is documented, and its variables differ between the IDE (`${NAME}`, approved
  // names only) and the CLI: no client rule reports on a Kiro file beyond the client-neutral ones.
  kiro: {
    keys: [
      'command',
      'args',
      'env',
      'url',
      'headers',
      'oauth',
      'oauthScopes',
      'disabled',
      'autoApprove',
      'disabledTools',
    ],
    keysSource: KIRO_DOCS,
  },
  // Windsurf: the documented keys only (WINDSURF_DOCS); a remote entry names its URL by `serverUrl` or `url`.
  windsurf: { keys: ['command', 'args', 'env', 'serverUrl', 'url', 'headers'], keysSource: WINDSURF_DOCS },
  // Amazon Q's legacy workspace file: serde reads the entry and drops any other key. `type` is
  // `stdio` (the default) or `http`; what it does with another value is not verified, so no transport facts.
  amazonq: {
    keys: ['type', 'command', 'args', 'env', 'url', 'headers', 'oauthScopes', 'oauth', 'timeout', 'disabled'],
    unknownKey: {
      severity: 'warning',
      effect: 'Amazon Q reads the entry without it',
      source: AMAZONQ_TOOL,
    },
  },
  // Zed: an entry is tried as a command, then a url, then an extension server's settings; serde
  // ignores any other key. No `type` key: the shape picks the transport, so no transport facts.
  zed: {
    keys: ['command', 'args', 'env', 'timeout', 'enabled', 'remote', 'url', 'headers', 'oauth', 'settings'],
    unknownKey: { severity: 'warning', effect: 'Zed reads the entry without it', source: ZED_SETTINGS },
    // Without `command` or `url` an entry is an extension's server only if it has `settings` (the
    // Extension variant requires it); with none of the three it matches no variant at all.
    withoutLaunch: {
      severity: 'error',
      effect:
        'Zed reads an entry as a command, a url or an extension\'s `settings`; this one is none of them, so its settings fail to parse ("data did not match any variant of untagged enum ContextServerSettingsContent") and the server is not loaded',
      source: ZED_EXTENSION,
      otherwise: {
        key: 'settings',
        readAs: "an extension's server",
        effect:
          "With `settings` and no command or url, Zed takes the entry for an extension's server, which starts only if an installed extension provides a server of this name",
      },
    },
  },
  // Continue: each item of the block's list is a stdio or a remote entry (a zod union); zod strips
  // any other key, and a `type` neither shape takes fails the block, whose server is then not loaded.
  continue: {
    keys: [
      'name',
      'serverName',
      'faviconUrl',
      'connectionTimeout',
      'type',
      'command',
      'args',
      'env',
      'cwd',
      'url',
      'apiKey',
      'requestOptions',
    ],
    unknownKey: { severity: 'warning', effect: 'Continue drops it when it reads the block', source: CONTINUE_SCHEMA },
    withoutLaunch: {
      severity: 'error',
      effect:
        "An entry needs a `command` or a `url`: without one the block fails Continue's schema, and Continue reports an error for the file and loads its configuration without this server",
      source: CONTINUE_LOCAL_BLOCKS,
    },
    // mcpServerSchema's zod types: a value of another type, or a connectionTimeout not above 0, fails the block.
    values: {
      forms: {
        name: { type: 'string' },
        serverName: { type: 'string' },
        faviconUrl: { type: 'string' },
        connectionTimeout: { type: 'number', above: 0 },
        command: { type: 'string' },
        args: { type: 'strings' },
        env: { type: 'stringMap' },
        cwd: { type: 'string' },
        url: { type: 'string' },
        apiKey: { type: 'string' },
      },
      // baseConfigYamlSchema: a YAML `version: 1` is a number, which z.string() refuses.
      fileForms: { name: { type: 'string' }, version: { type: 'string' }, schema: { type: 'string' } },
      severity: 'error',
      effect:
        "The block fails Continue's schema, so Continue reports an error for the file and loads its configuration without this server",
      source: CONTINUE_SCHEMA,
    },
    // configYamlSchema: `name` and `version` are plain z.string(), and a local block is parsed with it.
    fileKeys: {
      keys: ['name', 'version'],
      severity: 'error',
      effect:
        "Without it the block fails Continue's schema: Continue reports an error for the file and loads its configuration without this block's server",
      source: CONTINUE_LOCAL_BLOCKS,
    },
    transport: {
      values: ['stdio', 'sse', 'streamable-http'],
      severity: 'error',
      effect: "The block fails Continue's schema, so Continue reports an error and does not load this server",
      equivalent: { http: 'streamable-http' },
      source: CONTINUE_SCHEMA,
    },
  },
  // Claude Desktop: local servers only; a remote server is a custom connector added in the app.
  // What it does with an unknown key is not documented, so client/unknown-key stays silent.
  'claude-desktop': {
    keys: ['command', 'args', 'env'],
    localOnly: {
      severity: 'error',
      effect:
        'Claude Desktop starts only local (command) servers from this file, so a url entry never runs (a third-party test saw it dropped, or the app fail to start)',
      remedy: 'add it as a connector in the app',
      source: CLAUDE_DESKTOP_DOCS,
    },
  },
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
    transport: {
      values: ['stdio', 'http', 'sse'],
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
    // The project file is validated as a whole (McpSettingsSchema): one entry that is neither a
    // stdio nor a remote shape makes Roo show "Invalid MCP settings format" and load none of it.
    withoutLaunch: {
      severity: 'error',
      effect:
        'Roo Code reads an entry as a `command` or a `url`; this one is neither, so the whole file fails its validation ("Invalid MCP settings format") and none of its servers is loaded',
      source: ROO_PROJECT_FILE,
    },
    // The stdio shape has `url` and `headers` as z.undefined(), the remote ones `command`, `args`
    // and `env`: an entry with keys of both shapes matches none, and the whole file fails.
    transportKeys: {
      stdio: ['url', 'headers'],
      remote: ['args', 'env'],
      severity: 'error',
      effect:
        'Roo Code validates the whole file at once, so it fails ("Invalid MCP settings format") and none of its servers is loaded',
      source: ROO_PROJECT_FILE,
    },
    // BaseConfigSchema and the stdio shape: the whole file is validated at once, so one refused
    // value loads none of its servers. (`args`, `cwd`, `url`, `headers` and the type of `command`
    // are the client-neutral schema's too.)
    values: {
      forms: {
        command: { type: 'string', nonEmpty: true },
        // z.string().url(): checked on the file as written, before injectVariables runs at connect.
        url: { type: 'string', url: true },
        env: { type: 'stringMap' },
        disabled: { type: 'boolean' },
        timeout: { type: 'number', min: 1, max: 3600 },
        alwaysAllow: { type: 'strings' },
        watchPaths: { type: 'strings' },
        disabledTools: { type: 'strings' },
      },
      severity: 'error',
      effect:
        'Roo Code validates the whole file at once, so it fails ("Invalid MCP settings format") and none of its servers is loaded',
      source: ROO_PROJECT_FILE,
    },
    transport: {
      values: ['stdio', 'sse', 'streamable-http'],
      severity: 'error',
      effect: 'Roo Code refuses the whole file and starts none of its servers',
      equivalent: { http: 'streamable-http' },
      source: ROO_HUB,
    },
  },
  // Kilo Code forks Roo Code's McpHub: the same entry schema and whole-file validation, and an
  // `oauth` object on a remote entry. Its row is Roo's, with Kilo's own words and source.
  get kilo(): EntryFacts {
    const roo = ENTRY_FACTS.roo!;
    return {
      keys: [...roo.keys, 'oauth'],
      unknownKey: { ...roo.unknownKey!, effect: 'Kilo Code drops it when it reads the entry', source: KILO_HUB },
      transport: {
        ...roo.transport!,
        effect: 'Kilo Code refuses the whole file and starts none of its servers',
        source: KILO_HUB,
      },
    };
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
    transport: {
      values: ['stdio', 'sse', 'http'],
      severity: 'warning',
      effect: 'Gemini CLI warns about the settings file at start and picks the transport from the URL instead',
      equivalent: { 'streamable-http': 'http' },
      source: GEMINI_SETTINGS,
    },
  },
  // opencode: `type` is `local` (a `command` list, `environment`) or `remote` (`url`, `headers`,
  // `oauth`); the config is decoded against the union, so another `type` fails the whole file.
  opencode: {
    keys: ['type', 'command', 'environment', 'enabled', 'timeout', 'url', 'headers', 'oauth'],
    unknownKey: { severity: 'warning', effect: 'OpenCode drops it when it reads the entry', source: OPENCODE_MCP },
    transport: {
      values: ['local', 'remote'],
      severity: 'error',
      effect:
        "OpenCode starts no server from the entry: without `enabled` it fails OpenCode's config schema and the config is not loaded, with it the entry only turns a server of the same name on or off",
      equivalent: { stdio: 'local', http: 'remote', sse: 'remote', 'streamable-http': 'remote' },
      source: OPENCODE_MCP,
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
      'bearer_token_env_var',
      'experimental_environment',
      // Keys of a newer RawMcpServerConfig (docs/internals/client-facts.md, Codex): the
      // environment a server starts in, its auth flow, surfaces its tools are left out of, and a
      // command whose output gives the HTTP headers.
      'environment_id',
      'auth',
      'omit_tools_from',
      'http_headers_helper',
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
    // `bearer_token` is still a field of RawMcpServerConfig, kept only to fail with a clear error
    // whatever the transport: the token is read from the environment (bearer_token_env_var).
    refusedKeys: {
      bearer_token: {
        instead: 'bearer_token_env_var',
        remedy: 'use "bearer_token_env_var" instead',
        severity: 'error',
        effect:
          'Codex fails to read its configuration ("bearer_token is not supported for streamable_http") and stops before starting',
        source: CODEX_BEARER,
      },
    },
    // No `type` key: a `command` makes a stdio server, a `url` a streamable HTTP one, so no transport
    // values (a `type` written there is client/unknown-key's finding). The other transport's keys
    // are refused in the same table as its launch key (a project fragment without either is not
    // checked: a lower layer may complete it); `bearer_token` is refusedKeys' for both.
    transportKeys: {
      stdio: ['url', 'bearer_token_env_var', 'http_headers', 'env_http_headers', 'oauth', 'oauth_resource'],
      remote: ['args', 'env', 'env_vars', 'cwd'],
      severity: 'error',
      effect:
        'Codex fails to read its configuration ("... is not supported for stdio" or "for streamable_http") and stops before starting',
      source: CODEX_TRANSPORT,
    },
    valueSets: [
      {
        path: ['default_tools_approval_mode'],
        values: CODEX_APPROVAL_MODES,
        severity: 'error',
        effect: CODEX_APPROVAL_EFFECT,
        source: CODEX_APPROVAL,
      },
      {
        path: ['tools', '*', 'approval_mode'],
        values: CODEX_APPROVAL_MODES,
        severity: 'error',
        effect: CODEX_APPROVAL_EFFECT,
        source: CODEX_APPROVAL,
      },
    ],
  },
};

/** What Tool Lens knows of how the context's client reads an entry, if it knows. */
export function entryFactsOf(view: ClientView): EntryFacts | undefined {
  return view.client ? ENTRY_FACTS[view.client.id] : undefined;
}

/** The transport names some client accepts (schemas/mcp-servers.schema.json's `type`). */
export const ANY_CLIENT_TRANSPORT: ReadonlySet<string> = new Set(['stdio', 'http', 'sse', 'streamable-http']);

/**
 * The entry's `type`, where it is a transport name of some client but not one the file's client
 * accepts (client/invalid-transport reports it, and says how the client reads the entry instead).
 */
export function rejectedTransportOf(view: ClientView, server: ClientServer): string | undefined {
  const transport = entryFactsOf(view)?.transport;
  if (!transport) return undefined;
  const node = getPair(server.entry, 'type')?.value;
  if (!isScalar(node) || typeof node.value !== 'string') return undefined;
  const value = node.value;
  return ANY_CLIENT_TRANSPORT.has(value) && !transport.values.includes(value) ? value : undefined;
}

/** Keys of an entry that are Tool Lens's own (the face overlay): no client reads them, on purpose. */
export const OWN_KEYS: ReadonlySet<string> = new Set(['toolFaces']);

/** The keys that say how an entry starts, in any client's spelling. */
const LAUNCH_KEYS: ReadonlySet<string> = new Set(['command', 'url', 'httpUrl', 'serverUrl']);

/** Other clients' names for a key no edit distance finds. */
const KEY_SYNONYMS: Record<string, string> = {
  autoApprove: 'alwaysAllow',
  autoapprove: 'alwaysAllow',
  environment: 'env',
  arguments: 'args',
  workingDirectory: 'cwd',
  serverUrl: 'url',
  cmd: 'command',
  headers: 'http_headers',
  transport: 'type',
  enabled: 'disabled',
};

/** A key of an entry that its client does not read (nor refuses), and what it probably was. */
export interface UnreadKey {
  pair: Pair;
  key: string;
  /** The entry's own launch keys one level down (`transport: {command, args}`): the keys it holds that the client reads. */
  nested: readonly string[] | undefined;
  /** The key the client reads that this one probably is (none for a nested entry). */
  suggestion: string | undefined;
}

/** The launch keys the client reads (Roo Code: `command`, `url`; Gemini CLI also `httpUrl`). */
function launchKeysOf(facts: EntryFacts): string[] {
  return facts.keys.filter((k) => LAUNCH_KEYS.has(k));
}

/**
 * The keys of a server's entry that its client does not read: Tool Lens's own and the keys the
 * client refuses (`refusedKeys`) are not among them. Only for a client whose keys are known.
 */
export function unreadKeysOf(ctx: DocumentContext, server: ClientServer, facts: EntryFacts): UnreadKey[] {
  // Once per document: client/unknown-key and client/missing-field must agree on the culprits,
  // and a second search would spend the document's suggestion budget twice.
  const cache = ctx.memo.get(UNREAD, () => new Map<ClientServer, UnreadKey[]>());
  let keys = cache.get(server);
  if (!keys) {
    keys = findUnreadKeys(server, facts, suggestionBudgetOf(ctx));
    cache.set(server, keys);
  }
  return keys;
}

const UNREAD = memoKey<Map<ClientServer, UnreadKey[]>>('client-unread-keys');

function findUnreadKeys(server: ClientServer, facts: EntryFacts, budget: SuggestionBudget): UnreadKey[] {
  const known = new Set(facts.keys);
  const launch = launchKeysOf(facts);
  const own = server.entry?.pairs.map(keyText) ?? [];
  const launches = (keys: readonly string[]) => keys.some((k) => launch.includes(k));
  const out: UnreadKey[] = [];
  for (const pair of server.entry?.pairs ?? []) {
    const key = keyText(pair);
    if (known.has(key) || OWN_KEYS.has(key) || (facts.refusedKeys && Object.hasOwn(facts.refusedKeys, key))) continue;
    const inner = isMap(pair.value) ? pair.value.pairs.map(keyText).filter((k) => known.has(k)) : [];
    const nested = launches(inner) && !launches(own) ? inner : undefined;
    // Another client's setting whose counterpart this client lacks (`enabled` where there is no
    // `disabled`) is no misspelling: a longer key containing it (`sandboxEnabled`) means something else.
    const foreign = KEY_SYNONYMS[key] !== undefined && !known.has(KEY_SYNONYMS[key]);
    const suggestion = nested || foreign ? undefined : closest(key, facts.keys, { synonyms: KEY_SYNONYMS, budget });
    out.push({ pair, key, nested, suggestion });
  }
  return out;
}

/** An entry with none of the launch keys its client reads, and what the client makes of it. */
export interface LaunchGap {
  /** What the client does with such an entry. */
  fact: NonNullable<EntryFacts['withoutLaunch']>;
  /** The entry has the key that makes it another kind of server (Zed's `settings`): what it is read as. */
  readAs: NonNullable<NonNullable<EntryFacts['withoutLaunch']>['otherwise']> | undefined;
  /** The unread keys that are the reason: a launch key misspelt, or the entry nested one level down. */
  culprits: UnreadKey[];
}

/**
 * Whether the server's entry lacks every launch key its client reads (`command`, `url`; for Zed
 * also `settings`), for a client that says what it then does (`withoutLaunch`); client/unknown-key
 * reports the culprits, client/missing-field an entry that has none.
 */
export function launchGapOf(
  server: ClientServer,
  facts: EntryFacts,
  unread: readonly UnreadKey[],
): LaunchGap | undefined {
  const fact = facts.withoutLaunch;
  if (!fact || !server.entry) return undefined;
  const own = server.entry.pairs.map(keyText);
  const launch = launchKeysOf(facts);
  if (own.some((k) => launch.includes(k))) return undefined;
  const readAs = fact.otherwise && own.includes(fact.otherwise.key) ? fact.otherwise : undefined;
  // The keys whose absence leaves the entry unloadable: the launch keys, and the one that would
  // make it another kind of server while the entry lacks it (Zed's `settings`).
  const wanted = new Set([...launch, ...(fact.otherwise && !readAs ? [fact.otherwise.key] : [])]);
  const culprits = unread.filter((u) => u.nested || (u.suggestion !== undefined && wanted.has(u.suggestion)));
  return { fact, readAs, culprits };
}
