// `tool-lens check --cache` on the built bundle: a cached run prints exactly what a run without the
// cache prints, after every kind of change a file's findings depend on (its text, a catalog
// server it looked up, a catalog that shadows one, the whole index, the configuration, the
// command line, the build), and re-checks only the files whose findings could have changed. The
// cache file is written atomically, survives damage, and keeps no entry for a file that is gone.
import assert from 'node:assert/strict';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CatalogIndex } from '../../server/src/core/catalog/index.js';
import { Workspace } from '../../server/src/core/workspace.js';
import { ROOT, copyScenarios, runCli, type CliRun } from './harness.js';

const EXAMPLES = join(ROOT, 'examples');
const temporaries: string[] = [];
after(() => {
  for (const dir of temporaries) rmSync(dir, { recursive: true, force: true });
});

function copyOfExamples(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tool-lens-cache-'));
  temporaries.push(dir);
  cpSync(EXAMPLES, dir, { recursive: true });
  return dir;
}

/** The user's cache folder of these runs: where the cache key is kept, outside every workspace. */
const USER_CACHE = mkdtempSync(join(tmpdir(), 'tool-lens-user-cache-'));
temporaries.push(USER_CACHE);
const USER_ENV = { XDG_CACHE_HOME: USER_CACHE };

/** The cache file's content signed again with the user's key, as Tool Lens signs it (cache.ts). */
function resign(content: { key: string; mac?: string; files: unknown }, keyDir = USER_CACHE): string {
  const secret = Buffer.from(readFileSync(join(keyDir, 'tool-lens', 'cache-key'), 'utf8').trim(), 'hex');
  const mac = createHmac('sha256', secret)
    .update(JSON.stringify([content.key, content.files]))
    .digest('base64');
  return JSON.stringify({ ...content, mac });
}

/** A run with the cache; `checked`: the files it checked rather than took from the cache (from --debug). */
function cached(dir: string, args: string[] = [], env: NodeJS.ProcessEnv = USER_ENV): CliRun & { checked: string[] } {
  const run = runCli(['check', '--format', 'json', '--cache', '--debug', ...args], { cwd: dir, env });
  const checked = [...run.stderr.matchAll(/^tool-lens: debug: cache: checking (\S+):/gm)]
    .map((m) => m[1] as string)
    .sort();
  return { ...run, checked };
}

/** What a run without the cache prints, and its exit code. */
function uncached(dir: string, args: string[] = []): CliRun {
  return runCli(['check', '--format', 'json', ...args], { cwd: dir });
}

function assertSameAsUncached(dir: string, run: CliRun, args: string[] = []): void {
  const fresh = uncached(dir, args);
  assert.equal(run.stdout, fresh.stdout);
  assert.equal(run.code, fresh.code);
}

function rulesOf(run: CliRun, path: string): string[] {
  const report = JSON.parse(run.stdout) as {
    files: { path: string; diagnostics: { rule: string; severity: string }[] }[];
  };
  return (report.files.find((f) => f.path === path)?.diagnostics ?? []).map((d) => `${d.rule} ${d.severity}`);
}

function facesFindings(run: CliRun): unknown {
  const report = JSON.parse(run.stdout) as { files: { path: string; diagnostics: unknown[] }[] };
  return report.files.find((f) => f.path === 'faces/filesystem.faces.yaml')?.diagnostics;
}

const ALL_EXAMPLES = [
  '.vscode/mcp.json',
  'calls/assistant.calls.yaml',
  'catalogs/filesystem.json',
  'catalogs/memory.json',
  'catalogs/team-tools.catalog.yaml',
  'faces/filesystem.faces.yaml',
  'faces/memory.faces.yaml',
  'gateways/docs-bot.vmcp.yaml',
  'gateways/docs-release.k8s.yaml',
  'gateways/knowledge.vmcp.json',
];

/** The files of examples/ that look up the filesystem server, or consult the whole index (docs-release: its gateway lists no backends). */
const FILESYSTEM_DEPENDENTS = [
  'faces/filesystem.faces.yaml',
  'gateways/docs-bot.vmcp.yaml',
  'gateways/docs-release.k8s.yaml',
  'gateways/knowledge.vmcp.json',
];

