// `tool-lens servers [PATH...]`: every MCP server the repository's client configs declare, in one
// table (client, name, how it starts, pinned or not) or as JSON for scripts. The files are found
// as `check` finds its files (node/loader.ts discoverWorkspace: the same workspace, walk and
// ignored folders), plus Codex's `.codex/config.toml`, which `check` does not read; a file is a
// client config by its path (core/parse/serverEntries.ts), or by its content (an `mcpServers` map
// elsewhere, client unknown). A file `.toollens.yaml` `kinds:` gives another kind is left out.
// No value is expanded, no program looked up, nothing started; secrets are masked as the consent
// line of `catalog fetch` masks them (live/redact.ts), and env and header values are never shown.
// A variable reference (`${input:x}`, `${env:X}`, `$X`, in any client's syntax) names a value and
// holds none: it is shown as written, wherever it stands, and only literal text is masked.
// A server that another client's file of the same project starts differently under the same name
// is marked on both, by the comparison client/differs-across-clients makes (core/catalog/clientServers.ts).
import { statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import {
  readServerFile,
  serverFileKindOf,
  UNKNOWN_CLIENT,
  type ServerEntry,
  type ServerFileKind,
} from '../core/parse/serverEntries.js';
import { runsDifferently, whatRuns, type WhatRuns } from '../core/catalog/clientServers.js';
import { projectFolderOf } from '../core/parse/clients.js';
import { pinOf, type Pin } from '../core/model/clientLaunch.js';
import { parserWords } from '../core/wording/parserWords.js';
import { displayUrl, looksLikeToken, maskedCommandLine, MASK, quoteForDisplay } from '../live/redact.js';
import { discoverWorkspace, readWithin } from '../node/loader.js';
import { toPosix } from '../node/paths.js';
import { walkFolder } from '../node/walk.js';
import type { Palette } from './colors.js';

export interface ServersOptions {
  paths: string[];
  cwd: string;
  configPath?: string;
  log: (message: string) => void;
}

/** One server as `--format json` prints it (docs/behaviour.md, "Listing the servers"). */
export interface ServerRow {
  /** The config file, relative to the current folder, `/`-separated. */
  file: string;
  line: number;
  column: number;
  client: string;
  clientLabel: string;
  name: string;
  transport: 'stdio' | 'http' | 'sse' | 'websocket' | 'none';
  /** The whole start as one line, secrets masked. */
  start: string;
  command?: string;
  args?: string[];
  cwd?: string;
  url?: string;
  /** Names only: values are never printed. */
  env?: string[];
  headers?: string[];
  /** Variables or headers the client fills from its own environment (Codex). */
  fromClientEnv?: string[];
  pinned: Pin['verdict'];
  fetches?: string;
  runner?: string;
  disabled: boolean;
  /** Why a `none` entry starts nothing by itself. */
  note?: string;
  /**
   * The servers of the same name that another client of the same project starts differently
   * (another command, arguments, package version, transport or URL). Definitions that differ only
   * in each client's variable syntax, or in how they write a path from the project folder, are the same.
   */
  differsFrom: ServerPlace[];
}

/** Where another definition of a server is. */
export interface ServerPlace {
  client: string;
  clientLabel: string;
  file: string;
  line: number;
}

export interface ServerFileRow {
  file: string;
  client: string;
  clientLabel: string;
  servers: number;
  /** Why the file, or its servers key, could not be read; absent when it could. */
  problem?: string;
}

export interface ServersReport {
  servers: ServerRow[];
  files: ServerFileRow[];
}

const CODEX_FILE = /(^|\/)\.codex\/config\.toml$/i;

export function listServers(options: ServersOptions): ServersReport {
  const cwd = resolve(options.cwd);
  const discovered = discoverWorkspace({ paths: options.paths, cwd, configPath: options.configPath, log: options.log });
  if (discovered.configProblems.length > 0)
    options.log(
      'the configuration has problems (`tool-lens check` lists them); its `kinds` are read as far as they can be',
    );
  const files = new Set(discovered.targets);
  // `check` reads no TOML: Codex's files are found by the same walk rules.
  for (const path of options.paths.length ? options.paths : ['.']) {
    const absolute = resolve(cwd, path);
    if (!statSync(absolute).isDirectory()) continue;
    const walk = walkFolder(absolute, {
      ignoredDirs: ['node_modules', '.git'],
      wanted: (rel) => CODEX_FILE.test(toPosix(join(absolute, rel))),
    });
    for (const file of walk.files) files.add(file.path);
  }
  const report: ServersReport = { servers: [], files: [] };
  const compared = new Map<ServerRow, Compared>();
  for (const absolute of [...files].sort()) {
    const shown = toPosix(relative(cwd, absolute)) || absolute;
    const forced = discovered.workspace.forcedKind(absolute);
    if (forced !== null && forced !== 'mcp-servers') continue;
    let kind: ServerFileKind | undefined = serverFileKindOf(toPosix(absolute));
    let text: string;
    try {
      const read = readWithin(absolute, discovered.workspace.limits.fileBytes);
      if (read.bytes !== undefined) {
        if (kind) failed(report, options, shown, kind, `it is larger than the ${read.bytes}-byte limit`);
        continue;
      }
      text = read.text;
    } catch (error) {
      if (kind)
        failed(
          report,
          options,
          shown,
          kind,
          `cannot be read (${error instanceof Error ? error.message : String(error)})`,
        );
      continue;
    }
    if (!kind) {
      // Only a file that names `mcpServers` can be one by its content: the others are not parsed.
      if (
        forced !== 'mcp-servers' &&
        !(text.includes('mcpServers') && byContent(discovered.workspace.parse(absolute, text)))
      )
        continue;
      kind = UNKNOWN_CLIENT;
    }
    const file = readServerFile(absolute, text, kind);
    // The parser's own words for a syntax problem, at its place.
    const problem = file.syntax
      ? `${file.syntax.line}:${file.syntax.column}: ${parserWords(file.syntax.problem)}${file.servers.length ? ' (the servers it could read are listed)' : ''}`
      : file.problem;
    if (problem) options.log(`${shown}${file.syntax ? ':' : ': '}${problem}`);
    report.files.push({
      file: shown,
      client: kind.client,
      clientLabel: kind.label,
      servers: file.servers.length,
      ...(problem ? { problem } : {}),
    });
    for (const entry of file.servers) {
      const row = rowOf(shown, kind, entry);
      report.servers.push(row);
      compared.set(row, { runs: whatRuns(entry, kind.client), project: projectFolderOf(shown, kind.path) });
    }
  }
  markDifferences(report.servers, compared);
  return report;
}

/** What a row runs (undefined: nothing by itself) and the project folder its file belongs to. */
interface Compared {
  runs: WhatRuns | undefined;
  project: string;
}

/** Two files of unknown client are two clients; two files of one client are its one view. */
function otherClient(a: ServerRow, b: ServerRow): boolean {
  return a.client !== b.client || (a.client === UNKNOWN_CLIENT.client && a.file !== b.file);
}

function markDifferences(rows: ServerRow[], compared: ReadonlyMap<ServerRow, Compared>): void {
  const byName = new Map<string, ServerRow[]>();
  for (const row of rows) byName.set(row.name, [...(byName.get(row.name) ?? []), row]);
  const differ = (a: ServerRow, b: ServerRow) => {
    const x = compared.get(a);
    const y = compared.get(b);
    if (!x?.runs || !y?.runs || x.project !== y.project || !otherClient(a, b)) return false;
    return runsDifferently(x.runs, y.runs).length > 0;
  };
  for (const group of byName.values()) {
    for (const row of group) {
      row.differsFrom = group
        .filter((other) => other !== row && differ(row, other))
        .map((other) => ({
          client: other.client,
          clientLabel: other.clientLabel,
          file: other.file,
          line: other.line,
        }));
    }
  }
}

function byContent(parsed: { documents: readonly { kind: string | null }[] }): boolean {
  return parsed.documents.some((doc) => doc.kind === 'mcp-servers');
}

function failed(
  report: ServersReport,
  options: ServersOptions,
  file: string,
  kind: ServerFileKind,
  problem: string,
): void {
  options.log(`${file}: ${problem}`);
  report.files.push({ file, client: kind.client, clientLabel: kind.label, servers: 0, problem });
}

function words(values: readonly unknown[]): string[] {
  // A number or boolean means its text; anything else in a command line is no word a client passes.
  return values.map((value) =>
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : '<not a string>',
  );
}

function rowOf(file: string, kind: ServerFileKind, entry: ServerEntry): ServerRow {
  const base = {
    file,
    line: entry.line,
    column: entry.column,
    client: kind.client,
    clientLabel: kind.label,
    name: entry.name,
    disabled: entry.disabled,
    differsFrom: [] as ServerPlace[],
  };
  const start = entry.start;
  const refs = new References();
  if (start.transport === 'stdio') {
    const args = words(start.args);
    // Masked with each reference set aside, so that `--token ${input:token}` shows the reference.
    const shown = (command: string, argv: readonly string[]) => {
      const masked = maskedCommandLine(refs.hide(command), argv.map(refs.hide), refs.keep);
      return { command: refs.show(masked.command), args: masked.args.map(refs.show) };
    };
    const masked = shown(start.command, args);
    const pin = pinOf(start.command, args);
    const env = Object.keys(start.env);
    return {
      ...base,
      transport: 'stdio',
      start: [masked.command, ...masked.args].map(quoteForDisplay).join(' '),
      command: masked.command,
      args: masked.args,
      ...(start.cwd === undefined ? {} : { cwd: shown(start.cwd, []).command }),
      ...(env.length ? { env } : {}),
      ...(start.envFromClient.length ? { fromClientEnv: start.envFromClient } : {}),
      pinned: pin.verdict,
      ...(pin.fetches === undefined ? {} : { fetches: shown(pin.fetches, []).command, runner: pin.runner }),
    };
  }
  if (start.transport === 'none') return { ...base, transport: 'none', start: '', pinned: 'n/a', note: start.why };
  const hidden = refs.hide(start.url);
  // A URL that is one reference (`${input:server-url}`) is shown as it is; another that does not parse is masked whole.
  const url = refs.keep(hidden) ? start.url : refs.show(displayUrl(hidden, MASK, refs.keep));
  const headers = Object.keys(start.headers);
  const fromClient = Object.keys(start.headersFromClient);
  return {
    ...base,
    transport: start.transport,
    start: `${start.transport} ${url}`,
    url,
    ...(headers.length ? { headers } : {}),
    ...(fromClient.length ? { fromClientEnv: Object.values(start.headersFromClient) } : {}),
    pinned: 'n/a',
  };
}

/**
 * A variable reference in any client's syntax: `${{ secrets.X }}` / `${{ inputs.X }}` (Continue),
 * `${env:X}`, `${input:id}`, `${X}`, `${process.env.X}`, `${X:-default}`, and `$X` in capitals.
 */
const REFERENCE =
  /\$\{\{\s*(?:secrets|inputs)\.[\w.-]+\s*\}\}|\$\{(?:(?:env|input):)?[A-Za-z_][\w.-]*\}|\$\{[A-Za-z_]\w*:-([^{}]*)\}|\$[A-Z_][A-Z0-9_]*/g;
/** What stands for a reference while a value is masked: plain lower-case letters, which no masking rule takes for a secret. */
const HOLDER = /tlref[a-j]+z/g;

/**
 * The references of one entry's values, set aside while the values are masked: `hide` puts a
 * holder in the place of each, `keep` says a value is references only (masked nowhere: it names
 * values, it holds none), `show` puts the references back. A `${X:-default}` whose default looks
 * like a credential is no reference here: its default is literal text, masked as any other.
 */
class References {
  private readonly written = new Map<string, string>();

  readonly hide = (text: string): string =>
    text.replace(REFERENCE, (ref: string, fallback: string | undefined) => {
      if (fallback !== undefined && (looksLikeToken(fallback) || /[@:/]/.test(fallback))) return ref;
      const holder = `tlref${[...String(this.written.size)].map((d) => 'abcdefghij'[Number(d)]).join('')}z`;
      this.written.set(holder, ref);
      return holder;
    });

  readonly keep = (value: string): boolean => {
    const holders = value.match(HOLDER) ?? [];
    return holders.length > 0 && holders.every((h) => this.written.has(h)) && value.replace(HOLDER, '').trim() === '';
  };

  readonly show = (text: string): string => text.replace(HOLDER, (holder) => this.written.get(holder) ?? holder);
}

/** Every server in one aligned table, then the files that could not be read. */
export function formatServersTable(report: ServersReport, colors: Palette): string {
  const head = ['CLIENT', 'NAME', 'STARTS', 'PINNED', 'FILE'];
  const rows: string[][] = [];
  // File by file, in the order they were read: a file that gave no server shows why in its place.
  for (const file of report.files) {
    for (const row of report.servers) {
      if (row.file !== file.file) continue;
      rows.push([
        row.clientLabel,
        row.name,
        row.transport === 'none' ? `(nothing: ${row.note ?? ''})` : row.start + (row.disabled ? ' (disabled)' : ''),
        row.pinned === 'n/a' ? '-' : row.pinned === 'pinned' ? 'yes' : 'no',
        `${row.file}:${row.line}${row.differsFrom.length > 0 ? ` (differs from ${differing(row.differsFrom)})` : ''}`,
      ]);
    }
    if (file.problem && file.servers === 0)
      rows.push([file.clientLabel, '-', `(file: ${file.problem})`, '-', file.file]);
  }
  if (rows.length === 0) return '';
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  // The last column is not padded: no trailing blanks.
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  return [colors.bold(line(head)), ...rows.map(line)].join('\n') + '\n';
}

/** The clients a row differs from, each named once. */
function differing(places: readonly ServerPlace[]): string {
  return [...new Set(places.map((p) => (p.client === UNKNOWN_CLIENT.client ? p.file : p.clientLabel)))].join(', ');
}

export function formatServersJson(report: ServersReport): string {
  return JSON.stringify({ version: 1, servers: report.servers, files: report.files }, null, 2) + '\n';
}
