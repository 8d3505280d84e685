// Writes fetched catalogs as `catalog: 1` snapshot files (docs/behaviour.md#catalog-snapshots), the form `tool-lens check`
// reads back. Our own keys come in a fixed order and the tools exactly as the server sent them, so
// fetching an unchanged server again gives the same file apart from the time. A snapshot holds
// what the server said and nothing of how it was started: no command line, env or headers.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document } from 'yaml';
import type { FetchedCatalog } from './fetch.js';

export type SnapshotFormat = 'yaml' | 'json';

export interface SnapshotSource {
  /** The config file the server was declared in, relative to the workspace root. */
  file?: string;
  transport?: 'stdio' | 'http' | 'sse';
  /** Who wrote it, e.g. "Tool Lens 0.1.0". */
  generator?: string;
  /** What wrote it; default "`tool-lens catalog fetch`". */
  writer?: string;
}

/** The snapshot as plain data, keys in their written order. */
function snapshotData(catalogs: readonly FetchedCatalog[]): Record<string, unknown> {
  return {
    catalog: 1,
    servers: catalogs.map((c) => {
      const fetched: Record<string, unknown> = { at: c.fetched.at };
      if (c.fetched.protocolVersion !== undefined) fetched.protocolVersion = c.fetched.protocolVersion;
      const info = c.fetched.serverInfo;
      if (info) {
        const serverInfo: Record<string, string> = {};
        for (const key of ['name', 'title', 'version'] as const) if (info[key] !== undefined) serverInfo[key] = info[key]!;
        fetched.serverInfo = serverInfo;
      }
      return { name: c.server, fetched, tools: c.tools };
    }),
  };
}

/** The comment at the top of a YAML snapshot: how and when it was made. */
function snapshotHeader(catalog: FetchedCatalog, source: SnapshotSource = {}): string[] {
  const info = catalog.fetched.serverInfo;
  const said = info?.name ? ` The server called itself ${info.name}${info.version ? ` ${info.version}` : ''}.` : '';
  const from = source.file ? ` from its ${source.transport ?? ''}${source.transport ? ' ' : ''}entry in ${source.file}` : '';
  return [
    `Tool catalog of the MCP server "${catalog.server}", written by ${source.writer ?? '`tool-lens catalog fetch`'}${source.generator ? ` (${source.generator})` : ''}`,
    `at ${catalog.fetched.at}${from}.${said}`,
    'The tools are exactly as its tools/list returned them. Fetch again rather than edit by hand.',
  ];
}

export function renderSnapshot(catalogs: readonly FetchedCatalog[], format: SnapshotFormat, header: readonly string[] = []): string {
  const data = snapshotData(catalogs);
  // JSON has no comments: the `fetched` block says when, and that is all a JSON snapshot carries.
  if (format === 'json') return `${JSON.stringify(data, null, 2)}\n`;
  // Written with the YAML 1.1 rules so that strings such as 2025-11-25, yes or 0755 come out
  // quoted and read back as strings by any YAML parser, not only 1.2 ones.
  const doc = new Document(data, { schema: 'yaml-1.1', aliasDuplicateObjects: false });
  if (header.length > 0) doc.commentBefore = header.map((line) => ` ${line}`).join('\n');
  return doc.toString({ lineWidth: 0, indentSeq: true });
}

/** `fs` → `fs.catalog.yaml`; characters that do not belong in a file name become `_`. */
function snapshotFileName(server: string, format: SnapshotFormat): string {
  let safe = server.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  if (safe === '') safe = '_';
  return `${safe}.catalog.${format === 'json' ? 'json' : 'yaml'}`;
}

/** Writes one server's snapshot into `dir` (created if needed); returns the file's path. */
export function writeSnapshot(dir: string, catalog: FetchedCatalog, format: SnapshotFormat, source: SnapshotSource = {}): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, snapshotFileName(catalog.server, format));
  const text = renderSnapshot([catalog], format, format === 'yaml' ? snapshotHeader(catalog, source) : []);
  // Through a temporary file, so a checker running meanwhile never reads half a snapshot.
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
  return path;
}
