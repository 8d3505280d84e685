// `tool-lens catalog diff`: pairs of snapshots built from the example workspace's real ones (a
// hint flipped, a required argument added, a tool removed, a tool renamed, a hint tightened), in
// a git repository so the old side can also be a revision, with the gateway impact on the example
// workflows checked against what the change must do to them.
import { removeAtExit } from '../helpers/tempDir.js';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT, runCli } from './harness.js';

const CATALOG = 'catalogs/team-tools.catalog.yaml';

interface Report {
  version: number;
  servers: {
    name: string;
    change: string;
    tools: {
      name: string;
      change: string;
      renamedTo?: string;
      requiredAdded: string[];
      hints: { hint: string; before?: boolean; after?: boolean; direction: string }[];
    }[];
  }[];
  gateways: {
    path: string;
    renamed: { from: string; to?: string; before: string; after: string }[];
    added: string[];
    removed: string[];
    composites: { name: string; before: string; after: string; broken: boolean; reason?: string }[];
  }[];
  findings: { path: string; findings: { rule: string; severity: string; range: { start: { line: number } } }[] }[];
  summary: { loosened: number; tightened: number; broken: number; newErrors: number };
}

/** A copy of examples/ committed to a fresh git repository, with the catalog then changed by `edit`. */
function changedWorkspace(edit: (text: string) => string): string {
  const dir = removeAtExit(mkdtempSync(join(tmpdir(), 'tool-lens-diff-')));
  cpSync(join(ROOT, 'examples'), dir, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'snapshots');
  const path = join(dir, CATALOG);
  const before = readFileSync(path, 'utf8');
  const after = edit(before);
  assert.notEqual(after, before, 'the edit changes the catalog');
  writeFileSync(path, after);
  return dir;
}

/** Replaces the first `from` after `anchor`. */
function after(anchor: string, from: string, to: string): (text: string) => string {
  return (text) => {
    const at = text.indexOf(anchor);
    const i = text.indexOf(from, at);
    assert.ok(at >= 0 && i >= 0, `${anchor} … ${from}`);
    return text.slice(0, i) + to + text.slice(i + from.length);
  };
}

function diff(
  dir: string,
  args = ['HEAD:catalogs', 'catalogs'],
): { code: number | null; report: Report; stdout: string } {
  const run = runCli(['catalog', 'diff', ...args, '--format', 'json'], { cwd: dir });
  assert.equal(run.stderr, '');
  return { code: run.code, report: JSON.parse(run.stdout) as Report, stdout: run.stdout };
}

