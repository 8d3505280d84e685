// The tool declarations of a `tool-catalog` document as nodes, for the catalog rules: the catalog
// index keeps values, but these rules report on keys and values where they are written. Covers
// the three forms (snapshot `catalog: 1`, bare `tools/list` result, capture with `server`).
import { serverNameFromFile } from '../catalog/load.js';
import { memoKey } from '../memo.js';
import {
  getMap,
  getNode,
  getScalar,
  getSeq,
  isMap,
  toValue,
  type MapNode,
  type Node,
  type ScalarNode,
} from '../parse/nodes.js';
import { closest } from '../text/suggest.js';
import type { DocumentContext } from '../context.js';

interface ServerDecl {
  name: string;
  /**
   * The MCP revision the tools were listed under, as the file records it (a snapshot's
   * `fetched.protocolVersion`, a capture's `protocolVersion`); undefined when it does not say.
   */
  revision?: string;
  /**
   * The server's capabilities, when the file records them (a snapshot's `fetched.capabilities`, a
   * capture's `serverCapabilities`); undefined when it does not say, which is not "none".
   */
  capabilities?: unknown;
  /** The `name` (snapshot) or `server` (capture) scalar; absent for a server named after its file. */
  nameNode?: ScalarNode;
  node: MapNode;
  tools: ToolDecl[];
  namespaces: NamespaceDecl[];
}

interface NamespaceDecl {
  name?: string;
  nameNode?: ScalarNode;
  node: MapNode;
  server: ServerDecl;
  tools: ToolDecl[];
}

export interface ToolDecl {
  node: MapNode;
  /** The name when it is a string. */
  name?: string;
  nameNode?: ScalarNode;
  server: ServerDecl;
  /** Set for a dynamic tool. */
  namespace?: NamespaceDecl;
}

export interface CatalogDeclarations {
  servers: ServerDecl[];
  /** Every tool, listed and dynamic, in document order. */
  tools: ToolDecl[];
}

const declarationsKey = memoKey<CatalogDeclarations>('catalog/declarations');

export function catalogDeclarationsOf(ctx: DocumentContext): CatalogDeclarations {
  return ctx.memo.get(declarationsKey, () => readDeclarations(ctx));
}

function readDeclarations(ctx: DocumentContext): CatalogDeclarations {
  const root = ctx.doc.root;
  const servers: ServerDecl[] = [];
  if (isMap(root)) {
    if (getScalar(root, 'catalog')?.value === 1) {
      for (const item of getSeq(root, 'servers')?.items ?? []) {
        if (!isMap(item)) continue;
        const nameNode = getScalar(item, 'name');
        const server = readServer(item, typeof nameNode?.value === 'string' ? nameNode.value : '', nameNode);
        const fetched = getMap(item, 'fetched');
        const revision = getScalar(fetched, 'protocolVersion')?.value;
        if (typeof revision === 'string') server.revision = revision;
        const capabilities = getNode(fetched, 'capabilities') ?? getNode(fetched, 'serverCapabilities');
        if (capabilities) server.capabilities = toValue(capabilities);
        servers.push(server);
      }
    } else {
      const nameNode = getScalar(root, 'server');
      const name = typeof nameNode?.value === 'string' ? nameNode.value : serverNameFromFile(ctx.file.path);
      const server = readServer(root, name, typeof nameNode?.value === 'string' ? nameNode : undefined);
      const revision = getScalar(root, 'protocolVersion')?.value;
      if (typeof revision === 'string') server.revision = revision;
      const capabilities = getNode(root, 'serverCapabilities');
      if (capabilities) server.capabilities = toValue(capabilities);
      servers.push(server);
    }
  }
  const tools = servers.flatMap((s) => [...s.tools, ...s.namespaces.flatMap((n) => n.tools)]);
  tools.sort((a, b) => a.node.span.start - b.node.span.start);
  return { servers, tools };
}

function readServer(node: MapNode, name: string, nameNode: ScalarNode | undefined): ServerDecl {
  const server: ServerDecl = { name, node, tools: [], namespaces: [], ...(nameNode ? { nameNode } : {}) };
  server.tools = readTools(getSeq(node, 'tools')?.items ?? [], server, undefined);
  for (const item of getSeq(node, 'namespaces')?.items ?? []) {
    if (!isMap(item)) continue;
    const nsName = getScalar(item, 'name');
    const namespace: NamespaceDecl = {
      node: item,
      server,
      tools: [],
      ...(nsName ? { nameNode: nsName } : {}),
      ...(typeof nsName?.value === 'string' ? { name: nsName.value } : {}),
    };
    namespace.tools = readTools(getSeq(item, 'tools')?.items ?? [], server, namespace);
    server.namespaces.push(namespace);
  }
  return server;
}

