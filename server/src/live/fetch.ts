// Fetches one server's tool catalog over MCP with the official SDK: start or reach the server,
// initialize, list its tools page by page, and stop it whatever happened. The tools are kept as
// the server sent them (the raw JSON-RPC result), because the SDK's parsed copy drops unknown keys
// and rejects a whole list for one schema it does not like, which is exactly what we want to check.
//
// Starting a server is running code a workspace chose: the caller has the user's consent; this
// module adds the rest of the guard rails: no shell, a minimal environment, hard timeouts, the
// process (and whatever it started) gone at the end, and secrets kept out of every message.
import { readdirSync, readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities, JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { loadSdk, sdk } from './sdk.js';
import { version as TOOL_VERSION } from '../../../package.json';
import type { HttpLaunch, Launch, McpServerEntry, StdioLaunch } from './servers.js';

export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
export const DEFAULT_PAGE_TIMEOUT_MS = 10_000;
const DEFAULT_CLOSE_GRACE_MS = 1_000;
const DEFAULT_MAX_PAGES = 1_000;
const STDERR_TAIL_BYTES = 8_192;
// The SDK's own request timeout is only a backstop: ours fires first and says which limit was hit.
const SDK_TIMEOUT_SLACK_MS = 1_000;

export interface FetchOptions {
  /** Hard limit for starting (or reaching) the server and `initialize`. */
  connectTimeoutMs?: number;
  /** Hard limit for each `tools/list` page. */
  pageTimeoutMs?: number;
  /** How long the server gets to exit after its input closes, and again after SIGTERM. */
  closeGraceMs?: number;
  /** Stops a server whose cursors never end. */
  maxPages?: number;
  /** Client capabilities to declare; some servers list more tools for richer clients. Default none. */
  capabilities?: ClientCapabilities;
  /** Redacted notes about the run (SDK errors, shutdown trouble); never values of the launch. */
  log?: (line: string) => void;
  /** Aborting it stops the fetch at once: the server is stopped as after a timeout. */
  signal?: AbortSignal;
}

export interface ServerInfo {
  name?: string;
  title?: string;
  version?: string;
}

export interface FetchedCatalog {
  /** The server's name in the workspace config. */
  server: string;
  fetched: { at: string; protocolVersion?: string; serverInfo?: ServerInfo };
  /** The tools exactly as the server listed them, every page in order. */
  tools: unknown[];
  /** How the run went, for reports; not part of a snapshot. */
  stats: { transport: 'stdio' | 'http' | 'sse'; pages: number; connectMs: number; listMs: number };
}

export type FetchPhase = 'refused' | 'start' | 'connect' | 'list';

/** A fetch that failed. The message is already redacted and names no secret value. */
export class FetchError extends Error {
  constructor(
    readonly server: string,
    readonly phase: FetchPhase,
    message: string,
    readonly timedOut = false,
    /** Stopped because the caller's signal was aborted. */
    readonly cancelled = false,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

export async function fetchCatalog(server: McpServerEntry, options: FetchOptions = {}): Promise<FetchedCatalog> {
  const launch = server.launch;
  if (!launch) throw new FetchError(server.name, 'refused', server.blocked?.message ?? 'it cannot be fetched');
  await loadSdk();
  const secrets = secretsOf(launch);
  const clean = (text: string): string => redact(text, secrets);
  const connectLimit = positive(options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS);
  const pageMs = positive(options.pageTimeoutMs, DEFAULT_PAGE_TIMEOUT_MS);
  const log = (line: string): void => options.log?.(clean(line));
  const context: SessionContext = {
    name: server.name,
    clean,
    log,
    connectMs: connectLimit,
    graceMs: options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS,
    capabilities: options.capabilities ?? {},
    signal: options.signal,
  };
  if (options.signal?.aborted) throw cancelledError(server.name, 'start');

  const started = Date.now();
  const session = launch.type === 'stdio' ? await openStdio(launch, context) : await openHttp(launch, context);
  const connectMs = Date.now() - started;
  try {
    const listStart = Date.now();
    const tools = await listAllTools(session, context, pageMs, positive(options.maxPages, DEFAULT_MAX_PAGES));
    const init = session.tap.take('initialize');
    return {
      server: server.name,
      fetched: { at: new Date().toISOString(), ...initializeFacts(init) },
      tools: tools.tools,
      stats: { transport: session.transport, pages: tools.pages, connectMs, listMs: Date.now() - listStart },
    };
  } catch (error) {
    throw withStderr(asFetchError(error, server.name, 'list', clean), session, clean);
  } finally {
    await session.close();
  }
}

// ------------------------------------------------------------------------------------------------
// Listing

async function listAllTools(session: Session, context: SessionContext, pageMs: number, maxPages: number): Promise<{ tools: unknown[]; pages: number }> {
  const tools: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    if (page > maxPages) throw new FetchError(context.name, 'list', `the server kept returning cursors after ${maxPages} pages of tools; stopped`);
    const raw = await listPage(session, context, cursor, pageMs);
    if (!isRecord(raw) || !Array.isArray(raw.tools)) {
      throw new FetchError(context.name, 'list', `page ${page} of tools/list has no "tools" list`);
    }
    tools.push(...(raw.tools as unknown[]));
    const next = raw.nextCursor;
    // An empty cursor is treated as the end: some servers send "" instead of leaving it out.
    if (next === undefined || next === null || next === '') return { tools, pages: page };
    if (typeof next !== 'string') throw new FetchError(context.name, 'list', `page ${page} of tools/list has a nextCursor that is not a string`);
    if (seen.has(next)) throw new FetchError(context.name, 'list', `the server returned the same cursor twice (page ${page}); stopped to avoid a loop`);
    seen.add(next);
    cursor = next;
  }
}

async function listPage(session: Session, context: SessionContext, cursor: string | undefined, pageMs: number): Promise<unknown> {
  session.tap.forget('tools/list');
  const what = `tools/list${cursor === undefined ? '' : ' (next page)'}`;
  try {
    // The schema only checks the envelope; the tools themselves are read from the tap, untouched.
    await withDeadline(
      session.client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, sdk().ResultSchema, { timeout: pageMs + SDK_TIMEOUT_SLACK_MS }),
      pageMs,
      () => new FetchError(context.name, 'list', `${what} got no answer within ${pageMs} ms`, true),
      context.log,
      { signal: context.signal, onAbort: () => cancelledError(context.name, 'list') },
    );
  } catch (error) {
    if (error instanceof FetchError) throw error;
    // A result the SDK refuses to parse is still a result: keep what the server sent.
    const raw = session.tap.take('tools/list');
    if (raw !== undefined) {
      context.log(`${context.name}: the SDK rejected the ${what} result (${describe(error)}); keeping the raw result`);
      return raw;
    }
    throw asFetchError(error, context.name, 'list', context.clean, `${what} failed`);
  }
  const raw = session.tap.take('tools/list');
  if (raw === undefined) throw new FetchError(context.name, 'list', `${what} returned, but its raw result was not seen`);
  return raw;
}

function initializeFacts(init: unknown): { protocolVersion?: string; serverInfo?: ServerInfo } {
  if (!isRecord(init)) return {};
  const out: { protocolVersion?: string; serverInfo?: ServerInfo } = {};
  if (typeof init.protocolVersion === 'string') out.protocolVersion = init.protocolVersion;
  if (isRecord(init.serverInfo)) {
    const info: ServerInfo = {};
    for (const key of ['name', 'title', 'version'] as const) {
      const value = init.serverInfo[key];
      if (typeof value === 'string') info[key] = value;
    }
    out.serverInfo = info;
  }
  return out;
}

// ------------------------------------------------------------------------------------------------
// Sessions

interface SessionContext {
  name: string;
  clean: (text: string) => string;
  log: (line: string) => void;
  connectMs: number;
  graceMs: number;
  capabilities: ClientCapabilities;
  signal: AbortSignal | undefined;
}

function cancelledError(server: string, phase: FetchPhase): FetchError {
  return new FetchError(server, phase, 'the fetch was cancelled', false, true);
}

interface Session {
  client: Client;
  tap: RecordingTransport;
  transport: 'stdio' | 'http' | 'sse';
  /** The last lines the server wrote on stderr, redacted (stdio only). */
  stderrTail(): string;
  /** Ends the session; for stdio, the process and its descendants are gone when this resolves. */
  close(): Promise<void>;
}

function newClient(context: SessionContext): Client {
  const client = new (sdk().Client)({ name: 'tool-lens', version: TOOL_VERSION }, { capabilities: context.capabilities });
  client.onerror = (error) => context.log(`${context.name}: ${describe(error)}`);
  return client;
}

async function openStdio(launch: StdioLaunch, context: SessionContext): Promise<Session> {
  const transport = new (sdk().StdioClientTransport)({
    command: launch.command,
    args: launch.args,
    env: minimalEnvironment(launch.env),
    cwd: launch.cwd,
    stderr: 'pipe',
  });
  // The pipe must be drained or a chatty server blocks; only a bounded tail is kept, for errors.
  const tail = new Tail(STDERR_TAIL_BYTES);
  transport.stderr?.on('data', (chunk: Buffer | string) => tail.push(chunk));
  const tap = new RecordingTransport(transport);
  const client = newClient(context);
  let closed: Promise<void> | undefined;
  const session: Session = {
    client,
    tap,
    transport: 'stdio',
    stderrTail: () => context.clean(tail.text()),
    close: () => (closed ??= stopStdio(client, transport, context)),
  };
  try {
    await withDeadline(
      client.connect(tap, { timeout: context.connectMs + SDK_TIMEOUT_SLACK_MS }),
      context.connectMs,
      () => new FetchError(context.name, 'connect', `the server did not answer initialize within ${context.connectMs} ms`, true),
      context.log,
      { signal: context.signal, onAbort: () => cancelledError(context.name, 'connect') },
    );
  } catch (error) {
    const phase: FetchPhase = isSpawnError(error) ? 'start' : 'connect';
    await session.close();
    throw withStderr(asFetchError(error, context.name, phase, context.clean, phase === 'start' ? 'could not start the command' : 'initialize failed'), session, context.clean);
  }
  return session;
}

async function openHttp(launch: HttpLaunch, context: SessionContext): Promise<Session> {
  const url = new URL(launch.url);
  const requestInit: RequestInit = { headers: launch.headers };
  // Like VS Code: Streamable HTTP first, then the older SSE transport; `type: sse` goes straight there.
  const kinds: ('http' | 'sse')[] = launch.type === 'sse' ? ['sse'] : ['http', 'sse'];
  const deadline = Date.now() + context.connectMs;
  const failures: string[] = [];
  for (const kind of kinds) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    const inner = kind === 'http' ? new (sdk().StreamableHTTPClientTransport)(url, { requestInit }) : new (sdk().SSEClientTransport)(url, { requestInit });
    const tap = new RecordingTransport(inner);
    const client = newClient(context);
    let closed: Promise<void> | undefined;
    const session: Session = {
      client,
      tap,
      transport: kind,
      stderrTail: () => '',
      close: () => (closed ??= stopHttp(client, inner, context)),
    };
    try {
      await withDeadline(
        client.connect(tap, { timeout: remaining + SDK_TIMEOUT_SLACK_MS }),
        remaining,
        () => new FetchError(context.name, 'connect', `the server did not answer initialize within ${context.connectMs} ms`, true),
        context.log,
        { signal: context.signal, onAbort: () => cancelledError(context.name, 'connect') },
      );
      return session;
    } catch (error) {
      await session.close();
      if (error instanceof FetchError && (error.timedOut || error.cancelled)) throw error;
      failures.push(`${kind === 'http' ? 'Streamable HTTP' : 'SSE'}: ${context.clean(describe(error))}`);
    }
  }
  throw new FetchError(context.name, 'connect', `could not connect to ${displayUrl(launch.url)} (${failures.join('; ') || 'no time left'})`);
}

