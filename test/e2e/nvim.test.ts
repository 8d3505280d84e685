// Neovim as a real LSP client, configured exactly as the README's Neovim section says: the test
// reads that section's first Lua block and runs it in headless Neovim, with
// `tool-lens-language-server` on PATH (a link to dist/server.js, as npm's node_modules/.bin holds
// one), on a fixture workflow opened from a subfolder of a workspace whose `.toollens.yaml` is at
// its root. Around the README's block the test only observes: it waits for the diagnostics and
// prints them, with the client's name and root, as JSON. Neovim 0.7 (Debian 12) has no
// `vim.lsp.start` (0.8), so the test supplies it from the two calls it stands for; 0.7 has no pull
// diagnostics, so this covers the server's push path end to end.
// Skipped, saying so, only when `nvim` is not installed.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import { makeWorkspace } from '../lsp/harness.js';
import { CATALOG, CATALOG_PATH, WORKFLOW, WORKFLOW_PATH } from '../lsp/workspace.js';

const ROOT = join(__dirname, '..', '..');
const SERVER = join(ROOT, 'dist', 'server.js');
const TIMEOUT_MS = 20000;

const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const missing = nvim.error !== undefined || nvim.status !== 0;

/** The first Lua block of the README's `### Neovim` section: the configuration users copy. */
function readmeNeovimConfig(readme: string): string {
  const start = readme.indexOf('\n### Neovim\n');
  assert.ok(start >= 0, 'README.md has a "### Neovim" section');
  const end = readme.indexOf('\n### ', start + 1);
  const block = /```lua\n([\s\S]*?)```/.exec(readme.slice(start, end < 0 ? undefined : end));
  assert.ok(block, "the README's Neovim section has a Lua block");
  return block[1]!;
}

const README_CONFIG = readmeNeovimConfig(readFileSync(join(ROOT, 'README.md'), 'utf8'));

const LUA = `
-- Neovim 0.7: vim.lsp.start (0.8) is starting a client and attaching it to the current buffer.
if not vim.lsp.start then
  vim.lsp.start = function(config)
    local id = vim.lsp.start_client(config)
    if id then vim.lsp.buf_attach_client(0, id) end
    return id
  end
end

-- The README's configuration, unchanged:
${README_CONFIG}
-- The test's observer.
local timeout_ms = tonumber(os.getenv('TOOL_LENS_TIMEOUT_MS') or '15000')
local want = os.getenv('TOOL_LENS_WANT') or 'annotations/contradiction'
local function out(s) io.stdout:write(s .. '\\n') end
local clients = vim.lsp.get_clients or vim.lsp.get_active_clients

vim.api.nvim_create_autocmd('VimEnter', { callback = function()
  local function ours()
    for _, d in ipairs(vim.diagnostic.get(0)) do
      local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
      if code == want then return true end
    end
    return false
  end
  local ok = vim.wait(timeout_ms, ours, 50)
  local simple = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(simple, { lnum = d.lnum, col = d.col, severity = d.severity, source = d.source,
                           code = d.code or lsp.code, message = d.message,
                           href = lsp.codeDescription and lsp.codeDescription.href or vim.NIL })
  end
  local started = {}
  for _, client in ipairs(clients()) do
    table.insert(started, { name = client.name, root_dir = client.config.root_dir, cmd = client.config.cmd })
  end
  out(vim.json.encode({ ok = ok, nvim = vim.version(), filetype = vim.bo.filetype, clients = started,
                        diagnostics = simple }))
  for _, client in ipairs(clients()) do client.stop() end
  vim.cmd(ok and 'qa!' or 'cq!')
end })
`;

interface NvimDiagnostic {
  lnum: number;
  col: number;
  severity: number;
  source: string;
  code: string;
  message: string;
  href: string | null;
}

interface NvimRun {
  code: number | null;
  /** The observer's JSON line. */
  line: string;
}

