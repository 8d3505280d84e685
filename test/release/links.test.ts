// One configurable place for the project's home: package.json's `repository.url`. Its `homepage`
// and `bugs` are derived from it, and so are the rule pages the findings link to, SARIF's and
// rdjson's tool link, and the links of the extension's packaged readme. Every other file that
// names the repository (the README's examples, SECURITY.md, the schemas) names that one, and every
// link into it names a file this checkout has (test/helpers/projectLinks.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DOCS_BASE_URL, PROJECT_URL as CODE_URL } from '../../server/src/core/rules/rule.js';
import { PROJECT_URL, projectLinkProblems, ROOT } from '../helpers/projectLinks.js';

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  homepage: string;
  bugs: { url: string };
  repository: { type: string; url: string };
};

test('package.json: repository, homepage and bugs are one place', () => {
  assert.equal(PACKAGE.repository.type, 'git');
  assert.match(PACKAGE.repository.url, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
  assert.equal(PACKAGE.homepage, `${PROJECT_URL}#readme`);
  assert.equal(PACKAGE.bugs.url, `${PROJECT_URL}/issues`);
  assert.equal(CODE_URL, PROJECT_URL);
  assert.equal(DOCS_BASE_URL, `${PROJECT_URL}/blob/main/docs/rules/`);
});

test('every file of the repository names only that repository, and only files it has', () => {
  const files = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .stdout.split('\0')
    .filter(Boolean)
    // The corpus and the fixtures are other projects' files and test input; the lock file, npm's.
    .filter((path) => !/^(test\/corpus\/|test\/fixtures\/|package-lock\.json$)/.test(path))
    .filter((path) => /\.(md|ts|mjs|cjs|js|json|ya?ml|sh|toml)$|^\.ci\/run$/.test(path));
  // A file this branch adds but has not committed yet is checked too.
  for (const extra of ['CHANGELOG.md', 'docs/vscode-extension.md', 'docs/releasing.md'])
    if (!files.includes(extra)) files.push(extra);
  const problems = files.flatMap((path) =>
    projectLinkProblems(readFileSync(join(ROOT, path), 'utf8')).map((problem) => `${path}: ${problem}`),
  );
  assert.deepEqual(problems, []);
});

test('the check finds a stale repository and a page that is not there', () => {
  assert.deepEqual(projectLinkProblems(`see ${PROJECT_URL}/blob/main/docs/rules/README.md`), []);
  // Written in two pieces, so that this file does not hold the stale link it tests for.
  assert.equal(projectLinkProblems(`https://github.com/${'someone-else'}/tool-lens/issues`).length, 1);
  assert.equal(projectLinkProblems(`${PROJECT_URL}/blob/main/docs/no-such-page.md`).length, 1);
  assert.equal(projectLinkProblems(`${PROJECT_URL}/wiki`).length, 1);
  assert.deepEqual(projectLinkProblems('https://github.com/stacklok/toolhive/blob/main/README.md'), []);
});
