// Names and payloads shared by the language server and the VS Code client: custom notifications
// and the server-side commands the client calls. Plain data only, so the client bundle can import
// it without pulling in the server.
import type { AnnotationClass, GraphOfWorkflow } from '../core/ide/graph.js';

/** Server → client: how many catalog servers the workspace has, and how fresh they are. */
export const CATALOG_STATE_NOTIFICATION = 'toolLens/catalogState';
/** Client → server: the workspace's trust state changed (VS Code Workspace Trust). */
export const TRUST_NOTIFICATION = 'toolLens/trustChanged';
/**
 * Client → server request: fetch one server's live catalog (docs/behaviour.md#live-catalogs). Params: FetchCatalogParams;
 * result: FetchCatalogResult, sent when the fetch is over (other requests keep being answered
 * meanwhile). A request of its own rather than a server command on purpose: vscode-languageclient
 * registers every server command as a VS Code command that anything could run, and this one must
 * only ever run after the client's consent prompt.
 */
export const FETCH_CATALOG_REQUEST = 'toolLens/fetchCatalog';

export interface CatalogState {
  /** Catalogued servers (by name, sorted). */
  servers: string[];
  /** Snapshot files the catalog was built from. */
  files: number;
  /** Servers whose snapshot says it was fetched more than STALE_AFTER_DAYS days ago. */
  stale: string[];
  /** Servers whose live catalog is being fetched right now ("catalog pending"). */
  pending: string[];
  /** Servers whose last live fetch failed (until a later fetch of theirs succeeds). */
  failed: string[];
  /** Why each failed server failed, one redacted message each (no secret values). */
  failures?: Record<string, string>;
  /** Whether the client said the workspace is trusted (false when it said nothing). */
  trusted: boolean;
  /** False until the workspace has been read from disk once. */
  loaded: boolean;
  /** The `.toollens.yaml` files in use, as file URIs (one per workspace folder that has one). */
  configs?: string[];
}

/** A snapshot older than this is reported as stale in the catalog state. */
export const STALE_AFTER_DAYS = 30;

/** What the client passes in `initializationOptions`. */
export interface InitializationOptions {
  trusted?: boolean;
  settings?: ToolLensSettings;
  /**
   * A command of the client that shows a rule's page, given the rule id as its one argument (the
   * VS Code extension's `toolLens.openRuleDocs`, which opens the page bundled with it). With it,
   * each diagnostic links to `command:NAME?["RULE"]` and its quick fixes include "Show
   * documentation for RULE"; without it, the link is the rule's web page.
   */
  ruleDocsCommand?: string;
}

/** One rule, as the `rules` server command lists it (the "Open Rule Documentation" quick pick). */
export interface RuleItem {
  id: string;
  defaultSeverity: 'error' | 'warning' | 'info' | 'hint';
  summary: string;
}

/** The `toolLens.*` settings the server reads. */
export interface ToolLensSettings {
  /** Extra catalog snapshot globs, relative to the workspace folder. */
  catalogs?: string[];
  /** Check every file of the workspace in the background, not only open ones. */
  workspaceDiagnostics?: boolean;
}

/**
 * Server-side commands (`workspace/executeCommand`). They are not the client's `toolLens.*`
 * commands: vscode-languageclient registers every server command as a VS Code command, so the
 * names must differ.
 */
export const SERVER_COMMANDS = {
  /** args: [{uri, position?}] → FloorReport[] */
  floor: 'toolLens.server.floor',
  /** args: [] → CatalogState (reloads every catalog, the configuration and the files from disk) */
  refreshCatalogs: 'toolLens.server.refreshCatalogs',
  /** args: [] → DynamicToolItem[] */
  dynamicTools: 'toolLens.server.dynamicTools',
  /** args: [CallEnvelopeParams] → CallEnvelopeResult | null */
  callEnvelope: 'toolLens.server.callEnvelope',
  /** args: [{uri, position?}] → WorkflowGraph[] */
  workflowGraph: 'toolLens.server.workflowGraph',
  /** args: [] → LiveServerList (the MCP servers the workspace's client configs declare; starts nothing) */
  liveServers: 'toolLens.server.liveServers',
  /** args: [{uri}] → AdvertisedToolsView[] (one per gateway document of the file; empty for any other file) */
  advertisedTools: 'toolLens.server.advertisedTools',
  /** args: [] → RuleItem[] (every rule, in the order `tool-lens rules` lists them) */
  rules: 'toolLens.server.rules',
  /** args: [{uri}] → DocumentKindResult (whether Tool Lens checks the document, and as what) */
  documentKind: 'toolLens.server.documentKind',
  /**
   * args: [{uri}?] → null. The catalog as it is now becomes the baseline that
   * `aggregation/advertised-rename` compares with: of the folder of `uri`, or of every folder.
   */
  acceptCatalog: 'toolLens.server.acceptCatalog',
  /**
   * args: [{uri}] → null. Asks the client to show the document (`window/showDocument`): the
   * command of a code action that writes a file ("Move these faces to an overlay file").
   */
  showDocument: 'toolLens.server.showDocument',
} as const;

