// The npm package as a user gets it: `npm pack` (whose `prepack` builds the bundles) into a temporary
// folder, `npm install` of the tarball into an empty project with an empty npm cache and
// `--offline` (so the package can need nothing from a registry: no runtime dependency that is not
// in the bundles), then the installed commands run there through npx: `tool-lens check` on a copy
// of examples/ finds exactly the planted mistakes examples/README.md lists, `--version` prints the
// package's version, `catalog fetch` loads the MCP SDK from the bundle and fetches a real server's
// tools, and `tool-lens-language-server --stdio` answers an LSP `initialize`.
// The tarball's contents are checked file by file against what .npmignore promises.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { after, before, test } from 'node:test';

const ROOT = join(__dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface PackEntry {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string; size: number }[];
}

/**
 * The environment of a user's shell: none of the npm_* variables `npm test` sets, and no
 * node_modules/.bin of this checkout on PATH, so nothing resolves from the repository.
 */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || key === 'NODE_OPTIONS' || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !dir.includes('node_modules'))
    .join(delimiter);
  env.NO_COLOR = '1';
  return { ...env, ...extra };
}

let tmp = '';
let app = '';
let pack: PackEntry;
let cache = '';

function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()): SpawnSyncReturns<string> {
  return spawnSync('npm', args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** `npx` in the project the tarball was installed into, offline, with the test's empty cache. */
function npx(args: string[], cwd = app): SpawnSyncReturns<string> {
  return spawnSync('npx', ['--offline', '--no-install', ...args], {
    cwd,
    env: cleanEnv({ npm_config_cache: cache }),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** Every file under a folder of the checkout, as package paths. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(relative(ROOT, full).split('\\').join('/'));
    }
  };
  walk(join(ROOT, dir));
  return out;
}

before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'tool-lens-npm-'));
  cache = join(tmp, 'npm-cache');
  // `npm pack` runs `prepack` (npm run build), which needs the devDependencies of the checkout:
  // its own environment keeps them; only the install below runs as a user's would.
  const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', tmp], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(packed.status, 0, `npm pack failed:\n${packed.stdout}\n${packed.stderr}`);
  // The build's own lines come first on stdout; npm's JSON report is the last thing printed.
  const json = packed.stdout.slice(packed.stdout.search(/^\[\s*\{/m));
  pack = (JSON.parse(json) as PackEntry[])[0]!;
  console.log(
    `# ${pack.filename}: ${pack.size} bytes packed, ${pack.unpackedSize} bytes unpacked, ${pack.entryCount} files`,
  );

  app = join(tmp, 'project');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'a-project', version: '1.0.0', private: true }, null, 2)}\n`,
  );
  // An empty cache and --offline: anything the package needed from a registry would fail here.
  const installed = npm(
    ['install', '--offline', '--no-audit', '--no-fund', '--cache', cache, join(tmp, pack.filename)],
    app,
  );
  assert.equal(installed.status, 0, `npm install of the tarball failed:\n${installed.stdout}\n${installed.stderr}`);
  cpSync(join(ROOT, 'examples'), join(app, 'examples'), { recursive: true });
});

after(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test('the tarball holds the bundles and their chunks, the schemas, the rule pages, the README and the licence, nothing else', () => {
  const expected = [
    'LICENSE',
    'README.md',
    'package.json',
    'dist/cli.js',
    'dist/server.js',
    // The lazy chunks the bundles require on first use (scripts/build.mjs), without their maps.
    ...readdirSync(join(ROOT, 'dist', 'chunks'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => `dist/chunks/${f}`),
    ...readdirSync(join(ROOT, 'schemas'))
      .filter((f) => f.endsWith('.schema.json'))
      .map((f) => `schemas/${f}`),
    ...filesUnder('docs/rules'),
  ].sort();
  assert.deepEqual(pack.files.map((f) => f.path).sort(), expected);
  assert.equal(pack.entryCount, expected.length);
});

test('the installed package has no dependencies, two commands, and its bundles are executable', () => {
  const dir = join(app, 'node_modules', 'tool-lens');
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    dependencies?: object;
    optionalDependencies?: object;
    peerDependencies?: object;
    bin: Record<string, string>;
  };
  assert.equal(manifest.dependencies, undefined);
  assert.equal(manifest.optionalDependencies, undefined);
  assert.equal(manifest.peerDependencies, undefined);
  assert.deepEqual(manifest.bin, { 'tool-lens': 'dist/cli.js', 'tool-lens-language-server': 'dist/server.js' });
  // Nothing but the package itself was installed.
  assert.deepEqual(
    readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.')),
    ['tool-lens'],
  );
  for (const bin of ['tool-lens', 'tool-lens-language-server']) {
    assert.ok(existsSync(join(app, 'node_modules', '.bin', bin)), `node_modules/.bin/${bin}`);
  }
  for (const bundle of ['dist/cli.js', 'dist/server.js']) {
    assert.ok(
      readFileSync(join(dir, bundle), 'utf8').startsWith('#!/usr/bin/env node\n'),
      `${bundle} starts with a shebang`,
    );
  }
});

test('npx tool-lens --version prints the version of package.json', () => {
  const result = npx(['tool-lens', '--version']);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, `${VERSION}\n`);
});

test('npx tool-lens check finds exactly the planted mistakes examples/README.md lists', () => {
  // The README's table: | # | `path:line:col` | mistake | `rule` | severity |
  const readme = readFileSync(join(ROOT, 'examples', 'README.md'), 'utf8');
  const planted = [
    ...readme.matchAll(/^\| \d+ \| `([^`]+):(\d+):(\d+)` \|.*\| `([a-z-]+\/[a-z-]+)` \| (error|warning|info) \|$/gm),
  ]
    .map((m) => `examples/${m[1]}:${m[2]}:${m[3]} ${m[4]} ${m[5]}`)
    .sort();
  assert.equal(planted.length, 8, 'the eight rows of the planted mistakes table');
  const result = npx(['tool-lens', 'check', 'examples', '--format', 'json']);
  assert.equal(result.status, 1, `exit 1 (findings at error):\n${result.stderr}`);
  const report = JSON.parse(result.stdout) as {
    files: {
      path: string;
      diagnostics: { rule: string; severity: string; range: { start: { line: number; column: number } } }[];
    }[];
  };
  const found = report.files
    .flatMap((f) =>
      f.diagnostics.map((d) => `${f.path}:${d.range.start.line}:${d.range.start.column} ${d.rule} ${d.severity}`),
    )
    .sort();
  assert.deepEqual(found, planted);
  // The stylish default prints the same count to a user.
  const stylish = npx(['tool-lens', 'check', 'examples']);
  assert.equal(stylish.status, 1);
  // The run's workspace is the current folder: examples/.toollens.yaml is one more file it reads
  // (and says it does not use as the configuration).
  assert.match(stylish.stdout, /5 errors, 3 warnings, 0 infos in 11 files/);
  assert.match(stylish.stderr, /note: examples\/\.toollens\.yaml is not read: this run's workspace is \./);
});

