// One server's catalog, start to stop: the orchestrator of a fetch; transports.ts, protocol.ts, processes.ts and redact.ts do the work.
//
// The tools are kept as the server sent them (the raw JSON-RPC result; only a value of the launch
// that is secret by what it is, `snapshotSecretsOf`, is masked where the server repeats it, and
// the snapshot then says how many strings that touched), because the SDK's parsed
// copy drops unknown keys and rejects a whole list for one schema it does not like, which is
// exactly what we want to check.
//
// Starting a server is running code a workspace chose: the caller has the user's consent; these
// modules add the rest of the guard rails: no shell, a minimal environment, hard timeouts, the
// process (and whatever it started) gone at the end (processes.ts), and secrets kept out of every
// message.
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MAX_BYTES, FetchBounds } from './bounds.js';
import { asFetchError, cancelledError, FetchError } from './errors.js';
import { initializeFacts, listAllTools, type InitializeFacts, type SessionContext } from './protocol.js';
import { redact, redactValue, secretsOf, snapshotSecretsOf } from './redact.js';
import { loadSdk } from './sdk.js';
import type { McpServerEntry } from './servers.js';
import { openHttp, openStdio, withStderr } from './transports.js';

export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
export const DEFAULT_PAGE_TIMEOUT_MS = 10_000;
const DEFAULT_CLOSE_GRACE_MS = 1_000;
const DEFAULT_MAX_PAGES = 1_000;
/** Every page of tools/list together. */
export const DEFAULT_LIST_TIMEOUT_MS = 60_000;

export interface FetchOptions {
  /** Hard limit for starting (or reaching) the server and `initialize`. */
  connectTimeoutMs?: number;
  /** Hard limit for each `tools/list` page. */
  pageTimeoutMs?: number;
  /** How long the server gets to exit after its input closes, and again after SIGTERM. */
  closeGraceMs?: number;
  /** Stops a server whose cursors never end. */
  maxPages?: number;
  /** Hard limit for all the pages of `tools/list` together. */
  listTimeoutMs?: number;
  /** Everything an HTTP server may send in one fetch (every response body together), in bytes. */
  maxBytes?: number;
  /** Client capabilities to declare; some servers list more tools for richer clients. Default none. */
  capabilities?: ClientCapabilities;
  /** Redacted notes about the run (SDK errors, shutdown trouble); never values of the launch. */
  log?: (line: string) => void;
  /** Aborting it stops the fetch at once: the server is stopped as after a timeout. */
  signal?: AbortSignal;
}

export interface FetchedCatalog {
  /** The server's name in the workspace config. */
  server: string;
  /**
   * When, and what the server's `initialize` result said (every field of `serverInfo`, its
   * capabilities and instructions). `masked`: how many strings of the server's answer (tools and
   * initialize result) repeated a secret of the launch and hold `***` in its place; absent when none.
   */
  fetched: { at: string; masked?: number } & InitializeFacts;
  /** The tools exactly as the server listed them, every page in order (a secret of the launch it repeats masked). */
  tools: unknown[];
  /** How the run went, for reports; not part of a snapshot. */
  stats: { transport: 'stdio' | 'http' | 'sse'; pages: number; connectMs: number; listMs: number };
}

export async function fetchCatalog(server: McpServerEntry, options: FetchOptions = {}): Promise<FetchedCatalog> {
  const launch = server.launch;
  if (!launch) throw new FetchError(server.name, 'refused', server.blocked?.message ?? 'it cannot be fetched');
  await loadSdk();
  // What Tool Lens prints is masked broadly (every env value but those that decide what runs);
  // what the server said only where it repeats a value that is secret by what it is.
  const secrets = secretsOf(launch);
  const clean = (text: string): string => redact(text, secrets);
  const kept = snapshotSecretsOf(launch);
  let masked = 0;
  const keep = (text: string): string => {
    const out = redact(text, kept);
    if (out !== text) masked++;
    return out;
  };
  const connectLimit = positive(options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS);
  const pageMs = positive(options.pageTimeoutMs, DEFAULT_PAGE_TIMEOUT_MS);
  const log = (line: string): void => options.log?.(clean(line));
  const bounds = new FetchBounds(server.name, positive(options.maxBytes, DEFAULT_MAX_BYTES), options.signal);
  const context: SessionContext = {
    name: server.name,
    clean,
    log,
    connectMs: connectLimit,
    graceMs: options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS,
    capabilities: options.capabilities ?? {},
    signal: bounds.signal,
    bounds,
    phase: 'connect',
  };
  if (options.signal?.aborted) throw cancelledError(server.name, 'start');

  const started = Date.now();
  const session = launch.type === 'stdio' ? await openStdio(launch, context) : await openHttp(launch, context);
  const connectMs = Date.now() - started;
  try {
    const listStart = Date.now();
    context.phase = 'list';
    const tools = await listAllTools(
      session,
      context,
      pageMs,
      positive(options.maxPages, DEFAULT_MAX_PAGES),
      positive(options.listTimeoutMs, DEFAULT_LIST_TIMEOUT_MS),
    );
    // A server that echoes a secret of its launch into a description (or its serverInfo) must not
    // put it into a snapshot; an ordinary setting it repeats is its own words and stays.
    const init = kept.length > 0 ? redactValue(session.tap.take('initialize'), keep) : session.tap.take('initialize');
    const listed = kept.length > 0 ? (redactValue(tools.tools, keep) as unknown[]) : tools.tools;
    return {
      server: server.name,
      fetched: { at: new Date().toISOString(), ...(masked > 0 ? { masked } : {}), ...initializeFacts(init) },
      tools: listed,
      stats: { transport: session.transport, pages: tools.pages, connectMs, listMs: Date.now() - listStart },
    };
  } catch (error) {
    throw withStderr(asFetchError(error, server.name, 'list', clean), session, clean);
  } finally {
    await session.close();
  }
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
