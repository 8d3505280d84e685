// The catalog index: every server the workspace's snapshot files describe. When two files
// describe the same server, the first one added wins and the clash is remembered for the
// catalog rules; the workspace adds files in a stable (sorted) order.
import type { ParsedFile } from '../parse/file.js';
import { serversFromDocument } from './load.js';
import type { CatalogServer, CatalogTool, DynamicNamespace } from './model.js';

export class CatalogIndex {
  private readonly servers = new Map<string, CatalogServer>();
  private readonly byFile = new Map<string, string[]>();
  /** Every server name each file describes, those an earlier file already gave included. */
  private readonly describedByFile = new Map<string, string[]>();
  /** Workload name (as workflows write it) → catalog server name, from `.toollens.yaml`. A Map: a workload may be called `constructor`. */
  private workloads = new Map<string, string>();

  /** What `derived` computed from the catalog as it is now; emptied by every change. */
  private readonly cache = new Map<object, unknown>();

  setWorkloads(workloads: Record<string, string>): void {
    this.workloads = new Map(Object.entries(workloads));
    this.cache.clear();
    revisions.delete(this);
  }

  /** A value computed from this catalog once, until the catalog changes (a file is added or removed, the workloads mapping is set). */
  derived<T>(key: object, compute: (catalog: CatalogIndex) => T): T {
    if (this.cache.has(key)) return this.cache.get(key) as T;
    const value = compute(this);
    this.cache.set(key, value);
    return value;
  }

  /**
   * Adds (or replaces) the servers that one catalog file describes. `named`: a catalog glob names
   * the file, so every document of it is read as a catalog whatever its content looks like.
   */
  addFile(file: ParsedFile, options: { named?: boolean } = {}): void {
    this.removeFile(file.path);
    const names: string[] = [];
    const described: string[] = [];
    for (const doc of file.documents) {
      if (doc.kind !== 'tool-catalog' && !options.named) continue;
      for (const server of serversFromDocument(file.path, doc.root)) {
        described.push(server.name);
        if (this.servers.has(server.name)) continue;
        this.servers.set(server.name, server);
        names.push(server.name);
      }
    }
    this.byFile.set(file.path, names);
    this.describedByFile.set(file.path, described);
    this.cache.clear();
    revisions.delete(this);
  }

  removeFile(path: string): void {
    for (const name of this.byFile.get(path) ?? []) this.servers.delete(name);
    this.byFile.delete(path);
    this.describedByFile.delete(path);
    this.cache.clear();
    revisions.delete(this);
  }

  /** The server names a file of the catalog describes, in its order, shadowed ones included (the CLI's cache keeps them). */
  describedBy(path: string): readonly string[] | undefined {
    return this.describedByFile.get(path);
  }

  hasFile(path: string): boolean {
    return this.byFile.has(path);
  }

  get files(): string[] {
    return [...this.byFile.keys()];
  }

  get serverNames(): string[] {
    return [...this.servers.keys()].sort();
  }

  get size(): number {
    return this.servers.size;
  }

  /** The server behind a workload name (through the `workloads` mapping when one is given). */
  server(workload: string): CatalogServer | undefined {
    return this.servers.get(this.workloads.get(workload) ?? workload);
  }

  serverName(workload: string): string {
    return this.workloads.get(workload) ?? workload;
  }

  /** Workload names to consider when no gateway lists its backends: every catalogued server, plus mapped aliases. */
  get workloadNames(): string[] {
    const mappedServers = new Set(this.workloads.values());
    const names = new Set<string>([...this.workloads].filter(([, server]) => this.servers.has(server)).map(([w]) => w));
    for (const name of this.servers.keys()) if (!mappedServers.has(name)) names.add(name);
    return [...names].sort();
  }

  tool(workload: string, name: string): CatalogTool | undefined {
    const server = this.server(workload);
    return server && listedToolOf(server, name);
  }

  namespace(workload: string, name: string): DynamicNamespace | undefined {
    const server = this.server(workload);
    return server && lookupsOf(server).namespaces.get(name);
  }

  /** The namespaces of a server that hold a dynamic tool of this name. */
  dynamicHomes(workload: string, toolName: string): DynamicNamespace[] {
    const server = this.server(workload);
    return (server && lookupsOf(server).homes.get(toolName)) ?? [];
  }
}

// Kept beside the index rather than in it: reading the token consults nothing of the catalog (the
// CLI's cache records every look-up a check makes through a proxy of the index, cli/cache.ts).
const revisions = new WeakMap<CatalogIndex, object>();

/**
 * A token for the catalog as it is: the same object until a file is added or removed or the
 * workloads mapping is set, then another (Workspace.revision).
 */
