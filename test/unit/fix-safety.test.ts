// Fix safety as a property (test/helpers/fixSafety.ts): applying every safe fix of a file, as
// `--fix` does, changes nothing outside the fixes' ranges, never edits an alias token or touches an
// anchored node that aliases use, and the re-check has no new error. Checked on every file of every
// fixture folder, of the clean corpus and of the examples (each in its folder's workspace), and on
// a few thousand of them mutated by the fuzzer's generators with a fixed seed (printed), many with
// anchors and aliases put into their own structure. The last tests build unsafe fixes by hand and
// show that the property catches each kind.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { checkFile } from '../../server/src/core/engine.js';
import type { Fix } from '../../server/src/core/types.js';
import { Workspace } from '../../server/src/core/workspace.js';
import { corpusFolders, languageOf, type Folder } from '../fuzz/harness.js';
import { anyMutation, mutateAll, structuralMutation, vocabularyOf, type Mutation } from '../fuzz/mutations.js';
import { changedOutside, fixSafetyIn, fixSafetyOf } from '../helpers/fixSafety.js';
import { seedFor, seedNote } from '../helpers/seed.js';

const SEED = seedFor(20261211);
const MUTATED = process.env.FIX_SAFETY_RUNS !== undefined ? Number(process.env.FIX_SAFETY_RUNS) : 2000;

const folders = corpusFolders();
const samples = (() => {
  const seen = new Set<string>();
  const out: { folder: Folder; path: string; text: string }[] = [];
  for (const folder of folders) {
    for (const file of folder.files) {
      if (/\.fixed\.[a-z]+$/.test(file.path) || seen.has(`${folder.name}\0${file.path}\0${file.text}`)) continue;
      seen.add(`${folder.name}\0${file.path}\0${file.text}`);
      out.push({ folder, path: file.path, text: file.text });
    }
  }
  return out;
})();

/** The files with a safe fix to apply as they are: most mutated cases start from one, so that fixes meet the anchors. */
let fixable: number[] | undefined;
function fixableSamples(): number[] {
  fixable ??= samples.flatMap((s, i) => (fixSafetyIn(s.folder.workspace, s.path, s.text).applied.length ? [i] : []));
  return fixable;
}

function describe(where: string, text: string, result: ReturnType<typeof fixSafetyIn>): string {
  return [
    `${where}: applying the safe fixes broke fix safety:`,
    ...result.violations.map((v) => `  - ${v}`),
    `  fixes applied: ${result.applied.map((a) => `${a.rule} "${a.fix.title}"`).join('; ')}`,
    `  input: ${JSON.stringify(text.length > 4000 ? `${text.slice(0, 4000)}…` : text)}`,
  ].join('\n');
}

test('every fixture, clean-corpus and example file: the safe fixes keep fix safety', (t) => {
  let fixed = 0;
  fixable = [];
  for (const [i, { folder, path, text }] of samples.entries()) {
    const result = fixSafetyIn(folder.workspace, path, text);
    if (result.applied.length) {
      fixed++;
      fixable.push(i);
    }
    assert.deepEqual(result.violations, [], describe(`${folder.name}/${path}`, text, result));
  }
  t.diagnostic(`${samples.length} files, ${fixed} with safe fixes applied`);
  assert.ok(fixed > 20, `only ${fixed} files had a safe fix: the property would prove little`);
});

test("mutated files (the fuzzer's generators, a fixed seed): the safe fixes keep fix safety", (t) => {
  const vocabulary = vocabularyOf(samples.map((s) => s.text));
  // Half with anchors and aliases put into the file's own structure (some of them where fixes edit), half with any damage.
  const anchored = fc.array(
    fc.oneof(
      { weight: 3, arbitrary: structuralMutation(vocabulary).filter((m) => m.op === 'anchorAlias') },
      { weight: 1, arbitrary: structuralMutation(vocabulary) },
    ),
    { minLength: 1, maxLength: 3 },
  );
  const damaged = fc.array(anyMutation(vocabulary), { minLength: 1, maxLength: 3 });
  const withFixes = fixableSamples();
  const sample = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...withFixes) },
    { weight: 1, arbitrary: fc.nat({ max: samples.length - 1 }) },
  );
  const input = fc.record({
    sample,
    mutations: fc.oneof({ weight: 2, arbitrary: anchored }, { weight: 1, arbitrary: damaged }),
  });
  t.diagnostic(`${seedNote(SEED)}, ${MUTATED} cases (FIX_SAFETY_RUNS)`);
  let fixed = 0;
  let withReferences = 0;
  const cases: { sample: number; mutations: Mutation[] }[] = fc.sample(input, { seed: SEED, numRuns: MUTATED });
  for (const [i, { sample, mutations }] of cases.entries()) {
    const { folder, path, text: original } = samples[sample]!;
    const text = mutateAll(original, mutations, languageOf(path));
    const result = fixSafetyIn(folder.workspace, path, text);
    if (result.applied.length) {
      fixed++;
      if (result.report.file.documents.some((d) => d.references)) withReferences++;
    }
    assert.deepEqual(
      result.violations,
      [],
      describe(`case ${i} (seed ${SEED}): ${folder.name}/${path} with ${JSON.stringify(mutations)}`, text, result),
    );
  }
  t.diagnostic(`${fixed} cases with safe fixes applied, ${withReferences} of them in files with anchors or aliases`);
  assert.ok(withReferences > 150, `only ${withReferences} cases applied safe fixes in a file with anchors or aliases`);
});

