// Push diagnostics side by side with yaml-language-server (`node test/bench/run.mjs --only lsp-push`).
//
// Clients without pull diagnostics (Neovim, Helix) get diagnostics by push. Both servers run as such
// an editor runs them, over stdio, with a client that announces no pull diagnostics, answers
// `workspace/configuration`, and for yaml-language-server sets `yaml.schemas` to Tool Lens's own
// JSON Schema of the file (schemas/vmcp-config.schema.json, by file URI: its `$ref`s are files
// beside it). The same ~2,000-line gateway document, in the same run:
//
// 1. initialize: spawn to the `initialize` answer;
// 2. first diagnostics: `didOpen` (sent right after `initialized`) to the first
//    `publishDiagnostics` of the document; the document is an editor's only (not on disk), so
//    neither server has checked it before;
// 3. edit → fresh diagnostics: a schema slip and its repair in turn (a key misspelt, then restored;
//    a number made a word, then restored), each timed from sending `didChange` to the publish of
//    that version (Tool Lens sends the version; yaml-language-server sends none, so its first
//    publish after the change counts, which is never one of an older text because each edit waits
//    for the one before). Both servers stay up and take the edits in turn, so the machine's load
//    falls on both alike.
//
// Each publish is checked: a slip must bring a diagnostic on its line, a repair the document's
// first count back. That makes sure yaml-language-server really validates against the schema
// (a server that published nothing, or never found the schema, would show here).
// yaml-language-server waits a fixed 200 ms (its `validationDelayMs`, not a setting) before each
// validation; its figures minus that wait are printed beside them, so its checking is seen apart
// from its debounce. Timings are printed and returned, never asserted.
//
// Standalone smoke run (a few edits, one start each): node test/bench/lsp-push.mjs --smoke
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { CATALOG_DIR, CATALOGS, generateDocument } from './generate.mjs';
import { live, withTimeout } from './children.mjs';
import { median, percentile, ratio, round, table } from './stats.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..', '..');
const SERVER = join(ROOT, 'dist', 'server.js');
const SCHEMA = join(ROOT, 'schemas', 'vmcp-config.schema.json');
const require = createRequire(import.meta.url);

export const PUSH_DEFAULTS = { edits: 100, docLines: 2000, starts: 3 };
const TARGETS = { editP95Ms: 40, editP50SpeedupOverYamlLs: 5 };
/** yaml-language-server's fixed wait before each validation (yamlSettings.validationDelayMs). */
const YAML_LS_DELAY_MS = 200;
const TIMEOUT_MS = 20_000;

function yamlLsBin() {
  try {
    return join(require.resolve('yaml-language-server/package.json'), '..', 'bin', 'yaml-language-server');
  } catch {
    return undefined;
  }
}

/** The `yaml` settings an editor with the YAML extension would hold for this workspace. */
function yamlSettings() {
  return {
    validate: true,
    hover: true,
    completion: true,
    schemas: { [pathToFileURL(SCHEMA).href]: ['*.vmcp.yaml'] },
    schemaStore: { enable: false },
    kubernetesCRDStore: { enable: false },
  };
}

