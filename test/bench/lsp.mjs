// The language-server section of the benchmark suite (`node test/bench/run.mjs --only lsp`).
//
// The built server runs as an editor runs it, `node dist/server.js --stdio`, driven by a small LSP
// client over the child's stdio (vscode-languageserver-protocol) that announces pull diagnostics
// and keeps a `workspace/diagnostic` long poll open, as VS Code does. Two measurements:
//
// 1. Edit latency: a ~2,000-line gateway document is opened in a workspace holding the
//    filesystem and memory catalogs, then edited N times (change a character of a template,
//    change it back, insert a line, delete it, in turn); after each edit the client pulls
//    `textDocument/diagnostic`. Each sample is the time from sending `didChange` to receiving the
//    fresh report: the round trip the client observes over stdio on the same machine, so an
//    upper bound of the server's own time (nothing is subtracted). The server's CPU time over the
//    whole edit loop (from /proc) is reported beside it.
// 2. Start-up: the time from spawning the server to the first diagnostics of a generated 100-file
//    workspace (gateways, catalogs, overlays), streamed as a partial `workspace/diagnostic` result
//    (the client sends a partial result token, as VS Code does), and to the end of that answer,
//    when every file has been reported; paired with the bare `yaml` parse of the same files in a
//    fresh node process.
// 3. Memory: the server's resident memory with the start-up workspace diagnosed, with every file
//    open, and after all are closed.
// 4. Capacity: the largest realistic gateway document whose first diagnostics come back within
//    100 ms and within 1 s of opening it, found by trying documents of doubling size.
//
// The bare `yaml` parse of the edited document (in this process, warm) is the edit baseline.
// Timings are printed and returned, never asserted. Every wait is bounded, and every server
// process started here is killed when the section ends, whatever happens.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CancellationTokenSource,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticRequest,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  LSPErrorCodes,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkspaceDiagnosticRequest,
} from 'vscode-languageserver-protocol/node';
import { parseAllDocuments } from 'yaml';
import { CATALOG_DIR, CATALOGS, generateDocument, generateLspWorkspace } from './generate.mjs';
import { live, withTimeout } from './children.mjs';
import { median, percentile, ratio, round, table } from './stats.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..', '..');
const SERVER = join(ROOT, 'dist', 'server.js');

export const LSP_DEFAULTS = { edits: 200, docLines: 2000, wsFiles: 100, starts: 3 };
const TARGETS = { editP95Ms: 30, startupMs: 1000 };

/**
 * Per-request ceiling: a server that stops answering ends the section instead of hanging it. The
 * start-up's workspace/diagnostic took 15 to 19 s on a 2-core machine shared by a dozen other jobs,
 * so the ceiling leaves room for a loaded machine; it is not a target.
 */
const REQUEST_TIMEOUT_MS = 60_000;
/** The edit loop stops early (and says so) after this long. */
const EDIT_BUDGET_MS = 40_000;

// Pull diagnostics (LSP 3.17) with refresh, as VS Code announces them.
const CAPABILITIES = {
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: false },
    diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
    publishDiagnostics: { relatedInformation: true },
  },
  workspace: {
    workspaceFolders: true,
    diagnostics: { refreshSupport: true },
    didChangeWatchedFiles: { dynamicRegistration: false },
    configuration: false,
  },
};

// ------------------------------------------------------------------------------------------------
// A minimal LSP client around one server process