test('tool-lens catalog fetch runs the MCP SDK from the bundle against a real server', () => {
  // The reference memory server, started from this checkout's devDependencies as any command a
  // user's mcp.json names; the client side (the SDK) can only come from the installed bundle.
  const serverDir = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory');
  const manifest = JSON.parse(readFileSync(join(serverDir, 'package.json'), 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const bin = join(serverDir, typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0]!);
  const workspace = join(tmp, 'fetching');
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  const config = {
    servers: {
      memory: {
        type: 'stdio',
        command: process.execPath,
        args: [bin],
        env: { MEMORY_FILE_PATH: join(workspace, 'memory.jsonl') },
      },
    },
  };
  writeFileSync(join(workspace, '.vscode', 'mcp.json'), JSON.stringify(config, null, 2));
  const result = spawnSync(join(app, 'node_modules', '.bin', 'tool-lens'), ['catalog', 'fetch', 'memory'], {
    cwd: workspace,
    env: cleanEnv(),
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, `catalog fetch failed:\n${result.stdout}\n${result.stderr}`);
  const snapshot = readFileSync(join(workspace, 'catalogs', 'memory.catalog.yaml'), 'utf8');
  assert.match(snapshot, /name: create_entities/);
});

test('tool-lens-language-server --stdio answers initialize', async () => {
  // Started as an editor starts it: the command on PATH (here, the project's node_modules/.bin).
  const child = spawn(join(app, 'node_modules', '.bin', 'tool-lens-language-server'), ['--stdio'], {
    cwd: app,
    env: cleanEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  try {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { processId: null, rootUri: null, capabilities: {} },
    });
    child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const reply = await new Promise<string>((resolve, reject) => {
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const header = /Content-Length: (\d+)\r\n\r\n/.exec(out);
        if (header && Buffer.byteLength(out.slice(header.index + header[0].length)) >= Number(header[1]))
          resolve(out.slice(header.index + header[0].length));
      });
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('exit', (code) =>
        reject(new Error(`the language server exited (${code}) before answering:\n${out}\n${err}`)),
      );
    });
    const message = JSON.parse(reply) as {
      id: number;
      result: { capabilities: Record<string, unknown>; serverInfo?: { name: string } };
    };
    assert.equal(message.id, 1);
    assert.ok(message.result.capabilities.textDocumentSync !== undefined, reply);
  } finally {
    child.kill();
  }
});

