// Writes fetched catalogs as `catalog: 1` snapshot files (docs/behaviour.md#catalog-snapshots), the form `tool-lens check`
// reads back. Our own keys come in a fixed order and the tools exactly as the server sent them, so
// fetching an unchanged server again gives the same file apart from the time. A snapshot holds
// what the server said (its tools, and its initialize result: revision, serverInfo, capabilities,
// instructions; a secret of the launch it repeats masked by fetch.ts, and counted in
// `fetched.masked`) and nothing of how it was
// started: no command line, env or headers. It is written only inside the workspace, to a file
// no other server name maps to (`snapshotFileName`).
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Document, parse } from 'yaml';
import { confinedTarget } from '../node/confine.js';
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
      // What the server's initialize result said, as it said it: the checks read the revision, the
      // capabilities (task support) and the instructions, and serverInfo keeps every field.
      const { protocolVersion, serverInfo, capabilities, instructions, masked } = c.fetched;
      if (protocolVersion !== undefined) fetched.protocolVersion = protocolVersion;
      if (serverInfo !== undefined) fetched.serverInfo = serverInfo;
      if (capabilities !== undefined) fetched.capabilities = capabilities;
      if (instructions !== undefined) fetched.instructions = instructions;
      if (masked !== undefined && masked > 0) fetched.masked = masked;
      return { name: c.server, fetched, tools: c.tools };
    }),
  };
}

/** The comment at the top of a YAML snapshot: how and when it was made. */
function snapshotHeader(catalog: FetchedCatalog, source: SnapshotSource = {}): string[] {
  const info = catalog.fetched.serverInfo;
  // serverInfo is kept as sent: only string fields go into the comment, on one line.
  const text = (value: unknown) => (typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '');
  const said = text(info?.name)
    ? ` The server called itself ${text(info?.name)}${text(info?.version) ? ` ${text(info?.version)}` : ''}.`
    : '';
  const from = source.file
    ? ` from its ${source.transport ?? ''}${source.transport ? ' ' : ''}entry in ${source.file}`
    : '';
  const masked = catalog.fetched.masked ?? 0;
  return [
    `Tool catalog of the MCP server "${catalog.server}", written by ${source.writer ?? '`tool-lens catalog fetch`'}${source.generator ? ` (${source.generator})` : ''}`,
    `at ${catalog.fetched.at}${from}.${said}`,
    masked > 0
      ? `The tools are as its tools/list returned them, except that ${masked === 1 ? '1 string' : `${masked} strings`} of what it sent repeated a secret value of its launch, written here as *** (fetched.masked). Fetch again rather than edit by hand.`
      : 'The tools are exactly as its tools/list returned them. Fetch again rather than edit by hand.',
  ];
}

export function renderSnapshot(
  catalogs: readonly FetchedCatalog[],
  format: SnapshotFormat,
  header: readonly string[] = [],
): string {
  const data = snapshotData(catalogs);
  // JSON has no comments: the `fetched` block says when, and that is all a JSON snapshot carries.
  if (format === 'json') return `${JSON.stringify(data, null, 2)}\n`;
  // Written with the YAML 1.1 rules so that strings such as 2025-11-25, yes or 0755 come out
  // quoted and read back as strings by any YAML parser, not only 1.2 ones.
  const doc = new Document(data, { schema: 'yaml-1.1', aliasDuplicateObjects: false });
  if (header.length > 0) doc.commentBefore = header.map((line) => ` ${line}`).join('\n');
  return doc.toString({ lineWidth: 0, indentSeq: true });
}

/**
 * The file a server's snapshot goes to: `fs` -> `fs.catalog.yaml`. Letters, digits, `_`, `-` and
 * `.` are kept (a leading `.` is not, so no name makes a hidden file or `..`); every other byte of
 * the name's UTF-8, `%` included, is written `%XX`, so two names never share a file: `a/b` is
 * `a%2Fb`, `a_b` stays `a_b`. A name whose file name would be longer than 200 characters is cut,
 * and `~` and a digest of the whole name are added (`~` appears no other way). The only clash left
 * is of names that differ in case alone, on a file system that ignores case: the CLI refuses such
 * a pair before it starts anything, and no write replaces a snapshot of another server.
 */
