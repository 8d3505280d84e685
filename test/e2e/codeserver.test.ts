// VS Code for real: code-server (VS Code 1.100's server and web workbench, installed by
// scripts/setup-code-server.sh) in Debian's headless Chromium, driven by playwright-core.
//
// The extension is packaged into a .vsix and installed with `--install-extension` into a fresh
// extensions dir, with the README's commands (Installing), then two tests run against it:
//   - in the extension host (test/e2e/codeserver.host.ts, handed to the workbench as
//     `extensionTestsPath`): activation, diagnostics, a quick fix applied, the floor hover, the
//     contributed schemas;
//   - in the browser: the gateway opened from the Explorer shows a squiggle and a Problems row
//     naming the rule (the screenshot is kept in .tmp/e2e/codeserver-problems.png), and the
//     Advertised Tools view lists what the gateway withholds and opens where a tool comes from. This copy of
//     the workspace has no .toollens.yaml, so only opening the YAML file can activate the
//     extension (`onLanguage:yaml`), and the catalog is found by its content.
// Each gets its own copy of test/e2e/workspace/, so nothing one does (a fix, a backup of a
// dirty file) leaks into the other. Skipped, saying so, only when code-server or Chromium is
// not installed. The run's folder (logs, workspaces, .vsix) is kept when a test fails, or
// always with TOOL_LENS_E2E_KEEP=1.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { screenshotTests } from './browser-screenshots.js';
import type { HostCheck, HostPlan } from './codeserver.host.js';
import type { TypingPlan } from './host-typing.js';
import type { ClientsPlan } from './host-clients.js';

const ROOT = join(__dirname, '..', '..');
const CODE_SERVER_VERSION = '4.100.3';
const CODE_SERVER = join(
  process.env.CODE_SERVER_DIR ?? join(ROOT, '.tmp', 'code-server'),
  `code-server-${CODE_SERVER_VERSION}`,
);
const CODE_SERVER_ENTRY = join(CODE_SERVER, 'out', 'node', 'entry.js');
const CHROMIUM = '/usr/bin/chromium';
const WORKSPACE = join(__dirname, 'workspace');
const GATEWAY = 'gateways/docs.vmcp.yaml';
const COMPOSITE = 'publish_readme';
const RULE = 'annotations/contradiction';
const SCREENSHOT = join(ROOT, '.tmp', 'e2e', 'codeserver-problems.png');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  publisher: string;
  name: string;
  version: string;
};
const EXTENSION_ID = `${manifest.publisher}.${manifest.name}`;

// Bounds: a broken build fails within these, never hangs.
const STEP_MS = 45000;
const TEST_MS = 90000;
/** The typing test waits for each of seven states to settle. */
const TYPING_MS = 150000;

function skipReason(): string | false {
  const missing: string[] = [];
  if (!existsSync(join(CODE_SERVER, '.tool-lens-installed')))
    missing.push(`code-server ${CODE_SERVER_VERSION} (bash scripts/setup-code-server.sh)`);
  if (!existsSync(CHROMIUM)) missing.push(`Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
  return missing.length ? `not installed: ${missing.join('; ')}. The code-server end-to-end tests did not run` : false;
}

// Chromium as the harness runs it on this machine: headless, no sandbox (root), no GPU, and no
// traffic of its own (no component updates, sync or background requests).
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'files.hotExit': 'off',
};

function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? ROOT,
    env: options.env ?? process.env,
    encoding: 'utf8',
    timeout: STEP_MS * 2,
  });
  assert.equal(
    result.status,
    0,
    `${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}`,
  );
  return result.stdout;
}

/** The commands of the README's block that installs the extension, without their comments. */
function readmeExtensionInstall(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /The extension, from the `\.vsix` a clone builds:\n\n```sh\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, "the README's Installing section has the extension's commands");
  return block[1]!
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitUntil(what: string, probe: () => boolean | Promise<boolean>, ms = STEP_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** True while any process of the group led by `pid` is alive. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

interface Session {
  dir: string;
  port: number;
  extensionsDir: string;
  server: ChildProcess;
  log: string;
  browser: Browser;
}

function workspaceCopy(dir: string, name: string, options: { config: boolean }): string {
  const copy = join(dir, name);
  cpSync(WORKSPACE, copy, { recursive: true });
  if (!options.config) rmSync(join(copy, '.toollens.yaml'));
  return copy;
}

function logTail(session: Session | undefined): string {
  if (!session || !existsSync(session.log)) return '';
  return `\ncode-server log (last lines, all in ${session.log}):\n${readFileSync(session.log, 'utf8').split('\n').slice(-30).join('\n')}`;
}

/**
 * The warnings and errors the extension host logged about Tool Lens: its own output channel, and
 * what VS Code says about it (e.g. a setting read with the wrong scope) in the host's log.
 */
function extensionHostComplaints(logs: string): string[] {
  const found: string[] = [];
  const visit = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) visit(full);
      else if (name === 'remoteexthost.log' || name === 'Tool Lens.log') {
        const lines = readFileSync(full, 'utf8').split('\n');
        lines.forEach((line, i) => {
          const level = /\[(warning|error)\]/.exec(line);
          if (!level || (name !== 'Tool Lens.log' && !line.includes(`[${EXTENSION_ID}]`))) return;
          // When the window closes while a request is on its way, VS Code ends the connection under
          // it and logs the provider as failed with "Channel has been closed": shutdown, not a fault.
          if (line.includes('provider FAILED') && lines[i + 1]?.includes('Channel has been closed')) return;
          found.push(`${name}: ${line}`);
        });
      }
    }
  };
  if (existsSync(logs)) visit(logs);
  return found;
}

