// "Fetch catalog from an MCP server" on the server side (docs/behaviour.md#live-catalogs): the list of servers the
// workspace's MCP client configs declare, and the fetch itself. The client has asked the user; the
// server still refuses unless the client said the workspace is trusted and the launch is the very
// one the user agreed to (its fingerprint). The fetch runs as an ordinary promise, so every other
// request keeps being answered; its snapshot then goes through `Session.diskChanged`, the path a
// file-watch event takes, so dependants are re-checked and the client asked to pull again.
//
// Secrets: only `describeLaunch` (masked) and `FetchError` messages (redacted by fetch.ts) ever
// reach a log line, a progress message or a result. Nothing else of a launch is printed.
//
// Writes: the snapshot goes to `catalogs/` inside the workspace root only; a link that leads it
// out, or a file holding another server's catalog, refuses the fetch before the server starts.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  WorkDoneProgress,
  type CancellationToken,
  type Connection,
  type WorkDoneProgressBegin,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
} from 'vscode-languageserver';
import { version as TOOL_VERSION } from '../../../package.json';
import { FetchError } from '../live/errors.js';
import { fetchCatalog, type FetchOptions } from '../live/fetch.js';
import { describeLaunch } from '../live/redact.js';
import { readWorkspaceServers, type Launch, type McpServerEntry } from '../live/servers.js';
import { resolveExecutable } from '../live/processes.js';
import { snapshotFileName, snapshotTarget, writeSnapshot } from '../live/snapshot.js';
import { toPosix } from '../node/paths.js';
import type { FetchCatalogParams, FetchCatalogResult, LiveServerItem, LiveServerList } from './protocol.js';
import { errorText } from './listeners.js';
import type { Session } from './session.js';

/** The folder snapshots are written into, as `tool-lens catalog fetch` does. */
const SNAPSHOT_DIR = 'catalogs';

/**
 * A stable digest of everything that decides what runs: for stdio the command, the file it
 * resolves to (and where that links to), args, env and working folder; for HTTP the URL and
 * headers. Secrets go in, but only the digest comes out.
 */
