// The project's links, all derived from one place: package.json's `repository.url`. A mention of
// any repository named like ours (its owner or its name) must be that one, and a link into it must
// name a file or folder this checkout has, so nothing points at a repository or a page that may
// not exist. test/release/links.test.ts runs this over the repository's files, and
// test/release/workflows.test.ts over the readme and changelog packaged in the .vsix.
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const PROJECT_URL = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { repository: { url: string } }
).repository.url;
const [OWNER, NAME] = new URL(PROJECT_URL).pathname.slice(1).split('/') as [string, string];

/** What the project's URL may be followed by, besides a file of the checkout. */
const PAGES = ['', '#readme', '/issues', '/security/advisories/new', '.git'];

/** The problems of the links in `text` (a file's contents), each naming the link. */
export function projectLinkProblems(text: string): string[] {
  const problems: string[] = [];
  const slugs = [
    ...[...text.matchAll(/https?:\/\/github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?(?=[/#)"'`>\s\]]|$)/g)].map((m) => [
      m[1]!,
      m[2]!,
    ]),
    ...[...text.matchAll(/uses: ([\w.-]+)\/([\w.-]+)@/g)].map((m) => [m[1]!, m[2]!]),
  ];
  for (const [owner, name] of slugs) {
    const ours = [OWNER, NAME, 'tool-lens'];
    if ((ours.includes(owner!) || ours.includes(name!)) && (owner !== OWNER || name !== NAME))
      problems.push(`${owner}/${name} is not the project's repository, ${OWNER}/${NAME} (package.json repository.url)`);
  }
  const escaped = PROJECT_URL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const m of text.matchAll(new RegExp(`${escaped}([^\\s)"'\`>\\]]*)`, 'g'))) {
    const rest = m[1]!.replace(/[.,;:]+$/, '');
    if (PAGES.includes(rest)) continue;
    const inTree = /^\/(?:blob|raw|tree)\/main\/([^#?]*)/.exec(rest);
    if (!inTree) {
      problems.push(`${PROJECT_URL}${rest}: not a page of the repository this test knows, nor a file on main`);
      continue;
    }
    const path = posix.normalize(decodeURIComponent(inTree[1]!));
    // A template of the rule pages (`{rule}`, `RULE`, a template literal), not a page itself.
    if (/\{rule\}|\$\{|\bRULE\b/.test(path)) continue;
    if (path.startsWith('..') || !existsSync(join(ROOT, path)))
      problems.push(`${PROJECT_URL}${rest}: ${path} is no file of this repository`);
  }
  return problems;
}