async function stopHttp(client: Client, transport: Transport, context: SessionContext): Promise<void> {
  // A polite end of the session; the server would expire it anyway, so a failure is only noted.
  if (transport instanceof sdk().StreamableHTTPClientTransport && transport.sessionId !== undefined) {
    await capped(transport.terminateSession(), 2_000, context, 'ending the HTTP session');
  }
  await capped(client.close(), 2_000, context, 'closing the connection');
}

/**
 * Stops the server process: its input is closed, then SIGTERM, then SIGKILL, each after the grace
 * period; whatever it started (an `npx` wrapper starts the real server as a grandchild) is killed
 * at the end if it is still there.
 */
async function stopStdio(client: Client, transport: StdioClientTransport, context: SessionContext): Promise<void> {
  const pid = transport.pid;
  const family = pid === null ? [] : descendantsOf(pid);
  // Client.close closes the transport, which ends the child's stdin and has its own escalation;
  // ours below is shorter and also covers descendants.
  const closing = client.close();
  if (pid !== null) {
    if (!(await waitGone(pid, context.graceMs))) {
      signal(pid, 'SIGTERM', context);
      if (!(await waitGone(pid, context.graceMs))) {
        signal(pid, 'SIGKILL', context);
        if (!(await waitGone(pid, 2_000))) context.log(`${context.name}: process ${pid} is still there after SIGKILL`);
      }
    }
  }
  const left = family.filter(isAlive);
  for (const child of left) signal(child, 'SIGKILL', context);
  for (const child of left) {
    if (!(await waitGone(child, 2_000))) context.log(`${context.name}: process ${child}, started by the server, is still there after SIGKILL`);
  }
  await capped(closing, 3_000, context, 'closing the transport');
}