/** One language server over stdio, with a push-only client. */
class PushClient {
  constructor(name, args) {
    this.name = name;
    this.spawnedAt = performance.now();
    this.child = spawn(process.execPath, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    live.add(this.child);
    this.exit = new Promise((resolve) => this.child.once('exit', () => (live.delete(this.child), resolve())));
    this.stderr = '';
    this.child.stderr.on('data', (chunk) => {
      if (this.stderr.length < 16 * 1024) this.stderr += chunk.toString();
    });
    this.publishes = [];
    this.waiters = [];
    this.configurationAsked = 0;
    const connection = createProtocolConnection(
      new StreamMessageReader(this.child.stdout),
      new StreamMessageWriter(this.child.stdin),
    );
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('workspace/configuration', (params) => {
      this.configurationAsked++;
      return (params?.items ?? []).map((item) =>
        item.section === 'yaml' ? yamlSettings() : item.section === 'toolLens' ? {} : null,
      );
    });
    connection.onNotification('textDocument/publishDiagnostics', (params) => {
      this.publishes.push({
        at: performance.now(),
        uri: params.uri,
        version: params.version,
        diagnostics: params.diagnostics,
      });
      for (const waiter of [...this.waiters]) waiter();
    });
    connection.onNotification(() => {
      /* logs, catalog states: not measured here */
    });
    connection.onError(() => {
      /* a dead server is seen by the waits timing out */
    });
    connection.listen();
    this.connection = connection;
  }

  /** The first publish of `uri` from index `from` on that `accept` takes. */
  waitPublish(uri, from, accept, what) {
    const find = () => {
      for (let i = from; i < this.publishes.length; i++) {
        const p = this.publishes[i];
        if (p.uri === uri && accept(p)) return p;
      }
      return undefined;
    };
    const found = find();
    if (found) return Promise.resolve(found);
    let waiter;
    return withTimeout(
      new Promise((resolve) => {
        waiter = () => {
          const p = find();
          if (p) resolve(p);
        };
        this.waiters.push(waiter);
      }),
      TIMEOUT_MS,
      `${this.name}: ${what}${this.stderr ? `\n${this.stderr.slice(-1500)}` : ''}`,
    ).finally(() => (this.waiters = this.waiters.filter((w) => w !== waiter)));
  }

  async initialize(folder) {
    const uri = pathToFileURL(folder).href;
    await withTimeout(
      this.connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        clientInfo: { name: 'tool-lens-bench-push' },
        rootUri: uri,
        workspaceFolders: [{ uri, name: 'bench' }],
        capabilities: {
          textDocument: {
            synchronization: { dynamicRegistration: false },
            publishDiagnostics: { relatedInformation: true, versionSupport: true },
          },
          workspace: {
            workspaceFolders: true,
            configuration: true,
            didChangeConfiguration: { dynamicRegistration: false },
          },
        },
        initializationOptions: { settings: { workspaceDiagnostics: true } },
      }),
      TIMEOUT_MS,
      `${this.name}: initialize`,
    );
    const initializeMs = performance.now() - this.spawnedAt;
    await this.connection.sendNotification(InitializedNotification.type, {});
    return initializeMs;
  }

  /** CPU time (user + system) of the server so far, in ms; undefined where /proc is missing. */
  cpuMs() {
    try {
      const stat = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    } catch {
      return undefined;
    }
  }

  async close() {
    try {
      await withTimeout(this.connection.sendRequest(ShutdownRequest.type), 3000, 'shutdown');
      await this.connection.sendNotification(ExitNotification.type);
      await withTimeout(this.exit, 3000, 'exit');
    } catch {
      // killed below
    } finally {
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
      this.connection.dispose();
      await withTimeout(this.exit, 5000, 'the killed server').catch(() => {
        /* nothing more to do */
      });
    }
  }
}

const CLOCK_TICKS = (() => {
  const value = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim());
  return Number.isFinite(value) && value > 0 ? value : 100;
})();

function servers(yamlBin) {
  return [
    { name: 'Tool Lens', args: [SERVER, '--stdio'] },
    { name: 'yaml-language-server', args: [yamlBin, '--stdio'] },
  ];
}

// ------------------------------------------------------------------------------------------------
// The edits

/**
 * Pairs that leave the text as it was, so every position is computed on the original: a composite
 * tool's `description` key misspelt (a key the schema does not allow, and the required one missing)
 * and restored; a `retryCount` number made a word and restored. Places drawn with a fixed seed.
 */
