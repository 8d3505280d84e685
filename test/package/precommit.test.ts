// The pre-commit hooks (.pre-commit-hooks.yaml) through the real pre-commit (Debian's package;
// .ci/run installs it): a throwaway git repository with a gateway workflow whose step calls a
// dynamic tool by its bare name, and the catalog that says the tool is dynamic. `pre-commit
// try-repo` against this checkout (its HEAD, or a shadow commit of its uncommitted changes, as
// try-repo makes) installs the hooks the way a user's pre-commit does (`language: node`: npm
// install, npm pack with its prepack build, npm install -g of the tarball) and runs them: the check
// alone fails with our finding; both, in the README's order, fix the file (pre-commit reports the
// modification) and then check it, which passes. Every file is passed (--all-files), so the catalog is among the named
// files whichever way the CLI finds a run's catalogs. Skipped, saying so, only when pre-commit is
// not installed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'yaml';
import { isCheckedPath } from '../../server/src/node/discovery.js';

const ROOT = join(__dirname, '..', '..');
const probe = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
const missing = probe.error !== undefined || probe.status !== 0;

// A step that calls a dynamic tool of the runtime by its bare name: the catalog says it lives in a
// namespace, so the runtime answers "Unknown tool"; the safe fix wraps it in call_dynamic_tool.
// Everything of the gateway up to its one step, which the fix rewrites.
const GATEWAY = `name: assistant
groupRef: assistant
backends:
  - name: agent
    url: http://agent.assistant.svc.cluster.local:8080/mcp
    transport: streamable-http
incomingAuth: {type: anonymous}
outgoingAuth:
  source: inline
  default: {type: unauthenticated}
aggregation:
  conflictResolution: prefix
  conflictResolutionConfig:
    prefixFormat: "{workload}_"
compositeTools:
  - name: plan_release
    description: Make a release checklist applet.
    parameters:
      type: object
      properties:
        release: {type: string}
      required: [release]
    steps:
      - id: checklist
`;

const WORKFLOW = `${GATEWAY}        tool: agent.applet_create
        arguments:
          value: "Checklist for {{.params.release}}"
`;

const FIXED = `${GATEWAY}        tool: agent.call_dynamic_tool
        arguments:
          namespace: applets
          toolName: applet_create
          arguments:
            value: "Checklist for {{.params.release}}"
`;

const CATALOG = `catalog: 1
servers:
  - name: agent
    tools:
      - name: call_dynamic_tool
        description: Call a tool of a dynamic namespace.
        inputSchema:
          type: object
          properties:
            namespace: {type: string}
            toolName: {type: string}
            arguments: {type: object}
          required: [namespace, toolName]
    namespaces:
      - name: applets
        external: false
        status: ready
        tools:
          - name: applet_create
            description: Create a small interactive applet from a one-line description.
            inputSchema:
              type: object
              properties:
                value: {type: string}
              required: [value]
`;

