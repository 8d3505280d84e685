// Names and payloads shared by the language server and the VS Code client: custom notifications
// and the server-side commands the client calls. Plain data only, so the client bundle can import
// it without pulling in the server.

/** Server → client: how many catalog servers the workspace has, and how fresh they are. */
export const CATALOG_STATE_NOTIFICATION = 'toolLens/catalogState';
/** Client → server: the workspace's trust state changed (VS Code Workspace Trust). */
export const TRUST_NOTIFICATION = 'toolLens/trustChanged';

export interface CatalogState {
  /** Catalogued servers (by name, sorted). */
  servers: string[];
  /** Snapshot files the catalog was built from. */
  files: number;
  /** Servers whose snapshot says it was fetched more than STALE_AFTER_DAYS days ago. */
  stale: string[];
  /** Live fetching is not built yet: always empty, kept so the status bar need not change later. */
  pending: string[];
  failed: string[];
  /** Whether the client said the workspace is trusted. */
  trusted: boolean;
  /** False until the workspace has been read from disk once. */
  loaded: boolean;
}

/** A snapshot older than this is reported as stale in the catalog state. */
export const STALE_AFTER_DAYS = 30;

/** What the client passes in `initializationOptions`. */
export interface InitializationOptions {
  trusted?: boolean;
  settings?: ToolLensSettings;
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
} as const;

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

export interface CallEnvelopeResult {
  /** Text to insert at the position, in the document's syntax, indented for that place. */
  text: string;
}

/** How safe a step's tool says it is, for the graph's colours. */
export type AnnotationClass = 'read-only' | 'additive' | 'destructive' | 'unknown' | 'no-tool';

export interface WorkflowGraphNode {
  id: string;
  /** The step's tool reference as written (inner tool for a forEach). */
  tool?: string;
  type: string;
  annotationClass: AnnotationClass;
  /** One line saying why the class is what it is. */
  detail: string;
  line: number;
}

export interface WorkflowGraphEdge {
  /** The step that must finish first. */
  from: string;
  to: string;
}

export interface WorkflowGraph {
  workflow: string;
  uri: string;
  nodes: WorkflowGraphNode[];
  edges: WorkflowGraphEdge[];
}