function planEdits(text, count) {
  const lines = text.split('\n');
  const keys = [];
  const numbers = [];
  lines.forEach((line, index) => {
    if (/^ {4}description: /.test(line))
      keys.push({ line: index, character: 4 + 'description'.length - 1, original: 'n', slip: 'm' });
    const retry = /^( +retryCount: )(\d+)$/.exec(line);
    if (retry) numbers.push({ line: index, character: retry[1].length, original: retry[2], slip: 'two' });
  });
  if (keys.length === 0 || numbers.length === 0)
    throw new Error('the generated document has no description key or retryCount to edit');
  let seed = 0x9e11;
  const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / (1 << 24);
  const edits = [];
  for (let i = 0; edits.length < count; i++) {
    const kind = i % 2 === 0 ? 'key' : 'type';
    const places = kind === 'key' ? keys : numbers;
    const p = places[Math.floor(next() * places.length)];
    const range = (length) => ({
      start: { line: p.line, character: p.character },
      end: { line: p.line, character: p.character + length },
    });
    edits.push({ kind: `${kind} slip`, range: range(p.original.length), text: p.slip, slipLine: p.line });
    if (edits.length < count)
      edits.push({ kind: `${kind} repair`, range: range(p.slip.length), text: p.original, repair: true });
  }
  return edits;
}

// ------------------------------------------------------------------------------------------------
// Measuring

async function startOnce(server, dir, uri, text) {
  const client = new PushClient(server.name, server.args);
  try {
    const initializeMs = await client.initialize(dir);
    const openedAt = performance.now();
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'yaml', version: 1, text },
    });
    const first = await client.waitPublish(uri, 0, () => true, 'the first diagnostics after open');
    return { initializeMs, firstMs: first.at - openedAt, firstCount: first.diagnostics.length };
  } finally {
    await client.close();
  }
}

async function editBoth(list, dir, uri, text, edits) {
  const clients = list.map((s) => new PushClient(s.name, s.args));
  const results = list.map(() => ({
    samples: [],
    kinds: {},
    verified: 0,
    unverified: [],
    baseline: undefined,
    cpuBefore: undefined,
    cpuAfter: undefined,
  }));
  try {
    for (const client of clients) await client.initialize(dir);
    for (const [i, client] of clients.entries()) {
      await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'yaml', version: 1, text },
      });
      // The document's own count once both have settled: the last publish after a quiet moment.
      await client.waitPublish(uri, 0, () => true, 'the diagnostics after open');
      await new Promise((r) => setTimeout(r, YAML_LS_DELAY_MS + 300));
      results[i].baseline = client.publishes.filter((p) => p.uri === uri).at(-1).diagnostics.length;
    }
    let version = 1;
    clients.forEach((client, i) => (results[i].cpuBefore = client.cpuMs()));
    for (const edit of edits) {
      version++;
      for (const [i, client] of clients.entries()) {
        const r = results[i];
        const from = client.publishes.length;
        const started = performance.now();
        await client.connection.sendNotification(DidChangeTextDocumentNotification.type, {
          textDocument: { uri, version },
          contentChanges: [{ range: edit.range, text: edit.text }],
        });
        const published = await client.waitPublish(
          uri,
          from,
          (p) => p.version === undefined || p.version === version,
          `the diagnostics of version ${version}`,
        );
        const ms = published.at - started;
        r.samples.push(ms);
        (r.kinds[edit.kind] ??= []).push(ms);
        const ok = edit.repair
          ? published.diagnostics.length === r.baseline
          : published.diagnostics.some((d) => d.range.start.line === edit.slipLine);
        if (ok) r.verified++;
        else if (r.unverified.length < 3)
          r.unverified.push(
            `${edit.kind} at line ${edit.range.start.line + 1}: ${published.diagnostics.length} diagnostics`,
          );
        // A settled server between edits: neither takes the next edit while still busy with this one.
        await new Promise((r) => setImmediate(r));
      }
    }
    clients.forEach((client, i) => (results[i].cpuAfter = client.cpuMs()));
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
  return results.map((r) => ({
    edits: r.samples.length,
    p50Ms: round(percentile(r.samples, 50)),
    p95Ms: round(percentile(r.samples, 95)),
    minMs: round(Math.min(...r.samples)),
    maxMs: round(Math.max(...r.samples)),
    byKind: Object.fromEntries(
      Object.entries(r.kinds).map(([k, v]) => [
        k,
        { n: v.length, p50Ms: round(percentile(v, 50)), p95Ms: round(percentile(v, 95)) },
      ]),
    ),
    documentDiagnostics: r.baseline,
    serverCpuPerEditMs:
      r.cpuBefore !== undefined && r.cpuAfter !== undefined
        ? round((r.cpuAfter - r.cpuBefore) / r.samples.length)
        : undefined,
    verified: r.verified,
    unverified: r.unverified,
  }));
}

