// `tool-lens-language-server` answers its command line as `tool-lens` does: --help and --version
// print and exit 0, no argument means --stdio (it answers an LSP initialize on its pipes), and an
// unknown option is a usage error (exit 2) with a did-you-mean, never a Node stack trace.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { parseServerCommandLine } from '../../server/src/lsp/commandLine.js';
import { makeWorkspace, startStdio } from './harness.js';

const ROOT = join(__dirname, '..', '..');
const SERVER = join(ROOT, 'dist', 'server.js');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function server(args: string[]) {
  return spawnSync(process.execPath, [SERVER, ...args], { encoding: 'utf8', input: '', timeout: 20_000 });
}

before(() => {
  if (!existsSync(SERVER)) {
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, `npm run build failed:\n${build.stdout}${build.stderr}`);
  }
});

test('--help prints the usage with --stdio as the default transport', () => {
  for (const flag of ['--help', '-h']) {
    const result = server([flag]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^Tool Lens language server /);
    assert.match(
      result.stdout,
      /tool-lens-language-server \[--stdio\] +talk LSP over standard input and output \(the default\)/,
    );
    assert.equal(result.stderr, '');
  }
});

test('--version prints the package version', () => {
  for (const flag of ['--version', '-v']) {
    const result = server([flag]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, `${VERSION}\n`);
  }
});

test('an unknown option is a usage error with the closest option, and no stack', () => {
  const result = server(['--stdo']);
  assert.equal(result.status, 2);
  assert.equal(result.stdout, '');
  assert.equal(
    result.stderr,
    'tool-lens-language-server: unknown option --stdo; did you mean --stdio? (see tool-lens-language-server --help)\n',
  );
  const missing = server(['--socket']);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /option --socket needs a value/);
  assert.doesNotMatch(missing.stderr + result.stderr, /\n\s+at /);
});

test('without arguments it talks LSP over stdio', async () => {
  const ws = makeWorkspace({});
  const started = startStdio(SERVER, []);
  try {
    const result = await started.client.initialize(ws.root);
    assert.equal(result.serverInfo?.name, 'tool-lens');
  } finally {
    started.process.kill();
    ws.dispose();
  }
});

test('the transports editors start it with are taken as they are', () => {
  assert.deepEqual(parseServerCommandLine(['--stdio']), { kind: 'start', argv: ['--stdio'] });
  // VS Code's client: node-ipc and the id of the process to watch.
  assert.deepEqual(parseServerCommandLine(['--node-ipc', '--clientProcessId=42']), {
    kind: 'start',
    argv: ['--node-ipc', '--clientProcessId=42'],
  });
  assert.deepEqual(parseServerCommandLine(['--socket', '5007']), { kind: 'start', argv: ['--socket', '5007'] });
  assert.deepEqual(parseServerCommandLine(['--clientProcessId', '42']), {
    kind: 'start',
    argv: ['--clientProcessId', '42', '--stdio'],
  });
  assert.equal(parseServerCommandLine(['extra']).kind, 'usage-error');
});
