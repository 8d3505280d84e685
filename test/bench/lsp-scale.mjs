// The language server on large workspaces (`node test/bench/run.mjs --only lsp-scale`), beside
// `tool-lens check` on the same folders: what a cloned repository full of YAML that is not ours
// costs the editor.
//
// Two generated workspaces, each in a fresh folder under the system's temporary folder, deleted at
// the end:
// - many: 20,000 small files (`--scale-files N`): one in twenty a small gateway of ours, the rest
//   unrelated YAML and JSON (manifests, CI workflows, package files), with the two catalog captures;
// - large: 200 MB of unrelated YAML (`--scale-mb N`), in files of 1 MB (a few hundred Kubernetes
//   manifests each).
// For each, once (they are heavy): the built server over stdio, as an editor starts it, from spawn
// to the `toolLens/catalogState` notification that says the folder was read (`loaded`), and to the
// answer of the first `workspace/diagnostic` pull (every file checked), with the server's peak
// resident memory (VmHWM) at the end; and `node dist/cli.js check . --format json` in the folder,
// its time and peak memory from `measure` (run.mjs). The ratios are server/CLI.
// A server whose resident memory passes RSS_CEILING_KB is killed and reported as such, so that a
// regression cannot take a shared machine down.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { WorkspaceDiagnosticRequest } from 'vscode-languageserver-protocol/node';
import { withTimeout } from './children.mjs';
import { CATALOG_DIR, CATALOGS, generateDocument } from './generate.mjs';
import { ServerProcess } from './lsp.mjs';
import { mb, ratio, round, table } from './stats.mjs';

export const SCALE_DEFAULTS = { files: 20_000, megabytes: 200 };
/** The server's peak must stay under both (issue 24): 1.5x the CLI's on the same folder, and 400 MB. */
const TARGETS = { rssOverCli: 1.5, rssMb: 400 };
/** Past this the server is killed: a regression must not take the machine down. */
const RSS_CEILING_KB = 3 * 1024 * 1024;
/** The whole start-up of one workspace must end within this. */
const START_TIMEOUT_MS = 600_000;

// ------------------------------------------------------------------------------------------------
// Unrelated files: none holds a word of ours (core/parse/prefilter.ts), as most YAML in a
// repository does not.

function manifest(i) {
  const app = `app-${i}`;
  return `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${app}
  namespace: team-${i % 17}
  labels:
    app.kubernetes.io/name: ${app}
    app.kubernetes.io/part-of: shop
spec:
  replicas: ${1 + (i % 5)}
  selector:
    matchLabels:
      app.kubernetes.io/name: ${app}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: ${app}
    spec:
      containers:
        - name: web
          image: registry.example.com/shop/${app}:1.${i % 40}.${i % 7}
          ports:
            - containerPort: ${8000 + (i % 100)}
          env:
            - name: LOG_LEVEL
              value: info
            - name: REGION
              value: eu-west-${1 + (i % 3)}
          resources:
            requests: {cpu: 100m, memory: 128Mi}
            limits: {cpu: 500m, memory: 256Mi}
          readinessProbe:
            httpGet: {path: /healthz, port: ${8000 + (i % 100)}}
            periodSeconds: 10
`;
}

function workflow(i) {
  return `name: build ${i}
on:
  push:
    branches: [main]
  pull_request: {}
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: ${18 + (i % 3) * 2}
      - run: npm ci
      - run: npm test -- --shard ${1 + (i % 4)}/4
`;
}

function packageJson(i) {
  return `${JSON.stringify(
    {
      name: `@shop/module-${i}`,
      version: `1.${i % 30}.0`,
      private: true,
      scripts: { build: 'tsc -b', test: 'node --test' },
      dependencies: { lodash: '^4.17.21', zod: '^3.23.0' },
    },
    null,
    2,
  )}\n`;
}

/** 20,000 small files (`files`): one in twenty a small gateway of ours, the rest unrelated; the two catalogs. */
export function generateManySmall(dir, files) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'catalogs'), { recursive: true });
  for (const name of CATALOGS) writeFileSync(join(dir, 'catalogs', name), readFileSync(join(CATALOG_DIR, name)));
  const stats = { files: CATALOGS.length, ours: CATALOGS.length, bytes: 0 };
  const perFolder = 500;
  for (let i = 0; i < files - CATALOGS.length; i++) {
    const folder = join(dir, `pkg-${Math.floor(i / perFolder)}`);
    if (i % perFolder === 0) mkdirSync(folder, { recursive: true });
    let path;
    let text;
    if (i % 20 === 0) {
      path = join(folder, `gateway-${i}.vmcp.yaml`);
      text = generateDocument(60, 0x4000 + i).text;
      stats.ours++;
    } else if (i % 3 === 0) ((path = join(folder, `package-${i}.json`)), (text = packageJson(i)));
    else if (i % 3 === 1) ((path = join(folder, `ci-${i}.yml`)), (text = workflow(i)));
    else ((path = join(folder, `deploy-${i}.yaml`)), (text = manifest(i)));
    writeFileSync(path, text);
    stats.files++;
    stats.bytes += Buffer.byteLength(text);
  }
  return stats;
}