export function snapshotFileName(server: string, format: SnapshotFormat): string {
  let safe = '';
  for (const byte of Buffer.from(server, 'utf8')) {
    const char = String.fromCharCode(byte);
    const kept = /[A-Za-z0-9_-]/.test(char) || (char === '.' && safe !== '');
    safe += kept ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (safe === '') safe = '%';
  if (safe.length > 200)
    safe = `${safe.slice(0, 150).replace(/%[0-9A-F]?$/, '')}~${createHash('sha256').update(server).digest('hex').slice(0, 16)}`;
  return `${safe}.catalog.${format === 'json' ? 'json' : 'yaml'}`;
}

/** Where the snapshot is written and what may not be crossed on the way. */
export interface SnapshotTarget {
  /** The folder the snapshot goes into (created if needed). */
  dir: string;
  /**
   * The workspace: the file's real path (every link resolved) must be inside it, or nothing is
   * written (`OutsideWorkspace`). Default: `dir` itself.
   */
  root?: string;
}

/** A snapshot not written because its file holds the catalog of another server. */
export class SnapshotClash extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotClash';
  }
}

/**
 * Writes one server's snapshot; returns the file's path. Refuses, writing nothing, when the file
 * would land outside the workspace (a link on the way) or when it exists and holds the catalog of
 * other servers only (a name that differs in case, on a file system that ignores case).
 */
export function writeSnapshot(
  target: string | SnapshotTarget,
  catalog: FetchedCatalog,
  format: SnapshotFormat,
  source: SnapshotSource = {},
): string {
  const { path, real, name } = snapshotTarget(target, catalog.server, format);
  mkdirSync(dirname(real), { recursive: true });
  const text = renderSnapshot([catalog], format, format === 'yaml' ? snapshotHeader(catalog, source) : []);
  // Through a new temporary file (never an existing one, nor a link: `wx`), so a checker running
  // meanwhile never reads half a snapshot; the rename replaces the entry, never writes through it.
  const temporary = join(dirname(real), `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  writeFileSync(temporary, text, { flag: 'wx' });
  try {
    renameSync(temporary, real);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return path;
}

/**
 * Where the snapshot of `server` would be written (its path, and its real path), or the refusal
 * `writeSnapshot` would give (`OutsideWorkspace`, `SnapshotClash`). Writes nothing (without a
 * workspace, only `dir` is made, to be resolved): the CLI and the editor ask this before they start
 * a server, so a refused write starts nothing either.
 */
export function snapshotTarget(
  target: string | SnapshotTarget,
  server: string,
  format: SnapshotFormat,
): { path: string; real: string; name: string } {
  const { dir, root } = typeof target === 'string' ? { dir: target, root: undefined } : target;
  const name = snapshotFileName(server, format);
  const path = join(dir, name);
  if (root === undefined) mkdirSync(dir, { recursive: true });
  // With a workspace, checked before any folder is made: a link out of it gets no folder either.
  const real = confinedTarget(root ?? dir, path);
  const others = otherServersIn(real, server);
  if (others) {
    throw new SnapshotClash(
      `not writing ${name}: it holds the catalog of ${others.map((n) => `"${n}"`).join(', ')}, not of "${server}" (names that differ only in case share a file where the file system ignores case); rename one of the servers`,
    );
  }
  return { path, real, name };
}

/** The servers a snapshot file already on disk holds, when that is not `server`; undefined otherwise. */
function otherServersIn(path: string, server: string): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined; // not there yet (or unreadable, and the write will say so)
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch {
    return undefined; // not a snapshot we can read: ours to replace
  }
  const servers = typeof data === 'object' && data !== null ? (data as { servers?: unknown }).servers : undefined;
  if (!Array.isArray(servers)) return undefined;
  const names = servers
    .map((s) => (typeof s === 'object' && s !== null ? (s as { name?: unknown }).name : undefined))
    .filter((n): n is string => typeof n === 'string');
  return names.length > 0 && !names.includes(server) ? names : undefined;
}
