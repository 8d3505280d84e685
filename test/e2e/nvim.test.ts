// Neovim as a real LSP client: headless Neovim starts `node dist/server.js --stdio` on a fixture
// workflow (a minimal Lua config, below) and prints the diagnostics it received as JSON. Neovim
// 0.7 (Debian 12) has no pull diagnostics, so this covers the server's push path end to end.
// Skipped, saying so, only when `nvim` is not installed.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeWorkspace } from '../lsp/harness.js';
import { CATALOG, CATALOG_PATH, WORKFLOW, WORKFLOW_PATH } from '../lsp/workspace.js';

const ROOT = join(__dirname, '..', '..');
const SERVER = join(ROOT, 'dist', 'server.js');
const TIMEOUT_MS = 20000;

const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const missing = nvim.error !== undefined || nvim.status !== 0;

// Works on Neovim 0.7 (start_client + buf_attach_client) and newer (vim.lsp.start).
const LUA = `
local server = assert(os.getenv('TOOL_LENS_SERVER'))
local root = assert(os.getenv('TOOL_LENS_ROOT'))
local timeout_ms = tonumber(os.getenv('TOOL_LENS_TIMEOUT_MS') or '15000')
local function out(s) io.stdout:write(s .. '\\n') end

vim.api.nvim_create_autocmd('VimEnter', { callback = function()
  local config = { name = 'tool-lens', cmd = { 'node', server, '--stdio' }, root_dir = root }
  local client_id
  if vim.lsp.start then
    client_id = vim.lsp.start(config)
  else
    client_id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(0, client_id)
  end
  local function ours()
    for _, d in ipairs(vim.diagnostic.get(0)) do
      local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
      if code == 'annotations/contradiction' then return true end
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
  out(vim.json.encode({ ok = ok, nvim = vim.version(), diagnostics = simple }))
  vim.lsp.stop_client(client_id)
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

test('Neovim receives the diagnostics of a workflow', { skip: missing ? 'nvim is not installed (apt-get install -y neovim); the Neovim end-to-end test did not run' : false, timeout: TIMEOUT_MS + 10000 }, async () => {
  if (!existsSync(SERVER)) {
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, `npm run build failed:\n${build.stdout}${build.stderr}`);
  }
  const ws = makeWorkspace({ [CATALOG_PATH]: CATALOG, [WORKFLOW_PATH]: WORKFLOW });
  try {
    const config = join(ws.root, 'nvim-lsp-test.lua');
    writeFileSync(config, LUA);
    const child = spawn('nvim', ['--headless', '--clean', '-u', config, WORKFLOW_PATH], {
      cwd: ws.root,
      env: { ...process.env, TOOL_LENS_SERVER: SERVER, TOOL_LENS_ROOT: ws.root, TOOL_LENS_TIMEOUT_MS: String(TIMEOUT_MS - 5000), XDG_STATE_HOME: ws.root, XDG_CACHE_HOME: ws.root },
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
    const result = JSON.parse(line) as { ok: boolean; diagnostics: NvimDiagnostic[] };
    assert.equal(result.ok, true, `no annotations/contradiction diagnostic arrived: ${line}`);
    assert.equal(code, 0);
    const contradiction = result.diagnostics.find((d) => d.code === 'annotations/contradiction')!;
    assert.equal(contradiction.source, 'tool-lens');
    assert.equal(contradiction.severity, 1);
    assert.equal(contradiction.lnum, WORKFLOW.slice(0, WORKFLOW.indexOf('readOnlyHint: true')).split('\n').length - 1);
    assert.match(contradiction.message, /readOnlyHint/);
    assert.ok(result.diagnostics.some((d) => d.code === 'template/not-upstream' && d.severity === 2), 'the template warning arrived too');
  } finally {
    ws.dispose();
  }
});
