// What the catalog knows about servers and their tools. Rules ask the catalog, never files.
import type { Span, ToolAnnotations } from '../types.js';

/** The meta tools of a runtime with dynamic namespaces: dispatch into a namespace, and discovery. */
export const CALL_DYNAMIC_TOOL = 'call_dynamic_tool';
export const GET_DYNAMIC_TOOLS = 'get_dynamic_tools';
export const META_TOOLS = [GET_DYNAMIC_TOOLS, CALL_DYNAMIC_TOOL] as const;

/** Where something was declared, for go-to-definition and related information. */
interface Origin {
  file: string;
  span: Span;
}

export interface CatalogTool {
  name: string;
  server: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  /** Declared annotations exactly as listed; undefined when the tool declares none. */
  annotations?: ToolAnnotations;
  /** The namespace a dynamic tool lives in; undefined for a listed tool. */
  namespace?: string;
  /** The MCP revision its server's tools were listed under, when the catalog records it. */
  revision?: string;
  /** `execution.taskSupport` as declared (2025-11-25), when it is a string. */
  taskSupport?: string;
  origin: Origin;
}

export interface DynamicNamespace {
  name: string;
  server: string;
  external: boolean;
  status: string;
  tools: CatalogTool[];
  origin: Origin;
}

export interface CatalogServer {
  name: string;
  tools: CatalogTool[];
  namespaces: DynamicNamespace[];
  origin: Origin;
  /** When the snapshot was fetched, if it says. */
  fetchedAt?: string;
  /**
   * What the server's initialize result said, when the file records it: a snapshot's
   * `fetched.protocolVersion`, `fetched.serverInfo`, `fetched.capabilities` and
   * `fetched.instructions`, or a capture's `protocolVersion`, `serverInfo`, `serverCapabilities`
   * and `instructions`. Older snapshots hold only the first two (serverInfo's name, title and
   * version); a field the file leaves out is undefined.
   */
  protocolVersion?: string;
  serverInfo?: Record<string, unknown>;
  capabilities?: Record<string, unknown>;
  instructions?: string;
}