/** One MCP server a workspace config declares, as the fetch command's quick pick shows it. */
export interface LiveServerItem {
  name: string;
  /** Where it is declared: `.vscode/mcp.json:12`. */
  declaredIn: string;
  /** How Tool Lens would reach it; absent when it cannot be fetched. */
  transport?: 'stdio' | 'http' | 'sse';
  /** The command line (or URL) that a fetch runs, every secret value masked. */
  commandLine?: string;
  /**
   * SHA-256 of the whole launch (command, args, env, cwd; or URL and headers), unmasked. The
   * consent is given for it, and the server refuses a fetch whose launch no longer has it.
   */
  fingerprint?: string;
  /** Why it cannot be fetched; `needs-input` for `${input:…}`, `${env:…}` and `envFile`. */
  blocked?: { reason: 'needs-input' | 'unsupported' | 'invalid'; message: string };
  /** The catalog already has a server of this name. */
  catalogued: boolean;
  /** `fetched.at` of the server's current snapshot, when it says. */
  fetchedAt?: string;
  /** A fetch of it is running now. */
  pending: boolean;
  /**
   * The snapshot a fetch writes, relative to the workspace folder, and whether a file is there now
   * (the fetch replaces it); `refused`: why it could not be written (a fetch is then refused too).
   */
  snapshot?: { file: string; replaces: boolean; refused?: string };
}

export interface LiveServerList {
  /** Whether the server may start anything (the client said the workspace is trusted). */
  trusted: boolean;
  servers: LiveServerItem[];
  /** The config files read, relative to the workspace folder. */
  configFiles: string[];
  /** Config files that could not be read, or have the wrong shape. */
  problems: string[];
}

export interface FetchCatalogParams {
  server: string;
  /** The LiveServerItem.fingerprint the user agreed to run. */
  fingerprint: string;
  /** Where `$/progress` (WorkDoneProgress begin/report/end) about this fetch goes. */
  workDoneToken?: string | number;
}

type FetchRefusal =
  /** The client has not said that the workspace is trusted. */
  | 'untrusted'
  /** No workspace folder: nothing to read the servers from or write the snapshot into. */
  | 'no-folder'
  /** No server of that name in the configs (any more). */
  | 'unknown-server'
  /** It needs input or cannot be reached (LiveServerItem.blocked). */
  | 'blocked'
  /** Its launch changed since the user agreed: ask again. */
  | 'changed'
  /** A fetch of it is already running. */
  | 'busy'
  /** It was started but the fetch failed (timeout, crash, bad answer). */
  | 'failed'
  /** The user cancelled it; the server was stopped. */
  | 'cancelled'
  /** The snapshot could not be written. */
  | 'write-failed';

export type FetchCatalogResult =
  | {
      ok: true;
      server: string;
      /** The snapshot, relative to the workspace folder. */
      file: string;
      uri: string;
      tools: number;
      ms: number;
    }
  | {
      ok: false;
      server: string;
      reason: FetchRefusal;
      /** Says what happened and what to do; secrets masked. */
      message: string;
    };

/** Whether Tool Lens checks a document: its kind (the first recognised document's), or null for a file that is none of ours. */
export interface DocumentKindResult {
  kind: string | null;
}

export interface DocumentPositionArgs {
  uri: string;
  /** 0-based; when given, only the workflow around it. */
  position?: { line: number; character: number };
}

export interface FloorReport {
  workflow: string;
  /** 0-based line of the workflow's name (or its mapping). */
  line: number;
  markdown: string;
}

export interface DynamicToolItem {
  server: string;
  namespace: string;
  tool: string;
  description?: string;
  external: boolean;
  status: string;
}

export interface CallEnvelopeParams {
  uri: string;
  position: { line: number; character: number };
  server: string;
  namespace: string;
  tool: string;
}

/**
 * The envelope as one replacement of `range` (LSP positions), placed by the document's structure
 * (docs/behaviour.md#inserting-a-call-envelope); or, when it cannot be placed there, why.
 */
export type CallEnvelopeResult =
  | {
      range: { start: { line: number; character: number }; end: { line: number; character: number } };
      /** The text written, with each tab stop's offered text in place. */
      text: string;
      /** The same as a snippet (`${1:…}` tab stops on the arguments and the mcpDetails sentence). */
      snippet: string;
    }
  | { refused: string };

// The workflow graph's data is core/ide/graph.ts's; the command adds the document's URI.
export type { AnnotationClass, WorkflowGraphMark, WorkflowGraphNode } from '../core/ide/graph.js';

export interface WorkflowGraph extends GraphOfWorkflow {
  uri: string;
}

/** A place in the workspace, for a click through: the file and the range, 0-based as LSP counts. */
export interface ViewLocation {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

/** One tool of the "Advertised tools" view (core/listing/report.ts says what each field means). */
export interface AdvertisedToolItem {
  name: string;
  kind: 'backend' | 'composite';
  from?: string;
  /** The annotations in words ("read-only, closed-world"). */
  annotations: string;
  /** The class the annotations put the tool in, as the workflow graph colours a step (advertised tools only). */
  annotationClass?: AnnotationClass;
  certain: boolean;
  location?: ViewLocation;
  /** Withheld tools only. */
  status?: 'hidden' | 'dropped' | 'conflicted' | 'left-out' | 'name-conflict' | 'contradiction';
  reason?: string;
}

/** The advertised tool list of one gateway document, as the editor's tree view shows it. */
export interface AdvertisedToolsView {
  /** "gateway "docs-bot"" or "VirtualMCPServer "docs"". */
  title: string;
  strategy: string;
  location?: ViewLocation;
  advertised: AdvertisedToolItem[];
  withheld: AdvertisedToolItem[];
  /** One sentence each: workloads without a catalog, definitions kept in the cluster, the stand-in workloads. */
  notes: string[];
}