/** Reports the time since the test started at each step, as test diagnostics. */
function stopwatch(t: { diagnostic(message: string): void }): (step: string) => void {
  const started = Date.now();
  return (step) => t.diagnostic(`${((Date.now() - started) / 1000).toFixed(1)} s: ${step}`);
}

/**
 * One project's MCP client configurations, each with a mistake of its client: VS Code's with a
 * GitHub token in `env` and an unpinned `npx -y` package (JSONC: a comment, trailing commas),
 * Claude Code's naming the same server with a pinned version, Codex's with an inline `bearer_token`.
 * The credentials are fakes of the real shape, put together here so that no scanner takes the
 * test's source for a leak.
 */
function clientFiles(): { texts: ClientsPlan['texts']; secrets: string[] } {
  const github = ['ghp', '4Qz8mN2vB7xK1pL9sT3wY6rD0fH5jC8aE2uG'].join('_');
  const openai = ['sk', 'proj', '7fQ2mX9vL4kP8nR3tW6yB1cD5gH0jS2a'].join('-');
  const vscode = [
    '{',
    "  // The project's servers for VS Code.",
    '  "servers": {',
    '    "github": {',
    '      "type": "stdio",',
    '      "command": "npx",',
    '      "args": ["-y", "@modelcontextprotocol/server-github"],',
    `      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "${github}" },`,
    '    },',
    '  },',
    '}',
    '',
  ].join('\n');
  const claude = [
    '{',
    '  "mcpServers": {',
    '    "github": {',
    '      "command": "npx",',
    '      "args": ["-y", "@modelcontextprotocol/server-github@2025.4.8"],',
    '      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_PERSONAL_ACCESS_TOKEN}" }',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
  const codex = [
    'model = "o4-mini"',
    '',
    '[mcp_servers.docs]',
    'url = "https://mcp.example.com/mcp"',
    `bearer_token = "${openai}"`,
    '',
  ].join('\n');
  return { texts: { vscode, claude, codex }, secrets: [github, openai] };
}

const skip = skipReason();
const SUITE = 'code-server with the extension installed from its .vsix';

// A skipped test (not a skipped suite, which counts no test) so the runner's summary shows the skip.
if (skip) test(SUITE, { skip }, () => undefined);
else
  describe(SUITE, () => {
    let dir: string | undefined;
    let server: ChildProcess | undefined;
    let browser: Browser | undefined;
    let session: Session | undefined;
    let failures = 0;
    // If this process ends before `after` runs (an exception, Ctrl+C, the runner's SIGTERM),
    // code-server and its extension hosts end with it.
    const onExit = () => {
      if (server?.pid !== undefined) killGroup(server.pid, 'SIGKILL');
    };
    const onSignal = (signal: NodeJS.Signals) => {
      onExit();
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
      process.kill(process.pid, signal);
    };

    before(
      async () => {
        try {
          dir = mkdtempSync(join(tmpdir(), 'tool-lens-codeserver-'));
          const env = { ...process.env, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data') };
          const userDir = join(dir, 'user');
          const extensionsDir = join(dir, 'extensions');
          const codeServer = [CODE_SERVER_ENTRY, '--user-data-dir', userDir, '--extensions-dir', extensionsDir];

          // The README's words (Installing): `npm ci` (this checkout's install), `npm run package`,
          // `code --install-extension tool-lens.vsix`, which code-server takes as it is. One change:
          // the .vsix is written to this run's folder (`--out`), not into the checkout.
          assert.deepEqual(readmeExtensionInstall(), [
            'npm ci',
            'npm run package',
            'code --install-extension tool-lens.vsix',
          ]);
          run('npm', ['run', 'package', '--', '--out', join(dir, 'tool-lens.vsix')]);
          const installed = run(process.execPath, [...codeServer, '--install-extension', 'tool-lens.vsix'], {
            env,
            cwd: dir,
          });
          assert.match(installed, /successfully installed/, installed);

          mkdirSync(join(userDir, 'User'), { recursive: true });
          writeFileSync(join(userDir, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));

          const port = await freePort();
          const log = join(dir, 'code-server.log');
          const out = createWriteStream(log);
          // detached: a session and process group of its own (setsid), so that killing the group ends
          // the extension hosts and the language servers they forked too.
          const started = spawn(
            process.execPath,
            [
              ...codeServer,
              '--bind-addr',
              `127.0.0.1:${port}`,
              '--auth',
              'none',
              '--disable-telemetry',
              '--disable-update-check',
              '--disable-workspace-trust',
              '--disable-getting-started-override',
            ],
            { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
          );
          server = started;
          process.once('exit', onExit);
          process.once('SIGINT', onSignal);
          process.once('SIGTERM', onSignal);
          started.stdout.pipe(out);
          started.stderr.pipe(out);
          browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: STEP_MS });
          const candidate: Session = { dir, port, extensionsDir, server: started, log, browser };
          await waitUntil('code-server to answer /healthz', async () => {
            if (started.exitCode !== null)
              throw new Error(`code-server exited with ${started.exitCode}${logTail(candidate)}`);
            const response = await fetch(`http://127.0.0.1:${port}/healthz`).catch((error: unknown) => {
              if (error instanceof TypeError) return undefined; // not listening yet
              throw error;
            });
            return response?.ok === true;
          });
          session = candidate;
        } catch (error) {
          failures++;
          throw error;
        }
      },
      { timeout: TEST_MS },
    );

    after(async () => {
      await browser?.close();
      const pid = server?.pid;
      if (pid !== undefined) {
        killGroup(pid, 'SIGTERM');
        await waitUntil('code-server and its children to exit', () => !groupAlive(pid), 5000).catch(() =>
          killGroup(pid, 'SIGKILL'),
        );
      }
      process.removeListener('exit', onExit);
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
      if (!dir) return;
      if (failures === 0 && !process.env.TOOL_LENS_E2E_KEEP) rmSync(dir, { recursive: true, force: true });
      else console.log(`code-server e2e: logs, workspaces and the .vsix kept in ${dir}`);
    });

    async function newPage(browser: Browser, problems: string[]): Promise<Page> {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      return page;
    }

    /**
     * Runs the host module `entry` (bundled into a runner of its own, `name`) in the extension host
     * of a workbench opened on `workspace`, and reports each check it recorded as a subtest.
     * `plan` is what the module reads from `plan.json` beside it; `results` is added to it.
     */
    async function hostTests(
      t: TestContext,
      name: string,
      entry: string,
      workspace: string,
      plan: Record<string, unknown>,
      timeoutMs = TEST_MS,
    ): Promise<void> {
      const s = session!;
      const problems: string[] = [];
      const lap = stopwatch(t);
      try {
        const runner = join(s.dir, name);
        mkdirSync(runner);
        // The workbench needs an extension under development to run tests from; this one
        // contributes nothing, so Tool Lens itself stays the extension installed from the .vsix.
        writeFileSync(
          join(runner, 'package.json'),
          JSON.stringify({
            name: 'tool-lens-e2e-runner',
            publisher: 'tool-lens-tests',
            version: '0.0.0',
            engines: { vscode: '^1.100.0' },
          }),
        );
        await build({
          entryPoints: [join(__dirname, entry)],
          outfile: join(runner, 'host.js'),
          bundle: true,
          platform: 'node',
          format: 'cjs',
          target: 'node20',
          external: ['vscode'],
          logLevel: 'warning',
        });
        const results = join(runner, 'results.json');
        writeFileSync(join(runner, 'plan.json'), JSON.stringify({ ...plan, results }, null, 2));

        const page = await newPage(s.browser, problems);
        const hostLog: string[] = [];
        let exited: (code: number) => void = () => undefined;
        const exit = new Promise<number>((resolve) => (exited = resolve));
        // The hooks VS Code's workbench calls when it runs extension tests (as @vscode/test-web uses them).
        await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown[]) =>
          hostLog.push(args.map(String).join(' ')),
        );
        await page.exposeFunction('codeAutomationExit', (code: number) => exited(code));
        const authority = `127.0.0.1:${s.port}`;
        const payload = JSON.stringify([
          ['extensionDevelopmentPath', `vscode-remote://${authority}${runner}`],
          ['extensionTestsPath', `vscode-remote://${authority}${join(runner, 'host.js')}`],
        ]);
        await page.goto(
          `http://${authority}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`,
        );
        lap('workbench requested');
        let timer: NodeJS.Timeout | undefined;
        const code = await Promise.race([
          exit,
          new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs - 10000))),
        ]);
        clearTimeout(timer);
        lap(`extension-host tests ended (exit ${code})`);
        await page.close();
        const context = `\nextension host log:\n${hostLog.join('\n')}${problems.length ? `\n${problems.join('\n')}` : ''}${logTail(s)}`;
        assert.ok(existsSync(results), `the extension-host tests wrote no results (exit: ${code})${context}`);
        const checks = JSON.parse(readFileSync(results, 'utf8')) as HostCheck[];
        for (const c of checks) {
          t.diagnostic(`${c.name} (${c.ms} ms): ${c.detail.length > 240 ? `${c.detail.slice(0, 240)}…` : c.detail}`);
          await t.test(c.name, () => assert.ok(c.ok, `${c.detail}${context}`));
        }
        await t.test('the extension host logged no warning or error about Tool Lens', () => {
          assert.deepEqual(extensionHostComplaints(join(s.dir, 'user', 'logs')), []);
        });
        assert.equal(code, 0, `the extension-host tests exited with ${code}${context}`);
      } catch (error) {
        failures++;
        throw error;
      }
    }

    test('in the extension host: activation, diagnostics, quick fix, hover, schemas', { timeout: TEST_MS }, (t) => {
      const plan: Omit<HostPlan, 'results'> = {
        extensionId: EXTENSION_ID,
        extensionsDir: session!.extensionsDir,
        gateway: GATEWAY,
        gatewayText: readFileSync(join(WORKSPACE, GATEWAY), 'utf8'),
        composite: COMPOSITE,
      };
      return hostTests(
        t,
        'runner',
        'codeserver.host.ts',
        workspaceCopy(session!.dir, 'workspace-host', { config: true }),
        plan,
      );
    });

    test('in the extension host: typing in examples/, one finding per mistake', { timeout: TYPING_MS }, (t) => {
      // A copy of examples/, the workspace a new user opens first; the host module edits it as one types.
      const workspace = join(session!.dir, 'workspace-typing');
      cpSync(join(ROOT, 'examples'), workspace, { recursive: true });
      const plan: Omit<TypingPlan, 'results'> = { extensionId: EXTENSION_ID };
      return hostTests(t, 'runner-typing', 'host-typing.ts', workspace, plan, TYPING_MS);
    });

    test(
      'in the extension host: the client configurations of one project (VS Code, Claude Code, Codex)',
      { timeout: TEST_MS },
      (t) => {
        // Written here, before the workbench opens: with no .toollens.yaml and no other YAML or JSON
        // file, only `workspaceContains:**/.codex/config.toml` can activate the extension.
        const workspace = join(session!.dir, 'workspace-clients');
        const { texts, secrets } = clientFiles();
        for (const [path, text] of [
          ['.vscode/mcp.json', texts.vscode],
          ['.mcp.json', texts.claude],
          ['.codex/config.toml', texts.codex],
        ] as const) {
          mkdirSync(join(workspace, path, '..'), { recursive: true });
          writeFileSync(join(workspace, path), text);
        }
        const plan: Omit<ClientsPlan, 'results'> = {
          extensionId: EXTENSION_ID,
          texts,
          secrets,
          fixedVscode: texts.vscode
            .replace(`"${secrets[0]!}"`, '"${input:github-personal-access-token}"')
            // The input goes after the last key; JSONC keeps the trailing comma the file writes.
            .replace(
              /\n\}\n$/,
              '\n  "inputs": [{"type": "promptString", "id": "github-personal-access-token", "description": "GITHUB_PERSONAL_ACCESS_TOKEN", "password": true}],\n}\n',
            ),
        };
        return hostTests(t, 'runner-clients', 'host-clients.ts', workspace, plan);
      },
    );

    test(
      'in the browser: the gateway opened from the Explorer shows the squiggle and the Problems row',
      { timeout: TEST_MS },
      async (t) => {
        const s = session!;
        const problems: string[] = [];
        const lap = stopwatch(t);
        let page: Page | undefined;
        try {
          const workspace = workspaceCopy(s.dir, 'workspace-ui', { config: false });
          page = await newPage(s.browser, problems);
          page.setDefaultTimeout(STEP_MS);
          await page.goto(`http://127.0.0.1:${s.port}/?folder=${encodeURIComponent(workspace)}`);
          await page.locator('.monaco-workbench').waitFor();
          lap('workbench shown');
          const explorer = page.locator('.explorer-folders-view');
          const row = (label: string) => explorer.locator(`.monaco-list-row[aria-label="${label}"]`);
          const [folder, file] = GATEWAY.split('/') as [string, string];
          await row(folder).click();
          await row(file).click();
          lap('gateway clicked in the Explorer');
          await page.locator(`.monaco-editor[data-uri$="${GATEWAY}"] .view-lines`).waitFor();
          await page.locator('.monaco-editor .squiggly-error').first().waitFor();
          lap('squiggle shown');
          await page.keyboard.press('Control+Shift+M');
          const problem = page.locator('.markers-panel .monaco-list-row', { hasText: RULE });
          await problem.first().waitFor();
          lap('Problems row shown');
          const text = (await problem.first().innerText()).replace(/\s+/g, ' ');
          // One sentence on the row; the why is the row under it (the diagnostic's related information).
          assert.match(text, /readOnlyHint: true is safer than the steps: remove the hint or set it to false\./);
          assert.doesNotMatch(text, /is safer than the steps: remove the hint or set it to false\. Step/);
          // Where the gateway writes the hint, as the Problems panel counts (1-based).
          const gatewayText = readFileSync(join(WORKSPACE, GATEWAY), 'utf8');
          const before = gatewayText.slice(0, gatewayText.indexOf('readOnlyHint: true')).split('\n');
          assert.ok(
            text.includes(`Ln ${before.length}, Col ${before[before.length - 1]!.length + 1}`),
            `the row names the hint's place: ${text}`,
          );
          mkdirSync(join(ROOT, '.tmp', 'e2e'), { recursive: true });
          await page.screenshot({ path: SCREENSHOT });
          lap(`screenshot in ${SCREENSHOT}`);
          // The Advertised Tools view, in the Explorer while a gateway is in focus: the composite is
          // withheld for its contradiction, and a click on a backend tool opens its catalog entry.
          const pane = page.locator('.pane-header', { hasText: 'Advertised Tools' });
          await pane.waitFor();
          if ((await pane.getAttribute('aria-expanded')) === 'false') await pane.click();
          const view = page.locator('.pane', { has: pane });
          // The pane is short and its list virtual: fold the advertised tools to bring the withheld ones into view.
          const advertisedRow = view.locator('.monaco-list-row', { hasText: /^Advertised \(\d+\)/ });
          await advertisedRow.waitFor();
          await view.locator('.monaco-list-row', { hasText: 'filesystem_read_file' }).first().click();
          await page.locator('.monaco-editor[data-uri$="catalogs/filesystem.json"]').waitFor();
          lap('a click on a backend tool opened its catalog');
          if ((await advertisedRow.getAttribute('aria-expanded')) === 'true') await advertisedRow.click();
          const withheld = view.locator('.monaco-list-row', { hasText: 'Withheld (1)' });
          await withheld.waitFor();
          if ((await withheld.getAttribute('aria-expanded')) === 'false') await withheld.click();
          const dropped = view.locator('.monaco-list-row', { hasText: 'publish_readme' });
          await dropped.waitFor();
          assert.match((await dropped.innerText()).replace(/\s+/g, ' '), /^publish_readme ?contradiction · composite$/);
          lap('Advertised Tools view shows the withheld composite');
        } catch (error) {
          failures++;
          if (page) {
            const shot = SCREENSHOT.replace(/\.png$/, '-fail.png');
            mkdirSync(join(ROOT, '.tmp', 'e2e'), { recursive: true });
            await page.screenshot({ path: shot });
            problems.push(`screenshot of the failure: ${shot}`);
          }
          throw new Error(
            `${error instanceof Error ? error.message : String(error)}\n${problems.join('\n')}${logTail(s)}`,
            { cause: error },
          );
        } finally {
          await page?.close();
        }
      },
    );

    screenshotTests({ session: () => session!, newPage, failed: () => failures++ });
  });
