// The GitHub workflows, kept from rotting. release.yml is read step by step: every command it runs
// must have its dry run here (a step added there without one fails this test, and a dry run whose
// step is gone fails it too), and the dry runs then run in the workflow's order, on the files the
// earlier ones built: the release check on a copy prepared as a release commit, `npm run
// package` (vsce package), `npm pack`, Open VSX's client publishing to a registry this test
// serves on 127.0.0.1, `npm publish --dry-run` of the tarball, and the files the GitHub release
// attaches. ci.yml is held to `.ci/run` on Debian with Node 20, as root.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { parse } from 'yaml';
import { ensureBuilt, ROOT } from '../cli/harness.js';
import { projectLinkProblems } from '../helpers/projectLinks.js';
import { temporaryDir } from '../helpers/tempDir.js';
import { readZip } from '../helpers/zip.js';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, { 'runs-on': string; container?: string; steps: Step[] }>;
}

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  publisher: string;
  repository: { url: string };
};
const VERSION = PACKAGE.version;
const TARBALL = `${PACKAGE.name}-${VERSION}.tgz`;

function workflow(name: string): Workflow {
  return parse(readFileSync(join(ROOT, '.github', 'workflows', name), 'utf8')) as Workflow;
}

/** A command run in the checkout, its output kept for the assertion messages. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT) {
  const result = spawnSync(command, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { ...result, output: `${result.stdout}${result.stderr}` };
}

let out = '';
before(() => {
  out = temporaryDir('tool-lens-release-');
});

/**
 * Each command of release.yml, with what this test does in its place. The order is the
 * workflow's; each dry run may use what the earlier ones left in `out`.
 */
