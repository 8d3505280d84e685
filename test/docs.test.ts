// Every rule has a page in docs/rules/<rule-id>.md with a bad and a good example, and the bad
// example really yields that rule (checked against the catalogs in docs/rules/_catalogs/, the same
// ones the pages' examples are written against). The good example must not yield it. An example
// titled `<file>.baseline` is the catalog file's baseline, as in the fixtures.
//
// The bad section ends with a `text` block: what `tool-lens check` prints for the rule's findings
// in the bad example (the stylish format without colour, without the summary line). It must be
// exactly that: the page is the one place a message's words are checked (the fixtures pin message
// ids), and its underline and severity are the ones users see. UPDATE_FIXTURES=1 writes the block
// from the checker's output; review the change like any other.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { palette } from '../server/src/cli/colors.js';
import { formatStylish } from '../server/src/cli/formatters/stylish.js';
import type { CheckedFile } from '../server/src/cli/result.js';
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

const UPDATE = process.env.UPDATE_FIXTURES === '1';

/** A section (`## Bad` / `## Good`): where its text starts and ends in the page. */
function section(markdown: string, heading: string): { start: number; end: number } | undefined {
  const match = new RegExp(`^## ${heading}\\b[^\\n]*\\n([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, 'm').exec(markdown);
  if (!match) return undefined;
  const start = match.index + match[0].length - match[1]!.length;
  return { start, end: start + match[1]!.length };
}

/** The code blocks of a section, with their optional `title="file"`; a `text` block is output, not an example. */
function examples(markdown: string, heading: string): Example[] {
  const place = section(markdown, heading);
  if (!place) return [];
  const out: Example[] = [];
  for (const match of markdown.slice(place.start, place.end).matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```/gm)) {
    if (match[1] === 'text') continue;
    const title = /title="([^"]+)"/.exec(match[2]!)?.[1];
    out.push({ lang: match[1]!, title, body: match[3]! });
  }
  return out;
}

/** The output block of a section (a fresh expression each time: a global one keeps state). */
const outputBlocks = () => /^```text\n([\s\S]*?)^```\n/gm;

/** The bad section's `text` blocks: what the page says the check prints. */
function shownOutput(markdown: string): string[] {
  const place = section(markdown, 'Bad')!;
  return [...markdown.slice(place.start, place.end).matchAll(outputBlocks())].map((m) => m[1]!);
}

/** The page with its bad section's output block set to `output` (added after the section's last block when it has none). */
function withOutput(markdown: string, output: string): string {
  const place = section(markdown, 'Bad')!;
  const body = markdown.slice(place.start, place.end);
  const block = '```text\n' + output + '```\n';
  let next: string;
  if (outputBlocks().test(body)) next = body.replace(outputBlocks(), () => block);
  else {
    const blocks = [...body.matchAll(/^```\w+[^\n]*\n[\s\S]*?^```\n/gm)];
    const last = blocks[blocks.length - 1]!;
    const at = last.index + last[0].length;
    next = `${body.slice(0, at)}\n\`tool-lens check\` reports:\n\n${block}${body.slice(at)}`;
  }
  return markdown.slice(0, place.start) + next + markdown.slice(place.end);
}

interface Checked {
  messages: string[];
  /** What `tool-lens check` prints for the rule's findings (stylish, no colour, no summary line). */
  output: string;
}

function findingsOf(example: Example[], ruleId: string): Checked {
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
    const files: CheckedFile[] = loaded.files
      .filter((f) => written.includes(f.path))
      .map((f) => ({
        path: f.path,
        kind: f.kind,
        source: f.source,
        findings: checkFile(f, loaded.workspace).findings.filter((x) => x.rule === ruleId),
      }));
    assert.equal(failuresLogged(logged), undefined);
    const messages = files.flatMap((f) => f.findings.map((x) => x.message));
    const printed = formatStylish({ files }, palette(false));
    // The last block is the summary line, which would count only this rule's findings.
    const output = messages.length ? printed.slice(0, printed.lastIndexOf('\n\n')) + '\n' : '';
    return { messages, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const rule of ALL_RULES) {
  test(`docs/rules/${rule.id}.md`, () => {
    const page = join(DOCS, `${rule.id}.md`);
    assert.ok(existsSync(page), `rule ${rule.id} has no documentation page`);
    const markdown = readFileSync(page, 'utf8');
    assert.match(
      markdown,
      new RegExp(`^# ${rule.id.replace('/', '\\/')}\\s*$`, 'm'),
      'the page starts with the rule id as its title',
    );
    const bad = examples(markdown, 'Bad');
    const good = examples(markdown, 'Good');
    assert.ok(bad.length > 0, 'the page has a "## Bad" example');
    assert.ok(good.length > 0, 'the page has a "## Good" example');
    const { messages, output } = findingsOf(bad, rule.id);
    assert.ok(messages.length > 0, `the bad example does not yield ${rule.id}`);
    assert.deepEqual(findingsOf(good, rule.id).messages, [], `the good example yields ${rule.id}`);
    if (UPDATE && shownOutput(markdown)[0] !== output) writeFileSync(page, withOutput(markdown, output));
    const shown = shownOutput(UPDATE ? readFileSync(page, 'utf8') : markdown);
    assert.equal(
      shown.length,
      1,
      'the bad section shows, in one `text` block, what `tool-lens check` prints for it (UPDATE_FIXTURES=1 writes it)',
    );
    assert.equal(
      shown[0],
      output,
      'the bad section shows what `tool-lens check` prints for it, word for word (UPDATE_FIXTURES=1 writes it; review the change)',
    );
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
