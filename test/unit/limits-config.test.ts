// The limits a project sets in `.toollens.yaml` (`limits:`, core/limits.ts LIMIT_BOUNDS): read
// within their bounds, refused at their exact place outside them (the default then applies), and
// carried by the Workspace to every place that reads them: the parse (fileBytes, fileValues,
// aliasNodes), the pattern budget (regexWork), the "did you mean" budget (suggestionCandidates).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseConfig, type LensConfig } from '../../server/src/core/config/config.js';
import { checkFile } from '../../server/src/core/engine.js';
import {
  DEFAULT_LIMITS,
  FIXED_LIMITS,
  LIMIT_BOUNDS,
  LIMITS,
  type ConfigurableLimit,
  type LimitName,
} from '../../server/src/core/limits.js';
import { RULE_IDS } from '../../server/src/core/rules/registry.js';
import type { Finding } from '../../server/src/core/types.js';
import { Workspace } from '../../server/src/core/workspace.js';

const ROOT = join(__dirname, '..', '..');

const configOf = (text: string) => parseConfig('.toollens.yaml', text, RULE_IDS);

/** Each problem as [the text it sits on, its rule, its message]. */
const problemsOf = (text: string) =>
  configOf(text).problems.map((p) => [text.slice(p.span.start, p.span.end), p.rule, p.message]);

function workspaceWith(
  limits: string,
  catalogs: Record<string, string> = {},
): { workspace: Workspace; logs: string[] } {
  const logs: string[] = [];
  const workspace = new Workspace('/ws', (message) => logs.push(message));
  const { config, problems } = configOf(`limits:\n${limits}`);
  assert.deepEqual(problems, [], 'the limits are within bounds');
  workspace.config = config;
  for (const [name, body] of Object.entries(catalogs)) workspace.catalog.addFile(workspace.parse(`/ws/${name}`, body));
  return { workspace, logs };
}

function check(workspace: Workspace, path: string, text: string): Finding[] {
  return checkFile(workspace.parse(`/ws/${path}`, text), workspace).findings;
}

