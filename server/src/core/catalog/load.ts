// Reads catalog servers out of a parsed `tool-catalog` document, in its three forms: our snapshot
// (`catalog: 1`), a bare `tools/list` result, and a capture that names its `server` beside `tools`.
import {
  getBoolean,
  getMap,
  getNode,
  getScalar,
  getSeq,
  getString,
  isMap,
  toValue,
  type MapNode,
  type Node,
} from '../parse/nodes.js';
import { baseName } from '../parse/kinds.js';
import type { ToolAnnotations } from '../types.js';
import { HINT_NAMES } from '../types.js';
import type { CatalogServer, CatalogTool, DynamicNamespace } from './model.js';

export function serversFromDocument(path: string, root: Node | null): CatalogServer[] {
  if (!isMap(root)) return [];
  if (getScalar(root, 'catalog')?.value === 1) {
    return (getSeq(root, 'servers')?.items ?? []).filter(isMap).flatMap((server) => {
      const name = getString(server, 'name');
      return name ? [serverFrom(path, name, server)] : [];
    });
  }
  if (getSeq(root, 'tools')) {
    const name = getString(root, 'server') ?? serverNameFromFile(path);
    return [serverFrom(path, name, root)];
  }
  return [];
}

/** `github.tools.json` → `github`; `x.catalog.yaml` → `x`; otherwise the name before the first dot. */
export function serverNameFromFile(path: string): string {
  const name = baseName(path);
  const match = /^(.*?)\.(tools|catalog)\.(jsonc?|ya?ml)$/i.exec(name);
  if (match) return match[1]!;
  return name.replace(/\.(jsonc?|ya?ml)$/i, '');
}

function serverFrom(path: string, name: string, node: MapNode): CatalogServer {
  const nameNode = getScalar(node, 'name') ?? getScalar(node, 'server');
  // A snapshot records the revision under `fetched`, a capture at its root.
  const recorded = getScalar(getMap(node, 'fetched'), 'protocolVersion') ?? getScalar(node, 'protocolVersion');
  const revision = typeof recorded?.value === 'string' ? recorded.value : undefined;
  const toolsFrom = (items: Node[], namespace: string | undefined) => toolsOf(path, name, items, namespace, revision);
  const tools = toolsFrom(getSeq(node, 'tools')?.items ?? [], undefined);
  const namespaces: DynamicNamespace[] = [];
  for (const item of getSeq(node, 'namespaces')?.items ?? []) {
    if (!isMap(item)) continue;
    const nsName = getString(item, 'name');
    if (nsName === undefined) continue;
    namespaces.push({
      name: nsName,
      server: name,
      external: getBoolean(item, 'external') ?? false,
      status: getString(item, 'status') ?? 'ready',
      tools: toolsFrom(getSeq(item, 'tools')?.items ?? [], nsName),
      origin: { file: path, span: (getScalar(item, 'name') ?? item).span },
    });
  }
  const fetched = getNode(node, 'fetched');
  const fetchedAt = isMap(fetched) ? getScalar(fetched, 'at')?.value : undefined;
  const server: CatalogServer = {
    name,
    tools,
    namespaces,
    origin: { file: path, span: (nameNode ?? node).span },
    fetchedAt: fetchedAt === undefined || fetchedAt === null ? undefined : String(fetchedAt),
  };
  // A snapshot keeps the initialize result under `fetched`; a capture keeps it beside `tools`.
  const facts = isMap(fetched) ? fetched : node;
  const protocolVersion = getString(facts, 'protocolVersion');
  if (protocolVersion !== undefined) server.protocolVersion = protocolVersion;
  const serverInfo = recordAt(facts, 'serverInfo');
  if (serverInfo) server.serverInfo = serverInfo;
  const capabilities = recordAt(facts, isMap(fetched) ? 'capabilities' : 'serverCapabilities');
  if (capabilities) server.capabilities = capabilities;
  const instructions = getString(facts, 'instructions');
  if (instructions !== undefined) server.instructions = instructions;
  return server;
}

function recordAt(node: MapNode, key: string): Record<string, unknown> | undefined {
  const map = getMap(node, key);
  return map ? (toValue(map) as Record<string, unknown>) : undefined;
}

function toolsOf(
  path: string,
  server: string,
  items: Node[],
  namespace: string | undefined,
  revision: string | undefined,
): CatalogTool[] {
  const tools: CatalogTool[] = [];
  for (const item of items) {
    if (!isMap(item)) continue;
    const name = getString(item, 'name');
    if (name === undefined) continue;
    const inputSchema = getNode(item, 'inputSchema');
    const outputSchema = getNode(item, 'outputSchema');
    const taskSupport = getScalar(getMap(item, 'execution'), 'taskSupport')?.value;
    tools.push({
      name,
      server,
      title: getString(item, 'title'),
      description: getString(item, 'description'),
      inputSchema: inputSchema ? toValue(inputSchema) : undefined,
      outputSchema: outputSchema ? toValue(outputSchema) : undefined,
      annotations: annotationsFrom(getMap(item, 'annotations')),
      namespace,
      origin: { file: path, span: (getScalar(item, 'name') ?? item).span },
      ...(revision !== undefined ? { revision } : {}),
      ...(typeof taskSupport === 'string' ? { taskSupport } : {}),
    });
  }
  return tools;
}

export function annotationsFrom(node: MapNode | undefined): ToolAnnotations | undefined {
  if (!node) return undefined;
  const out: ToolAnnotations = {};
  const title = getString(node, 'title');
  if (title !== undefined) out.title = title;
  for (const hint of HINT_NAMES) {
    const value = getBoolean(node, hint);
    if (value !== undefined) out[hint] = value;
  }
  return out;
}