export class ServerProcess {
  constructor() {
    this.child = spawn(process.execPath, [SERVER, '--stdio'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    live.add(this.child);
    this.exit = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        live.delete(this.child);
        resolve({ code, signal });
      }),
    );
    this.spawnError = undefined;
    this.child.once('error', (error) => (this.spawnError = error));
    this.stderr = '';
    this.child.stderr.on('data', (chunk) => {
      if (this.stderr.length < 64 * 1024) this.stderr += chunk.toString();
    });
    this.logErrors = [];
    this.pushes = 0;
    this.refreshes = 0;
    this.loadedAt = undefined;
    this.onLoaded = () => {
      /* nobody waits until waitLoaded() */
    };
    const connection = createProtocolConnection(
      new StreamMessageReader(this.child.stdout),
      new StreamMessageWriter(this.child.stdin),
    );
    connection.onRequest('workspace/diagnostic/refresh', () => {
      this.refreshes++;
      return null;
    });
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('workspace/configuration', (params) => (params?.items ?? []).map(() => null));
    connection.onNotification('textDocument/publishDiagnostics', () => this.pushes++);
    connection.onNotification('toolLens/catalogState', (state) => {
      if (state?.loaded && this.loadedAt === undefined) {
        this.loadedAt = performance.now();
        this.onLoaded();
      }
    });
    connection.onNotification('window/logMessage', (params) => {
      if (params?.type === 1 && this.logErrors.length < 20) this.logErrors.push(String(params.message).slice(0, 500));
    });
    this.closed = false;
    connection.onClose(() => (this.closed = true));
    connection.onError(() => {
      /* a dead server is seen by request(), through this.exit */
    });
    connection.listen();
    this.connection = connection;
  }

  /** A request that fails when the server dies or takes longer than REQUEST_TIMEOUT_MS. */
  request(type, params, what, token) {
    if (this.spawnError) return Promise.reject(this.spawnError);
    const died = this.exit.then(({ code, signal }) => {
      throw new Error(
        `the server exited (${signal ?? `code ${code}`}) while waiting for ${what}${this.stderr ? `:\n${this.stderr.slice(-2000)}` : ''}`,
      );
    });
    return withTimeout(
      Promise.race([this.connection.sendRequest(type, params, token), died]),
      REQUEST_TIMEOUT_MS,
      what,
    );
  }

  notify(type, params) {
    return this.connection.sendNotification(type, params);
  }

  async initialize(folder) {
    const uri = pathToFileURL(folder).href;
    const result = await this.request(
      InitializeRequest.type,
      {
        processId: process.pid, // the server also exits if this process dies
        clientInfo: { name: 'tool-lens-bench' },
        rootUri: uri,
        workspaceFolders: [{ uri, name: 'bench' }],
        capabilities: CAPABILITIES,
        initializationOptions: { trusted: true, settings: { workspaceDiagnostics: true } },
      },
      'initialize',
    );
    await this.notify(InitializedNotification.type, {});
    return result;
  }

  waitLoaded() {
    if (this.loadedAt !== undefined) return Promise.resolve();
    return withTimeout(
      new Promise((resolve) => (this.onLoaded = resolve)),
      REQUEST_TIMEOUT_MS,
      'the workspace to load',
    );
  }

  /** CPU time (user + system) of the server process so far, in ms; undefined where /proc is missing. */
  cpuMs() {
    try {
      const stat = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    } catch {
      return undefined;
    }
  }

  /** The server's resident memory now, in KB; undefined where /proc is missing. */
  rssKb() {
    try {
      const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    } catch {
      return undefined;
    }
  }

  /** Shutdown and exit when the server still answers; SIGKILL in any case after a short grace. */
  async close() {
    try {
      if (this.child.exitCode === null && !this.child.killed) {
        await withTimeout(this.connection.sendRequest(ShutdownRequest.type), 2000, 'shutdown');
        await this.notify(ExitNotification.type);
        await withTimeout(this.exit, 2000, 'the server to exit');
      }
    } catch {
      // fall through to the kill
    } finally {
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
      this.connection.dispose();
      await withTimeout(this.exit, 5000, 'the killed server to exit').catch(() => {
        /* SIGKILLed: nothing more to do if it is slow to go */
      });
    }
  }
}

const CLOCK_TICKS = (() => {
  const result = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const value = Number(result.stdout?.trim());
  return Number.isFinite(value) && value > 0 ? value : 100;
})();

// ------------------------------------------------------------------------------------------------
// Edit latency

/**
 * The edits, in groups of four that leave the text as it was, so every position is computed on
 * the original text: change one character of a `{{.params.X}}` template (an unknown parameter:
 * a new finding on that line), change it back, insert a `timeout:` line into a composite tool
 * that has none, delete it again. Places are drawn with a fixed seed, all over the document.
 */