describe('tool-lens catalog diff', () => {
  test('a read tool flips to write: the hint loosened, the read-only composite built on it dropped, exit 1', () => {
    const dir = changedWorkspace(after('- name: list_pull_requests', 'readOnlyHint: true', 'readOnlyHint: false'));
    const { code, report } = diff(dir);
    assert.equal(code, 1);
    const github = report.servers.find((s) => s.name === 'github')!;
    assert.deepEqual(
      github.tools.map((t) => `${t.name} ${t.change}`),
      ['list_pull_requests changed'],
    );
    assert.deepEqual(github.tools[0]!.hints, [
      { hint: 'readOnlyHint', before: true, after: false, direction: 'loosened' },
    ]);
    const docsBot = report.gateways.find((g) => g.path === 'gateways/docs-bot.vmcp.yaml')!;
    assert.deepEqual(
      docsBot.composites.map((c) => `${c.name} ${c.before} → ${c.after} ${c.broken}`),
      ['draft_release_notes advertised → contradiction true'],
    );
    assert.deepEqual(
      report.findings.flatMap((f) => f.findings.map((x) => `${f.path}:${x.range.start.line} ${x.rule}`)),
      ['gateways/docs-bot.vmcp.yaml:47 annotations/contradiction'],
    );
    assert.deepEqual(report.summary, { loosened: 1, tightened: 0, broken: 1, newErrors: 1 });
  });

  test('a required argument added: the step that does not give it gets args/missing-required', () => {
    const dir = changedWorkspace((text) =>
      after(
        '- name: add_issue_comment',
        'required: [owner, repo, issue_number, body]',
        'required: [owner, repo, issue_number, body, labels]',
      )(
        after(
          '- name: add_issue_comment',
          'body: {type: string, description: Comment content}',
          'body: {type: string, description: Comment content}\n            labels: {type: array, items: {type: string}}',
        )(text),
      ),
    );
    const { code, report } = diff(dir);
    assert.equal(code, 1);
    const tool = report.servers[0]!.tools[0]!;
    assert.equal(tool.name, 'add_issue_comment');
    assert.deepEqual(tool.requiredAdded, ['labels']);
    assert.deepEqual(
      report.findings.flatMap((f) => f.findings.map((x) => `${f.path} ${x.rule} ${x.severity}`)),
      ['gateways/docs-release.k8s.yaml args/missing-required error'],
    );
    assert.equal(report.summary.loosened, 0);
  });

  test('a tool removed: no longer advertised, the composite that calls it left out, the step unknown', () => {
    const dir = changedWorkspace((text) => {
      const start = text.indexOf('      - name: add_issue_comment');
      const end = text.indexOf('      - name: ', start + 10);
      return text.slice(0, start) + text.slice(end);
    });
    const { code, report } = diff(dir);
    assert.equal(code, 1);
    assert.deepEqual(
      report.servers[0]!.tools.map((t) => `${t.name} ${t.change}`),
      ['add_issue_comment removed'],
    );
    const release = report.gateways.find((g) => g.path === 'gateways/docs-release.k8s.yaml')!;
    assert.deepEqual(release.removed, ['github_add_issue_comment']);
    assert.deepEqual(
      release.composites.map((c) => `${c.name} ${c.before} → ${c.after}`),
      ['ship_docs_release advertised → left-out'],
    );
    assert.ok(
      report.findings.some(
        (f) => f.path === 'gateways/docs-release.k8s.yaml' && f.findings.some((x) => x.rule === 'tool/unknown'),
      ),
    );
    assert.equal(report.summary.broken, 1);
  });

  test('a tool renamed: one rename in the catalog, and the advertised name it changes, not a removal and an addition', () => {
    const dir = changedWorkspace((text) => text.replace('- name: search_issues', '- name: search_all_issues'));
    const { code, report, stdout } = diff(dir);
    assert.deepEqual(
      report.servers[0]!.tools.map((t) => `${t.name} ${t.change} ${t.renamedTo}`),
      ['search_issues renamed search_all_issues'],
    );
    const docsBot = report.gateways.find((g) => g.path === 'gateways/docs-bot.vmcp.yaml')!;
    assert.deepEqual(docsBot.renamed, [
      {
        from: 'github.search_issues',
        to: 'github.search_all_issues',
        before: 'github_search_issues',
        after: 'github_search_all_issues',
      },
    ]);
    assert.deepEqual(docsBot.added, []);
    assert.deepEqual(docsBot.removed, []);
    assert.equal(code, 0, `a rename alone loosens nothing and breaks no composite here:\n${stdout}`);
  });

  test('a hint tightened only: reported, exit 0', () => {
    const dir = changedWorkspace(after('- name: create_issue', 'openWorldHint: true', 'openWorldHint: false'));
    const { code, report } = diff(dir);
    assert.equal(code, 0);
    assert.deepEqual(report.servers[0]!.tools[0]!.hints, [
      { hint: 'openWorldHint', before: true, after: false, direction: 'tightened' },
    ]);
    assert.deepEqual(report.summary, { loosened: 0, tightened: 1, broken: 0, newErrors: 0 });
  });

  test('files as well as revisions; the table for people names the loosened hint and the dropped composite', () => {
    const dir = changedWorkspace(after('- name: list_pull_requests', 'readOnlyHint: true', 'readOnlyHint: false'));
    writeFileSync(join(dir, 'old.catalog.yaml'), execFileSync('git', ['show', `HEAD:${CATALOG}`], { cwd: dir }));
    const fromFiles = diff(dir, ['old.catalog.yaml', CATALOG]);
    assert.deepEqual(fromFiles.report.summary, { loosened: 1, tightened: 0, broken: 1, newErrors: 1 });
    const table = runCli(['catalog', 'diff', 'HEAD:catalogs', 'catalogs', '--no-color'], { cwd: dir });
    assert.equal(table.code, 1);
    assert.match(table.stdout, /^ {4}list_pull_requests: readOnlyHint loosened \(true → false\)$/m);
    assert.match(table.stdout, /^ {4}composite draft_release_notes: advertised → contradiction: /m);
    assert.match(table.stdout, /^1 hint loosened, 0 tightened; 1 composite tool no longer advertised; 1 new error$/m);
  });

  test('usage errors: one argument, a revision git does not have, a folder without catalogs', () => {
    const dir = changedWorkspace(after('- name: create_issue', 'openWorldHint: true', 'openWorldHint: false'));
    assert.equal(runCli(['catalog', 'diff', 'catalogs'], { cwd: dir }).code, 2);
    const missing = runCli(['catalog', 'diff', 'nosuchrev:catalogs', 'catalogs'], { cwd: dir });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /git cannot read nosuchrev:catalogs/);
    const empty = runCli(['catalog', 'diff', 'gateways', 'catalogs'], { cwd: dir });
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /gateways holds no tool catalog/);
  });
});