let tmp = '';
after(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test('.pre-commit-hooks.yaml: both hooks, language node, the file kinds the CLI checks', () => {
  const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as {
    id: string;
    entry: string;
    language: string;
    files: string;
    require_serial?: boolean;
  }[];
  assert.deepEqual(
    hooks.map((h) => [h.id, h.entry, h.language]),
    [
      ['tool-lens-fix', 'tool-lens check --fix', 'node'],
      ['tool-lens', 'tool-lens check', 'node'],
    ],
  );
  // The pattern matches exactly the files discovery checks (Python's re reads it the same way).
  const discovery = readFileSync(join(ROOT, 'server', 'src', 'node', 'discovery.ts'), 'utf8');
  const extensions = JSON.parse(
    /CHECKED_EXTENSIONS = (\[[^\]]*\])/.exec(discovery)![1]!.replace(/'/g, '"'),
  ) as string[];
  for (const hook of hooks) {
    const pattern = new RegExp(hook.files);
    for (const ext of extensions) assert.ok(pattern.test(`dir/file.${ext}`), `${hook.id} takes .${ext}`);
    assert.ok(pattern.test('.toollens.yaml'));
    // Codex's configuration, the one TOML file discovery walks to (CHECKED_TOML_GLOB), at any depth.
    for (const codex of ['.codex/config.toml', 'tools/.codex/config.toml']) {
      assert.ok(pattern.test(codex), `${hook.id} takes ${codex}`);
      assert.ok(isCheckedPath(codex), `a folder walk finds ${codex}`);
    }
    for (const other of [
      'README.md',
      'main.go',
      'file.yaml.bak',
      'yaml',
      'notes.json5',
      'Cargo.toml',
      'pyproject.toml',
      'config.toml',
      'x.codex/config.toml',
      '.codex/config.toml.bak',
      '.codex/other.toml',
    ]) {
      assert.ok(!pattern.test(other), `${hook.id} leaves ${other}`);
      assert.ok(!isCheckedPath(other), `a folder walk leaves ${other}`);
    }
    assert.equal(hook.require_serial, true, 'one process sees every file');
  }
});

test(
  'pre-commit try-repo: the check fails with the finding, the fix hook fixes it, then the check passes',
  {
    skip: missing
      ? 'pre-commit is not installed (sudo bash scripts/setup-test-tools.sh, or apt-get install -y pre-commit); the pre-commit test did not run'
      : false,
    timeout: 20 * 60 * 1000,
  },
  () => {
    tmp = mkdtempSync(join(tmpdir(), 'tool-lens-pre-commit-'));
    const repo = join(tmp, 'repo');
    mkdirSync(join(repo, 'gateways'), { recursive: true });
    mkdirSync(join(repo, 'catalogs'), { recursive: true });
    writeFileSync(join(repo, 'gateways', 'assistant.vmcp.yaml'), WORKFLOW);
    writeFileSync(join(repo, 'catalogs', 'agent.catalog.yaml'), CATALOG);
    writeFileSync(join(repo, 'README.md'), '# notes\n');
    const env: NodeJS.ProcessEnv = {
      ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key))),
      PRE_COMMIT_HOME: join(tmp, 'pre-commit-home'),
      PRE_COMMIT_COLOR: 'never',
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
      // The hook's `npm install` takes what npm's cache has (on CI, what `npm ci` just fetched)
      // without asking the registry again, and skips the audit and funding requests.
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    const git = (...args: string[]): void => {
      const result = spawnSync('git', args, { cwd: repo, env, encoding: 'utf8' });
      assert.equal(result.status, 0, `git ${args.join(' ')}: ${result.stderr}`);
    };
    git('init', '-q');
    git('add', '-A');
    const tryRepo = (...hook: string[]): { status: number | null; output: string } => {
      const started = Date.now();
      const result = spawnSync('pre-commit', ['try-repo', ROOT, ...hook, '--all-files', '--color', 'never'], {
        cwd: repo,
        env,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      // A figure for the report, not an assertion: installing the hook is most of it.
      console.log(
        `# pre-commit try-repo ${hook.join(' ') || '(all hooks)'}: ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
      return { status: result.status, output: `${result.stdout}${result.stderr}` };
    };

    // The check alone fails with the finding.
    const check = tryRepo('tool-lens');
    assert.equal(check.status, 1, check.output);
    assert.match(check.output, /^Tool Lens\.+Failed$/m, check.output);
    assert.match(
      check.output,
      /^gateways\/assistant\.vmcp\.yaml:25:15: error Step "checklist" names a dynamic tool: call it through "agent\.call_dynamic_tool"\. \[envelope\/bare-dynamic-name\]$/m,
    );
    // The why under the line.
    assert.match(check.output, /^ += "applet_create" is a dynamic tool of server "agent"/m);

    // Then the hooks in the README's order, one try-repo each (try-repo runs all hooks sorted by
    // id, not in the manifest's order): the fix hook rewrites the file, so the commit stops ...
    const fix = tryRepo('tool-lens-fix');
    assert.equal(fix.status, 1, fix.output);
    assert.match(fix.output, /^Tool Lens \(fix\)\.+Failed$/m);
    assert.match(fix.output, /files were modified by this hook/);
    assert.match(fix.output, /^tool-lens: fixed 1 problem in gateways\/assistant\.vmcp\.yaml$/m);
    assert.equal(readFileSync(join(repo, 'gateways', 'assistant.vmcp.yaml'), 'utf8'), FIXED);

    // ... and the check after it passes on the fixed file.
    const again = tryRepo('tool-lens');
    assert.equal(again.status, 0, again.output);
    assert.match(again.output, /^Tool Lens\.+Passed$/m, again.output);
  },
);