function planEdits(text, count) {
  const lines = text.split('\n');
  const templates = [];
  const tools = [];
  lines.forEach((line, index) => {
    for (const match of line.matchAll(/\{\{\.params\.([a-z_]+)\}\}/g)) {
      const character = match.index + '{{.params.'.length + match[1].length - 1;
      templates.push({ line: index, character, original: line[character] });
    }
    if (/^ {2}- name: /.test(line)) tools.push({ line: index, timeout: false });
    else if (/^ {4}timeout: /.test(line) && tools.length) tools[tools.length - 1].timeout = true;
  });
  const insertable = tools.filter((t) => !t.timeout);
  if (templates.length === 0 || insertable.length === 0)
    throw new Error('the generated document has no template or tool to edit');
  let seed = 0x5eed;
  const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / (1 << 24);
  const edits = [];
  for (let i = 0; edits.length < count; i++) {
    const t = templates[Math.floor(next() * templates.length)];
    const replacement = t.original === 'x' ? 'y' : 'x';
    const charRange = {
      start: { line: t.line, character: t.character },
      end: { line: t.line, character: t.character + 1 },
    };
    const at = insertable[Math.floor(next() * insertable.length)].line + 1;
    const group = [
      { kind: 'template typo', range: charRange, text: replacement, expectLine: t.line },
      { kind: 'template fix', range: charRange, text: t.original, expectSame: true },
      {
        kind: 'insert line',
        range: { start: { line: at, character: 0 }, end: { line: at, character: 0 } },
        text: `    timeout: ${30 + (i % 60)}s\n`,
        expectSame: true,
      },
      {
        kind: 'delete line',
        range: { start: { line: at, character: 0 }, end: { line: at + 1, character: 0 } },
        text: '',
        expectSame: true,
      },
    ];
    edits.push(...group.slice(0, count - edits.length));
  }
  return edits;
}

/** A document pull; a server that says "changed while checking, pull again" is asked again. */
async function pullFresh(server, uri, previousResultId, counters) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await server.request(
        DocumentDiagnosticRequest.type,
        { textDocument: { uri }, previousResultId },
        'textDocument/diagnostic',
      );
    } catch (error) {
      const retrigger = error?.code === LSPErrorCodes.ServerCancelled && error?.data?.retriggerRequest !== false;
      if (!retrigger || attempt >= 5) throw error;
      counters.retriggers++;
    }
  }
}

/** Keeps one `workspace/diagnostic` request open, re-asking after each answer, as VS Code does. */
function workspacePoll(server, maxPolls) {
  const previous = new Map();
  let source;
  let stopped = false;
  const state = { answers: 0, errors: 0 };
  const done = (async () => {
    while (!stopped && state.answers + state.errors < maxPolls) {
      source = new CancellationTokenSource();
      try {
        const report = await server.connection.sendRequest(
          WorkspaceDiagnosticRequest.type,
          { previousResultIds: [...previous].map(([uri, value]) => ({ uri, value })) },
          source.token,
        );
        for (const item of report.items) if (item.resultId) previous.set(item.uri, item.resultId);
        state.answers++;
      } catch {
        if (stopped) break;
        state.errors++;
      }
    }
  })();
  return {
    state,
    async stop() {
      stopped = true;
      if (!server.closed) source?.cancel();
      await withTimeout(done, 3000, 'the workspace poll to end').catch(() => {
        /* cancelled: a poll slow to end is not a result */
      });
    },
  };
}