function signal(pid: number, name: NodeJS.Signals, context: SessionContext): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    // Gone between the check and the signal: that is the outcome we wanted.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') context.log(`${context.name}: cannot send ${name} to process ${pid}: ${describe(error)}`);
  }
}

/** Whether a process exists and has not exited (a zombie counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    // ESRCH: gone. EPERM: the pid was reused by someone else's process, so ours is gone too.
    return false;
  }
  if (process.platform !== 'linux') return true;
  const stat = readProcStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (!isAlive(pid)) return true;
    if (Date.now() >= until) return false;
    await sleep(20);
  }
}

/** Every descendant of `pid`, from /proc (Linux); elsewhere none are known. */
export function descendantsOf(pid: number): number[] {
  if (process.platform !== 'linux') return [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return []; // no /proc mounted: only the direct child can be stopped
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcStat(Number(entry));
    if (!stat) continue;
    const list = children.get(stat.ppid);
    if (list) list.push(Number(entry));
    else children.set(stat.ppid, [Number(entry)]);
  }
  const out: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    out.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return out;
}

function readProcStat(pid: number): { state: string; ppid: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // the process ended while we looked: nothing to report
  }
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ")".
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', ppid: Number(fields[1]) };
}

// ------------------------------------------------------------------------------------------------
// The raw tap

