// Issue 24, item 8: `catalog fetch` from an HTTP server whose responses are huge or never end. A
// hostile Streamable HTTP server on 127.0.0.1 answers initialize and tools/list with a body that
// never ends, pages whose cursors never end, or headers and then silence. Each fetch must stop
// within its bounds, say which bound stopped it, and leave the memory alone. (Before, a body that
// never ended was read into memory until the page's deadline, at whatever rate the server sent,
// and a server answering a new cursor every 9 s kept a fetch going for hours.)
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FetchError } from '../../server/src/live/errors.js';
import { fetchCatalog, type FetchOptions } from '../../server/src/live/fetch.js';
import { serversFromConfig } from '../../server/src/live/servers.js';

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** Writes chunks for ever (until the client goes away). */
function endless(res: ServerResponse, head: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(head);
  const more = () => {
    while (!res.destroyed && res.write(CHUNK));
    if (!res.destroyed) res.once('drain', more);
  };
  more();
}

function json(res: ServerResponse, id: unknown, result: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
}

const INIT = {
  protocolVersion: '2025-06-18',
  capabilities: { tools: {} },
  serverInfo: { name: 'hostile', version: '1.0.0' },
};

/** The request counts per mode, to see that a stopped fetch asked for nothing more. */
const served: Record<string, number> = {};

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const mode = (req.url ?? '/').split('/')[1] ?? '';
  if (req.method === 'GET') return void res.writeHead(405).end();
  if (req.method === 'DELETE') return void res.writeHead(200).end();
  let body = '';
  for await (const chunk of req) body += String(chunk);
  const message = JSON.parse(body) as { id?: unknown; method: string; params?: { cursor?: string } };
  if (message.id === undefined) return void res.writeHead(202).end();
  served[mode] = (served[mode] ?? 0) + 1;
  if (message.method === 'initialize') {
    if (mode === 'huge-init')
      return endless(res, `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"x":"`);
    return json(res, message.id, INIT);
  }
  if (message.method !== 'tools/list') return json(res, message.id, {});
  if (mode === 'huge-list')
    return endless(res, `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"tools":["`);
  if (mode === 'silent') return void res.writeHead(200, { 'content-type': 'application/json' }).flushHeaders();
  if (mode === 'endless-pages') {
    const page = Number(message.params?.cursor ?? '0');
    await new Promise((resolve) => setTimeout(resolve, 100));
    return json(res, message.id, {
      tools: [{ name: `tool_${page}`, inputSchema: { type: 'object' } }],
      nextCursor: String(page + 1),
    });
  }
  // Many pages of 1 MB each, every one below the page deadline: the byte bound is on the whole fetch.
  if (mode === 'big-pages') {
    const page = Number(message.params?.cursor ?? '0');
    return json(res, message.id, {
      tools: [{ name: `tool_${page}`, description: 'y'.repeat(1024 * 1024), inputSchema: { type: 'object' } }],
      nextCursor: String(page + 1),
    });
  }
  return json(res, message.id, { tools: [{ name: 'fine', inputSchema: { type: 'object' } }] });
}

describe('catalog fetch from an HTTP server that sends too much or never ends', () => {
  let http: Server;
  let port = 0;
  const tmp = mkdtempSync(join(tmpdir(), 'tool-lens-bounds-'));

  before(async () => {
    http = createServer((req, res) => {
      handle(req, res).catch(() => res.destroy());
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const address = http.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });

  after(() => {
    http.closeAllConnections();
    http.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const serverAt = (mode: string) =>
    serversFromConfig(
      '.vscode/mcp.json',
      JSON.stringify({ servers: { [mode]: { type: 'http', url: `http://127.0.0.1:${port}/${mode}/mcp` } } }),
      tmp,
    ).servers[0]!;

  /** Fetches, expecting a failure; returns it with the time it took and the heap it grew. */
  async function failing(mode: string, options: FetchOptions): Promise<{ error: FetchError; ms: number }> {
    const started = Date.now();
    let caught: unknown;
    try {
      await fetchCatalog(serverAt(mode), { connectTimeoutMs: 10_000, pageTimeoutMs: 10_000, ...options });
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof FetchError, `a FetchError, got ${String(caught)}`);
    return { error: caught, ms: Date.now() - started };
  }

  test('a tools/list answer that never ends stops at the byte bound, which the message names', async () => {
    const { error, ms } = await failing('huge-list', { maxBytes: 4 * 1024 * 1024 });
    assert.equal(error.phase, 'list');
    assert.match(
      error.message,
      /the server sent more than 4 MB \(the bound on what one catalog fetch reads\); stopped/,
    );
    assert.ok(ms < 8_000, `stopped at the bound, not the page deadline (${ms} ms)`);
  });

  test('an initialize answer that never ends stops at the byte bound, and no SSE fallback is tried', async () => {
    const { error } = await failing('huge-init', { maxBytes: 2 * 1024 * 1024 });
    assert.equal(error.phase, 'connect');
    assert.match(error.message, /the server sent more than 2 MB/);
    assert.equal(served['huge-init'], 1, 'one initialize, no second transport');
  });

  test('pages below the page deadline add up to the same byte bound', async () => {
    const { error } = await failing('big-pages', { maxBytes: 5 * 1024 * 1024 });
    assert.equal(error.phase, 'list');
    assert.match(error.message, /the server sent more than 5 MB/);
  });

  test('cursors that never end stop at the bound on the whole listing, which the message names', async () => {
    const { error, ms } = await failing('endless-pages', { listTimeoutMs: 1_500 });
    assert.equal(error.phase, 'list');
    assert.ok(error.timedOut);
    assert.match(
      error.message,
      /tools\/list took more than 1500 ms in all \(\d+ pages?, the bound on one listing\); stopped/,
    );
    assert.ok(ms < 6_000, `${ms} ms`);
  });

  test('headers and then silence stop at the page deadline, which the message names', async () => {
    const { error } = await failing('silent', { pageTimeoutMs: 800 });
    assert.equal(error.phase, 'list');
    assert.match(error.message, /tools\/list got no answer within 800 ms/);
  });

  test('a server within the bounds is fetched as before', async () => {
    const result = await fetchCatalog(serverAt('fine'), { maxBytes: 1024 * 1024, listTimeoutMs: 5_000 });
    assert.deepEqual(
      result.tools.map((tool) => (tool as { name: string }).name),
      ['fine'],
    );
  });
});