async function editLatency(out, doc, options) {
  const dir = join(out, 'lsp-edit');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'gateways'), { recursive: true });
  mkdirSync(join(dir, 'catalogs'), { recursive: true });
  for (const name of CATALOGS) copyFileSync(join(CATALOG_DIR, name), join(dir, 'catalogs', name));
  const path = join(dir, 'gateways', 'platform-edited.vmcp.yaml');
  writeFileSync(path, doc.text);
  const uri = pathToFileURL(path).href;
  const edits = planEdits(doc.text, options.edits);

  const counters = { retriggers: 0, stale: 0, verified: 0, unverified: [] };
  const samples = [];
  const kinds = {};
  let openMs;
  let baselineFindings;
  let cpu;
  let stoppedEarly;
  let poll;
  const server = new ServerProcess();
  try {
    await server.initialize(dir);
    await server.waitLoaded();
    await server.notify(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'yaml', version: 1, text: doc.text },
    });
    const openStart = performance.now();
    const first = await pullFresh(server, uri, undefined, counters);
    openMs = performance.now() - openStart;
    if (first.kind !== 'full') throw new Error(`the first pull gave a ${first.kind} report`);
    baselineFindings = first.items.length;
    // The long poll's first answer holds every file; then it waits for changes.
    poll = workspacePoll(server, options.edits * 4 + 20);
    await withTimeout(
      (async () => {
        while (poll.state.answers === 0 && poll.state.errors === 0) await new Promise((r) => setTimeout(r, 5));
      })(),
      REQUEST_TIMEOUT_MS,
      'the first workspace/diagnostic answer',
    );

    let resultId = first.resultId;
    let version = 1;
    const cpuBefore = server.cpuMs();
    const loopStart = performance.now();
    for (const edit of edits) {
      if (performance.now() - loopStart > EDIT_BUDGET_MS) {
        stoppedEarly = `stopped after ${samples.length} edits: the ${EDIT_BUDGET_MS / 1000} s budget ran out`;
        break;
      }
      version++;
      const started = performance.now();
      await server.notify(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version },
        contentChanges: [{ range: edit.range, text: edit.text }],
      });
      const report = await pullFresh(server, uri, resultId, counters);
      const ms = performance.now() - started;
      samples.push(ms);
      (kinds[edit.kind] ??= []).push(ms);
      // Fresh: a full report under a new result id, whose findings show the edit.
      if (report.kind !== 'full' || report.resultId === resultId) counters.stale++;
      else {
        const ok = edit.expectSame
          ? report.items.length === baselineFindings
          : report.items.some((d) => d.range.start.line === edit.expectLine);
        if (ok) counters.verified++;
        else if (counters.unverified.length < 5)
          counters.unverified.push(
            `${edit.kind} at line ${edit.range.start.line + 1}: ${report.items.length} findings`,
          );
      }
      resultId = report.resultId ?? resultId;
    }
    const cpuAfter = server.cpuMs();
    if (cpuBefore !== undefined && cpuAfter !== undefined)
      cpu = { totalMs: round(cpuAfter - cpuBefore), perEditMs: round((cpuAfter - cpuBefore) / samples.length) };
  } finally {
    await poll?.stop();
    await server.close();
  }

  const byKind = Object.fromEntries(
    Object.entries(kinds).map(([kind, values]) => [
      kind,
      { n: values.length, p50Ms: round(percentile(values, 50)), p95Ms: round(percentile(values, 95)) },
    ]),
  );
  return {
    document: { lines: doc.lines, compositeTools: doc.tools, bytes: doc.bytes, findings: baselineFindings },
    edits: samples.length,
    measure:
      'client-observed round trip over stdio on the same machine, from sending didChange to receiving the textDocument/diagnostic report (an upper bound of server time; nothing subtracted)',
    p50Ms: round(percentile(samples, 50)),
    p95Ms: round(percentile(samples, 95)),
    minMs: round(Math.min(...samples)),
    maxMs: round(Math.max(...samples)),
    meanMs: round(samples.reduce((a, b) => a + b, 0) / samples.length),
    firstEditMs: round(samples[0]),
    byKind,
    firstPullAfterOpenMs: round(openMs),
    serverCpu: cpu,
    fresh: {
      verified: counters.verified,
      stale: counters.stale,
      unverified: counters.unverified,
      retriggers: counters.retriggers,
    },
    workspacePoll: poll ? { ...poll.state } : undefined,
    serverLogErrors: server.logErrors,
    pushes: server.pushes,
    stoppedEarly,
    samplesMs: samples.map(round),
  };
}

// ------------------------------------------------------------------------------------------------
// Start-up

const sameFile = (uri, dir) => relative(dir, fileURLToPath(uri)).split(sep).join('/');

