// The README's GitHub Action and pre-commit examples against action.yml and .pre-commit-hooks.yaml:
// the same hooks in the same order, only inputs the action has, and both pinned to the tag of
// package.json's version (which exists once that version is released: the README says so). The
// extension's own readme (docs/vscode-extension.md) against package.json: every command and
// setting the extension contributes, and no other.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';

const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  repository: { url: string };
  contributes: {
    commands: { command: string; title: string }[];
    configuration: { properties: Record<string, { default: unknown }> };
  };
};
const SLUG = new URL(PACKAGE.repository.url).pathname.slice(1);

/** The fenced block of `language` whose first line is `firstLine`. */
function block(language: string, firstLine: string): string {
  const found = [...README.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))]
    .map((m) => m[1]!)
    .find((text) => text.startsWith(`${firstLine}\n`));
  assert.ok(found, `the README has a ${language} block starting with ${firstLine}`);
  return found;
}

test('the pre-commit example: this repository, the tag of this version, the hooks in the manifest order', () => {
  const config = parse(block('yaml', '# .pre-commit-config.yaml')) as {
    repos: { repo: string; rev: string; hooks: { id: string }[] }[];
  };
  const [repo] = config.repos;
  assert.equal(repo!.repo, PACKAGE.repository.url);
  assert.equal(repo!.rev, `v${PACKAGE.version}`);
  const manifest = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as { id: string }[];
  assert.deepEqual(
    repo!.hooks.map((hook) => hook.id),
    manifest.map((hook) => hook.id),
  );
  // The manifest's own comment shows the same configuration.
  const comment = readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8');
  assert.deepEqual(
    [...comment.matchAll(/^# +- id: (\S+)/gm)].map((m) => m[1]),
    manifest.map((hook) => hook.id),
  );
  assert.match(comment, new RegExp(`^# +- repo: ${PACKAGE.repository.url}\\n# +rev: v${PACKAGE.version}$`, 'm'));
});

test('the Action example: this repository at the tag of this version, and only inputs action.yml has', () => {
  const workflow = parse(block('yaml', '# .github/workflows/tool-lens.yml')) as {
    jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>;
  };
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const ours = steps.filter((step) => step.uses?.startsWith(`${SLUG}@`));
  assert.equal(ours.length, 1);
  assert.equal(ours[0]!.uses, `${SLUG}@v${PACKAGE.version}`);
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
  for (const input of Object.keys(ours[0]!.with ?? {}))
    assert.ok(input in action.inputs, `action.yml has the input ${input}`);
  // The SARIF upload reads the file the action writes.
  const upload = steps.find((step) => step.uses?.startsWith('github/codeql-action/upload-sarif@'));
  assert.equal(upload?.with?.sarif_file, ours[0]!.with?.['sarif-file']);
});

test('the README says the pinned tag exists once the first release is cut', () => {
  assert.match(README, /`v0\.1\.0` is the first release's tag: the example works once that tag is cut/);
  assert.match(README, /`rev: v0\.1\.0` exists once the first release is tagged/);
});

test("the extension's readme lists every command and setting the extension contributes", () => {
  const page = readFileSync(join(ROOT, 'docs', 'vscode-extension.md'), 'utf8');
  const section = (title: string) => page.slice(page.indexOf(`## ${title}\n`)).split(/\n## /)[0]!;
  const commands = [...section('Commands').matchAll(/^\| ([A-Z][^|]*?) \| /gm)].map((m) => m[1]);
  assert.deepEqual(
    commands,
    PACKAGE.contributes.commands.map((c) => c.title),
  );
  const settings = [...section('Settings').matchAll(/^\| `([^`]+)` \| `([^`]+)` \| /gm)].map((m) => [m[1], m[2]]);
  assert.deepEqual(
    settings,
    Object.entries(PACKAGE.contributes.configuration.properties).map(([key, value]) => [
      key,
      typeof value.default === 'string' ? value.default : JSON.stringify(value.default),
    ]),
  );
  // A screenshot, from docs/images/ (the packaged readme points at it under the repository).
  assert.match(page, /^!\[[^\]]+\]\(images\/[a-z-]+\.png\)$/m);
});