const WATCHED_METHODS = new Set(['initialize', 'tools/list']);

/**
 * Sits between the SDK client and the real transport and keeps the raw `result` of the requests we
 * care about, before the SDK parses (and prunes) it.
 */
class RecordingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly pending = new Map<string | number, string>();
  private readonly results = new Map<string, unknown>();

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      this.record(message);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('method' in message && 'id' in message && WATCHED_METHODS.has(message.method)) this.pending.set(message.id, message.method);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  take(method: string): unknown {
    const result = this.results.get(method);
    this.results.delete(method);
    return result;
  }

  forget(method: string): void {
    this.results.delete(method);
  }

  private record(message: JSONRPCMessage): void {
    if (!('id' in message) || 'method' in message || message.id === undefined) return;
    const method = this.pending.get(message.id);
    if (method === undefined) return;
    this.pending.delete(message.id);
    if ('result' in message) this.results.set(method, message.result);
  }
}

// ------------------------------------------------------------------------------------------------
// Environment and secrets

/**
 * The child's whole environment: PATH and HOME from ours, plus the entry's own `env`. The SDK
 * always merges its own list of inherited variables, so those we do not pass are set to
 * undefined, which child_process leaves out. (On Windows the SDK's list is kept: programs there
 * cannot start without SYSTEMROOT and friends.)
 */
export function minimalEnvironment(own: Record<string, string>): Record<string, string> {
  const env: Record<string, string | undefined> = {};
  const keep = process.platform === 'win32' ? sdk().DEFAULT_INHERITED_ENV_VARS : ['PATH', 'HOME'];
  for (const key of sdk().DEFAULT_INHERITED_ENV_VARS) env[key] = undefined;
  for (const key of keep) {
    const value = process.env[key];
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  for (const [key, value] of Object.entries(own)) env[key] = value;
  return env as Record<string, string>;
}

/** Values that must never be shown: env values, header values, URL passwords and query values. */
export function secretsOf(launch: Launch): string[] {
  const values: string[] = [];
  if (launch.type === 'stdio') values.push(...Object.values(launch.env));
  else {
    values.push(...Object.values(launch.headers));
    for (const value of Object.values(launch.headers)) {
      // "Bearer abc": the token alone may show up in a message too.
      const token = /^\S+\s+(\S.*)$/.exec(value)?.[1];
      if (token) values.push(token);
    }
    try {
      const url = new URL(launch.url);
      if (url.password) values.push(url.password, decodeURIComponent(url.password));
      for (const value of url.searchParams.values()) values.push(value, encodeURIComponent(value));
    } catch (error) {
      void error; // servers.ts only builds launches with valid URLs
    }
  }
  // Very short values (a "1", a "on") would blank out ordinary text and hide nothing worth hiding.
  return [...new Set(values.filter((v) => v.length >= 3))].sort((a, b) => b.length - a.length);
}

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('***');
  return out;
}