describe('tool-lens check --cache', () => {
  test('a cached run prints what a run without the cache prints, and checks nothing again', () => {
    const dir = copyOfExamples();
    const first = cached(dir);
    assert.deepEqual(first.checked, ALL_EXAMPLES);
    assertSameAsUncached(dir, first);
    assert.ok(existsSync(join(dir, '.toollens-cache')), 'the cache is in the current folder');
    const again = cached(dir);
    assert.deepEqual(again.checked, []);
    assert.match(again.stderr, new RegExp(`cache: ${ALL_EXAMPLES.length} of ${ALL_EXAMPLES.length} file\\(s\\) from `));
    assert.equal(again.stdout, first.stdout);
    assert.equal(again.code, first.code);
    for (const format of ['stylish', 'sarif', 'github']) {
      const withCache = runCli(['check', '--cache', '--format', format, '--no-color'], { cwd: dir, env: USER_ENV });
      const without = runCli(['check', '--format', format, '--no-color'], { cwd: dir });
      assert.equal(withCache.stdout, without.stdout, format);
      assert.equal(withCache.code, without.code, format);
    }
  });

  test('a changed file is checked again, and no other', () => {
    const dir = copyOfExamples();
    const before = cached(dir);
    const path = join(dir, 'gateways/docs-bot.vmcp.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replace('excludePattern:', 'excludePatterns:'));
    const run = cached(dir);
    assert.deepEqual(run.checked, ['gateways/docs-bot.vmcp.yaml']);
    assert.ok(rulesOf(before, 'gateways/docs-bot.vmcp.yaml').includes('args/unknown warning'));
    assert.ok(!rulesOf(run, 'gateways/docs-bot.vmcp.yaml').includes('args/unknown warning'));
    assertSameAsUncached(dir, run);
  });

  test('a change to a catalog server re-checks the catalog and exactly the files that consulted that server', () => {
    const dir = copyOfExamples();
    const before = cached(dir);
    // write_file's path argument renamed to what the face's pathTarget names: the face's findings change.
    const catalog = join(dir, 'catalogs/filesystem.json');
    const text = readFileSync(catalog, 'utf8');
    const start = text.indexOf('"name": "write_file"');
    assert.ok(start > 0);
    const edited =
      text.slice(0, start) + text.slice(start).replace('"path"', '"file_path"').replace('"path"', '"file_path"');
    writeFileSync(catalog, edited);
    const run = cached(dir);
    assert.deepEqual(run.checked, ['catalogs/filesystem.json', ...FILESYSTEM_DEPENDENTS]);
    assert.notDeepEqual(facesFindings(run), facesFindings(before));
    assertSameAsUncached(dir, run);
  });

  test('a change to an unrelated catalog does not re-check a file that did not consult it', () => {
    const dir = copyOfExamples();
    cached(dir);
    const catalog = join(dir, 'catalogs/memory.json');
    writeFileSync(
      catalog,
      readFileSync(catalog, 'utf8').replace(/"description": "[^"]*"/, '"description": "Changed."'),
    );
    const run = cached(dir);
    assert.ok(run.checked.includes('catalogs/memory.json'));
    for (const untouched of [
      'faces/filesystem.faces.yaml',
      'calls/assistant.calls.yaml',
      'catalogs/filesystem.json',
      'catalogs/team-tools.catalog.yaml',
    ]) {
      assert.ok(!run.checked.includes(untouched), `${untouched} does not consult the memory server`);
    }
    assertSameAsUncached(dir, run);
  });

  test('each catalog file removed, then put back: every run prints what a run without the cache prints', () => {
    const dir = copyOfExamples();
    cached(dir);
    for (const name of readdirSync(join(dir, 'catalogs'))) {
      const path = join(dir, 'catalogs', name);
      const text = readFileSync(path, 'utf8');
      rmSync(path);
      const without = cached(dir);
      assert.ok(without.checked.length > 0, `removing ${name} re-checks its dependents`);
      assertSameAsUncached(dir, without);
      const entries = Object.keys(
        (JSON.parse(readFileSync(join(dir, '.toollens-cache'), 'utf8')) as { files: object }).files,
      );
      assert.ok(!entries.includes(path), `the entry of the removed ${name} is dropped`);
      writeFileSync(path, text);
      const back = cached(dir);
      assertSameAsUncached(dir, back);
    }
  });

  test('a catalog added before another one takes its server: the files that looked the server up are checked again', () => {
    const dir = copyOfExamples();
    cached(dir);
    // "catalogs/a-..." joins before "catalogs/filesystem.json", so its filesystem server wins.
    const shadow = JSON.parse(readFileSync(join(dir, 'catalogs/filesystem.json'), 'utf8')) as {
      tools: { name: string }[];
    };
    shadow.tools = shadow.tools.filter((tool) => tool.name !== 'write_file');
    writeFileSync(
      join(dir, 'catalogs/a-filesystem.catalog.json'),
      JSON.stringify({ catalog: 1, servers: [{ name: 'filesystem', tools: shadow.tools }] }, null, 2),
    );
    const run = cached(dir);
    for (const dependent of FILESYSTEM_DEPENDENTS) assert.ok(run.checked.includes(dependent), dependent);
    assert.ok(!run.checked.includes('calls/assistant.calls.yaml'));
    assertSameAsUncached(dir, run);
    assert.notEqual(run.stdout, uncachedOfExamples(), 'the shadowing catalog changes the findings');
  });

  test('a server that no catalog gave, then one does: the file that looked it up is checked again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tool-lens-cache-'));
    temporaries.push(dir);
    cpSync(join(ROOT, 'test/fixtures/tool/unknown/composite.yaml'), join(dir, 'composite.yaml'));
    cpSync(join(ROOT, 'test/fixtures/tool/unknown/memory.tools.json'), join(dir, 'memory.tools.json'));
    const before = cached(dir);
    assert.match(before.stdout, /no catalog/);
    // The gh workload of the composite gets a catalog.
    writeFileSync(
      join(dir, 'gh.tools.json'),
      JSON.stringify({
        tools: [{ name: 'search_issues', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } }],
      }),
    );
    const run = cached(dir);
    assert.ok(run.checked.includes('composite.yaml'));
    assertSameAsUncached(dir, run);
    assert.notEqual(run.stdout, before.stdout);
  });

  test('a check that consulted the whole index is checked again when a catalog adds a server it never looked up', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tool-lens-cache-'));
    temporaries.push(dir);
    // A call that names no server is looked for in every catalogued server.
    writeFileSync(join(dir, 'bare.calls.yaml'), 'calls:\n  - tool: zzz_tool\n    input:\n      query: docs\n');
    writeFileSync(
      join(dir, 'aaa.tools.json'),
      JSON.stringify({ tools: [{ name: 'other', inputSchema: { type: 'object' } }] }),
    );
    const before = cached(dir);
    assert.deepEqual(rulesOf(before, 'bare.calls.yaml'), ['tool/unknown info']);
    writeFileSync(
      join(dir, 'zzz.tools.json'),
      JSON.stringify({
        tools: [
          {
            name: 'zzz_tool',
            inputSchema: { type: 'object', properties: { q: { type: 'string' } }, additionalProperties: false },
          },
        ],
      }),
    );
    const run = cached(dir);
    assert.deepEqual(
      run.checked,
      ['bare.calls.yaml', 'zzz.tools.json'],
      'aaa.tools.json consults no catalog and is not checked again',
    );
    assert.deepEqual(rulesOf(run, 'bare.calls.yaml'), ['args/unknown error']);
    assertSameAsUncached(dir, run);
  });

  test('a composite tool definition in another file: a server that reads it is checked again when it changes, comes or goes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tool-lens-cache-defs-'));
    temporaries.push(dir);
    const fixture = join(ROOT, 'test/fixtures/workflow/duplicate-name');
    for (const name of ['xfile-servers.k8s.yaml', 'xfile-definitions.k8s.yaml'])
      cpSync(join(fixture, name), join(dir, name));
    writeFileSync(join(dir, 'other.vmcp.yaml'), 'name: other\ngroup: docs\n');
    const clashes = (run: CliRun) =>
      rulesOf(run, 'xfile-servers.k8s.yaml').filter((r) => r === 'workflow/duplicate-name error').length;
    const first = cached(dir);
    assert.equal(clashes(first), 2);
    assertSameAsUncached(dir, first);
    assert.deepEqual(cached(dir).checked, []);

    // The definition now defines another tool: the server is checked again, the file that read no definition is not.
    const definitions = join(dir, 'xfile-definitions.k8s.yaml');
    const text = readFileSync(definitions, 'utf8');
    writeFileSync(definitions, text.replace('name: summarize\n', 'name: summarize_elsewhere\n'));
    const changed = cached(dir);
    assert.deepEqual(changed.checked, ['xfile-definitions.k8s.yaml', 'xfile-servers.k8s.yaml']);
    assert.equal(clashes(changed), 1);
    assertSameAsUncached(dir, changed);

    // Gone, then back under another file name.
    rmSync(definitions);
    const gone = cached(dir);
    assert.deepEqual(gone.checked, ['xfile-servers.k8s.yaml']);
    assert.equal(clashes(gone), 0);
    assertSameAsUncached(dir, gone);
    writeFileSync(join(dir, 'defs.k8s.yaml'), text);
    const back = cached(dir);
    assert.deepEqual(back.checked, ['defs.k8s.yaml', 'xfile-servers.k8s.yaml']);
    assert.equal(clashes(back), 2);
    assertSameAsUncached(dir, back);
  });

  test("another client's file of the project: a client config that compared with it is checked again when it changes or goes", () => {
    const dir = mkdtempSync(join(tmpdir(), 'tool-lens-cache-clients-'));
    temporaries.push(dir);
    const fixture = join(ROOT, 'test/fixtures/client/differs-across-clients/differs');
    for (const name of ['.vscode/mcp.json', '.mcp.json']) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      cpSync(join(fixture, name), join(dir, name));
    }
    writeFileSync(join(dir, 'other.vmcp.yaml'), 'name: other\ngroup: docs\n');
    const notes = (run: CliRun, path: string) =>
      rulesOf(run, path).filter((r) => r === 'client/differs-across-clients info').length;
    const first = cached(dir);
    assert.equal(notes(first, '.vscode/mcp.json'), 2);
    assertSameAsUncached(dir, first);
    assert.deepEqual(cached(dir).checked, []);

    // Claude Code's github now runs what VS Code's runs: VS Code's file is checked again, the
    // workflow that read no client config is not.
    const claude = join(dir, '.mcp.json');
    const text = readFileSync(claude, 'utf8');
    writeFileSync(claude, text.replace('server-github@2025.5.1', 'server-github@2025.4.8'));
    const changed = cached(dir);
    assert.deepEqual(changed.checked, ['.mcp.json', '.vscode/mcp.json']);
    assert.equal(notes(changed, '.vscode/mcp.json'), 1);
    assertSameAsUncached(dir, changed);

    // Gone: nothing left to differ from.
    rmSync(claude);
    const gone = cached(dir);
    assert.deepEqual(gone.checked, ['.vscode/mcp.json']);
    assert.equal(notes(gone, '.vscode/mcp.json'), 0);
    assertSameAsUncached(dir, gone);
  });

  test('a change to the configuration, the catalog options or the build checks every file again', () => {
    const dir = copyOfExamples();
    cached(dir);
    const config = join(dir, '.toollens.yaml');
    writeFileSync(config, `${readFileSync(config, 'utf8')}  face/unknown-param: warning\n`);
    const configured = cached(dir);
    assert.deepEqual(configured.checked, ALL_EXAMPLES);
    assert.ok(rulesOf(configured, 'faces/filesystem.faces.yaml').includes('face/unknown-param warning'));
    assertSameAsUncached(dir, configured);
    // --catalog is part of the key.
    const withCatalog = cached(dir, ['--catalog', 'catalogs/*.json']);
    assert.deepEqual(withCatalog.checked, ALL_EXAMPLES);
    assertSameAsUncached(dir, withCatalog, ['--catalog', 'catalogs/*.json']);
    // A cache written by another build (another key) is not used.
    const cacheFile = join(dir, '.toollens-cache');
    const content = JSON.parse(readFileSync(cacheFile, 'utf8')) as { key: string };
    content.key = 'another build';
    writeFileSync(cacheFile, JSON.stringify(content));
    const rebuilt = cached(dir, ['--catalog', 'catalogs/*.json']);
    assert.deepEqual(rebuilt.checked, ALL_EXAMPLES);
    assert.match(rebuilt.stderr, /every file is checked again/);
  });

  test('a damaged cache is ignored (said with --debug) and replaced; a foreign file is left alone', () => {
    const dir = copyOfExamples();
    const cacheFile = join(dir, '.toollens-cache');
    cached(dir);
    const good = readFileSync(cacheFile, 'utf8');
    // Cut in the middle: not JSON.
    writeFileSync(cacheFile, good.slice(0, good.length >> 1));
    const truncated = cached(dir);
    assert.deepEqual(truncated.checked, ALL_EXAMPLES);
    assert.match(truncated.stderr, /is damaged/);
    assertSameAsUncached(dir, truncated);
    assert.deepEqual(cached(dir).checked, [], 'the damaged cache was replaced by a good one');
    // One entry whose findings are not findings: that file alone is checked again.
    const content = JSON.parse(readFileSync(cacheFile, 'utf8')) as {
      files: Record<string, { checked: { findings: unknown[] } }>;
    };
    const faces = Object.keys(content.files).find((path) => path.endsWith('filesystem.faces.yaml')) as string;
    (content.files[faces] as { checked: { findings: unknown[] } }).checked.findings = [{ rule: 1, span: 'x' }];
    writeFileSync(cacheFile, resign(content as unknown as { key: string; files: unknown }));
    const entry = cached(dir);
    assert.deepEqual(entry.checked, ['faces/filesystem.faces.yaml']);
    assertSameAsUncached(dir, entry);
    // Not a cache at all: used as no cache, and never overwritten.
    const foreign = join(dir, 'notes.txt');
    writeFileSync(foreign, 'my notes\n');
    const run = cached(dir, ['--cache-location', 'notes.txt']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /notes\.txt is not a Tool Lens cache/);
    assert.match(run.stderr, /not written/);
    assertSameAsUncached(dir, run);
    assert.equal(readFileSync(foreign, 'utf8'), 'my notes\n');
  });

  test('--cache-location names the file, or the folder that holds .toollens-cache; it needs --cache', () => {
    const dir = copyOfExamples();
    cached(dir, ['--cache-location', 'out/my-cache']);
    assert.ok(existsSync(join(dir, 'out/my-cache')));
    assert.deepEqual(cached(dir, ['--cache-location', 'out/my-cache']).checked, []);
    mkdirSync(join(dir, 'caches'));
    cached(dir, ['--cache-location', 'caches']);
    assert.ok(existsSync(join(dir, 'caches/.toollens-cache')));
    cached(dir, ['--cache-location', 'new-folder/']);
    assert.ok(existsSync(join(dir, 'new-folder/.toollens-cache')));
    assert.ok(!existsSync(join(dir, '.toollens-cache')));
    assert.ok(!readdirSync(dir).some((name) => name.includes('.tmp')), 'no temporary file is left');
    // A cache named like a document is not checked as one.
    const named = cached(dir, ['--cache-location', 'cache.json']);
    assert.deepEqual(cached(dir, ['--cache-location', 'cache.json']).checked, []);
    assert.ok(!named.stdout.includes('cache.json'));
    const alone = runCli(['check', '--cache-location', 'x'], { cwd: dir });
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--cache-location goes with --cache/);
  });

  test('--fix with --cache fixes what --fix fixes, and the fixed files are checked again', () => {
    const withCache = copyScenarios('fixable');
    const without = copyScenarios('fixable');
    temporaries.push(withCache, without);
    // Filled before the fix: the files with a safe fix are checked again before they are fixed.
    cached(withCache, ['fixable']);
    const fixed = cached(withCache, ['fixable', '--fix']);
    const plain = runCli(['check', 'fixable', '--fix', '--format', 'json'], { cwd: without });
    assert.equal(fixed.stdout, plain.stdout);
    assert.equal(fixed.code, plain.code);
    for (const name of readdirSync(join(without, 'fixable'))) {
      if (name === 'catalogs') continue;
      assert.equal(
        readFileSync(join(withCache, 'fixable', name), 'utf8'),
        readFileSync(join(without, 'fixable', name), 'utf8'),
        name,
      );
    }
    const lines = fixed.stderr.split('\n');
    const fixedFiles = lines
      .filter((line) => line.startsWith('tool-lens: fixed'))
      .map((line) => line.replace(/.* in /, ''));
    assert.ok(fixedFiles.length > 0);
    // The check after the fix re-checks exactly the fixed files.
    const second = lines.slice(lines.findIndex((line) => line.startsWith('tool-lens: fixed')));
    const rechecked = second
      .map((line) => /cache: checking (\S+):/.exec(line)?.[1])
      .filter(Boolean)
      .sort();
    assert.deepEqual(rechecked, fixedFiles.sort());
    assert.deepEqual(cached(withCache, ['fixable']).checked, []);
  });
});

