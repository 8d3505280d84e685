// MCP over any transport: our SDK client, the tap that keeps the raw initialize and tools/list results the SDK would prune, and tools/list paging.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities, JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { version as TOOL_VERSION } from '../../../package.json';
import { asFetchError, describe, FetchError, isRecord, SDK_TIMEOUT_SLACK_MS, withDeadline } from './errors.js';
import type { FetchBounds } from './bounds.js';
import { sdk } from './sdk.js';

/** What every step of one fetch shares: the server's name, redaction, the log and the limits. */
export interface SessionContext {
  name: string;
  clean: (text: string) => string;
  log: (line: string) => void;
  connectMs: number;
  graceMs: number;
  capabilities: ClientCapabilities;
  /** Aborted when the caller cancels or a bound of `bounds` is hit. */
  signal: AbortSignal | undefined;
  /** The bytes an HTTP server may send, and the error of a stop (bounds.ts). */
  bounds: FetchBounds;
  /** The step under way, for the error of a bound hit inside the transport. */
  phase: 'connect' | 'list';
}

/** A connected client (transports.ts opens one) with the tap under it. */
export interface Session {
  client: Client;
  tap: RecordingTransport;
  transport: 'stdio' | 'http' | 'sse';
  /** The last lines the server wrote on stderr, redacted (stdio only). */
  stderrTail(): string;
  /** Ends the session; for stdio, the process and its descendants are gone when this resolves. */
  close(): Promise<void>;
}

/**
 * The server's `serverInfo` as it sent it, every field kept (`name`, `version`, `title`,
 * `description`, `icons`, `websiteUrl`, and whatever a later revision adds).
 */
export interface ServerInfo {
  name?: string;
  title?: string;
  version?: string;
  [field: string]: unknown;
}

/** What a raw `initialize` result says of the server, as it said it. */
export interface InitializeFacts {
  protocolVersion?: string;
  serverInfo?: ServerInfo;
  /** The server's `capabilities` object, unchanged (task support and list changes depend on it). */
  capabilities?: Record<string, unknown>;
  /** The server's `instructions` for the model, when it sends any. */
  instructions?: string;
}

export function newClient(context: SessionContext): Client {
  const client = new (sdk().Client)(
    { name: 'tool-lens', version: TOOL_VERSION },
    { capabilities: context.capabilities },
  );
  client.onerror = (error) => context.log(`${context.name}: ${describe(error)}`);
  return client;
}

// ------------------------------------------------------------------------------------------------
// Listing

export async function listAllTools(
  session: Session,
  context: SessionContext,
  pageMs: number,
  maxPages: number,
  listMs: number,
): Promise<{ tools: unknown[]; pages: number }> {
  const tools: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  const until = Date.now() + listMs;
  const overall = (page: number) =>
    new FetchError(
      context.name,
      'list',
      `tools/list took more than ${listMs} ms in all (${page} page${page === 1 ? '' : 's'}, the bound on one listing); stopped`,
      true,
    );
  for (let page = 1; ; page++) {
    if (page > maxPages)
      throw new FetchError(
        context.name,
        'list',
        `the server kept returning cursors after ${maxPages} pages of tools; stopped`,
      );
    const remaining = until - Date.now();
    if (remaining <= 0) throw overall(page - 1);
    const raw =
      remaining < pageMs
        ? await listPage(session, context, cursor, remaining, () => overall(page))
        : await listPage(session, context, cursor, pageMs);
    if (!isRecord(raw) || !Array.isArray(raw.tools)) {
      throw new FetchError(context.name, 'list', `page ${page} of tools/list has no "tools" list`);
    }
    tools.push(...(raw.tools as unknown[]));
    const next = raw.nextCursor;
    // An empty cursor is treated as the end: some servers send "" instead of leaving it out.
    if (next === undefined || next === null || next === '') return { tools, pages: page };
    if (typeof next !== 'string')
      throw new FetchError(context.name, 'list', `page ${page} of tools/list has a nextCursor that is not a string`);
    if (seen.has(next))
      throw new FetchError(
        context.name,
        'list',
        `the server returned the same cursor twice (page ${page}); stopped to avoid a loop`,
      );
    seen.add(next);
    cursor = next;
  }
}

async function listPage(
  session: Session,
  context: SessionContext,
  cursor: string | undefined,
  pageMs: number,
  onTimeout?: () => FetchError,
): Promise<unknown> {
  session.tap.forget('tools/list');
  const what = `tools/list${cursor === undefined ? '' : ' (next page)'}`;
  try {
    // The schema only checks the envelope; the tools themselves are read from the tap, untouched.
    await withDeadline(
      session.client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        sdk().ResultSchema,
        { timeout: pageMs + SDK_TIMEOUT_SLACK_MS },
      ),
      pageMs,
      onTimeout ?? (() => new FetchError(context.name, 'list', `${what} got no answer within ${pageMs} ms`, true)),
      context.log,
      { signal: context.signal, onAbort: () => context.bounds.stopped('list') },
    );
  } catch (error) {
    if (error instanceof FetchError) throw error;
    if (context.signal?.aborted) throw context.bounds.stopped('list');
    // A result the SDK refuses to parse is still a result: keep what the server sent.
    const raw = session.tap.take('tools/list');
    if (raw !== undefined) {
      context.log(`${context.name}: the SDK rejected the ${what} result (${describe(error)}); keeping the raw result`);
      return raw;
    }
    throw asFetchError(error, context.name, 'list', context.clean, `${what} failed`);
  }
  const raw = session.tap.take('tools/list');
  if (raw === undefined)
    throw new FetchError(context.name, 'list', `${what} returned, but its raw result was not seen`);
  return raw;
}

/** The protocol version, server info, capabilities and instructions of a raw `initialize` result. */
export function initializeFacts(init: unknown): InitializeFacts {
  if (!isRecord(init)) return {};
  const out: InitializeFacts = {};
  if (typeof init.protocolVersion === 'string') out.protocolVersion = init.protocolVersion;
  if (isRecord(init.serverInfo)) out.serverInfo = init.serverInfo;
  if (isRecord(init.capabilities)) out.capabilities = init.capabilities;
  if (typeof init.instructions === 'string') out.instructions = init.instructions;
  return out;
}

// ------------------------------------------------------------------------------------------------
// The raw tap

const WATCHED_METHODS = new Set(['initialize', 'tools/list']);

/**
 * Sits between the SDK client and the real transport and keeps the raw `result` of the requests we
 * care about, before the SDK parses (and prunes) it.
 */
export class RecordingTransport implements Transport {
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
    if ('method' in message && 'id' in message && WATCHED_METHODS.has(message.method))
      this.pending.set(message.id, message.method);
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