// ------------------------------------------------------------------------------------------------
// The section

export async function lspPushSection({ out, options = {} }) {
  if (!existsSync(SERVER)) throw new Error(`${relative(ROOT, SERVER)} is missing: npm run build`);
  const yamlBin = yamlLsBin();
  if (!yamlBin) throw new Error('yaml-language-server is not installed (a devDependency): npm install');
  const settings = { ...PUSH_DEFAULTS, ...options.push };
  const dir = join(out, 'lsp-push');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'catalogs'), { recursive: true });
  mkdirSync(join(dir, 'gateways'), { recursive: true });
  for (const name of CATALOGS) copyFileSync(join(CATALOG_DIR, name), join(dir, 'catalogs', name));
  const doc = generateDocument(settings.docLines);
  // An editor's document only: neither server has read it before it is opened.
  const uri = pathToFileURL(join(dir, 'gateways', 'platform-edited.vmcp.yaml')).href;
  const edits = planEdits(doc.text, settings.edits);
  const list = servers(yamlBin);
  const version = require('yaml-language-server/package.json').version;
  console.log(
    `\n## Push diagnostics: Tool Lens beside yaml-language-server ${version}\n` +
      `a ${doc.lines.toLocaleString('en')}-line gateway document (${doc.tools} composite tools), opened by a client without pull diagnostics; ` +
      `yaml-language-server validates it against schemas/vmcp-config.schema.json (yaml.schemas through workspace/configuration); ` +
      `${settings.starts} start-ups of each after a warm-up, taken in turn; ${edits.length} edits (a schema slip, its repair, in turn), each server taking each edit in turn\n`,
  );

  const starts = list.map(() => []);
  for (const server of list) await startOnce(server, dir, uri, doc.text); // warm-up: the bundles into the file cache
  for (let run = 0; run < settings.starts; run++) {
    for (const [i, server] of list.entries()) starts[i].push(await startOnce(server, dir, uri, doc.text));
  }
  const edit = await editBoth(list, dir, uri, doc.text, edits);

  const summary = list.map((server, i) => ({
    server: server.name,
    initializeMedianMs: round(median(starts[i].map((s) => s.initializeMs))),
    firstDiagnosticsMedianMs: round(median(starts[i].map((s) => s.firstMs))),
    firstDiagnosticsCount: starts[i][0]?.firstCount,
    edit: edit[i],
  }));
  const [tl, yl] = summary;
  const lessDelay = (ms) => round(ms - YAML_LS_DELAY_MS);
  const ratios = {
    initialize: ratio(yl.initializeMedianMs / tl.initializeMedianMs),
    firstDiagnostics: ratio(yl.firstDiagnosticsMedianMs / tl.firstDiagnosticsMedianMs),
    editP50: ratio(yl.edit.p50Ms / tl.edit.p50Ms),
    editP95: ratio(yl.edit.p95Ms / tl.edit.p95Ms),
    editP50LessItsDelay: ratio(lessDelay(yl.edit.p50Ms) / tl.edit.p50Ms),
    editP95LessItsDelay: ratio(lessDelay(yl.edit.p95Ms) / tl.edit.p95Ms),
    serverCpuPerEdit: tl.edit.serverCpuPerEditMs
      ? ratio(yl.edit.serverCpuPerEditMs / tl.edit.serverCpuPerEditMs)
      : undefined,
  };
  const ms = (n) => (n === undefined || Number.isNaN(n) ? '-' : `${n.toFixed(1)} ms`);
  console.log(
    table([
      ['', 'Tool Lens', 'yaml-language-server', 'its, less its 200 ms wait', 'yaml-ls / Tool Lens'],
      [
        'initialize (spawn → answer), median',
        ms(tl.initializeMedianMs),
        ms(yl.initializeMedianMs),
        '',
        `${ratios.initialize}x`,
      ],
      [
        'didOpen → first diagnostics, median',
        ms(tl.firstDiagnosticsMedianMs),
        ms(yl.firstDiagnosticsMedianMs),
        ms(lessDelay(yl.firstDiagnosticsMedianMs)),
        `${ratios.firstDiagnostics}x`,
      ],
      [
        'edit → fresh diagnostics, p50',
        ms(tl.edit.p50Ms),
        ms(yl.edit.p50Ms),
        ms(lessDelay(yl.edit.p50Ms)),
        `${ratios.editP50}x (${ratios.editP50LessItsDelay}x)`,
      ],
      [
        'edit → fresh diagnostics, p95',
        ms(tl.edit.p95Ms),
        ms(yl.edit.p95Ms),
        ms(lessDelay(yl.edit.p95Ms)),
        `${ratios.editP95}x (${ratios.editP95LessItsDelay}x)`,
      ],
      [
        'server CPU per edit (/proc), mean',
        ms(tl.edit.serverCpuPerEditMs),
        ms(yl.edit.serverCpuPerEditMs),
        '',
        tl.edit.serverCpuPerEditMs ? `${ratio(yl.edit.serverCpuPerEditMs / tl.edit.serverCpuPerEditMs)}x` : '-',
      ],
    ]),
  );
  const verified = (s) =>
    `${s.edit.verified}/${s.edit.edits} publishes showed their edit` +
    (s.edit.unverified.length ? ` (not: ${s.edit.unverified.join('; ')})` : '');
  console.log(
    `\nload average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(', ')} on ${availableParallelism()} cores (wall times stretch with it; the CPU times less so)` +
      `\nTool Lens push edit p95 ${tl.edit.p95Ms} ms (target under ${TARGETS.editP95Ms} ms); p50 ${ratios.editP50}x faster than yaml-language-server (target ${TARGETS.editP50SpeedupOverYamlLs}x)` +
      `\n  Tool Lens: ${verified(tl)}; ${tl.edit.documentDiagnostics} diagnostics in the document before editing, ${tl.firstDiagnosticsCount} in its first publish` +
      `\n  yaml-language-server: ${verified(yl)}; ${yl.edit.documentDiagnostics} diagnostics in the document before editing, ${yl.firstDiagnosticsCount} in its first publish` +
      `\n  by edit (p50/p95 ms): ` +
      summary
        .map(
          (s) =>
            `${s.server}: ${Object.entries(s.edit.byKind)
              .map(([k, v]) => `${k} ${v.p50Ms}/${v.p95Ms}`)
              .join(', ')}`,
        )
        .join('; '),
  );
  return {
    date: new Date().toISOString(),
    document: { lines: doc.lines, compositeTools: doc.tools, bytes: doc.bytes },
    yamlLanguageServer: { version, validationDelayMs: YAML_LS_DELAY_MS, schema: relative(ROOT, SCHEMA) },
    measure:
      "client-observed over stdio on the same machine: spawn to the initialize answer; didOpen to the first publishDiagnostics of the document; didChange to the publish of that version; and each server's CPU time over the edit loop from /proc (less sensitive to the machine's load than the wall times)",
    loadAverage: loadavg().map((n) => round(n)),
    targets: TARGETS,
    servers: summary,
    starts: Object.fromEntries(
      list.map((s, i) => [
        s.name,
        starts[i].map((x) => ({ initializeMs: round(x.initializeMs), firstMs: round(x.firstMs) })),
      ]),
    ),
    ratios,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const smoke = process.argv.includes('--smoke');
  const out = join(HERE, 'out');
  mkdirSync(out, { recursive: true });
  lspPushSection({ out, options: { push: smoke ? { edits: 8, starts: 1 } : {} } }).catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