let examplesOutput: string | undefined;
function uncachedOfExamples(): string {
  examplesOutput ??= uncached(EXAMPLES).stdout;
  return examplesOutput;
}

describe('what the cache records', () => {
  // cli/cache.ts keys every entry on the configuration and records the catalog look-ups: a check
  // that came to read other state of the workspace would be served stale findings. When one of
  // these fails, teach cache.ts what the new state is, then update the list.
  // `baseline` is the language server's alone (aggregation/advertised-rename): the CLI never sets
  // one, so no cached check ever read it and the rule is silent in every run.
  // `definitions` (composite tool definitions of the workspace) and `clientServers` (the servers
  // of its client configs) are recorded whole (cache.ts).
  test('a workspace holds only the catalog, the definitions, the client servers, the configuration, its root, its log and the editor-only baseline', () => {
    assert.deepEqual(Object.keys(new Workspace('/')).sort(), [
      'baseline',
      'catalog',
      'clientServers',
      'configValue',
      'definitions',
      'log',
      'root',
    ]);
    assert.equal(new Workspace('/').baseline, undefined);
  });

  test('the catalog index has only the methods the recording knows', () => {
    const names = Object.getOwnPropertyNames(CatalogIndex.prototype).sort();
    assert.deepEqual(names, [
      'addFile',
      'constructor',
      'derived',
      'describedBy',
      'dynamicHomes',
      'files',
      'hasFile',
      'namespace',
      'removeFile',
      'server',
      'serverName',
      'serverNames',
      'setWorkloads',
      'size',
      'tool',
      'workloadNames',
    ]);
  });
  test('a file that cannot be read is a run error with the cache too, on a filled cache as on an empty one', () => {
    const dir = copyOfExamples();
    assert.equal(cached(dir).code, 1, 'the examples have errors');
    const fifo = spawnSync('mkfifo', [join(dir, 'pipe.vmcp.yaml')]);
    assert.equal(fifo.status, 0, 'mkfifo');
    for (let run = 0; run < 2; run++) {
      const named = runCli(['check', '--cache', 'pipe.vmcp.yaml', 'gateways/docs-bot.vmcp.yaml'], {
        cwd: dir,
        env: USER_ENV,
      });
      assert.equal(named.code, 2, `run ${run + 1}: ${named.stderr}`);
      assert.match(named.stderr, /cannot read pipe\.vmcp\.yaml: it is a FIFO/);
    }
  });
});

