// Reaching a server and letting go: stdio (no shell, its stderr tail kept for errors) or Streamable HTTP falling back to SSE, under the connect deadline.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { asFetchError, describe, FetchError, SDK_TIMEOUT_SLACK_MS, withDeadline, type FetchPhase } from './errors.js';
import { isSpawnError, minimalEnvironment, processTreeOf, resolveExecutable, stopProcessTree } from './processes.js';
import { newClient, RecordingTransport, type Session, type SessionContext } from './protocol.js';
import { displayUrl } from './redact.js';
import { sdk } from './sdk.js';
import type { HttpLaunch, StdioLaunch } from './servers.js';

const STDERR_TAIL_BYTES = 8_192;

export async function openStdio(launch: StdioLaunch, context: SessionContext): Promise<Session> {
  // Started by its absolute path, found as describeLaunch found it for the consent line; the
  // editor's consent fingerprint covers that path, so a different file is a different launch.
  const command = resolveExecutable(launch.command, launch.env, launch.cwd)?.path ?? launch.command;
  const transport = new (sdk().StdioClientTransport)({
    command,
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
      () =>
        new FetchError(
          context.name,
          'connect',
          `the server did not answer initialize within ${context.connectMs} ms`,
          true,
        ),
      context.log,
      { signal: context.signal, onAbort: () => context.bounds.stopped('connect') },
    );
  } catch (error) {
    const phase: FetchPhase = isSpawnError(error) ? 'start' : 'connect';
    await session.close();
    throw withStderr(
      asFetchError(
        error,
        context.name,
        phase,
        context.clean,
        phase === 'start' ? 'could not start the command' : 'initialize failed',
      ),
      session,
      context.clean,
    );
  }
  return session;
}

export async function openHttp(launch: HttpLaunch, context: SessionContext): Promise<Session> {
  const url = new URL(launch.url);
  const requestInit: RequestInit = { headers: launch.headers };
  // Every response body counted against the fetch's byte bound; every request ended by its stop.
  const boundedFetch = context.bounds.fetch(() => context.phase);
  // Like VS Code: Streamable HTTP first, then the older SSE transport; `type: sse` goes straight there.
  const kinds: ('http' | 'sse')[] = launch.type === 'sse' ? ['sse'] : ['http', 'sse'];
  const deadline = Date.now() + context.connectMs;
  const failures: string[] = [];
  for (const kind of kinds) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    const inner =
      kind === 'http'
        ? new (sdk().StreamableHTTPClientTransport)(url, { requestInit, fetch: boundedFetch })
        : new (sdk().SSEClientTransport)(url, { requestInit, fetch: boundedFetch });
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
        () =>
          new FetchError(
            context.name,
            'connect',
            `the server did not answer initialize within ${context.connectMs} ms`,
            true,
          ),
        context.log,
        { signal: context.signal, onAbort: () => context.bounds.stopped('connect') },
      );
      return session;
    } catch (error) {
      await session.close();
      if (context.signal?.aborted) throw context.bounds.stopped('connect');
      if (error instanceof FetchError && (error.timedOut || error.cancelled)) throw error;
      failures.push(`${kind === 'http' ? 'Streamable HTTP' : 'SSE'}: ${context.clean(describe(error))}`);
    }
  }
  throw new FetchError(
    context.name,
    'connect',
    `could not connect to ${displayUrl(launch.url)} (${failures.join('; ') || 'no time left'})`,
  );
}

async function stopHttp(client: Client, transport: Transport, context: SessionContext): Promise<void> {
  // A polite end of the session; the server would expire it anyway, so a failure is only noted.
  if (transport instanceof sdk().StreamableHTTPClientTransport && transport.sessionId !== undefined) {
    await capped(transport.terminateSession(), 2_000, context, 'ending the HTTP session');
  }
  await capped(client.close(), 2_000, context, 'closing the connection');
}

/**
 * Stops the server process and whatever it started (processes.ts), after asking it to end by
 * closing its input.
 */
async function stopStdio(client: Client, transport: StdioClientTransport, context: SessionContext): Promise<void> {
  const pid = transport.pid;
  const tree = pid === null ? undefined : processTreeOf(pid);
  // Client.close closes the transport, which ends the child's stdin and has its own escalation;
  // ours is shorter and also covers descendants.
  const closing = client.close();
  if (tree) await stopProcessTree(tree, context.graceMs, (line) => context.log(`${context.name}: ${line}`));
  await capped(closing, 3_000, context, 'closing the transport');
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

/** The error with the last lines the server wrote on stderr (stdio), redacted. */
export function withStderr(error: FetchError, session: Session, clean: (text: string) => string): FetchError {
  const tail = session.stderrTail().trim();
  if (!tail) return error;
  const lines = tail
    .split(/\r?\n/)
    .slice(-10)
    .map((line) => `  | ${line}`);
  return new FetchError(
    error.server,
    error.phase,
    `${error.message}\n  the server's last stderr lines:\n${clean(lines.join('\n'))}`,
    error.timedOut,
    error.cancelled,
  );
}

/** The last `limit` bytes of a stream, kept as it is drained. */
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