/** The command line or URL to show the user before starting, with every secret value masked. */
export function describeLaunch(launch: Launch): string {
  const secrets = secretsOf(launch);
  if (launch.type === 'stdio') {
    const env = Object.keys(launch.env).map((key) => `${key}=***`);
    const words = [...env, launch.command, ...launch.args].map((word, i) => (i < env.length ? word : quoteForDisplay(redact(word, secrets))));
    return `${words.join(' ')}  (in ${launch.cwd})`;
  }
  const headers = Object.keys(launch.headers);
  const how = launch.type === 'sse' ? 'SSE' : 'Streamable HTTP, falling back to SSE';
  return `${displayUrl(launch.url)} (${how}${headers.length ? `; headers ${headers.map((h) => `${h}: ***`).join(', ')}` : ''})`;
}

/** A URL with its password and query values masked. */
export function displayUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    const keys = [...new Set(url.searchParams.keys())];
    for (const key of keys) url.searchParams.set(key, '***');
    return url.toString().replace(/%2A%2A%2A/g, '***');
  } catch (error) {
    void error;
    return '<invalid url>';
  }
}

function quoteForDisplay(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./*-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

// ------------------------------------------------------------------------------------------------
// Small helpers

class Tail {
  private chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly limit: number) {}
  push(chunk: Buffer | string): void {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.chunks.push(buffer);
    this.size += buffer.length;
    while (this.size > this.limit && this.chunks.length > 1) this.size -= this.chunks.shift()!.length;
  }
  text(): string {
    const all = Buffer.concat(this.chunks).toString('utf8');
    return all.length > this.limit ? all.slice(all.length - this.limit) : all;
  }
}

/**
 * Rejects with `onTimeout()` when `promise` takes longer than `ms`, or with `abort.onAbort()` as
 * soon as the signal is aborted; a late failure is only logged.
 */
function withDeadline<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => Error,
  log: (line: string) => void,
  abort?: { signal: AbortSignal | undefined; onAbort: () => Error },
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  let stopListening = () => { /* nothing to stop until a listener is added */ };
  const deadline = new Promise<never>((_, reject) => {
    const fail = (error: Error) => {
      ended = true;
      reject(error);
    };
    timer = setTimeout(() => fail(onTimeout()), ms);
    const signal = abort?.signal;
    if (signal) {
      const onAbort = () => fail(abort.onAbort());
      if (signal.aborted) onAbort();
      else {
        signal.addEventListener('abort', onAbort, { once: true });
        stopListening = () => signal.removeEventListener('abort', onAbort);
      }
    }
  });
  promise.catch((error: unknown) => {
    if (ended) log(`after the fetch was stopped: ${describe(error)}`);
  });
  return Promise.race([promise, deadline]).finally(() => {
    clearTimeout(timer);
    stopListening();
  });
}

async function capped(promise: Promise<unknown>, ms: number, context: SessionContext, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  } catch (error) {
    context.log(`${context.name}: ${what} failed: ${describe(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

function withStderr(error: FetchError, session: Session, clean: (text: string) => string): FetchError {
  const tail = session.stderrTail().trim();
  if (!tail) return error;
  const lines = tail.split(/\r?\n/).slice(-10).map((line) => `  | ${line}`);
  return new FetchError(error.server, error.phase, `${error.message}\n  the server's last stderr lines:\n${clean(lines.join('\n'))}`, error.timedOut, error.cancelled);
}

function asFetchError(error: unknown, server: string, phase: FetchPhase, clean: (text: string) => string, prefix?: string): FetchError {
  if (error instanceof FetchError) return error;
  const timedOut = isRecord(error) && error.code === -32001; // the SDK's RequestTimeout
  return new FetchError(server, phase, clean(prefix ? `${prefix}: ${describe(error)}` : describe(error)), timedOut);
}

function isSpawnError(error: unknown): boolean {
  return isRecord(error) && typeof error.syscall === 'string' && error.syscall.startsWith('spawn');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