describe('a cache the repository brings (issue 24, item 3)', () => {
  /** Another person's cache folder: a key of their own. */
  const attacker = mkdtempSync(join(tmpdir(), 'tool-lens-attacker-cache-'));
  temporaries.push(attacker);
  const ATTACKER_ENV = { XDG_CACHE_HOME: attacker };

  interface CacheContent {
    key: string;
    mac?: string;
    files: Record<string, { checked?: { findings: { fixes?: unknown[]; span: { start: number } }[] } }>;
  }
  const readContent = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as CacheContent;
  /** Signed with the key of `keyDir` when there is one (the way its owner's Tool Lens would sign it). */
  const sign = (content: CacheContent, keyDir: string) =>
    existsSync(join(keyDir, 'tool-lens', 'cache-key')) ? resign(content, keyDir) : JSON.stringify(content);
  /** A safe fix that writes PWNED at the start of the file. */
  const planted = { title: 'Planted', safe: true, edits: [{ span: { start: 0, end: 0 }, newText: 'PWNED ' }] };

  test('a committed cache that says the files have no findings is not trusted: the errors are reported', () => {
    const dir = copyOfExamples();
    const cacheFile = join(dir, '.toollens-cache');
    // The author fills a cache with their own Tool Lens, then empties its findings.
    cached(dir, [], ATTACKER_ENV);
    const content = readContent(cacheFile);
    for (const entry of Object.values(content.files)) if (entry.checked) entry.checked.findings = [];
    writeFileSync(cacheFile, sign(content, attacker));
    const run = cached(dir);
    assert.deepEqual(run.checked, ALL_EXAMPLES);
    assertSameAsUncached(dir, run);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /written for another key|not signed by this user's Tool Lens/);
  });

  test('--fix with a committed cache applies only the fixes a check finds: a planted fix is not written', () => {
    const dir = copyScenarios('fixable');
    const plain = copyScenarios('fixable');
    temporaries.push(dir, plain);
    cached(dir, ['fixable'], ATTACKER_ENV);
    const cacheFile = join(dir, '.toollens-cache');
    const content = readContent(cacheFile);
    for (const entry of Object.values(content.files))
      for (const finding of entry.checked?.findings ?? []) finding.fixes = [planted];
    writeFileSync(cacheFile, sign(content, attacker));
    const fixed = cached(dir, ['fixable', '--fix']);
    const expected = runCli(['check', 'fixable', '--fix', '--format', 'json'], { cwd: plain });
    assert.equal(fixed.stdout, expected.stdout);
    for (const name of readdirSync(join(plain, 'fixable'))) {
      if (name === 'catalogs') continue;
      const text = readFileSync(join(dir, 'fixable', name), 'utf8');
      assert.ok(!text.includes('PWNED'), `${name} got the planted fix`);
      assert.equal(text, readFileSync(join(plain, 'fixable', name), 'utf8'), name);
    }
  });

  test("even in a cache signed with the user's own key, a cached fix is never applied as it is: the file is checked again", () => {
    const dir = copyScenarios('fixable');
    temporaries.push(dir);
    cached(dir, ['fixable']);
    const cacheFile = join(dir, '.toollens-cache');
    const content = readContent(cacheFile);
    let withFix = 0;
    for (const entry of Object.values(content.files))
      for (const finding of entry.checked?.findings ?? [])
        if (finding.fixes?.length) {
          finding.fixes = [planted];
          withFix++;
        }
    assert.ok(withFix > 0, 'the scenario has fixable findings');
    writeFileSync(cacheFile, resign(content));
    // Without --fix the signed cache is used as it is...
    assert.deepEqual(cached(dir, ['fixable']).checked, []);
    // ...with --fix, every file with a safe fix is checked again, and only that check's fixes are written.
    const fixed = cached(dir, ['fixable', '--fix']);
    assert.match(fixed.stderr, /it has a safe fix, and --fix applies only fixes it has just found/);
    for (const name of readdirSync(join(dir, 'fixable')))
      if (name !== 'catalogs') assert.ok(!readFileSync(join(dir, 'fixable', name), 'utf8').includes('PWNED'), name);
  });

  test("the key is kept in the user's cache folder, readable by the user alone; a key inside the workspace is not used", () => {
    const dir = copyOfExamples();
    cached(dir);
    const keyFile = join(USER_CACHE, 'tool-lens', 'cache-key');
    assert.match(readFileSync(keyFile, 'utf8'), /^[0-9a-f]{64}\n$/);
    if (process.platform !== 'win32') assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    // A workspace that holds the key file (its user cache folder pointed into it) gets no cache.
    const inside = { XDG_CACHE_HOME: join(dir, 'user-cache') };
    cached(dir, [], inside);
    const again = cached(dir, [], inside);
    assert.match(again.stderr, /lies inside the workspace/);
    assert.deepEqual(again.checked, ALL_EXAMPLES);
    assertSameAsUncached(dir, again);
  });
});
