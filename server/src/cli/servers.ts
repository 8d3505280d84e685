// `tool-lens servers [PATH...]`: every MCP server the repository's client configurations declare,
// in one table (client, name, how it starts, pinned or not) or as JSON for scripts. How it starts
// is the command line or URL as written, with every credential Tool Lens recognises (and every
// header value) masked: the listing is safe to paste into an issue.
import { resolve } from 'node:path';
import { documentContext } from '../core/context.js';
import { fetchedBy } from '../core/model/clientLaunch.js';
import { clientViewOf } from '../core/model/clients.js';
import { secretsOf } from '../core/model/clientSecrets.js';
import { clientOfPath } from '../core/parse/clients.js';
import { getNode, isScalar, isSeq, type Node } from '../core/parse/nodes.js';
import { loadWorkspace, UsageError } from '../node/loader.js';
import type { Palette } from './colors.js';

export interface ServersOptions {
  paths: string[];
  cwd: string;
  configPath?: string;
  log: (message: string) => void;
}

export interface ServerRow {
  /** The client whose file declares it; null for a file recognised by content only. */
  client: string | null;
  name: string;
  path: string;
  line: number;
  transport: 'stdio' | 'remote' | 'unknown';
  /** The command line or URL as written, credentials masked. */
  start: string;
  /** `pinned`: everything it fetches has a version; `unpinned`: something does not; `n/a`: it fetches nothing (a local command, a URL). */
  pinned: 'pinned' | 'unpinned' | 'n/a';
  /**
   * Where another client configures a server of the same name to run something else (another
   * command, arguments, package version or URL); definitions that differ only in each client's
   * variable syntax are the same.
   */
  differsFrom: { client: string | null; path: string; line: number }[];
}

const MASK = '***';

export function serverRows(options: ServersOptions): ServerRow[] {
  const loaded = loadWorkspace({
    paths: options.paths,
    cwd: options.cwd,
    configPath: options.configPath,
    log: options.log,
  });
  if (loaded.configProblems.length > 0) {
    throw new UsageError(`the configuration ${loaded.configPath ?? ''} has problems; \`tool-lens check\` lists them`);
  }
  const rows: ServerRow[] = [];
  for (const file of loaded.files) {
    for (const doc of file.documents) {
      if (doc.kind !== 'mcp-servers') continue;
      const ctx = documentContext(file, doc, loaded.workspace);
      const secrets = secretsOf(ctx);
      const client = clientOfPath(file.path)?.label ?? null;
      for (const server of clientViewOf(ctx).servers) {
        const masked = new Set<Node>(secrets.filter((s) => s.server === server).map((s) => s.node));
        const show = (node: Node | undefined): string | undefined =>
          isScalar(node) && node.value !== null ? (masked.has(node) ? MASK : String(node.value)) : undefined;
        const command = show(getNode(server.entry, 'command'));
        const url = show(
          getNode(server.entry, 'url') ?? getNode(server.entry, 'httpUrl') ?? getNode(server.entry, 'serverUrl'),
        );
        const args = getNode(server.entry, 'args');
        const argv = isSeq(args) ? args.items.map((item) => show(item) ?? '?') : [];
        const fetched = fetchedBy(server.entry);
        const line = file.source.positionAt(server.pair.key.span.start).line + 1;
        rows.push({
          client,
          name: server.name,
          path: relativeTo(options.cwd, file.path),
          line,
          transport: command !== undefined ? 'stdio' : url !== undefined ? 'remote' : 'unknown',
          start: command !== undefined ? [command, ...argv].map(quoteWord).join(' ') : (url ?? ''),
          pinned: fetched.length === 0 ? 'n/a' : fetched.every((f) => f.pinned) ? 'pinned' : 'unpinned',
          differsFrom: [],
        });
      }
    }
  }
  markDifferences(rows);
  return rows;
}

/**
 * A start line as what runs: every variable reference written one way (`${env:X}`, `${X}`, `$X`
 * are all `$X`), and a path from the workspace folder written one way (`${workspaceFolder}/a`,
 * `./a` and `a` are the same file, since the clients start a local server in the workspace folder).
 */
function sameness(row: ServerRow): string {
  return row.start
    .replace(/'/g, '')
    .replace(/\$\{workspaceFolder\}\//g, '')
    .replace(/(^|\s)\.\//g, '$1')
    .replace(
      /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (_, a, b) => `$${a ?? b}`,
    );
}

function markDifferences(rows: ServerRow[]): void {
  const byName = new Map<string, ServerRow[]>();
  for (const row of rows) byName.set(row.name, [...(byName.get(row.name) ?? []), row]);
  for (const group of byName.values()) {
    for (const row of group) {
      row.differsFrom = group
        .filter((other) => other !== row && other.client !== row.client && sameness(other) !== sameness(row))
        .map((other) => ({ client: other.client, path: other.path, line: other.line }));
    }
  }
}

function relativeTo(cwd: string, path: string): string {
  const base = resolve(cwd);
  const full = resolve(cwd, path);
  return full.startsWith(`${base}/`) ? full.slice(base.length + 1) : path;
}

/** A word of a command line as a shell would need it to read back the same. */
function quoteWord(word: string): string {
  return word === MASK || /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function formatServersJson(rows: readonly ServerRow[]): string {
  return `${JSON.stringify({ version: 1, servers: rows }, null, 2)}\n`;
}

export function formatServersTable(rows: readonly ServerRow[], colors: Palette): string {
  const header = ['CLIENT', 'NAME', 'PINNED', 'STARTS', 'FILE'];
  const cells = rows.map((r) => [
    r.client ?? '(by content)',
    r.name,
    r.pinned,
    r.start,
    `${r.path}:${r.line}${r.differsFrom.length > 0 ? ` (differs from ${r.differsFrom.map((d) => d.client ?? d.path).join(', ')})` : ''}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => Math.min(c[i]!.length, 60))));
  const line = (c: string[]) =>
    c
      .map((cell, i) => (i === c.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const body = cells.map((c) => {
    const text = line(c);
    return c[2] === 'unpinned' ? text.replace(/\bunpinned\b/, colors.yellow('unpinned')) : text;
  });
  return `${[colors.bold(line(header)), ...body].join('\n')}\n`;
}
