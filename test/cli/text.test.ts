// Text as editors count it, on the built CLI (docs/behaviour.md#text-as-editors-count-it): a BOM
// and lone-CR line breaks change no finding, line or column, and `--fix` keeps them byte for byte;
// what a terminal would act on (ESC, BEL, bidi controls, newlines in file names) is printed as an
// escape in the stylish and github formats and kept exact in JSON; a file or folder that cannot be
// read is named on stderr and makes the exit code 2 (docs/behaviour.md#files-that-cannot-be-read).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { readWithin } from '../../server/src/node/loader.js';
import { CLI, ensureBuilt, runCli, SCENARIOS } from './harness.js';

const GATEWAY = readFileSync(join(SCENARIOS, 'one-error', 'gateway.vmcp.yaml'), 'utf8').replace(/\r\n/g, '\n');
const INLINE = readFileSync(join(SCENARIOS, 'fixable', 'inline.vmcp.yaml'), 'utf8').replace(/\r\n/g, '\n');
const CATALOG = readFileSync(join(SCENARIOS, 'one-error', 'catalogs', 'filesystem.json'), 'utf8');

interface Diagnostic {
  rule: string;
  message: string;
  range: { start: { line: number; column: number }; end: { line: number; column: number } };
}
interface Report {
  files: { path: string; kind: string | null; diagnostics: Diagnostic[] }[];
}

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) {
    // A folder left unreadable by a test would stop the removal.
    spawnSync('chmod', ['-R', 'u+rwx', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A temporary workspace (its own `.toollens.yaml`, so no configuration above it applies) with these files. */
function workspace(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tool-lens-text-'));
  dirs.push(dir);
  writeFileSync(join(dir, '.toollens.yaml'), '# no settings\n');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function json(args: string[], cwd: string): { code: number | null; report: Report; stderr: string } {
  const run = runCli([...args, '--format', 'json'], { cwd });
  return { code: run.code, report: JSON.parse(run.stdout) as Report, stderr: run.stderr };
}

/** The diagnostics as lines and columns: what the user sees, never offsets. */
const seen = (report: Report) =>
  report.files.map((f) => ({
    path: f.path,
    kind: f.kind,
    diagnostics: f.diagnostics.map(
      (d) =>
        `${d.range.start.line}:${d.range.start.column}-${d.range.end.line}:${d.range.end.column} ${d.rule} ${d.message}`,
    ),
  }));

describe('a UTF-8 BOM', () => {
  // Line 1 holds a finding, so a BOM counted as a character would move its column.
  const firstLine = `stray: 1\n${GATEWAY}`;
  const plain = workspace({
    'gateway.vmcp.yaml': firstLine,
    'catalogs/filesystem.json': CATALOG,
    'notes.catalog.json': '{"catalog": 1, "servers": []}\n',
  });
  const bom = workspace({
    'gateway.vmcp.yaml': `\uFEFF${firstLine}`,
    'catalogs/filesystem.json': `\uFEFF${CATALOG}`,
    'notes.catalog.json': '\uFEFF{"catalog": 1, "servers": []}\n',
  });

  test('JSON with a BOM parses (no yaml/syntax), and every finding is at the line and column of the file without it', () => {
    const withBom = json(['check', '.'], bom);
    const without = json(['check', '.'], plain);
    assert.equal(withBom.stderr, '');
    assert.deepEqual(seen(withBom.report), seen(without.report));
    const rules = withBom.report.files.flatMap((f) =>
      f.diagnostics.map((d) => `${f.path} ${d.range.start.line}:${d.range.start.column} ${d.rule}`),
    );
    assert.ok(rules.includes('gateway.vmcp.yaml 1:1 schema/unknown-key'), rules.join('\n'));
    assert.ok(!rules.some((r) => r.includes('yaml/syntax')), rules.join('\n'));
    assert.equal(withBom.report.files.find((f) => f.path === 'notes.catalog.json')?.kind, 'tool-catalog');
    // The stylish snippet shows line 1 without the BOM, the caret under its first character.
    const stylish = runCli(['check', 'gateway.vmcp.yaml'], { cwd: bom }).stdout;
    assert.match(stylish, /^gateway\.vmcp\.yaml:1:1: error .*\n1 \| stray: 1\n {2}\| \^~~~~\n/);
  });

  test('--fix keeps the BOM byte for byte', () => {
    const dir = workspace({ 'inline.vmcp.yaml': `\uFEFF${INLINE}`, 'catalogs/filesystem.json': CATALOG });
    const lf = workspace({ 'inline.vmcp.yaml': INLINE, 'catalogs/filesystem.json': CATALOG });
    assert.equal(runCli(['check', '.', '--fix'], { cwd: dir }).code, 0);
    assert.equal(runCli(['check', '.', '--fix'], { cwd: lf }).code, 0);
    const fixed = readFileSync(join(dir, 'inline.vmcp.yaml'));
    assert.deepEqual([...fixed.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.deepEqual(fixed.subarray(3), readFileSync(join(lf, 'inline.vmcp.yaml')), 'the same fix as without the BOM');
    assert.notEqual(fixed.subarray(3).toString('utf8'), INLINE, 'a fix was written');
  });
});

describe('lone CR line breaks', () => {
  test('a CR-only YAML file that starts with a comment is checked: the findings of its LF twin, at the same lines and columns', () => {
    const text = `# A gateway saved with classic Mac line breaks.\n${GATEWAY}`;
    const cr = workspace({ 'gateway.vmcp.yaml': text.replace(/\n/g, '\r'), 'catalogs/filesystem.json': CATALOG });
    const lf = workspace({ 'gateway.vmcp.yaml': text, 'catalogs/filesystem.json': CATALOG });
    const withCr = json(['check', '.'], cr);
    assert.equal(withCr.code, 1, 'it used to be skipped, with exit code 0');
    assert.deepEqual(seen(withCr.report), seen(json(['check', '.'], lf).report));
    assert.deepEqual(
      withCr.report.files
        .find((f) => f.path === 'gateway.vmcp.yaml')!
        .diagnostics.map((d) => `${d.range.start.line}:${d.range.start.column} ${d.rule}`),
      ['6:5 yaml/duplicate-key'],
    );
    // The stylish snippet is the line alone.
    assert.match(
      runCli(['check', 'gateway.vmcp.yaml'], { cwd: cr }).stdout,
      /\n6 \| {5}description: Read the first lines of a project's README\.\n/,
    );
  });

  test('--fix on a CR-only file keeps its line breaks', () => {
    const dir = workspace({ 'inline.vmcp.yaml': INLINE.replace(/\n/g, '\r'), 'catalogs/filesystem.json': CATALOG });
    const lf = workspace({ 'inline.vmcp.yaml': INLINE, 'catalogs/filesystem.json': CATALOG });
    runCli(['check', '.', '--fix'], { cwd: dir });
    runCli(['check', '.', '--fix'], { cwd: lf });
    const fixed = readFileSync(join(dir, 'inline.vmcp.yaml'), 'utf8');
    assert.ok(!fixed.includes('\n'), 'no LF written into a CR file');
    assert.equal(fixed, readFileSync(join(lf, 'inline.vmcp.yaml'), 'utf8').replace(/\n/g, '\r'));
  });
});

describe('characters a terminal acts on', () => {
  // Raw ESC sequences (clear the screen, set the window title), BEL, a C1 CSI and a right-to-left
  // override in a key, a value and a file name with a newline in it.
  const hostileKey = 'k\x1b]0;pwned\x07';
  const hostileValue = 'e\x1b[2J\u009b31m \u202eend';
  const name = 'new\nline\x1b[31m.vmcp.yaml';
  const text = `compositeTools:\n  - name: t\n    description: d\n    description: ${hostileValue}\n    ${hostileKey}: 1\n    ${hostileKey}: 2\n    steps: [{id: a, tool: filesystem.read_text_file, arguments: {path: x}}]\n`;
  const dir = workspace({ [name]: text, 'catalogs/filesystem.json': CATALOG });
  // eslint-disable-next-line no-control-regex -- what must not reach the terminal
  const RAW = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/;

  test('stylish prints them as escapes, and the caret still sits under the range', () => {
    const run = runCli(['check', '.'], { cwd: dir });
    assert.equal(run.code, 1);
    assert.ok(!RAW.test(run.stdout), `a raw control character reached the terminal:\n${JSON.stringify(run.stdout)}`);
    const out = run.stdout;
    assert.ok(out.includes('new\\nline\\x1b[31m.vmcp.yaml:4:5: error The key "description" appears twice'), out);
    assert.ok(out.includes('4 |     description: e\\x1b[2J\\x9b31m \\u202eend\n'), out);
    // The duplicate hostile key on line 6: its caret runs under the key as shown, escapes included.
    const shownKey = 'k\\x1b]0;pwned\\x07';
    assert.ok(out.includes(`6 |     ${shownKey}: 2\n  |     ^${'~'.repeat(shownKey.length - 1)}\n`), out);
    assert.ok(out.includes(`"${shownKey}" appears twice`), out);
  });

  test('github: newlines in the path and message as %0A, the rest as visible escapes', () => {
    const run = runCli(['check', '.', '--format', 'github'], { cwd: dir });
    const lines = run.stdout.split('\n').filter(Boolean);
    assert.ok(lines.length > 0 && lines.every((l) => l.startsWith('::')), 'one workflow command per line');
    assert.ok(!RAW.test(run.stdout), JSON.stringify(run.stdout));
    assert.ok(
      lines.every((l) => l.includes('file=new%0Aline\\x1b[31m.vmcp.yaml,')),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => l.includes('::The key "k\\x1b]0;pwned\\x07" appears twice')),
      lines.join('\n'),
    );
  });

  test('JSON keeps the file name, keys and values exact', () => {
    const { report } = json(['check', '.'], dir);
    const file = report.files.find((f) => f.path === name);
    assert.ok(file, report.files.map((f) => JSON.stringify(f.path)).join(', '));
    assert.ok(file.diagnostics.some((d) => d.message.includes(`"${hostileKey}"`)));
  });
});

describe('lines a CI runner acts on (issue 24, item 7)', () => {
  // The GitHub Actions runner takes a line that starts with `::` (after white space) for a
  // workflow command, and `##[command]` anywhere in a line; it ends lines at LF, CR or CRLF.
  const names = ['::notice title=forged::x.vmcp.yaml', ' ::stop-commands::tok.vmcp.yaml', 'a##[add-mask]b.vmcp.yaml'];
  // A hostile key in a duplicate (its line is shown in the snippet and quoted in the message).
  const text = (key: string) =>
    `compositeTools:\n  - name: t\n    description: d\n    ${key}: 1\n    ${key}: 2\n    steps: [{id: a, tool: filesystem.read_text_file, arguments: {path: x}}]\n`;
  const dir = workspace({
    [names[0]!]: text('"##[group]k"'),
    [names[1]!]: text('"k\\r::group::in"'),
    [names[2]!]: text('k'),
    'catalogs/filesystem.json': CATALOG,
  });
  /** The lines as the runner reads them, each with its leading white space (as .NET trims it) removed. */
  const runnerLines = (out: string) => out.split(/\r\n|\r|\n/).map((l) => l.replace(/^[\s\u0085\u180e]+/, ''));
  const OURS = /^::(error|warning|notice) file=[^:]*,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[^:]*::/;

  for (const format of ['stylish', 'github', 'json', 'sarif', 'junit', 'gitlab', 'rdjson']) {
    test(`${format}: no line starts with :: but our own annotations, and no ##[ anywhere`, () => {
      const run = runCli(['check', '.', '--format', format], { cwd: dir });
      assert.equal(run.code, 1, run.stderr);
      for (const [stream, out] of [
        ['stdout', run.stdout],
        ['stderr', run.stderr],
      ] as const) {
        const lines = runnerLines(out);
        // Our own annotation is read as such first (TryParseV2): a `##[` in its message is only text.
        const others = format === 'github' && stream === 'stdout' ? lines.filter((l) => !OURS.test(l)) : lines;
        assert.ok(!others.some((l) => l.includes('##[')), `${stream}: ${out}`);
        const commands = lines.filter((l) => l.startsWith('::'));
        if (format === 'github' && stream === 'stdout') {
          assert.ok(commands.length >= names.length, out);
          for (const line of commands) assert.match(line, OURS);
        } else assert.deepEqual(commands, [], `${stream}: ${out}`);
      }
    });
  }

  test('JSON and SARIF still give the names exactly; stylish shows the escapes', () => {
    const { report } = json(['check', '.'], dir);
    assert.deepEqual(report.files.map((f) => f.path).sort(), [...names, 'catalogs/filesystem.json'].sort());
    const sarif = JSON.parse(runCli(['check', '.', '--format', 'sarif'], { cwd: dir }).stdout) as {
      runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
    };
    assert.ok(
      sarif.runs[0]!.results.some(
        (r) => decodeURIComponent(r.locations[0]!.physicalLocation.artifactLocation.uri) === names[2],
      ),
    );
    const stylish = runCli(['check', '.'], { cwd: dir }).stdout;
    assert.ok(stylish.includes('\\x3a:notice title=forged::x.vmcp.yaml:4:5: error'), stylish);
    assert.ok(stylish.includes('a##\\x5badd-mask]b.vmcp.yaml:'), stylish);
  });
});

/** `node dist/cli.js ARGS` as an unprivileged user when the tests run as root, since root reads any file whatever its mode. */
function runUnprivileged(args: string[], cwd: string): { code: number | null; stdout: string; stderr: string } {
  ensureBuilt();
  const asRoot = process.getuid?.() === 0;
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
  });
  assert.equal(result.error, undefined, String(result.error));
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('files that cannot be read', () => {
  const gateway = GATEWAY.replace(
    "description: Read the first lines of a project's README.\n    description",
    'description',
  );

  test('a file without read permission is named on stderr, the rest is reported, and the exit code is 2', (t) => {
    const dir = workspace({
      'good.vmcp.yaml': gateway,
      'secret/locked.vmcp.yaml': gateway,
      'catalogs/filesystem.json': CATALOG,
    });
    chmodSync(dir, 0o755);
    for (const sub of ['secret', 'catalogs']) chmodSync(join(dir, sub), 0o755);
    chmodSync(join(dir, 'secret', 'locked.vmcp.yaml'), 0o000);
    const probe = runUnprivileged(['--version'], dir);
    if (probe.code !== 0) {
      t.skip(`cannot run the CLI as an unprivileged user here: ${probe.stderr}`);
      return;
    }
    const run = runUnprivileged(['check', '.', '--format', 'json'], dir);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^tool-lens: cannot read secret\/locked\.vmcp\.yaml: EACCES: permission denied/m);
    const report = JSON.parse(run.stdout) as Report;
    assert.deepEqual(
      report.files.map((f) => f.path).sort(),
      ['catalogs/filesystem.json', 'good.vmcp.yaml'],
      'the files read are reported',
    );
    // Findings do not hide it: the exit code is still 2.
    writeFileSync(join(dir, 'good.vmcp.yaml'), GATEWAY);
    assert.equal(runUnprivileged(['check', '.'], dir).code, 2);
  });

  test('a folder that cannot be listed is named on stderr, and the exit code is 2', (t) => {
    const dir = workspace({
      'good.vmcp.yaml': gateway,
      'hidden/b.vmcp.yaml': gateway,
      'catalogs/filesystem.json': CATALOG,
    });
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'catalogs'), 0o755);
    chmodSync(join(dir, 'hidden'), 0o000);
    if (runUnprivileged(['--version'], dir).code !== 0) {
      t.skip('cannot run the CLI as an unprivileged user here');
      return;
    }
    const run = runUnprivileged(['check', '.'], dir);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^tool-lens: cannot read the folder hidden: .*EACCES/m);
    assert.match(run.stdout, /0 errors, 0 warnings, 0 infos in 2 files\n$/);
  });

  test('a FIFO named like a checked file: named on the command line it is refused (exit 2, even as root), found by the walk it is not read', () => {
    const dir = workspace({ 'good.vmcp.yaml': gateway, 'catalogs/filesystem.json': CATALOG });
    const fifo = spawnSync('mkfifo', [join(dir, 'pipe.vmcp.yaml')]);
    assert.equal(fifo.status, 0, 'mkfifo');
    // Reading a FIFO would wait for a writer for ever; the timeout only keeps a regression from hanging the suite.
    const named = spawnSync(process.execPath, [CLI, 'check', 'pipe.vmcp.yaml', 'good.vmcp.yaml'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(named.signal, null, 'the CLI waited on the FIFO');
    assert.equal(named.status, 2);
    assert.match(named.stderr, /^tool-lens: cannot read pipe\.vmcp\.yaml: it is a FIFO \(named pipe\), not a file$/m);
    assert.match(named.stdout, /in 1 file\n$/, 'the readable file is still reported');
    // The walk reads regular files only: the FIFO is passed over, like a socket or a device.
    const walked = spawnSync(process.execPath, [CLI, 'check', '.'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    assert.equal(walked.signal, null);
    assert.equal(walked.status, 0, walked.stderr);
    assert.equal(walked.stderr, '');
    // As the configuration: a usage error that names it.
    const config = spawnSync(process.execPath, [CLI, 'check', '.', '--config', 'pipe.vmcp.yaml'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(config.status, 2);
    assert.match(config.stderr, /cannot read the configuration pipe\.vmcp\.yaml: it is a FIFO/);
  });

  test('a file replaced by a folder since it was listed is refused as such, not read', () => {
    // The race itself cannot be staged: the read after the listing is what meets it.
    const dir = workspace({ 'now-a-folder.vmcp.yaml/inside.txt': 'x' });
    assert.throws(
      () => readWithin(join(dir, 'now-a-folder.vmcp.yaml'), 1_000_000),
      /^Error: it is a folder, not a file$/,
    );
  });

  test('a dangling link named on the command line is a missing path (exit 2); in a walked folder it names nothing', () => {
    const dir = workspace({ 'good.vmcp.yaml': gateway, 'catalogs/filesystem.json': CATALOG });
    symlinkSync(join(dir, 'gone.vmcp.yaml'), join(dir, 'dangling.vmcp.yaml'));
    const named = runCli(['check', 'dangling.vmcp.yaml'], { cwd: dir });
    assert.equal(named.code, 2);
    assert.match(named.stderr, /no such file or folder: dangling\.vmcp\.yaml/);
    const walked = runCli(['check', '.'], { cwd: dir });
    assert.equal(walked.code, 0);
    assert.equal(walked.stderr, '');
  });
});
