// `tool-lens catalog fetch [SERVER...]`: starts (or reaches) the MCP servers the workspace's client
// configs declare, lists their tools and writes one snapshot per server into `catalogs/` at the
// workspace root, where `tool-lens check .` picks them up. Running the command is the user's
// consent for the servers it names (all of them when it names none), so each command line is
// printed, secrets masked, before it starts. A snapshot that would land outside the workspace, or
// on another server's file, is refused before its server starts. Exit codes: 0 every server
// fetched, 1 some could not be (or their snapshot not written), 2 usage error, 3 internal error.
import { byCount, counted } from '../core/text/words.js';
import { isAbsolute, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { version as TOOL_VERSION } from '../../../package.json';
import { closest } from '../core/text/suggest.js';
import { FetchError } from '../live/errors.js';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_PAGE_TIMEOUT_MS,
  fetchCatalog,
  type FetchedCatalog,
} from '../live/fetch.js';
import { describeLaunch } from '../live/redact.js';
import { MCP_CONFIG_FILES, readWorkspaceServers, type McpServerEntry } from '../live/servers.js';
import {
  snapshotFileName,
  snapshotTarget,
  writeSnapshot,
  type SnapshotFormat,
  type SnapshotTarget,
} from '../live/snapshot.js';
import type { CatalogIndex } from '../core/catalog/index.js';
import { committedCatalog, compareWithCommitted, formatSnapshotCheck, type SnapshotCheck } from './snapshotCheck.js';

