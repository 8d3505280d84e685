// Every rule has a page in docs/rules/<rule-id>.md with a bad and a good example, and the bad
// example really yields that rule (checked against the catalogs in docs/rules/_catalogs/, the same
// ones the pages' examples are written against). The good example must not yield it. An example
// titled `<file>.baseline` is the catalog file's baseline, as in the fixtures.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { checkFile } from '../server/src/core/engine.js';
import { ALL_RULES } from '../server/src/core/rules/registry.js';
import { attachBaseline, failuresLogged, loadRecording } from './helpers/fixtures.js';

const DOCS = join(__dirname, '..', 'docs', 'rules');
const CATALOGS = join(DOCS, '_catalogs');

interface Example {
  lang: string;
  title?: string;
  body: string;
}

/** The code blocks of a section (`## Bad` / `## Good`), with their optional `title="file"`. */
function examples(markdown: string, heading: string): Example[] {
  const section = new RegExp(`^## ${heading}\\b[^\\n]*\\n([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, 'm').exec(markdown);
  if (!section) return [];
  const out: Example[] = [];
  for (const match of section[1]!.matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```/gm)) {
    const title = /title="([^"]+)"/.exec(match[2]!)?.[1];
    out.push({ lang: match[1]!, title, body: match[3]! });
  }
  return out;
}

function findingsOf(example: Example[], ruleId: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'tool-lens-docs-'));
  try {
    // The pages are written against these catalogs: without them a bad example could fire for another reason.
    assert.ok(existsSync(CATALOGS), `no ${CATALOGS}`);
    cpSync(CATALOGS, join(dir, '_catalogs'), { recursive: true });
    const written: string[] = [];
    example.forEach((ex, i) => {
      const name = ex.title ?? `example-${i}.${ex.lang === 'jsonc' ? 'json' : ex.lang}`;
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), ex.body);
      written.push(name);
    });
    // A rule that throws is only logged: an example it crashes on would read as clean.
    const logged: string[] = [];
    const loaded = loadRecording({ paths: ['.'], cwd: dir }, logged);
    // A `title="x.baseline"` example is the baseline of the catalog x (test/helpers/fixtures.ts).
    attachBaseline(dir, loaded);
    const messages = loaded.files
      .filter((f) => written.includes(f.path))
      .flatMap((f) => checkFile(f, loaded.workspace).findings)
      .filter((f) => f.rule === ruleId)
      .map((f) => f.message);
    assert.equal(failuresLogged(logged), undefined);
    return messages;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const rule of ALL_RULES) {
  test(`docs/rules/${rule.id}.md`, () => {
    const page = join(DOCS, `${rule.id}.md`);
    assert.ok(existsSync(page), `rule ${rule.id} has no documentation page`);
    const markdown = readFileSync(page, 'utf8');
    assert.match(markdown, new RegExp(`^# ${rule.id.replace('/', '\\/')}\\s*$`, 'm'), 'the page starts with the rule id as its title');
    const bad = examples(markdown, 'Bad');
    const good = examples(markdown, 'Good');
    assert.ok(bad.length > 0, 'the page has a "## Bad" example');
    assert.ok(good.length > 0, 'the page has a "## Good" example');
    assert.ok(findingsOf(bad, rule.id).length > 0, `the bad example does not yield ${rule.id}`);
    assert.deepEqual(findingsOf(good, rule.id), [], `the good example yields ${rule.id}`);
  });
}

test('docs/rules/README.md lists every rule with its default severity and summary', () => {
  const index = readFileSync(join(DOCS, 'README.md'), 'utf8');
  for (const rule of ALL_RULES) {
    const row = index.split('\n').find((line) => line.startsWith(`| [${rule.id}](${rule.id}.md) |`));
    assert.ok(row, `the rules index has no row for ${rule.id}`);
    assert.ok(row.includes(`| ${rule.defaultSeverity} |`), `the rules index gives ${rule.id} another default severity`);
    assert.ok(row.includes(rule.summary.replace(/\|/g, '\\|')), `the rules index has an old summary for ${rule.id}`);
  }
});