async function startOnce(ws) {
  const expected = new Set(ws.paths);
  const started = performance.now();
  const server = new ServerProcess();
  const received = new Set();
  let diagnostics = 0;
  let first;
  /** Counts the full reports of expected files; returns how many were new. */
  const take = (items) => {
    let added = 0;
    for (const item of items ?? []) {
      const path = sameFile(item.uri, ws.dir);
      if (item.kind !== 'full' || !expected.has(path) || received.has(path)) continue;
      received.add(path);
      diagnostics += item.items.length;
      added++;
    }
    return added;
  };
  // As VS Code does: a partial result token, so reports stream in as the server makes them.
  const partialResultToken = `bench-startup-${process.pid}-${Math.round(started)}`;
  const progress = server.connection.onProgress(
    WorkspaceDiagnosticRequest.partialResult,
    partialResultToken,
    (partial) => {
      const added = take(partial?.items);
      if (added > 0 && first === undefined) first = { ms: performance.now() - started, files: added, diagnostics };
    },
  );
  try {
    await server.initialize(ws.dir);
    const initializedMs = performance.now() - started;
    const report = await server.request(
      WorkspaceDiagnosticRequest.type,
      { previousResultIds: [], partialResultToken },
      'workspace/diagnostic',
    );
    const ms = performance.now() - started;
    const added = take(report.items);
    if (added > 0 && first === undefined) first = { ms, files: added, diagnostics };
    return {
      ms,
      firstMs: first?.ms,
      firstFiles: first?.files ?? 0,
      firstDiagnostics: first?.diagnostics ?? 0,
      initializeMs: initializedMs,
      loadedMs: server.loadedAt === undefined ? undefined : server.loadedAt - started,
      files: received.size,
      missing: [...expected].filter((p) => !received.has(p)).slice(0, 5),
      diagnostics,
      logErrors: server.logErrors.length,
    };
  } finally {
    progress.dispose();
    await server.close();
  }
}

/**
 * The server's resident memory over one session of the start-up workspace: once every file is
 * diagnosed, with every file open in the editor (each pulled), and a second after all are closed.
 */
async function memoryOnce(ws) {
  const server = new ServerProcess();
  try {
    await server.initialize(ws.dir);
    await server.request(
      WorkspaceDiagnosticRequest.type,
      { previousResultIds: [], partialResultToken: `bench-memory-${process.pid}` },
      'workspace/diagnostic',
    );
    const afterStartKb = server.rssKb();
    const uris = ws.paths.map((path) => pathToFileURL(join(ws.dir, path)).href);
    for (const [i, uri] of uris.entries()) {
      const text = readFileSync(join(ws.dir, ws.paths[i]), 'utf8');
      const languageId = uri.endsWith('.json') ? 'json' : 'yaml';
      await server.notify(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId, version: 1, text },
      });
      await server.request(DocumentDiagnosticRequest.type, { textDocument: { uri } }, `diagnostics of ${ws.paths[i]}`);
    }
    const allOpenKb = server.rssKb();
    for (const uri of uris) await server.notify(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // A request after the closes, so they have all been handled.
    await server.request(
      WorkspaceDiagnosticRequest.type,
      { previousResultIds: [] },
      'workspace/diagnostic after closing',
    );
    const afterCloseKb = server.rssKb();
    return { afterStartKb, allOpenKb, afterCloseKb, files: uris.length };
  } finally {
    await server.close();
  }
}

/** `node baseline.mjs DIR` in a fresh process: node start-up, read and `yaml` parse of every file. */
function baselineProcess(dir) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [join(HERE, 'baseline.mjs'), dir], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`baseline.mjs exited ${result.status}: ${result.stderr.slice(-1000)}`);
  return ms;
}

/** In this process, warm: `yaml` parseAllDocuments of some texts, `runs` times. */
function parseTimes(texts, runs, warmup) {
  for (let i = 0; i < warmup; i++) for (const text of texts) parseAllDocuments(text);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    for (const text of texts) parseAllDocuments(text);
    times.push(performance.now() - started);
  }
  return times;
}

function readAll(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(readFileSync(join(entry.parentPath ?? entry.path, entry.name), 'utf8'));
  }
  return out;
}

// ------------------------------------------------------------------------------------------------
// Capacity

/** Document sizes tried, in lines, smallest first; the search stops after the first over the larger budget. */
const CAPACITY_SIZES = [250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000];
const CAPACITY_BUDGETS_MS = [100, 1000];

/**
 * The largest realistic gateway document the editor checks within 100 ms and within 1 s: documents
 * of growing size (generateDocument, a fresh seed each run so nothing is reused) are opened one at
 * a time in a server holding the filesystem and memory catalogs, and the time from didOpen to the
 * first diagnostic report is taken, three runs per size (median). Each size's bare yaml parse is
 * measured beside it. The answer is the largest size whose median is within each budget.
 */