/** About `megabytes` MB of unrelated YAML, in files of 1 MB. */
export function generateLargeUnrelated(dir, megabytes) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const stats = { files: 0, ours: 0, bytes: 0 };
  let i = 0;
  for (let f = 0; f < megabytes; f++) {
    const parts = [];
    let bytes = 0;
    while (bytes < 1_000_000) {
      const text = manifest(i++);
      parts.push(text);
      bytes += text.length;
    }
    writeFileSync(join(dir, `manifests-${String(f).padStart(3, '0')}.yaml`), parts.join(''));
    stats.files++;
    stats.bytes += bytes;
  }
  return stats;
}

// ------------------------------------------------------------------------------------------------
// Measuring

function peakRssKb(pid) {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}

/** Spawn to `loaded`, and to the first workspace pull's answer; the peak RSS at the end. */
export async function serverStart(dir) {
  const started = performance.now();
  const server = new ServerProcess();
  let overCeiling = false;
  let sampledPeakKb = 0;
  const watch = setInterval(() => {
    const rss = server.rssKb();
    if (rss !== undefined) sampledPeakKb = Math.max(sampledPeakKb, rss);
    if (rss !== undefined && rss > RSS_CEILING_KB && !overCeiling) {
      overCeiling = true;
      server.child.kill('SIGKILL');
    }
  }, 50);
  try {
    const run = (async () => {
      await server.initialize(dir);
      await server.waitLoaded();
      const loadedMs = server.loadedAt - started;
      const report = await server.connection.sendRequest(WorkspaceDiagnosticRequest.type, {
        previousResultIds: [],
      });
      const checkedMs = performance.now() - started;
      return { loadedMs, checkedMs, reported: report.items.length };
    })();
    const died = server.exit.then(({ code, signal }) => {
      throw new Error(
        overCeiling
          ? `over the ceiling of ${mb(RSS_CEILING_KB)}`
          : `the server exited (${signal ?? `code ${code}`}): ${server.stderr.slice(-1000)}`,
      );
    });
    const result = await withTimeout(Promise.race([run, died]), START_TIMEOUT_MS, 'the server to check the workspace');
    const peak = peakRssKb(server.child.pid) ?? sampledPeakKb;
    return { ...result, peakRssKb: peak, logErrors: server.logErrors };
  } catch (error) {
    return { failed: String(error?.message ?? error), peakRssKb: sampledPeakKb };
  } finally {
    clearInterval(watch);
    await server.close();
  }
}

export async function lspScaleSection({ options, measure, cli }) {
  const scale = options.scale ?? SCALE_DEFAULTS;
  const base = mkdtempSync(join(tmpdir(), 'tool-lens-lsp-scale-'));
  const workspaces = [
    {
      id: 'many',
      title: `${scale.files.toLocaleString('en')} small files`,
      make: (d) => generateManySmall(d, scale.files),
    },
    {
      id: 'large',
      title: `${scale.megabytes} MB of unrelated YAML`,
      make: (d) => generateLargeUnrelated(d, scale.megabytes),
    },
  ];
  console.log(
    `\n## The language server on large workspaces, beside the CLI\n` +
      `once each (heavy): the server from spawn to the folder read (loaded) and to the first workspace pull's answer, ` +
      `its peak RSS (VmHWM); tool-lens check . --format json in the same folder\n`,
  );
  const results = [];
  try {
    for (const w of workspaces) {
      const dir = join(base, w.id);
      const stats = w.make(dir);
      const server = await serverStart(dir);
      const check = measure([cli, 'check', '.', '--format', 'json'], { okCodes: [0, 1], cwd: dir });
      rmSync(dir, { recursive: true, force: true });
      results.push({
        id: w.id,
        workspace: stats,
        server: {
          loadedMs: server.loadedMs === undefined ? undefined : round(server.loadedMs),
          checkedMs: server.checkedMs === undefined ? undefined : round(server.checkedMs),
          reported: server.reported,
          peakRssKb: server.peakRssKb,
          failed: server.failed,
          logErrors: server.logErrors?.length ?? 0,
        },
        cli: { ms: round(check.ms), peakRssKb: check.rssKb },
        ratio: {
          checkedOverCli: server.checkedMs === undefined ? undefined : ratio(server.checkedMs / check.ms),
          peakRss: ratio(server.peakRssKb / check.rssKb),
          rssTarget: TARGETS.rssOverCli,
          rssTargetMb: TARGETS.rssMb,
        },
      });
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  const ms = (n) => (n === undefined ? '-' : `${n.toFixed(0)} ms`);
  for (const [index, r] of results.entries()) {
    console.log(
      `\n### ${r.id}: ${workspaces[index].title} (${r.workspace.files.toLocaleString('en')} files, ${r.workspace.ours} of ours, ${(r.workspace.bytes / 1e6).toFixed(1)} MB)\n`,
    );
    console.log(
      table([
        ['case', 'loaded', 'checked', 'peak RSS'],
        ['language server (stdio)', ms(r.server.loadedMs), ms(r.server.checkedMs), mb(r.server.peakRssKb)],
        ['tool-lens check', '', ms(r.cli.ms), mb(r.cli.peakRssKb)],
      ]),
    );
    if (r.server.failed) console.log(`\nthe server failed: ${r.server.failed}`);
    console.log(
      `\nratio server/CLI: ${r.ratio.checkedOverCli?.toFixed(2) ?? '-'}x in time, ${r.ratio.peakRss.toFixed(2)}x in peak RSS ` +
        `(target at most ${TARGETS.rssOverCli}x and ${TARGETS.rssMb} MB)`,
    );
  }
  return { date: new Date().toISOString(), scale, workspaces: results };
}