/** Runs headless Neovim with `config` on `file`, opened from `cwd`, until `want` arrives (or the timeout). */
async function runNvim(
  root: string,
  bin: string,
  config: string,
  cwd: string,
  file: string,
  want: string,
): Promise<NvimRun> {
  const child = spawn('nvim', ['--headless', '--clean', '-u', config, file], {
    cwd,
    env: {
      ...process.env,
      PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
      TOOL_LENS_TIMEOUT_MS: String(TIMEOUT_MS - 5000),
      TOOL_LENS_WANT: want,
      XDG_STATE_HOME: root,
      XDG_CACHE_HOME: root,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  const line = stdout.split('\n').find((l) => l.startsWith('{'));
  assert.ok(line, `Neovim printed no result (exit ${code}):\nstdout: ${stdout}\nstderr: ${stderr}`);
  return { code, line };
}

test(
  'Neovim receives the diagnostics of a workflow',
  {
    skip: missing ? 'nvim is not installed (apt-get install -y neovim); the Neovim end-to-end test did not run' : false,
    timeout: TIMEOUT_MS + 10000,
  },
  async () => {
    if (!existsSync(SERVER)) {
      const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(build.status, 0, `npm run build failed:\n${build.stdout}${build.stderr}`);
    }
    const ws = makeWorkspace({
      [CATALOG_PATH]: CATALOG,
      [WORKFLOW_PATH]: WORKFLOW,
      '.toollens.yaml': '# Tool Lens settings: the defaults\n',
    });
    try {
      // The command the README names, on PATH the way npm installs it: a link to the bundle.
      const bin = join(ws.root, '.bin');
      mkdirSync(bin);
      symlinkSync(SERVER, join(bin, 'tool-lens-language-server'));
      const config = join(ws.root, 'nvim-lsp-test.lua');
      writeFileSync(config, LUA);
      // Opened from the workflow's own folder: the root is found upward, at .toollens.yaml.
      const [folder, file] = [
        WORKFLOW_PATH.slice(0, WORKFLOW_PATH.lastIndexOf('/')),
        WORKFLOW_PATH.slice(WORKFLOW_PATH.lastIndexOf('/') + 1),
      ];
      const { code, line } = await runNvim(
        ws.root,
        bin,
        config,
        join(ws.root, folder),
        file,
        'annotations/contradiction',
      );
      const result = JSON.parse(line) as {
        ok: boolean;
        clients: { name: string; root_dir: string; cmd: string[] }[];
        diagnostics: NvimDiagnostic[];
      };
      assert.equal(result.ok, true, `no annotations/contradiction diagnostic arrived: ${line}`);
      assert.equal(code, 0);
      assert.deepEqual(result.clients, [
        { name: 'tool-lens', root_dir: ws.root, cmd: ['tool-lens-language-server', '--stdio'] },
      ]);
      const contradiction = result.diagnostics.find((d) => d.code === 'annotations/contradiction')!;
      assert.equal(contradiction.source, 'tool-lens');
      assert.equal(contradiction.severity, 1);
      assert.equal(
        contradiction.lnum,
        WORKFLOW.slice(0, WORKFLOW.indexOf('readOnlyHint: true')).split('\n').length - 1,
      );
      assert.match(contradiction.message, /readOnlyHint/);
      assert.ok(
        result.diagnostics.some((d) => d.code === 'template/not-upstream' && d.severity === 2),
        'the template warning arrived too',
      );
    } finally {
      ws.dispose();
    }
  },
);

test(
  'Neovim receives the diagnostics of MCP client configurations (.vscode/mcp.json as json, .codex/config.toml as toml)',
  {
    skip: missing ? 'nvim is not installed (apt-get install -y neovim); the Neovim end-to-end test did not run' : false,
    timeout: 2 * TIMEOUT_MS + 10000,
  },
  async () => {
    if (!existsSync(SERVER)) {
      const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(build.status, 0, `npm run build failed:\n${build.stdout}${build.stderr}`);
    }
    // A project with no .toollens.yaml: the root is the folder Neovim is started in. VS Code's file
    // has a comment and a `type` VS Code does not accept; Codex's an inline `bearer_token`, which
    // Codex refuses (the value is a made-up environment variable name, not a credential).
    const mcp = [
      '{',
      '  // The servers of this project',
      '  "servers": {',
      '    "remote": { "type": "streamable-http", "url": "https://mcp.example.com/mcp" },',
      '  },',
      '}',
      '',
    ].join('\n');
    const codex = [
      '[mcp_servers.docs]',
      'url = "https://mcp.example.com/mcp"',
      'bearer_token = "${DOCS_TOKEN}"',
      '',
    ].join('\n');
    const ws = makeWorkspace({ '.vscode/mcp.json': mcp, '.codex/config.toml': codex });
    try {
      const bin = join(ws.root, '.bin');
      mkdirSync(bin);
      symlinkSync(SERVER, join(bin, 'tool-lens-language-server'));
      const config = join(ws.root, 'nvim-lsp-test.lua');
      writeFileSync(config, LUA);
      const cases = [
        {
          file: '.vscode/mcp.json',
          filetype: 'json',
          text: mcp,
          at: '"streamable-http"',
          want: 'client/invalid-transport',
        },
        { file: '.codex/config.toml', filetype: 'toml', text: codex, at: 'bearer_token', want: 'client/unknown-key' },
      ];
      for (const { file, filetype, text, at, want } of cases) {
        const { code, line } = await runNvim(ws.root, bin, config, ws.root, file, want);
        const result = JSON.parse(line) as { ok: boolean; filetype: string; diagnostics: NvimDiagnostic[] };
        assert.equal(result.filetype, filetype, `${file}: ${line}`);
        assert.equal(result.ok, true, `${file}: no ${want} diagnostic arrived: ${line}`);
        assert.equal(code, 0);
        const before = text.slice(0, text.indexOf(at)).split('\n');
        const found = result.diagnostics.filter((d) => d.source === 'tool-lens');
        assert.deepEqual(
          found.map((d) => ({ code: d.code, lnum: d.lnum, col: d.col })),
          [{ code: want, lnum: before.length - 1, col: before[before.length - 1]!.length }],
          `${file}: ${line}`,
        );
      }
    } finally {
      ws.dispose();
    }
  },
);
