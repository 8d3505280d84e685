// Before a release is built: the tag names the version of package.json, CHANGELOG.md has that
// version's section with its date, and the README's Action and pre-commit examples pin that tag.
// With --notes FILE it writes the version's section (without its heading) to FILE, for the
// release page. The release workflow runs it first; docs/releasing.md says when to run it by hand.
//
//   node scripts/release-check.mjs v0.1.0 [--notes FILE] [--root DIR]
//
// --root reads package.json, CHANGELOG.md and README.md from DIR instead of this checkout (the
// dry run of test/release/workflows.test.ts checks a copy prepared as a release commit would be).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The body of CHANGELOG.md's section for `version`, or undefined when it has none. */
export function changelogSection(changelog, version) {
  const escaped = version.replace(/\./g, '\\.');
  const heading = new RegExp(`^## \\[${escaped}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm').exec(changelog);
  if (!heading) return undefined;
  const rest = changelog.slice(heading.index + heading[0].length);
  const next = rest.search(/^## /m);
  return (next < 0 ? rest : rest.slice(0, next)).trim();
}

/** What is wrong with releasing `tag` from this checkout: one line each, none when all is well. */
export function releaseProblems(tag, root = ROOT) {
  const { version, repository } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const problems = [];
  if (tag !== `v${version}`)
    problems.push(`the tag is ${tag}, but package.json's version is ${version}: tag v${version}`);
  const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
  if (changelogSection(changelog, version) === undefined)
    problems.push(`CHANGELOG.md has no "## [${version}] - YYYY-MM-DD" section: rename [Unreleased] to it`);
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const slug = new URL(repository.url).pathname.slice(1);
  for (const [what, pattern] of [
    ['the GitHub Action example', new RegExp(`uses: ${slug}@(\\S+)`, 'g')],
    ['the pre-commit example', new RegExp(`repo: ${repository.url}\\n\\s+rev: (\\S+)`, 'g')],
  ]) {
    const pins = [...readme.matchAll(pattern)].map((m) => m[1]);
    if (pins.length === 0) problems.push(`README.md has no ${what}`);
    for (const pin of pins) if (pin !== `v${version}`) problems.push(`README.md: ${what} pins ${pin}, not v${version}`);
  }
  return problems;
}

function main() {
  const args = process.argv.slice(2);
  const tag = args[0];
  if (!tag || tag.startsWith('-')) {
    console.error('usage: node scripts/release-check.mjs TAG [--notes FILE]');
    return 2;
  }
  const rootAt = args.indexOf('--root');
  const root = rootAt >= 0 && args[rootAt + 1] ? args[rootAt + 1] : ROOT;
  const problems = releaseProblems(tag, root);
  for (const problem of problems) console.error(`release-check: ${problem}`);
  if (problems.length > 0) return 1;
  const at = args.indexOf('--notes');
  if (at >= 0) {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    writeFileSync(args[at + 1], `${changelogSection(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), version)}\n`);
  }
  console.log(`release-check: ${tag} is ready to build`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