test("the README's commands for the checker, word for word: install the tarball globally, then check", () => {
  // README, Installing: `npm pack` (done above, into tmp), `npm install --global ./tool-lens-*.tgz`,
  // `tool-lens check examples --config examples/.toollens.yaml`. The global prefix is a folder of
  // this test's (npm_config_prefix), and the install is offline from the empty cache, as above.
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block =
    /The command-line checker and the language server, from the npm tarball a clone builds:\n\n```sh\n([\s\S]*?)```/.exec(
      readme,
    );
  assert.ok(block, "the README's Installing section has the checker's commands");
  const commands = block[1]!
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean);
  assert.deepEqual(commands, [
    'npm pack',
    'npm install --global ./tool-lens-*.tgz',
    'tool-lens check examples --config examples/.toollens.yaml',
  ]);
  const prefix = join(tmp, 'global');
  const env = cleanEnv({ npm_config_prefix: prefix, npm_config_cache: cache, npm_config_offline: 'true' });
  // The glob as a shell expands it, in the folder npm pack wrote to.
  const installed = spawnSync('bash', ['-c', commands[1]!], { cwd: tmp, env, encoding: 'utf8' });
  assert.equal(installed.status, 0, `${installed.stdout}${installed.stderr}`);
  const onPath = { ...env, PATH: `${join(prefix, 'bin')}${delimiter}${env.PATH ?? ''}` };
  const project = join(tmp, 'readme-project');
  mkdirSync(project);
  cpSync(join(ROOT, 'examples'), join(project, 'examples'), { recursive: true });
  const checked = spawnSync('bash', ['-c', commands[2]!], { cwd: project, env: onPath, encoding: 'utf8' });
  // The planted mistakes are found: exit 1, the stylish report's totals of examples/README.md.
  assert.equal(checked.status, 1, `${checked.stdout}${checked.stderr}`);
  assert.match(checked.stdout, /^5 errors, 3 warnings, 0 infos in 10 files$/m);
  const version = spawnSync('bash', ['-c', 'tool-lens --version && tool-lens-language-server --version'], {
    cwd: project,
    env: onPath,
    encoding: 'utf8',
  });
  assert.equal(version.stdout, `${VERSION}\n${VERSION}\n`, version.stderr);
});