const DRY_RUNS: Record<string, () => Promise<void> | void> = {
  'npm ci --no-audit --no-fund': () => {
    // The install this test itself runs on: the lock file that `npm ci` reads is there and holds
    // the tools the later steps call.
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    assert.ok(lock.packages['node_modules/@vscode/vsce'], 'package-lock.json installs @vscode/vsce');
  },

  'node scripts/release-check.mjs "$GITHUB_REF_NAME" --notes release-notes.md': () => {
    // On a copy prepared as docs/releasing.md says: the [Unreleased] section named and dated.
    const root = join(out, 'release-commit');
    spawnSync('mkdir', ['-p', root]);
    copyFileSync(join(ROOT, 'package.json'), join(root, 'package.json'));
    copyFileSync(join(ROOT, 'README.md'), join(root, 'README.md'));
    const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
    assert.match(changelog, /^## \[Unreleased\]$/m, 'CHANGELOG.md keeps an [Unreleased] section at the top');
    writeFileSync(join(root, 'CHANGELOG.md'), changelog.replace('## [Unreleased]', `## [${VERSION}] - 2026-12-07`));
    const notes = join(out, 'release-notes.md');
    const ready = run(process.execPath, ['scripts/release-check.mjs', `v${VERSION}`, '--notes', notes, '--root', root]);
    assert.equal(ready.status, 0, ready.output);
    assert.match(readFileSync(notes, 'utf8'), /^The first release|^### /m);
    // A tag that is not the version stops the release.
    const wrong = run(process.execPath, ['scripts/release-check.mjs', 'v99.0.0', '--root', root]);
    assert.equal(wrong.status, 1);
    assert.match(wrong.stderr, new RegExp(`the tag is v99\\.0\\.0, but package\\.json's version is ${VERSION}`));
  },

  'npm run package': () => {
    ensureBuilt();
    const vsix = join(out, 'tool-lens.vsix');
    // `npm run package` is `npm run build && node scripts/package-vsix.mjs`; the build is ensureBuilt's.
    const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
      .scripts.package;
    assert.equal(script, 'npm run build && node scripts/package-vsix.mjs');
    const packaged = run(process.execPath, ['scripts/package-vsix.mjs', '--out', vsix]);
    assert.equal(packaged.status, 0, packaged.output);
    const files = readZip(vsix);
    const manifest = files.get('extension.vsixmanifest')!.toString('utf8');
    assert.match(
      manifest,
      new RegExp(
        `<Identity Language="en-US" Id="${PACKAGE.name}" Version="${VERSION}" Publisher="${PACKAGE.publisher}" />`,
      ),
    );
    assert.match(manifest, /Type="Microsoft\.VisualStudio\.Services\.Content\.Details" Path="extension\/readme\.md"/);
    assert.match(
      manifest,
      /Type="Microsoft\.VisualStudio\.Services\.Content\.Changelog" Path="extension\/changelog\.md"/,
    );
    // The extension's own readme and the changelog, as written in the checkout but for their links.
    const readme = files.get('extension/readme.md')!.toString('utf8');
    assert.match(readme, /^# Tool Lens for VS Code$/m);
    const changelog = files.get('extension/changelog.md')!.toString('utf8');
    assert.match(changelog, /^# Changelog$/m);
    // Their links work from the Marketplace: absolute, under the project's repository where they
    // are ours, to files the repository has (images included).
    for (const [name, text] of [
      ['readme', readme],
      ['changelog', changelog],
    ] as const) {
      const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
      for (const target of targets) assert.match(target, /^https:\/\//, `${name}: ${target} is absolute`);
      assert.deepEqual(projectLinkProblems(text), [], name);
    }
    assert.ok(
      readme.includes(`](${PACKAGE.repository.url}/raw/main/docs/images/`),
      'the screenshots come from the repository',
    );
    for (const path of [
      'extension/dist/extension.js',
      'extension/dist/server.js',
      // A lazy chunk the server requires on a gateway file's first check (scripts/build.mjs).
      'extension/dist/chunks/validators-vmcp-config.js',
      'extension/LICENSE.txt',
    ])
      assert.ok(files.has(path), `the .vsix holds ${path}`);
    assert.ok(!files.has('extension/dist/chunks/validators-vmcp-config.js.map'), 'no source map in the .vsix');
    assert.ok(!files.has('extension/dist/cli.js'), 'the CLI bundle stays out of the .vsix');
  },

  'npm pack': () => {
    const packed = run('npm', ['pack', '--pack-destination', out]);
    assert.equal(packed.status, 0, packed.output);
    assert.ok(existsSync(join(out, TARBALL)), `npm pack wrote ${TARBALL}`);
  },

  'npx vsce publish --no-dependencies --packagePath tool-lens.vsix': () => {
    // vsce cannot publish anywhere but the Marketplace: its dry run is `vsce package` above. What
    // this step publishes is the file that step writes by default.
    const defaults = readFileSync(join(ROOT, 'scripts', 'package-vsix.mjs'), 'utf8');
    assert.match(defaults, /: 'tool-lens\.vsix';/);
    assert.ok(existsSync(join(out, 'tool-lens.vsix')));
  },

  'npx ovsx publish tool-lens.vsix': async () => {
    const ovsx = join(ROOT, 'node_modules', '.bin', 'ovsx');
    assert.ok(existsSync(ovsx), "ovsx (Open VSX's client) is not installed: add it to devDependencies");
    const vsix = readFileSync(join(out, 'tool-lens.vsix'));
    const received: { url: string; body: Buffer }[] = [];
    const registry = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ url: `${request.method} ${request.url}`, body: Buffer.concat(chunks) });
        response.setHeader('Content-Type', 'application/json');
        response.end(
          JSON.stringify({
            namespace: PACKAGE.publisher,
            name: PACKAGE.name,
            version: VERSION,
            targetPlatform: 'universal',
          }),
        );
      });
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
      // The command of the workflow, pointed at this registry; the token from the environment as there.
      const child = spawn(ovsx, ['publish', join(out, 'tool-lens.vsix'), '--registryUrl', url], {
        cwd: ROOT,
        env: { ...process.env, OVSX_PAT: 'dry-run-token' },
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 0, output);
      assert.match(
        output,
        new RegExp(`Published ${PACKAGE.publisher}\\.${PACKAGE.name} v${VERSION.replace(/\./g, '\\.')}`),
      );
    } finally {
      registry.close();
    }
    assert.deepEqual(
      received.map((r) => r.url),
      ['POST /api/-/publish?token=dry-run-token'],
    );
    assert.ok(received[0]!.body.equals(vsix), 'the registry received the .vsix as built');
  },

  'npm publish --provenance tool-lens-*.tgz': () => {
    // --provenance needs the CI's identity token; the dry run checks the rest, offline.
    const published = run('npm', ['publish', '--dry-run', join(out, TARBALL)], {
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_offline: 'true',
    });
    assert.equal(published.status, 0, published.output);
    assert.match(published.output, new RegExp(`\\+ ${PACKAGE.name}@${VERSION.replace(/\./g, '\\.')}`));
    assert.match(published.output, /dry-run/);
  },

  'gh release create "$GITHUB_REF_NAME" --title "$GITHUB_REF_NAME" --notes-file release-notes.md tool-lens.vsix tool-lens-*.tgz':
    () => {
      // What the release attaches is what the steps above built, and its notes are the section.
      for (const file of ['release-notes.md', 'tool-lens.vsix', TARBALL]) assert.ok(existsSync(join(out, file)), file);
      assert.ok(TARBALL.startsWith('tool-lens-') && TARBALL.endsWith('.tgz'), 'the glob names the tarball');
    },
};

test('release.yml: on a version tag, every command has its dry run here, and every dry run its command', () => {
  const release = workflow('release.yml');
  assert.deepEqual(release.on, { push: { tags: ['v*'] } });
  const steps = release.jobs.release!.steps;
  assert.deepEqual(
    steps.filter((step) => step.uses).map((step) => step.uses),
    ['actions/checkout@v4', 'actions/setup-node@v4'],
  );
  assert.equal(steps[1]!.with?.['node-version'], 20, 'the Node the package declares and the tests run on');
  assert.deepEqual(
    steps.filter((step) => step.run).map((step) => step.run!.trim()),
    Object.keys(DRY_RUNS),
  );
  // Tokens come from the repository's secrets, each where its client reads it.
  const env = Object.assign({}, ...steps.map((step) => step.env ?? {})) as Record<string, string>;
  assert.equal(env.VSCE_PAT, '${{ secrets.VSCE_PAT }}');
  assert.equal(env.OVSX_PAT, '${{ secrets.OVSX_PAT }}');
  assert.equal(env.NODE_AUTH_TOKEN, '${{ secrets.NPM_TOKEN }}');
});

test(
  'release.yml dry run: each step in order, on what the earlier ones built',
  { timeout: 10 * 60 * 1000 },
  async () => {
    const steps = workflow('release.yml').jobs.release!.steps.filter((step) => step.run);
    // Every step runs even when one fails (a later one may not need it), and every failure is said.
    const failed: string[] = [];
    for (const step of steps) {
      const dryRun = DRY_RUNS[step.run!.trim()];
      assert.ok(dryRun, step.run);
      try {
        await dryRun();
      } catch (error) {
        failed.push(`${step.name ?? step.run}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    assert.deepEqual(failed, []);
  },
);

test('ci.yml: .ci/run on pushes and pull requests, in Debian with Node 20 as root', () => {
  const ci = workflow('ci.yml');
  assert.deepEqual(Object.keys(ci.on).sort(), ['pull_request', 'push']);
  const job = ci.jobs.test!;
  // The official Node image: Debian, root, Node 20 (.ci/run's promise; code-server needs Node 20).
  assert.match(job.container ?? '', /^node:20-(bookworm|trixie)$/);
  assert.deepEqual(
    job.steps.map((step) => step.uses ?? step.run),
    ['actions/checkout@v4', '.ci/run'],
  );
  const mode = run('git', ['ls-files', '--stage', '.ci/run', 'scripts/setup-test-tools.sh']).stdout;
  assert.match(mode, /^100755 \S+ 0\t\.ci\/run$/m, '.ci/run is executable in git');
  const script = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
  assert.match(script, /^bash scripts\/setup-test-tools\.sh$/m);
  assert.match(script, /^npm test$/m);
  // On a fresh machine apt's lists are empty: the setup updates them before it installs.
  const setup = readFileSync(join(ROOT, 'scripts', 'setup-test-tools.sh'), 'utf8');
  const update = /^\s*apt-get update/m.exec(setup);
  const install = /^\s*apt-get install/m.exec(setup);
  assert.ok(update && install && update.index < install.index, 'apt-get update comes before apt-get install');
});
