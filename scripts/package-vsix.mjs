// `npm run package`: builds the VS Code extension's .vsix with vsce, from the bundles `npm run
// build` wrote. The Marketplace and Open VSX show the extension's own readme,
// docs/vscode-extension.md (written for someone installing it; the repository's README opens
// with a clone's commands), and CHANGELOG.md as its release notes. Their relative links and
// images become absolute URLs under the project's repository, package.json's `repository.url`
// (the one place it is configured): pages under `blob/main/docs/`, images under `raw/main/docs/`.
//
//   node scripts/package-vsix.mjs [--out FILE]     (default: tool-lens.vsix)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The vsce arguments that package the extension into `out`. */
export function vsceArguments(out) {
  const { repository } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const docs = (kind) => `${repository.url}/${kind}/main/docs/`;
  return [
    'package',
    '--no-dependencies',
    '--readme-path',
    'docs/vscode-extension.md',
    '--changelog-path',
    'CHANGELOG.md',
    '--baseContentUrl',
    docs('blob'),
    '--baseImagesUrl',
    docs('raw'),
    '--out',
    out,
    // The rule page of client/secret-in-file shows a made-up GitHub token as its bad example (the
    // rule must recognise its shape), and that of client/placeholder-credential a Slack token
    // template (`xoxb-your-bot-token`); vsce's secret scan would refuse the package for either.
    '--allow-package-secrets',
    'github',
    'slack',
  ];
}

function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--out');
  const out = at >= 0 && args[at + 1] ? args[at + 1] : 'tool-lens.vsix';
  const vsce = join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
  const result = spawnSync(vsce, vsceArguments(out), { cwd: ROOT, stdio: 'inherit' });
  return result.status ?? 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