describe('limits: in .toollens.yaml', () => {
  test('every configurable limit has bounds around its default, and every other limit says why it is fixed', () => {
    for (const [name, bound] of Object.entries(LIMIT_BOUNDS) as [
      ConfigurableLimit,
      (typeof LIMIT_BOUNDS)[ConfigurableLimit],
    ][]) {
      assert.equal(DEFAULT_LIMITS[name], LIMITS[name], name);
      assert.ok(
        bound.min <= LIMITS[name] && LIMITS[name] <= bound.max,
        `${name}: ${bound.min} <= ${LIMITS[name]} <= ${bound.max}`,
      );
    }
    const all = Object.keys(LIMITS).sort();
    assert.deepEqual(
      [...Object.keys(LIMIT_BOUNDS), ...Object.keys(FIXED_LIMITS)].sort(),
      all,
      'each limit is either configurable or fixed',
    );
    // docs/limits.md gives each configurable limit its range.
    const docs = readFileSync(join(ROOT, 'docs', 'limits.md'), 'utf8');
    for (const name of Object.keys(LIMIT_BOUNDS)) {
      const section = docs.split(/^## /m).find((s) => s.startsWith(`${name}\n`));
      assert.ok(section?.includes('**In `.toollens.yaml`:**'), `docs/limits.md says how to set ${name}`);
    }
    for (const name of Object.keys(FIXED_LIMITS) as LimitName[]) {
      const section = docs.split(/^## /m).find((s) => s.startsWith(`${name}\n`));
      assert.ok(section?.includes('**Fixed:**'), `docs/limits.md says why ${name} is fixed`);
    }
  });

  test('values within the bounds are read; the others keep their defaults', () => {
    const { config, problems } = configOf(
      'limits:\n  fileBytes: 16777216\n  aliasNodes: 1000\n  suggestionCandidates: 0\n',
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(config.limits, {
      ...DEFAULT_LIMITS,
      fileBytes: 16 * 1024 * 1024,
      aliasNodes: 1000,
      suggestionCandidates: 0,
    });
    assert.deepEqual(configOf('rules: {}\n').config.limits, DEFAULT_LIMITS);
    // The bounds themselves are allowed.
    for (const [name, bound] of Object.entries(LIMIT_BOUNDS)) {
      assert.deepEqual(configOf(`limits: {${name}: ${bound.min}}`).problems, [], `${name} at its minimum`);
      assert.deepEqual(configOf(`limits: {${name}: ${bound.max}}`).problems, [], `${name} at its maximum`);
    }
  });

  test('a value out of bounds is a problem on the value, and the default applies', () => {
    const text = 'limits:\n  fileBytes: 1073741824\n  fileValues: 5\n  editorCheckMs: 2500\n';
    assert.deepEqual(problemsOf(text), [
      [
        '1073741824',
        'schema/invalid-value',
        'fileBytes is 1,073,741,824 bytes (1024 MB), more than the 16,777,216 bytes (16 MB) Tool Lens lets a configuration set: past that, one hostile file could cost the checker more time or memory than it may spend. Set it from 262,144 bytes (256 KB) to 16,777,216 bytes (16 MB); the default, 8,388,608 bytes (8 MB), applies meanwhile.',
      ],
      [
        '5',
        'schema/invalid-value',
        'fileValues is 5, less than the 10,000 Tool Lens lets a configuration set: below that, ordinary files would be declined. Set it from 10,000 to 1,000,000; the default, 500,000, applies meanwhile.',
      ],
    ]);
    assert.deepEqual(configOf(text).config.limits, { ...DEFAULT_LIMITS, editorCheckMs: 2500 });
  });

  test('a value that is no whole number, a name that is no limit, a fixed limit and a limits that is no mapping are problems', () => {
    assert.deepEqual(
      problemsOf('limits:\n  aliasNodes: "200000"\n  regexWork: 1.5e7\n  fileBytes: 0.5\n').map(([at, rule]) => [
        at,
        rule,
      ]),
      [
        ['"200000"', 'schema/invalid-value'],
        ['0.5', 'schema/invalid-value'],
      ],
    );
    assert.match(
      String(problemsOf('limits: {aliasNodes: many}')[0]![2]),
      /^The limit aliasNodes must be a whole number from 1,000 to 1,000,000; the default, 100,000, applies meanwhile\.$/,
    );
    assert.deepEqual(problemsOf('limits:\n  filebytes: 1\n'), [
      [
        'filebytes',
        'schema/unknown-key',
        '"filebytes" is not a limit a configuration sets; those are fileBytes, fileValues, aliasNodes, regexWork, suggestionCandidates and editorCheckMs (docs/limits.md).',
      ],
    ]);
    const [fixed] = problemsOf('limits:\n  nesting: 800\n');
    assert.deepEqual(fixed!.slice(0, 2), ['nesting', 'schema/unknown-key']);
    assert.match(String(fixed![2]), /^The limit nesting cannot be set: it is set by the stack/);
    assert.deepEqual(
      problemsOf('limits: [fileBytes]\n').map(([at, rule]) => [at, rule]),
      [['[fileBytes]', 'schema/invalid-value']],
    );
    // `__proto__` is a name like any other.
    assert.deepEqual(
      problemsOf('limits: {__proto__: 1, constructor: 2}').map(([at, rule]) => [at, rule]),
      [
        ['__proto__', 'schema/unknown-key'],
        ['constructor', 'schema/unknown-key'],
      ],
    );
  });
});

describe('the workspace carries its limits to every place that reads them', () => {
  const bigComment = (bytes: number) => `compositeTools: []\n${`# ${'x'.repeat(98)}\n`.repeat(Math.ceil(bytes / 100))}`;

  test('fileBytes: a raised limit checks a file the default declines; a lowered one declines a file the default checks', () => {
    const nine = bigComment(9 * 1024 * 1024);
    assert.deepEqual(
      check(new Workspace('/ws'), 'big.vmcp.yaml', nine).map((f) => f.rule),
      ['lens/declined'],
    );
    assert.deepEqual(
      check(workspaceWith('  fileBytes: 16777216').workspace, 'big.vmcp.yaml', nine),
      [],
      'checked, and correct',
    );
    const small = bigComment(300 * 1024);
    assert.deepEqual(check(new Workspace('/ws'), 'small.vmcp.yaml', small), []);
    const declined = check(workspaceWith('  fileBytes: 262144').workspace, 'small.vmcp.yaml', small);
    assert.deepEqual(
      declined.map((f) => [f.rule, f.message]),
      [['lens/declined', 'This file is 303.1 KB, more than the 256 KB Tool Lens reads: split it to have it checked.']],
    );
  });

  test('fileValues: the same', () => {
    const values = `compositeTools: []\nx: [${Array(20_000).fill('0').join(',')}]\n`;
    assert.equal(
      check(new Workspace('/ws'), 'many.vmcp.yaml', values).filter((f) => f.rule === 'lens/declined').length,
      0,
    );
    const declined = check(workspaceWith('  fileValues: 10000').workspace, 'many.vmcp.yaml', values).filter(
      (f) => f.rule === 'lens/declined',
    );
    assert.deepEqual(
      declined.map((f) => f.message),
      ['This file holds more than the 10,000 values Tool Lens reads: split it to have it checked.'],
    );
  });

  test('aliasNodes: a raised budget expands aliases the default leaves; a lowered one leaves them', () => {
    // 300 aliases of a 500-value anchor: 150,000 values, past the default's 100,000.
    const bomb = `compositeTools: []\nanchor: &a [${Array(500).fill('0').join(',')}]\nrefs: [${Array(300).fill('*a').join(',')}]\n`;
    const declinedIn = (workspace: Workspace) =>
      check(workspace, 'bomb.vmcp.yaml', bomb)
        .filter((f) => f.rule === 'lens/declined')
        .map((f) => `${f.message} ${f.why}`);
    assert.match(declinedIn(new Workspace('/ws'))[0] ?? '', /at most 100,000 values from aliases/);
    assert.deepEqual(declinedIn(workspaceWith('  aliasNodes: 200000').workspace), []);
    assert.match(
      declinedIn(workspaceWith('  aliasNodes: 1000').workspace)[0] ?? '',
      /^Aliases here are not expanded: .*\. This alias and the 298 after it .* at most 1,000 values from aliases/,
    );
  });

  test('regexWork: the document budget of pattern work, and its words', () => {
    const catalog =
      'catalog: 1\nservers:\n  - name: s\n    tools:\n      - name: t\n        inputSchema: {type: object, properties: {id: {type: string, pattern: "^[a-z]{1,64}$"}}}\n';
    const calls = `server: s\ncalls:\n${Array.from({ length: 40 }, (_, i) => `  - tool: t\n    input: {id: ${'a'.repeat(200)}${i}}\n`).join('')}`;
    const declined = (limits: string) =>
      check(workspaceWith(limits, { 's.catalog.yaml': catalog }).workspace, 'c.calls.yaml', calls).filter(
        (f) => f.rule === 'lens/declined',
      );
    assert.equal(declined('  regexWork: 50000000').length, 0);
    const spent = declined('  regexWork: 1000000');
    assert.equal(spent.length, 1);
    assert.match(spent[0]!.why ?? '', /share of pattern work is spent \(1,000,000 instructions times characters\)/);
  });

  test('suggestionCandidates: 0 suggests nothing, and the findings stay', () => {
    const catalog =
      'catalog: 1\nservers:\n  - name: s\n    tools:\n      - {name: read_file, inputSchema: {type: object}}\n';
    const gateway =
      'compositeTools:\n  - name: w\n    description: d.\n    steps:\n      - {id: a, tool: s.read_fiel}\n';
    const unknown = (limits: string) =>
      check(workspaceWith(limits, { 's.catalog.yaml': catalog }).workspace, 'g.vmcp.yaml', gateway).filter(
        (f) => f.rule === 'tool/unknown',
      );
    assert.match(unknown('  suggestionCandidates: 1000000')[0]?.message ?? '', /did you mean "s\.read_file"/);
    const none = unknown('  suggestionCandidates: 0');
    assert.equal(none.length, 1);
    assert.doesNotMatch(none[0]!.message, /[Dd]id you mean/);
  });

  test('a parse made under other limits is not re-used for the same text', () => {
    const small = bigComment(300 * 1024);
    const workspace = new Workspace('/ws');
    const before = workspace.parse('/ws/small.vmcp.yaml', small);
    assert.equal(before.documents[0]!.problems.length, 0);
    workspace.config = configOf('limits: {fileBytes: 262144}').config;
    const after = workspace.parse('/ws/small.vmcp.yaml', small, before, { consume: true });
    assert.deepEqual(
      after.documents[0]!.problems.map((p) => p.rule),
      ['lens/declined'],
    );
    workspace.config = { ...workspace.config, limits: DEFAULT_LIMITS } satisfies LensConfig;
    assert.deepEqual(
      workspace.parse('/ws/small.vmcp.yaml', small, after, { consume: true }).documents[0]!.problems,
      [],
    );
  });
});