// ---------------------------------------------------------------------------------------------
// The property can fail: one hand-built unsafe fix of each kind, added to a real report

const TEXT = [
  'server: agent',
  'calls:',
  '  - tool: call_dynamic_tool',
  '    input: &env',
  '      namespace: applets',
  '      toolName: applet_list',
  '      arguments: {}',
  '  - tool: call_dynamic_tool',
  '    input: *env',
  '  - tool: notify_user',
  '    input: {message: hi}',
  '',
].join('\n');
/** The assistant runtime of the envelope fixtures: notify_user requires a message, applets is a ready namespace. */
const CATALOG = readFileSync(
  join(__dirname, '..', 'fixtures', 'envelope', 'bare-dynamic-name', 'agent.catalog.yaml'),
  'utf8',
);

function workspace(): Workspace {
  const created = new Workspace('/unit');
  created.catalog.addFile(created.parse('agent.catalog.yaml', CATALOG));
  return created;
}

/** The property with one hand-built safe fix added to the file's report. */
function withFix(edits: Fix['edits'], text = TEXT): string[] {
  const ws = workspace();
  const check = (t: string) => checkFile(ws.parse('s.calls.yaml', t), ws);
  const report = check(text);
  const fix: Fix = { title: 'A hand-built fix', safe: true, edits };
  const findings = [
    ...report.findings,
    {
      rule: 'envelope/arguments-not-object',
      messageId: 'notObject',
      severity: 'error' as const,
      message: 'hand-built',
      span: { start: 0, end: 1 },
      fixes: [fix],
    },
  ];
  return fixSafetyOf(report.file, { ...report, findings }, check).violations;
}

const at = (needle: string, offset = 0) => TEXT.indexOf(needle) + offset;

test('the property holds on the hand-built text with no fix added (the control)', () => {
  const ws = workspace();
  const report = checkFile(ws.parse('s.calls.yaml', TEXT), ws);
  assert.deepEqual(
    report.findings.filter((f) => f.severity === 'error'),
    [],
    'the text has no error of its own',
  );
  assert.deepEqual(
    withFix([{ span: { start: at('hi'), end: at('hi') + 2 }, newText: 'hello' }]),
    [],
    'an edit of unshared text is fine',
  );
});

test('the property fails on a fix that replaces an alias token', () => {
  const violations = withFix([{ span: { start: at('*env'), end: at('*env') + 4 }, newText: '{namespace: applets}' }]);
  assert.ok(
    violations.some((v) => v.startsWith('edits the alias token "*env"')),
    violations.join('\n'),
  );
});

test('the property fails on a fix that inserts inside an alias token', () => {
  const violations = withFix([{ span: { start: at('*env', 2), end: at('*env', 2) }, newText: 'x' }]);
  assert.ok(
    violations.some((v) => v.startsWith('edits the alias token')),
    violations.join('\n'),
  );
});

test('the property fails on a fix that edits inside a node aliases use, and on one that extends it at its end', () => {
  const inside = withFix([{ span: { start: at('{}'), end: at('{}') + 2 }, newText: '{limit: 1}' }]);
  assert.ok(
    inside.some((v) => v.startsWith('touches the node anchored as &env')),
    inside.join('\n'),
  );
  assert.ok(
    inside.some((v) => v.includes('stands for another value')),
    inside.join('\n'),
  );
  // An insertion right after the anchored block mapping, at its own indentation: outside its span, but part of it.
  const end = at('  - tool: call_dynamic_tool\n    input: *env');
  const extended = withFix([{ span: { start: end, end }, newText: '      mcpDetails: {description: x}\n' }]);
  assert.ok(
    extended.some((v) => v.includes('stands for another value')),
    extended.join('\n'),
  );
});

test('the property fails on a fix that removes an anchor aliases use', () => {
  const violations = withFix([{ span: { start: at(' &env'), end: at(' &env') + 5 }, newText: '' }]);
  assert.ok(
    violations.some((v) => v.includes('&env#1 that aliases use is gone')),
    violations.join('\n'),
  );
});

test('the property fails on a fix that adds an error', () => {
  const message = at('message: hi');
  const violations = withFix([{ span: { start: message, end: message + 'message: hi'.length }, newText: 'text: hi' }]);
  assert.ok(
    violations.some((v) => v.startsWith('a new error after the fixes') && v.includes('args/missing-required')),
    violations.join('\n'),
  );
});

test('the property fails where the text changed outside the edits', () => {
  const edits = [{ span: { start: 4, end: 6 }, newText: 'XY' }];
  assert.deepEqual(changedOutside('abcdefgh', 'abcdXYgh', edits), [], 'control: only the edit changed');
  assert.equal(changedOutside('abcdefgh', 'zbcdXYgh', edits).length, 1, 'before the edit');
  assert.equal(changedOutside('abcdefgh', 'abcdXYgz', edits).length, 1, 'after the edit');
  assert.equal(changedOutside('abcdefgh', 'abcdXZgh', edits).length, 1, 'the edit is not what was written');
});