export interface CatalogFetchIo {
  /** The workspace root: its MCP configs are read, and `catalogs/` is written, here. */
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const CATALOG_FETCH_HELP = `Usage: tool-lens catalog fetch [SERVER...] [options]

Starts the MCP servers that the workspace's client configs declare (${MCP_CONFIG_FILES.map((f) => f.path).join(', ')}),
lists their tools, and writes one snapshot per server: catalogs/<server>.catalog.yaml (characters other
than letters, digits, _, - and . written as %XX). With no SERVER,
every server is fetched. Running this command is your consent to start the servers it fetches: each
command line is printed before it runs, the program as an absolute path and the variables that
decide what runs in clear, secrets masked. Nothing is written outside the workspace: a link that
leads catalogs/ (or a snapshot file) out of it is refused. Servers that need \${input:...}, \${env:...}
or envFile values, Gemini's $X, Continue's \${{ secrets.X }} or Codex's env_vars are skipped: Tool Lens
never reads them; a Codex or Zed entry that still holds a variable (those clients expand none) too.

Options:
  --out DIR          folder for the snapshots (default: catalogs, in the current folder)
  --timeout MS       hard limit for starting a server and for each page of its tool list
                     (default: ${DEFAULT_CONNECT_TIMEOUT_MS} ms to start, ${DEFAULT_PAGE_TIMEOUT_MS} ms per page)
  --format yaml|json snapshot format (default: yaml)
  --check            fetch as always, write nothing, and exit 1 with what differs (each
                     field by its path, changed words shown) when a committed snapshot no
                     longer matches its server (a CI gate)
  --list             show the servers and how each would be started; start nothing
  --debug            notes from the MCP client on stderr (secrets masked)

Exit codes: 0 every server fetched, 1 some could not be fetched or written, 2 usage error, 3 internal error.
`;

const OPTIONS = {
  out: { type: 'string' },
  timeout: { type: 'string' },
  format: { type: 'string' },
  list: { type: 'boolean' },
  check: { type: 'boolean' },
  debug: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

class UsageProblem extends Error {}

export async function runCatalogFetch(argv: string[], io: CatalogFetchIo): Promise<number> {
  const say = (line: string): void => io.stderr(`tool-lens: ${line}\n`);
  try {
    return await fetchCommand(argv, io, say);
  } catch (error) {
    if (error instanceof UsageProblem) {
      say(`${error.message} (see tool-lens catalog fetch --help)`);
      return 2;
    }
    say(`internal error: ${error instanceof Error ? error.message : String(error)}`);
    return 3;
  }
}

async function fetchCommand(argv: string[], io: CatalogFetchIo, say: (line: string) => void): Promise<number> {
  // The command may be handed the whole command line or only what follows `catalog fetch`.
  const args = argv[0] === 'catalog' && argv[1] === 'fetch' ? argv.slice(2) : argv;
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageProblem(shortParseMessage(error));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(CATALOG_FETCH_HELP);
    return 0;
  }
  const format = parseFormat(values.format);
  const timeout = values.timeout === undefined ? undefined : parseTimeout(values.timeout);
  const root = resolve(io.cwd);
  const outDir = resolve(root, values.out ?? 'catalogs');
  // Inside the workspace, no link may lead the snapshots out of it (a committed `catalogs` link
  // would choose where they go); a folder you name outside it is yours, and they stay inside that.
  const within = relative(root, outDir);
  const target: SnapshotTarget =
    within === '' || (!within.startsWith('..') && !isAbsolute(within)) ? { dir: outDir, root } : { dir: outDir };

  const workspace = readWorkspaceServers(root);
  for (const problem of workspace.problems) say(`warning: ${problem}`);
  if (workspace.files.length === 0) {
    throw new UsageProblem(
      `no MCP client config in ${root} (looked for ${MCP_CONFIG_FILES.map((f) => f.path).join(', ')})`,
    );
  }
  if (workspace.servers.length === 0)
    throw new UsageProblem(
      `${workspace.files.join(', ')} ${byCount(workspace.files.length, 'declares', 'declare')} no MCP server`,
    );

  const selected = select(workspace.servers, positionals);
  for (const entry of workspace.shadowed) {
    const kept = workspace.servers.find((s) => s.name === entry.name);
    if (kept && selected.includes(kept))
      say(`note: ${entry.name} is also declared in ${where(entry)}; using the one in ${where(kept)}`);
  }

  // Two servers, one file: said before anything starts or is written.
  const byFile = new Map<string, string>();
  for (const entry of selected) {
    if (!entry.launch) continue;
    const file = snapshotFileName(entry.name, format).toLowerCase();
    const other = byFile.get(file);
    if (other !== undefined) {
      throw new UsageProblem(
        `the servers "${other}" and "${entry.name}" would share the snapshot file ${snapshotFileName(entry.name, format)} on a file system that ignores case; rename one of them, or fetch them into different --out folders`,
      );
    }
    byFile.set(file, entry.name);
  }

  if (values.list) {
    for (const entry of selected) {
      const how = entry.launch
        ? describeLaunch(entry.launch)
        : `cannot be fetched: ${entry.blocked?.message ?? 'unknown reason'}`;
      io.stdout(`${entry.name}  ${where(entry)}  ${how}\n`);
    }
    return 0;
  }

  // Ctrl-C stops the server being fetched, and whatever it started, before the command ends.
  const interrupt = new AbortController();
  const onInterrupt = () => interrupt.abort();
  process.once('SIGINT', onInterrupt);
  let fetched = 0;
  const checks: SnapshotCheck[] = [];
  let committed: CatalogIndex | undefined;
  try {
    for (const entry of selected) {
      if (!entry.launch) {
        say(`skipped ${entry.name} (${where(entry)}): ${entry.blocked?.message ?? 'it cannot be fetched'}`);
        continue;
      }
      // A snapshot that could not be written is refused before the server starts (--check writes none).
      try {
        if (!values.check) snapshotTarget(target, entry.name, format);
      } catch (error) {
        say(`${entry.name} not fetched: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      say(
        `${entry.launch.type === 'stdio' ? 'starting' : 'connecting to'} ${entry.name} (${where(entry)}): ${describeLaunch(entry.launch)}`,
      );
      let catalog: FetchedCatalog;
      try {
        catalog = await fetchCatalog(entry, {
          connectTimeoutMs: timeout,
          pageTimeoutMs: timeout,
          log: values.debug ? (line) => say(`debug: ${line}`) : undefined,
          signal: interrupt.signal,
        });
      } catch (error) {
        if (error instanceof FetchError && error.cancelled) {
          say(`interrupted: ${entry.name} was stopped; nothing more is fetched`);
          return INTERRUPTED;
        }
        // fetchCatalog's errors are redacted; anything else carries no launch value either.
        say(`${entry.name} failed: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      if (values.check) {
        committed ??= committedCatalog(root, (line) => say(line));
        const result = compareWithCommitted(root, committed, catalog);
        checks.push(result);
        io.stdout(formatSnapshotCheck(result));
        fetched++;
        continue;
      }
      let path: string;
      try {
        path = writeSnapshot(target, catalog, format, {
          file: entry.declared.file,
          transport: catalog.stats.transport,
          generator: `Tool Lens ${TOOL_VERSION}`,
        });
      } catch (error) {
        say(`${entry.name}: the snapshot was not written: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      const shown = relative(io.cwd, path).replace(/\\/g, '/') || path;
      const { pages, connectMs, listMs } = catalog.stats;
      const protocol = catalog.fetched.protocolVersion ? `, protocol ${catalog.fetched.protocolVersion}` : '';
      say(
        `${entry.name}: ${counted(catalog.tools.length, 'tool')} in ${counted(pages, 'page')} (connect ${connectMs} ms, list ${listMs} ms${protocol}) -> ${shown}`,
      );
      io.stdout(`${shown}\n`);
      fetched++;
    }
  } finally {
    process.off('SIGINT', onInterrupt);
  }
  const failed = selected.length - fetched;
  say(`fetched ${fetched} of ${counted(selected.length, 'server')}${failed ? `; ${failed} could not be fetched` : ''}`);
  if (values.check) {
    const stale = checks.filter((c) => c.status !== 'matches');
    say(
      stale.length
        ? `${counted(stale.length, 'snapshot')} ${byCount(stale.length, 'no longer matches its server', 'no longer match their servers')}: ${stale.map((c) => c.server).join(', ')}; run tool-lens catalog fetch to update`
        : 'every snapshot checked matches its server',
    );
    return failed > 0 || stale.length > 0 ? 1 : 0;
  }
  return failed > 0 ? 1 : 0;
}

/** The exit code of a command ended by Ctrl-C, as shells report it (128 + SIGINT). */
const INTERRUPTED = 130;

/** The servers named on the command line, in that order; every server when none is named. */
function select(servers: McpServerEntry[], names: string[]): McpServerEntry[] {
  if (names.length === 0) return servers;
  const out: McpServerEntry[] = [];
  for (const name of names) {
    const entry = servers.find((s) => s.name === name);
    if (!entry) {
      const guess = closest(
        name,
        servers.map((s) => s.name),
      );
      throw new UsageProblem(
        `no MCP server named "${name}" in the workspace's configs${guess ? `; did you mean "${guess}"?` : `; they declare ${servers.map((s) => s.name).join(', ')}`}`,
      );
    }
    if (!out.includes(entry)) out.push(entry);
  }
  return out;
}

function where(entry: McpServerEntry): string {
  return `${entry.declared.file}:${entry.declared.line}`;
}

function parseFormat(value: string | undefined): SnapshotFormat {
  if (value === undefined || value === 'yaml') return 'yaml';
  if (value === 'json') return 'json';
  throw new UsageProblem(`--format must be yaml or json; got "${value}"`);
}

function parseTimeout(value: string): number {
  const ms = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(ms) || ms < 1 || ms > 600_000)
    throw new UsageProblem(`--timeout must be a number of milliseconds from 1 to 600000; got "${value}"`);
  return ms;
}

function shortParseMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const quoted = /'([^']*)'/.exec(message)?.[1]?.replace(/ <value>$/, '');
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted) return `unknown option ${quoted}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted) {
    return /does not take an argument/.test(message)
      ? `option ${quoted} takes no value`
      : `option ${quoted} needs a value`;
  }
  return message.split(/\r?\n/, 1)[0] ?? message;
}
