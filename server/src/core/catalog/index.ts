// The catalog index: every server the workspace's snapshot files describe. When two files
// describe the same server, the first one added wins and the clash is remembered for the
// catalog rules; the workspace adds files in a stable (sorted) order.
import type { ParsedFile } from '../parse/file.js';
import { serversFromDocument } from './load.js';
import type { CatalogServer, CatalogTool, DynamicNamespace } from './model.js';

export class CatalogIndex {
  private readonly servers = new Map<string, CatalogServer>();
  private readonly byFile = new Map<string, string[]>();
  /** Workload name (as workflows write it) → catalog server name, from `.toollens.yaml`. */
  private workloads: Record<string, string> = {};

  setWorkloads(workloads: Record<string, string>): void {
    this.workloads = { ...workloads };
  }

  /**
   * Adds (or replaces) the servers that one catalog file describes. `named`: a catalog glob names
   * the file, so every document of it is read as a catalog whatever its content looks like.
   */
  addFile(file: ParsedFile, options: { named?: boolean } = {}): void {
    this.removeFile(file.path);
    const names: string[] = [];
    for (const doc of file.documents) {
      if (doc.kind !== 'tool-catalog' && !options.named) continue;
      for (const server of serversFromDocument(file.path, doc.root)) {
        if (this.servers.has(server.name)) continue;
        this.servers.set(server.name, server);
        names.push(server.name);
      }
    }
    this.byFile.set(file.path, names);
  }

  removeFile(path: string): void {
    for (const name of this.byFile.get(path) ?? []) this.servers.delete(name);
    this.byFile.delete(path);
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
    return this.servers.get(this.workloads[workload] ?? workload);
  }

  serverName(workload: string): string {
    return this.workloads[workload] ?? workload;
  }

  /** Workload names to consider when no gateway lists its backends: every catalogued server, plus mapped aliases. */
  get workloadNames(): string[] {
    const mappedServers = new Set(Object.values(this.workloads));
    const names = new Set<string>(Object.keys(this.workloads).filter((w) => this.servers.has(this.workloads[w]!)));
    for (const name of this.servers.keys()) if (!mappedServers.has(name)) names.add(name);
    return [...names].sort();
  }

  tool(workload: string, name: string): CatalogTool | undefined {
    return this.server(workload)?.tools.find((t) => t.name === name);
  }

  namespace(workload: string, name: string): DynamicNamespace | undefined {
    return this.server(workload)?.namespaces.find((n) => n.name === name);
  }

  /** The namespaces of a server that hold a dynamic tool of this name. */
  dynamicHomes(workload: string, toolName: string): DynamicNamespace[] {
    return (this.server(workload)?.namespaces ?? []).filter((ns) => ns.tools.some((t) => t.name === toolName));
  }
}