function readTools(items: readonly Node[], server: ServerDecl, namespace: NamespaceDecl | undefined): ToolDecl[] {
  const out: ToolDecl[] = [];
  for (const node of items) {
    if (!isMap(node)) continue;
    const nameNode = getScalar(node, 'name');
    out.push({
      node,
      server,
      ...(namespace ? { namespace } : {}),
      ...(nameNode ? { nameNode } : {}),
      ...(typeof nameNode?.value === 'string' ? { name: nameNode.value } : {}),
    });
  }
  return out;
}

/** The 2026-07-28 MCP revision: `execution` removed, any outputSchema root, `x-mcp-header`. */
export const REVISION_2026 = '2026-07-28';

/**
 * Whether the revision a server's tools were listed under is `revision` or a later one; undefined
 * when the file does not record it. Revisions are dates, so they compare as strings.
 */
export function revisionAtLeast(server: ServerDecl, revision: string): boolean | undefined {
  if (server.revision === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(server.revision)) return undefined;
  return server.revision >= revision;
}

/** `"read_file" of server "filesystem"`, or `"applet_create" in namespace "applets" of server "agent"`. */
export function describeTool(tool: ToolDecl): string {
  const name = tool.name !== undefined ? `"${tool.name}"` : 'this tool';
  const server = tool.server.name ? ` of server "${tool.server.name}"` : '';
  if (tool.namespace) return `dynamic tool ${name} in namespace "${tool.namespace.name ?? ''}"${server}`;
  return `tool ${name}${server}`;
}

// ---- the fields of an MCP Tool ------------------------------------------------------------------

export const TOOL_FIELDS = [
  'name',
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
  'icons',
  'execution',
  '_meta',
] as const;

/** Other formats' spellings of the same fields: Anthropic's `input_schema`, OpenAI's `parameters`... */
const TOOL_FIELD_SYNONYMS: Record<string, string> = {
  input_schema: 'inputSchema',
  parameters: 'inputSchema',
  params: 'inputSchema',
  schema: 'inputSchema',
  input: 'inputSchema',
  inputs: 'inputSchema',
  arguments: 'inputSchema',
  output_schema: 'outputSchema',
  output: 'outputSchema',
  returns: 'outputSchema',
  annotation: 'annotations',
  hints: 'annotations',
  meta: '_meta',
  metadata: '_meta',
  icon: 'icons',
  displayName: 'title',
  display_name: 'title',
  label: 'title',
  desc: 'description',
  summary: 'description',
};

export const FOREIGN_TOOL_FIELDS: Record<string, string> = {
  input_schema: "(the Anthropic API's spelling)",
  parameters: '(the OpenAI function-calling spelling)',
};

/** The field an unknown tool key most likely means, if any. */
export function suggestToolField(key: string): string | undefined {
  return closest(key, TOOL_FIELDS, { synonyms: TOOL_FIELD_SYNONYMS });
}

// ---- the fields of ToolAnnotations ----------------------------------------------------------------

/** The keys of MCP's ToolAnnotations, in every revision that has them. */
export const ANNOTATION_FIELDS = [
  'title',
  'readOnlyHint',
  'destructiveHint',
  'idempotentHint',
  'openWorldHint',
] as const;

const ANNOTATION_SYNONYMS: Record<string, string> = {
  readonly: 'readOnlyHint',
  readOnly: 'readOnlyHint',
  read_only: 'readOnlyHint',
  read_only_hint: 'readOnlyHint',
  destructive: 'destructiveHint',
  destructive_hint: 'destructiveHint',
  idempotent: 'idempotentHint',
  idempotent_hint: 'idempotentHint',
  openWorld: 'openWorldHint',
  open_world: 'openWorldHint',
  open_world_hint: 'openWorldHint',
};

/** The ToolAnnotations key an unknown `annotations` key most likely means, if any. */
export function suggestAnnotationField(key: string): string | undefined {
  return closest(key, ANNOTATION_FIELDS, { synonyms: ANNOTATION_SYNONYMS });
}