export async function capacity(out) {
  const dir = join(out, 'lsp-capacity');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'catalogs'), { recursive: true });
  for (const name of CATALOGS) copyFileSync(join(CATALOG_DIR, name), join(dir, 'catalogs', name));
  const sizes = [];
  const server = new ServerProcess();
  try {
    await server.initialize(dir);
    await server.waitLoaded();
    let opened = 0;
    for (const lines of CAPACITY_SIZES) {
      const samples = [];
      let doc;
      for (let run = 0; run < 3; run++) {
        doc = generateDocument(lines, 0x3000 + opened);
        const uri = pathToFileURL(join(dir, `capacity-${opened++}.vmcp.yaml`)).href;
        const started = performance.now();
        await server.notify(DidOpenTextDocumentNotification.type, {
          textDocument: { uri, languageId: 'yaml', version: 1, text: doc.text },
        });
        await pullFresh(server, uri, undefined, { retriggers: 0 });
        samples.push(performance.now() - started);
        await server.notify(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
      }
      const parse = parseTimes([doc.text], 5, 1);
      const steps = (doc.text.match(/^\s+- id: /gm) ?? []).length;
      const checkMs = median(samples);
      sizes.push({
        lines: doc.lines,
        compositeTools: doc.tools,
        steps,
        bytes: doc.bytes,
        checkMedianMs: round(checkMs),
        samplesMs: samples.map(round),
        parseMedianMs: round(median(parse)),
        checkOverParse: ratio(checkMs / median(parse)),
      });
      if (checkMs > CAPACITY_BUDGETS_MS[CAPACITY_BUDGETS_MS.length - 1]) break;
    }
  } finally {
    await server.close();
  }
  const within = Object.fromEntries(
    CAPACITY_BUDGETS_MS.map((budget) => {
      const fits = sizes.filter((s) => s.checkMedianMs <= budget);
      const largest = fits[fits.length - 1];
      const beyond = sizes.find((s) => s.checkMedianMs > budget);
      return [
        `${budget}ms`,
        largest
          ? {
              lines: largest.lines,
              compositeTools: largest.compositeTools,
              steps: largest.steps,
              checkMedianMs: largest.checkMedianMs,
              nextSizeMs: beyond?.checkMedianMs,
            }
          : null,
      ];
    }),
  );
  return {
    measure:
      'didOpen of a new document to its first textDocument/diagnostic report (client-observed round trip over stdio), median of 3 runs per size, each a fresh document',
    sizes,
    within,
  };
}

// ------------------------------------------------------------------------------------------------
// The section