export function catalogRevision(catalog: CatalogIndex): object {
  let token = revisions.get(catalog);
  if (!token) revisions.set(catalog, (token = {}));
  return token;
}

/**
 * A server's tools and namespaces by name, made on first use: a reference is a look-up, not a
 * walk over a catalog that may list thousands of tools (every step or call asks).
 */
interface ServerLookups {
  /** The first listed tool of each name. */
  tools: Map<string, CatalogTool>;
  /** The first namespace of each name. */
  namespaces: Map<string, DynamicNamespace>;
  /** The namespaces that hold a dynamic tool of each name, in order. */
  homes: Map<string, DynamicNamespace[]>;
  /** The namespaces with a non-blank name. */
  named: DynamicNamespace[];
  /** `ns/tool` and `ns.tool` (the runtime's own identity of a dynamic tool) → the first namespace and tool they name. */
  qualified: Map<string, { namespace: DynamicNamespace; toolName: string }>;
}

const serverLookups = new WeakMap<CatalogServer, ServerLookups>();

function lookupsOf(server: CatalogServer): ServerLookups {
  let lookups = serverLookups.get(server);
  if (lookups) return lookups;
  const tools = new Map<string, CatalogTool>();
  for (const tool of server.tools) if (!tools.has(tool.name)) tools.set(tool.name, tool);
  const namespaces = new Map<string, DynamicNamespace>();
  const homes = new Map<string, DynamicNamespace[]>();
  for (const ns of server.namespaces) {
    if (!namespaces.has(ns.name)) namespaces.set(ns.name, ns);
    const names = new Set(ns.tools.map((t) => t.name));
    for (const name of names) {
      const list = homes.get(name);
      if (list) list.push(ns);
      else homes.set(name, [ns]);
    }
  }
  const named = server.namespaces.filter((ns) => ns.name.trim() !== '');
  const qualified = new Map<string, { namespace: DynamicNamespace; toolName: string }>();
  for (const namespace of named) {
    for (const separator of ['/', '.']) {
      for (const tool of namespace.tools) {
        const key = namespace.name + separator + tool.name;
        if (!qualified.has(key)) qualified.set(key, { namespace, toolName: tool.name });
      }
    }
  }
  lookups = { tools, namespaces, homes, named, qualified };
  serverLookups.set(server, lookups);
  return lookups;
}

/** The tool a server lists under this name (the first, when a snapshot lists a name twice). */
export function listedToolOf(server: CatalogServer, name: string): CatalogTool | undefined {
  return lookupsOf(server).tools.get(name);
}

const toolNames = new WeakMap<CatalogServer, string[]>();

/** The names of a server's listed tools, in order (made once per server). */
export function toolNamesOf(server: CatalogServer): readonly string[] {
  let names = toolNames.get(server);
  if (!names) toolNames.set(server, (names = server.tools.map((t) => t.name)));
  return names;
}

/** Whether a server has a namespace with a non-blank name (so its runtime serves the meta tools). */
export function hasNamedNamespace(server: CatalogServer): boolean {
  return lookupsOf(server).named.length > 0;
}

/** A server's namespaces with a non-blank name, in order. */
export function namedNamespacesOf(server: CatalogServer): readonly DynamicNamespace[] {
  return lookupsOf(server).named;
}

/** The namespace of this (non-blank) name, the first when a server lists a name twice. */
export function namespaceOf(server: CatalogServer, name: string): DynamicNamespace | undefined {
  return lookupsOf(server).namespaces.get(name);
}

/** The namespaces of a server that hold a dynamic tool of this name, in order (blank-named ones too). */
export function homesOf(server: CatalogServer, toolName: string): readonly DynamicNamespace[] {
  return lookupsOf(server).homes.get(toolName) ?? [];
}

/** `applets/applet_create` or `applets.applet_create`: the namespace and the dynamic tool they name. */
export function qualifiedDynamicTool(
  server: CatalogServer,
  name: string,
): { namespace: DynamicNamespace; toolName: string } | undefined {
  return lookupsOf(server).qualified.get(name);
}

/** The dynamic tool of this name in a namespace (the first, when it lists a name twice). */
export function namespaceTool(namespace: DynamicNamespace, name: string): CatalogTool | undefined {
  let tools = namespaceTools.get(namespace);
  if (!tools) {
    tools = new Map();
    for (const tool of namespace.tools) if (!tools.has(tool.name)) tools.set(tool.name, tool);
    namespaceTools.set(namespace, tools);
  }
  return tools.get(name);
}

const namespaceTools = new WeakMap<DynamicNamespace, Map<string, CatalogTool>>();