function launchFingerprint(launch: Launch): string {
  const sorted = (record: Record<string, string>) =>
    Object.keys(record)
      .sort()
      .map((key) => [key, record[key]]);
  const resolved = launch.type === 'stdio' ? resolveExecutable(launch.command, launch.env, launch.cwd) : undefined;
  const canonical =
    launch.type === 'stdio'
      ? {
          type: launch.type,
          command: launch.command,
          runs: resolved ? [resolved.path, resolved.real] : null,
          args: launch.args,
          env: sorted(launch.env),
          cwd: launch.cwd,
        }
      : { type: launch.type, url: launch.url, headers: sorted(launch.headers) };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

function declaredIn(entry: McpServerEntry): string {
  return `${entry.declared.file}:${entry.declared.line}`;
}

/** The servers of the workspace's MCP client configs, as the quick pick shows them. Starts nothing. */
export function liveServers(session: Session): LiveServerList {
  if (!session.root) return { trusted: session.trusted, servers: [], configFiles: [], problems: [] };
  const read = readWorkspaceServers(session.root);
  const catalog = session.workspace.catalog;
  const servers: LiveServerItem[] = read.servers.map((entry) => {
    const known = catalog.server(entry.name);
    const item: LiveServerItem = {
      name: entry.name,
      declaredIn: declaredIn(entry),
      catalogued: known !== undefined,
      pending: session.isPending(entry.name),
    };
    if (known?.fetchedAt) item.fetchedAt = known.fetchedAt;
    if (entry.launch) {
      item.transport = entry.launch.type;
      item.commandLine = describeLaunch(entry.launch);
      item.fingerprint = launchFingerprint(entry.launch);
      item.snapshot = snapshotOf(session.root!, entry.name);
    } else {
      item.blocked = {
        reason: entry.blocked?.reason ?? 'invalid',
        message: entry.blocked?.message ?? 'it cannot be fetched',
      };
    }
    return item;
  });
  return { trusted: session.trusted, servers, configFiles: read.files, problems: read.problems };
}

/** Where a fetch of `server` would write its snapshot, and whether a file is there now; or why it could not write one. */
function snapshotOf(root: string, server: string): NonNullable<LiveServerItem['snapshot']> {
  try {
    const target = snapshotTarget({ dir: join(root, SNAPSHOT_DIR), root }, server, 'yaml');
    return { file: toPosix(relative(root, target.path)), replaces: existsSync(target.real) };
  } catch (error) {
    return {
      file: toPosix(join(SNAPSHOT_DIR, snapshotFileName(server, 'yaml'))),
      replaces: false,
      refused: error instanceof Error ? error.message : String(error),
    };
  }
}

export interface LiveFetchOptions {
  /** Passed on to `fetchCatalog` (the tests shorten the timeouts). */
  fetch?: Pick<FetchOptions, 'connectTimeoutMs' | 'pageTimeoutMs' | 'closeGraceMs'>;
}

/** Runs live fetches for one connection: at most one per server at a time. */
export class LiveFetcher {
  private readonly running = new Map<string, Promise<FetchCatalogResult>>();

  constructor(
    private readonly connection: Connection,
    private readonly session: Session,
    readonly options: LiveFetchOptions = {},
  ) {}

  /** Resolves when every fetch that is running now has ended (for shutdown and tests). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }

  /** Cancelling `token` (the client cancels the request) stops the fetch and the server it started. */
  async fetch(params: FetchCatalogParams, token?: CancellationToken): Promise<FetchCatalogResult> {
    const session = this.session;
    await session.ready;
    const server = typeof params?.server === 'string' ? params.server : '';
    const refuse = (
      reason: Extract<FetchCatalogResult, { ok: false }>['reason'],
      message: string,
    ): FetchCatalogResult => {
      session.log(`fetch of "${server}" refused: ${message}`);
      return { ok: false, server, reason, message };
    };
    // Checked here as well as in the client: a workspace nobody said was trusted starts nothing.
    if (!session.trusted) {
      return refuse(
        'untrusted',
        'the workspace is not trusted, and Tool Lens starts no MCP server in an untrusted workspace. Trust the workspace (Workspaces: Manage Workspace Trust) and run the command again.',
      );
    }
    if (!session.root)
      return refuse(
        'no-folder',
        'no workspace folder is open, so there are no MCP client configs to read and nowhere to write the snapshot.',
      );
    if (this.running.has(server))
      return refuse('busy', `the catalog of "${server}" is already being fetched; wait for that fetch to end.`);

    // Read the configs again now: what runs is what the files say at this moment, and it must be
    // what the user agreed to.
    const read = readWorkspaceServers(session.root);
    const entry = read.servers.find((s) => s.name === server);
    if (!entry)
      return refuse(
        'unknown-server',
        `no MCP server named "${server}" is declared in ${read.files.length ? read.files.join(', ') : 'the workspace'} any more.`,
      );
    if (!entry.launch)
      return refuse('blocked', `"${server}" cannot be fetched: ${entry.blocked?.message ?? 'it cannot be fetched'}.`);
    if (typeof params.fingerprint !== 'string' || params.fingerprint !== launchFingerprint(entry.launch)) {
      return refuse(
        'changed',
        `the settings of "${server}" in ${declaredIn(entry)} changed since you agreed to run it; run the command again to see, and agree to, the new command line.`,
      );
    }

    // A snapshot that could not be written (a link out of the workspace, another server's file) is
    // refused before anything starts.
    try {
      snapshotTarget({ dir: join(session.root, SNAPSHOT_DIR), root: session.root }, entry.name, 'yaml');
    } catch (error) {
      return refuse(
        'write-failed',
        `"${server}" was not started: ${error instanceof Error ? error.message : String(error)}.`,
      );
    }

    const abort = new AbortController();
    const cancellation = token?.onCancellationRequested(() => abort.abort());
    if (token?.isCancellationRequested) abort.abort();
    const run = this.run(entry, entry.launch, params.workDoneToken, abort.signal);
    this.running.set(server, run);
    try {
      return await run;
    } finally {
      cancellation?.dispose();
      this.running.delete(server);
    }
  }

  private async run(
    entry: McpServerEntry,
    launch: Launch,
    progressToken: string | number | undefined,
    signal: AbortSignal,
  ): Promise<FetchCatalogResult> {
    const session = this.session;
    const root = session.root!;
    const server = entry.name;
    const commandLine = describeLaunch(launch);
    const progress = this.progress(progressToken);
    const started = Date.now();
    session.log(`fetching the catalog of "${server}" (${declaredIn(entry)}): ${commandLine}`);
    progress.begin(
      `Fetching the tools of "${server}"`,
      launch.type === 'stdio' ? `Starting ${commandLine}` : `Connecting to ${commandLine}`,
    );
    session.fetchStarted(server);
    let failure: string | undefined;
    let cancelled = false;
    try {
      let catalog;
      try {
        catalog = await fetchCatalog(entry, {
          ...this.options.fetch,
          log: (line) => session.log(`fetch of "${server}": ${line}`), // redacted by fetch.ts
          signal,
        });
      } catch (error) {
        if (error instanceof FetchError && error.cancelled) {
          // Not a failure of the server: the status shows no error for it.
          cancelled = true;
          session.log(`fetch of "${server}" cancelled; the server was stopped`);
          return {
            ok: false,
            server,
            reason: 'cancelled',
            message: `the fetch of "${server}" was cancelled; nothing was written.`,
          };
        }
        // FetchError messages are redacted; anything else is reported without its text.
        failure =
          error instanceof FetchError
            ? error.message
            : `an unexpected error (${error instanceof Error ? error.name : 'unknown'}); see the Tool Lens output`;
        if (!(error instanceof FetchError))
          session.log(
            `fetch of "${server}" failed unexpectedly: ${error instanceof Error ? error.name : typeof error}`,
          );
        session.log(`fetch of "${server}" failed: ${failure}`);
        return {
          ok: false,
          server,
          reason: 'failed',
          message: `could not fetch the catalog of "${server}": ${failure}`,
        };
      }
      progress.report(`Writing the snapshot of ${catalog.tools.length} tool${catalog.tools.length === 1 ? '' : 's'}`);
      let path: string;
      try {
        path = writeSnapshot({ dir: join(root, SNAPSHOT_DIR), root }, catalog, 'yaml', {
          file: entry.declared.file,
          transport: catalog.stats.transport,
          generator: `Tool Lens ${TOOL_VERSION}`,
          writer: 'the editor command "Tool Lens: Fetch Catalog from an MCP Server"',
        });
      } catch (error) {
        failure = `the snapshot could not be written (${error instanceof Error ? error.message : String(error)})`;
        session.log(`fetch of "${server}": ${failure}`);
        return {
          ok: false,
          server,
          reason: 'write-failed',
          message: `fetched the tools of "${server}", but ${failure}.`,
        };
      }
      const uri = pathToFileURL(path).href;
      // The same path a file-watch event takes: the catalog is rebuilt, every dependant re-checked,
      // and pull clients asked to refresh. (The watcher's own event for this write finds nothing new.)
      await session.diskChanged(uri, 'changed');
      const file = toPosix(relative(root, path));
      const ms = Date.now() - started;
      session.log(`fetched ${catalog.tools.length} tool(s) of "${server}" in ${ms} ms -> ${file}`);
      return { ok: true, server, file, uri, tools: catalog.tools.length, ms };
    } catch (error) {
      failure = 'an internal error; see the Tool Lens output';
      session.log(`fetch of "${server}" failed: ${errorText(error)}`);
      return { ok: false, server, reason: 'failed', message: `could not fetch the catalog of "${server}": ${failure}` };
    } finally {
      session.fetchEnded(server, failure);
      progress.end(
        cancelled ? `Cancelled: "${server}"` : failure === undefined ? `Fetched "${server}"` : `Failed: "${server}"`,
      );
    }
  }

  /** `$/progress` on the client's token; nothing when it gave none. */
  private progress(token: string | number | undefined): {
    begin(title: string, message: string): void;
    report(message: string): void;
    end(message: string): void;
  } {
    const send = (value: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd) => {
      if (token === undefined) return;
      this.connection
        .sendProgress(WorkDoneProgress.type, token, value)
        .catch((error: unknown) => this.session.log(`progress could not be sent: ${errorText(error)}`));
    };
    return {
      // Cancelled by cancelling the request (the progress belongs to it).
      begin: (title, message) => send({ kind: 'begin', title, message, cancellable: true }),
      report: (message) => send({ kind: 'report', message }),
      end: (message) => send({ kind: 'end', message }),
    };
  }
}