export async function lspSection({ out, options }) {
  if (!existsSync(SERVER)) throw new Error(`${relative(ROOT, SERVER)} is missing: npm run build`);
  const settings = { ...LSP_DEFAULTS, ...options.lsp };
  const ws = generateLspWorkspace(join(out, 'lsp-workspace'), settings.wsFiles);
  const doc = generateDocument(settings.docLines);
  console.log(
    `\n## Language server over stdio (node dist/server.js --stdio)\n` +
      `edit: a ${doc.lines.toLocaleString('en')}-line gateway document (${doc.tools} composite tools) beside the filesystem and memory catalogs, ` +
      `${settings.edits} edits (template typo, its fix, insert a line, delete it, in turn), each followed by a textDocument/diagnostic pull, ` +
      `with a workspace/diagnostic long poll open as VS Code keeps one\n` +
      `start-up: ${ws.files} files (${ws.gateways} gateways with ${ws.tools} composite tools, ${ws.catalogs} catalogs, ${ws.overlays} overlays; ` +
      `${ws.lines.toLocaleString('en')} lines, ${(ws.bytes / 1e6).toFixed(1)} MB), spawn to the first streamed workspace/diagnostic result and to the answer holding all of them; ` +
      `${settings.starts} runs after a warm-up start, each followed by a fresh \`node baseline.mjs\` on the same files\n`,
  );

  // Start-up first, while nothing else of ours has run in this process.
  const starts = [];
  const baselines = [];
  await startOnce(ws); // warm-up: the server bundle into the file cache
  for (let run = 0; run < settings.starts; run++) {
    starts.push(await startOnce(ws));
    baselines.push(baselineProcess(ws.dir));
  }

  const edit = await editLatency(out, doc, settings);
  const memory = await memoryOnce(ws);
  const capacityResult = await capacity(out);

  // Baselines in this process (warm): the edited document, and the start-up workspace's files.
  const docParse = parseTimes([doc.text], 40, 5);
  const wsTexts = readAll(ws.dir);
  const wsParse = parseTimes(wsTexts, 5, 1);

  const startMs = starts.map((s) => s.ms);
  const startup = {
    workspace: {
      files: ws.files,
      gateways: ws.gateways,
      catalogs: ws.catalogs,
      overlays: ws.overlays,
      compositeTools: ws.tools,
      lines: ws.lines,
      bytes: ws.bytes,
    },
    runs: starts.length,
    measure:
      'spawn of node dist/server.js --stdio to the first partial workspace/diagnostic result with a file report (first), and to the end of the ' +
      'answer, when every file has been reported (all); one pull right after initialized, with a partial result token as VS Code sends',
    firstMedianMs: round(median(starts.map((s) => s.firstMs ?? NaN))),
    firstMinMs: round(Math.min(...starts.map((s) => s.firstMs ?? NaN))),
    firstMaxMs: round(Math.max(...starts.map((s) => s.firstMs ?? NaN))),
    firstFiles: starts[0]?.firstFiles,
    firstSamplesMs: starts.map((s) => round(s.firstMs ?? NaN)),
    medianMs: round(median(startMs)),
    minMs: round(Math.min(...startMs)),
    maxMs: round(Math.max(...startMs)),
    samplesMs: startMs.map(round),
    initializeMedianMs: round(median(starts.map((s) => s.initializeMs))),
    loadedMedianMs: round(median(starts.map((s) => s.loadedMs ?? NaN))),
    filesDiagnosed: Math.min(...starts.map((s) => s.files)),
    missing: starts.find((s) => s.missing.length)?.missing ?? [],
    diagnostics: starts[0]?.diagnostics,
    serverLogErrors: Math.max(...starts.map((s) => s.logErrors)),
  };
  const baseline = {
    startupProcess: {
      command: `node test/bench/baseline.mjs ${relative(ROOT, ws.dir)}`,
      medianMs: round(median(baselines)),
      minMs: round(Math.min(...baselines)),
      maxMs: round(Math.max(...baselines)),
      samplesMs: baselines.map(round),
    },
    workspaceParseInProcess: {
      files: wsTexts.length,
      runs: wsParse.length,
      medianMs: round(median(wsParse)),
      minMs: round(Math.min(...wsParse)),
    },
    documentParseInProcess: {
      lines: edit.document.lines,
      runs: docParse.length,
      p50Ms: round(percentile(docParse, 50)),
      p95Ms: round(percentile(docParse, 95)),
      minMs: round(Math.min(...docParse)),
    },
  };
  const ratios = {
    editP50OverParseP50: ratio(edit.p50Ms / baseline.documentParseInProcess.p50Ms),
    editP95OverParseP95: ratio(edit.p95Ms / baseline.documentParseInProcess.p95Ms),
    startupOverBaselineProcess: ratio(median(starts.map((s, i) => s.ms / baselines[i]))),
    startupOverWorkspaceParse: ratio(startup.medianMs / baseline.workspaceParseInProcess.medianMs),
  };

  const ms = (n) => (n === undefined || Number.isNaN(n) ? '-' : `${n.toFixed(1)} ms`);
  const kb = (n) => (n === undefined || Number.isNaN(n) ? 'not available' : `${(n / 1024).toFixed(0)} MB`);
  const docLines = edit.document.lines.toLocaleString('en');
  console.log(
    table([
      ['case', 'p50 / median', 'p95', 'min', 'max', 'n'],
      [
        `edit → fresh diagnostics (round trip)`,
        ms(edit.p50Ms),
        ms(edit.p95Ms),
        ms(edit.minMs),
        ms(edit.maxMs),
        edit.edits,
      ],
      [
        `  yaml parse of the ${docLines}-line document`,
        ms(baseline.documentParseInProcess.p50Ms),
        ms(baseline.documentParseInProcess.p95Ms),
        ms(baseline.documentParseInProcess.minMs),
        '',
        docParse.length,
      ],
      [
        `start-up → first diagnostics`,
        ms(startup.firstMedianMs),
        '',
        ms(startup.firstMinMs),
        ms(startup.firstMaxMs),
        startup.runs,
      ],
      [
        `start-up → ${startup.filesDiagnosed}/${ws.files} files diagnosed`,
        ms(startup.medianMs),
        '',
        ms(startup.minMs),
        ms(startup.maxMs),
        startup.runs,
      ],
      [
        `  node baseline.mjs (process) on them`,
        ms(baseline.startupProcess.medianMs),
        '',
        ms(baseline.startupProcess.minMs),
        ms(baseline.startupProcess.maxMs),
        baselines.length,
      ],
      [
        `  yaml parse of them (in process)`,
        ms(baseline.workspaceParseInProcess.medianMs),
        '',
        ms(baseline.workspaceParseInProcess.minMs),
        '',
        wsParse.length,
      ],
    ]),
  );
  const kindsText = Object.entries(edit.byKind)
    .map(([k, v]) => `${k} ${v.p50Ms}/${v.p95Ms}`)
    .join(', ');
  console.log(
    `\nedit latency p95 ${edit.p95Ms} ms (target under ${TARGETS.editP95Ms} ms), p50 ${edit.p50Ms} ms: the client-observed round trip over stdio on this machine, ` +
      `an upper bound of the server's time` +
      `\n  by edit (p50/p95 ms): ${kindsText}` +
      `\n  server CPU over the edit loop: ${edit.serverCpu ? `${edit.serverCpu.perEditMs} ms per edit (${edit.serverCpu.totalMs} ms in all, /proc)` : 'not available'}` +
      `\n  first pull after open ${edit.firstPullAfterOpenMs} ms; ${edit.document.findings} findings in the document before editing` +
      `\n  fresh: ${edit.fresh.verified}/${edit.edits} reports showed their edit, ${edit.fresh.stale} stale, ${edit.fresh.retriggers} re-pulls asked by the server` +
      (edit.fresh.unverified.length ? ` (e.g. ${edit.fresh.unverified.join('; ')})` : '') +
      (edit.stoppedEarly ? `\n  ${edit.stoppedEarly}` : '') +
      `\nstart-up: first diagnostics ${startup.firstMedianMs} ms median (target under ${TARGETS.startupMs} ms; the first partial result held ` +
      `${startup.firstFiles} file reports), all ${ws.files} files ${startup.medianMs} ms; initialize answered at ${startup.initializeMedianMs} ms, ` +
      `workspace read at ${startup.loadedMedianMs} ms` +
      (startup.filesDiagnosed < ws.files
        ? `\n  only ${startup.filesDiagnosed} of ${ws.files} files came back (missing e.g. ${startup.missing.join(', ')})`
        : '') +
      `\nratios: edit p50 / parse p50 ${ratios.editP50OverParseP50}x, edit p95 / parse p95 ${ratios.editP95OverParseP95}x, ` +
      `start-up / baseline process ${ratios.startupOverBaselineProcess}x (median of pairs), start-up / in-process parse ${ratios.startupOverWorkspaceParse}x` +
      (edit.serverLogErrors.length || startup.serverLogErrors
        ? `\nserver logged errors: ${edit.serverLogErrors.length + startup.serverLogErrors}`
        : '') +
      `\nserver memory (RSS, /proc): ${kb(memory.afterStartKb)} once the ${ws.files} files are diagnosed, ${kb(memory.allOpenKb)} with all ${memory.files} open, ` +
      `${kb(memory.afterCloseKb)} a second after closing them all`,
  );
  const fit = (budget) => {
    const w = capacityResult.within[`${budget}ms`];
    return w
      ? `${w.lines.toLocaleString('en')} lines (${w.compositeTools} composite tools, ${w.steps} steps) in ${w.checkMedianMs} ms` +
          (w.nextSizeMs ? `; the next size took ${w.nextSizeMs} ms` : '')
      : 'not even the smallest size';
  };
  console.log(
    `\ncapacity (didOpen → first diagnostics, median of 3 fresh documents per size):\n` +
      table([
        ['lines', 'composite tools', 'steps', 'check', 'yaml parse', 'check / parse'],
        ...capacityResult.sizes.map((s) => [
          s.lines.toLocaleString('en'),
          s.compositeTools,
          s.steps,
          ms(s.checkMedianMs),
          ms(s.parseMedianMs),
          `${s.checkOverParse}x`,
        ]),
      ]) +
      `\nlargest document checked within 100 ms: ${fit(100)}\nlargest document checked within 1 s: ${fit(1000)}`,
  );
  return {
    date: new Date().toISOString(),
    server: 'node dist/server.js --stdio',
    targets: TARGETS,
    edit,
    startup,
    baseline,
    ratios,
    memory,
    capacity: capacityResult,
  };
}
