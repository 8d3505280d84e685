// The edit layer gives no edit through a YAML anchor or alias: an anchored node is also what its
// aliases stand for (an edit there changes them too), an alias's nodes have only the alias's text
// (`*deps, first` is a syntax error), and a removal or replacement that takes an anchor with it
// leaves its aliases unresolved. Each helper is tried on shared nodes and, as a control, on the
// same shapes unshared.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  appendEntry,
  appendItems,
  editContextOf,
  insertPairs,
  ownLineInsertion,
  removePair,
  renameKey,
  replaceScalarText,
  replaceValue,
  replaceValueText,
} from '../../server/src/core/edit/mappingEdits.js';
import { sharedEffectOf, sharedIndexOf } from '../../server/src/core/edit/sharedEdits.js';
import { checkFile } from '../../server/src/core/engine.js';
import { parseFile } from '../../server/src/core/parse/file.js';
import { loadWorkspace } from '../../server/src/node/loader.js';
import { join } from 'node:path';
import {
  getPair,
  isMap,
  isScalar,
  isSeq,
  type MapNode,
  type Node,
  type ScalarNode,
  type SeqNode,
} from '../../server/src/core/parse/nodes.js';

const text = [
  'plainList: [a]',
  'anchoredList: &list [a]',
  'aliasedList: *list',
  'plainMap: {k: v}',
  'anchoredMap: &map {k: v}',
  'aliasedMap: *map',
  'blockAnchored: &block',
  '  k: v',
  'blockAliased: *block',
  'holder:',
  '  inner: &inner x',
  'other: *inner',
  '&key anchoredKey: 1',
  'multi: {',
  '  a: 1',
  '}',
  'multiAnchored: &multi {',
  '  a: 1',
  '}',
  'unused: &unused [a]',
  '',
].join('\n');
const file = parseFile('shared.yaml', text);
const root = file.documents[0]!.root as MapNode;
const ctx = editContextOf(file);
const value = (key: string): Node => getPair(root, key)!.value!;
const seq = (key: string): SeqNode => {
  const node = value(key);
  assert.ok(isSeq(node), key);
  return node;
};
const map = (key: string): MapNode => {
  const node = value(key);
  assert.ok(isMap(node), key);
  return node;
};
const scalar = (node: Node): ScalarNode => {
  assert.ok(isScalar(node));
  return node;
};

test('the parse marks anchored and aliased nodes, and only them', () => {
  assert.equal(seq('plainList').shared, undefined);
  assert.equal(seq('anchoredList').shared, 'anchor');
  assert.equal(seq('anchoredList').items[0]!.shared, 'anchor', 'inside an anchor');
  assert.equal(seq('aliasedList').shared, 'alias');
  assert.equal(map('aliasedMap').pairs[0]!.key.shared, 'alias');
  assert.equal(map('holder').shared, undefined, 'a mapping that holds an anchored value is not itself shared');
  assert.equal(getPair(root, 'anchoredKey')!.key.shared, 'anchor');
});

test('no edit appends, inserts or replaces through an anchor or an alias', () => {
  assert.ok(appendItems(ctx, seq('plainList'), ['b']), 'control: a plain list');
  assert.equal(appendItems(ctx, seq('anchoredList'), ['b']), undefined);
  assert.equal(appendItems(ctx, seq('aliasedList'), ['b']), undefined);
  const entry = [{ key: 'n', value: { inline: '1' } }];
  assert.ok(insertPairs(ctx, map('plainMap'), entry), 'control: a plain mapping');
  for (const key of ['anchoredMap', 'aliasedMap', 'blockAnchored', 'blockAliased']) {
    assert.equal(insertPairs(ctx, map(key), entry), undefined, key);
    assert.equal(appendEntry(ctx, map(key), 'n', '1'), undefined, key);
  }
  assert.ok(ownLineInsertion(ctx, map('multi'), map('multi').pairs[0]!, 'b: 2'), 'control: a mapping over lines');
  assert.equal(ownLineInsertion(ctx, map('multiAnchored'), map('multiAnchored').pairs[0]!, 'b: 2'), undefined);
  const plainScalar = scalar(map('plainMap').pairs[0]!.value!);
  assert.ok(replaceScalarText(ctx, plainScalar, 'w'), 'control: a plain scalar');
  assert.equal(replaceScalarText(ctx, scalar(map('anchoredMap').pairs[0]!.value!), 'w'), undefined);
  assert.equal(replaceScalarText(ctx, scalar(map('aliasedMap').pairs[0]!.value!), 'w'), undefined);
  assert.equal(renameKey(ctx, map('aliasedMap').pairs[0]!, 'j'), undefined);
  assert.equal(renameKey(ctx, getPair(root, 'anchoredKey')!, 'j'), undefined);
  assert.ok(replaceValue(plainScalar, 'w'));
  assert.equal(
    replaceValue(map('aliasedMap').pairs[0]!.value!, 'w'),
    undefined,
    'a node inside an alias has the alias as its text',
  );
  assert.equal(replaceValueText(ctx, value('other'), 'w'), undefined);
  assert.equal(
    replaceValueText(ctx, map('holder'), '{}'),
    undefined,
    'replacing a mapping would take the anchor in it along',
  );
});

test('no removal takes an anchor with it', () => {
  assert.ok(removePair(ctx, root, getPair(root, 'plainMap')!), 'control');
  assert.equal(removePair(ctx, root, getPair(root, 'anchoredMap')!), undefined);
  assert.equal(removePair(ctx, root, getPair(root, 'holder')!), undefined, 'the anchor is further in');
  assert.equal(removePair(ctx, root, getPair(root, 'anchoredKey')!), undefined, 'an anchored key');
  assert.equal(removePair(ctx, map('anchoredMap'), map('anchoredMap').pairs[0]!), undefined, 'a pair inside an anchor');
  // Removing a use of an alias leaves the anchor and every other use as they were.
  assert.ok(removePair(ctx, root, getPair(root, 'aliasedMap')!));
});

// ---------------------------------------------------------------------------------------------
// Every fix, however built, is held to the anchors in the engine (edit/sharedEdits.ts)

test('the parse records each anchor with the aliases that use it, and every alias token', () => {
  const refs = file.documents[0]!.references!;
  const named = (name: string) => refs.anchors.find((a) => a.name === name)!;
  assert.equal(text.slice(named('list').span.start, named('list').span.end), '[a]');
  assert.deepEqual(
    named('list').aliases.map((s) => text.slice(s.start, s.end)),
    ['*list'],
  );
  assert.deepEqual(named('unused').aliases, []);
  assert.equal(text.slice(named('key').span.start, named('key').span.end), 'anchoredKey', 'an anchored key');
  assert.deepEqual(
    refs.aliases.map((s) => text.slice(s.start, s.end)),
    ['*list', '*map', '*block', '*inner'],
  );
});

test('what an edit does to shared text: nothing, a change the aliases share, or a fix to withdraw', () => {
  const index = sharedIndexOf(file);
  const at = (needle: string) => text.indexOf(needle);
  const edit = (start: number, end: number, newText = 'x') => [{ span: { start, end }, newText }];
  // Inside an anchored list: every alias of it changes too.
  const inside = sharedEffectOf(index, edit(at('&list [a]') + 7, at('&list [a]') + 7, ', b'));
  assert.equal(inside.kind, 'shared');
  assert.deepEqual(inside.kind === 'shared' && inside.names, ['list']);
  assert.deepEqual(inside.kind === 'shared' && inside.uses.map((s) => text.slice(s.start, s.end)), ['*list']);
  // Inside an anchored node nested in another (`holder.inner`): its own aliases.
  assert.equal(sharedEffectOf(index, edit(at('&inner x') + 7, at('&inner x') + 8)).kind, 'shared');
  // An alias token replaced, or cut into: withdrawn.
  assert.deepEqual(sharedEffectOf(index, edit(at('*list'), at('*list') + 5, '[a, b]')), {
    kind: 'withdraw',
    why: 'alias',
  });
  assert.deepEqual(sharedEffectOf(index, edit(at('*list') + 1, at('*list') + 1)), { kind: 'withdraw', why: 'alias' });
  // A pair holding an alias removed whole: nothing else changes.
  const aliasedLine = at('aliasedList');
  assert.deepEqual(sharedEffectOf(index, edit(aliasedLine, at('plainMap'), '')), { kind: 'none' });
  // Text right after an alias (a flow item appended after `*a`): the alias is left alone.
  assert.deepEqual(sharedEffectOf(index, edit(at('*list') + 5, at('*list') + 5, ', b')), { kind: 'none' });
  // An anchored node taken away whole, or cut into from outside: its aliases would break.
  assert.deepEqual(sharedEffectOf(index, edit(at('anchoredList'), at('aliasedList'), '')), {
    kind: 'withdraw',
    why: 'anchor',
  });
  assert.deepEqual(sharedEffectOf(index, edit(at('&list [a]') + 5, at('&list [a]') + 7)), {
    kind: 'withdraw',
    why: 'anchor',
  });
  // An anchor nothing uses: nothing else changes, inside or whole.
  assert.deepEqual(sharedEffectOf(index, edit(at('&unused [a]') + 9, at('&unused [a]') + 9, ', b')), { kind: 'none' });
  assert.deepEqual(sharedEffectOf(index, edit(at('unused:'), text.length, '')), { kind: 'none' });
  // Unshared text.
  assert.deepEqual(sharedEffectOf(index, edit(at('plainList: [a]') + 11, at('plainList: [a]') + 12)), { kind: 'none' });
  assert.deepEqual(
    sharedEffectOf(sharedIndexOf(parseFile('plain.yaml', 'a: [1]\n')), edit(4, 5)),
    { kind: 'none' },
    'a file with no anchors',
  );
});

/** The findings of one fixture file, checked in its folder's workspace as the CLI does. */
function fixtureFindings(folder: string, name: string) {
  const loaded = loadWorkspace({ paths: ['.'], cwd: join(__dirname, '..', 'fixtures', ...folder.split('/')) });
  const parsed = loaded.files.find((f) => f.path === name)!;
  assert.ok(parsed, `${folder}/${name}`);
  const report = checkFile(parsed, loaded.workspace);
  const lineOf = (offset: number) => parsed.source.positionAt(offset).line + 1;
  return report.findings.map((f) => ({ rule: f.rule, line: lineOf(f.span.start), fixes: f.fixes ?? [] }));
}

test('issue 11: "Write the arguments as an object" at an anchor is a suggestion naming the alias line, and at an alias there is none', () => {
  const findings = fixtureFindings('envelope/arguments-not-object', 'shared.calls.yaml').filter(
    (f) => f.rule === 'envelope/arguments-not-object',
  );
  const on = (line: number) => findings.find((f) => f.line === line)!;
  assert.deepEqual(
    on(10).fixes.map((f) => [f.title, f.safe]),
    [['Write the arguments as an object (this also changes line 12, which uses the same text through *env)', false]],
  );
  assert.deepEqual(on(12).fixes, [], 'the alias *env stands for the whole envelope: no edit of it');
  assert.deepEqual(
    on(18).fixes.map((f) => [f.title, f.safe]),
    [['Write the arguments as an object (this also changes line 23, which uses the same text through *args)', false]],
  );
  assert.deepEqual(on(23).fixes, []);
  assert.deepEqual(
    on(29).fixes.map((f) => f.safe),
    [true],
    'an anchor nothing uses: still safe',
  );
});

test('issue 11: "Remove mcpDetails" never deletes an alias that stands for the envelope, nor an anchor others use', () => {
  const findings = fixtureFindings('envelope/mcp-details', 'shared.calls.yaml');
  const on = (line: number) => findings.find((f) => f.line === line)!;
  assert.deepEqual(on(11).fixes, [], 'mcpDetails is anchored (&details) and used elsewhere');
  assert.deepEqual(on(14).fixes, [], '*noisy is the whole envelope');
  assert.deepEqual(
    on(19).fixes.map((f) => [f.title, f.safe]),
    [['Remove mcpDetails', false]],
    'a use of the alias is removed whole',
  );
});

test('issue 11: "Add to dependsOn" never appends to a list shared through an anchor (the cycle case)', () => {
  const findings = fixtureFindings('template/not-upstream', 'alias.yaml').filter(
    (f) => f.rule === 'template/not-upstream',
  );
  assert.equal(findings.length, 3);
  for (const finding of findings) assert.deepEqual(finding.fixes, [], `line ${finding.line}`);
  // The control: an unshared dependsOn gets its safe fix.
  const two = fixtureFindings('template/not-upstream', 'two.yaml').filter((f) => f.rule === 'template/not-upstream');
  assert.ok(two.some((f) => f.fixes.some((x) => x.safe)));
});

test('a hand-built fix that edits an anchor others use is turned into a suggestion by the engine, one that edits an alias is withdrawn', () => {
  const source =
    'compositeTools:\n  - name: a\n    description: &d Reads.\n    steps: []\n  - name: b\n    description: *d\n    steps: []\n';
  const parsedFile = parseFile('w.yaml', source);
  const inAnchor = { start: source.indexOf('Reads'), end: source.indexOf('Reads') + 5 };
  const onAlias = { start: source.indexOf('*d'), end: source.indexOf('*d') + 2 };
  const rules = [
    {
      id: 'workflow/duplicate-step-id',
      defaultSeverity: 'error' as const,
      summary: 'test',
      kinds: '*' as const,
      messages: { inAnchor: () => 'in the anchor', atAlias: () => 'at the alias' },
      check(ctx: { report(r: unknown): void }) {
        ctx.report({
          messageId: 'inAnchor',
          span: inAnchor,
          fixes: [{ title: 'Rewrite', safe: true, edits: [{ span: inAnchor, newText: 'Writes' }] }],
        });
        ctx.report({
          messageId: 'atAlias',
          span: onAlias,
          fixes: [{ title: 'Rewrite', safe: true, edits: [{ span: onAlias, newText: 'Writes.' }] }],
        });
      },
    },
  ];
  const workspace = loadWorkspace({ paths: [], cwd: __dirname }).workspace;
  const findings = checkFile(parsedFile, workspace, rules).findings;
  assert.deepEqual(
    findings.find((f) => f.message === 'in the anchor')!.fixes!.map((f) => [f.title, f.safe]),
    [['Rewrite (this also changes line 6, which uses the same text through *d)', false]],
  );
  assert.equal(findings.find((f) => f.message === 'at the alias')!.fixes, undefined);
});

test("no fix is safe in a document with a syntax error: the tree is the parser's guess", () => {
  const findings = fixtureFindings('envelope/field-alias', 'session.calls.yaml');
  assert.ok(
    findings.some((f) => f.fixes.some((x) => x.safe)),
    'control: the file has safe fixes',
  );
  const loaded = loadWorkspace({ paths: ['.'], cwd: join(__dirname, '..', 'fixtures', 'envelope', 'field-alias') });
  const original = loaded.files.find((f) => f.path === 'session.calls.yaml')!;
  const broken = loaded.workspace.parse('session.calls.yaml', `${original.source.text}  - tool: [unclosed\n`);
  const report = checkFile(broken, loaded.workspace);
  assert.ok(report.findings.some((f) => f.rule === 'yaml/syntax'));
  assert.ok(
    report.findings.some((f) => f.rule === 'envelope/field-alias' && f.fixes?.length),
    'the fixes are still offered',
  );
  assert.deepEqual(
    report.findings.filter((f) => f.fixes?.some((x) => x.safe)),
    [],
    'but none is safe',
  );
});

test('issue 11: a template fix at an anchor is a suggestion naming the alias line; at the alias there is none', () => {
  const findings = fixtureFindings('template/unknown-root', 'shared.vmcp.yaml');
  const on = (line: number) => findings.find((f) => f.line === line)!;
  assert.deepEqual(
    on(15).fixes.map((f) => [f.title, f.safe]),
    [['Change to .params (this also changes line 20, which uses the same text through *path)', false]],
  );
  assert.deepEqual(on(20).fixes, []);
});

// What the property found (test/unit/fix-safety.test.ts), each fixed where the fix is made.

test('bare-dynamic-name: the rewrite is safe only when the envelope then works and says nothing new', () => {
  const safety = (name: string) =>
    new Map(
      fixtureFindings('envelope/bare-dynamic-name', name)
        .filter((f) => f.rule === 'envelope/bare-dynamic-name')
        .map((f) => [f.line, f.fixes.map((x) => x.safe)]),
    );
  const unsure = safety('unsure.calls.yaml');
  assert.deepEqual(unsure.get(7), [false], 'a required argument missing');
  assert.deepEqual(unsure.get(11), [false], 'an argument of the wrong type');
  assert.deepEqual(unsure.get(14), [true], 'control: the arguments fit');
  const session = safety('session.calls.yaml');
  assert.deepEqual(session.get(10), [false], 'a recorded result the outputSchema was not held to yet');
  assert.deepEqual(session.get(47), [false], 'a namespace that is disabled');
  assert.deepEqual(session.get(32), [true], 'control');
});

test('field-alias: renaming is only a suggestion where another key gives the same field', () => {
  const findings = fixtureFindings('envelope/field-alias', 'twice.calls.yaml').filter(
    (f) => f.rule === 'envelope/field-alias',
  );
  assert.deepEqual(
    findings.find((f) => f.line === 9)!.fixes.map((f) => [f.title, f.safe]),
    [['Rename "args" to "arguments"', false]],
  );
  const session = fixtureFindings('envelope/field-alias', 'session.calls.yaml').filter(
    (f) => f.rule === 'envelope/field-alias',
  );
  assert.deepEqual(
    session.find((f) => f.line === 8)!.fixes.map((f) => f.safe),
    [true],
    'control: the one key for the field',
  );
});

test('appendItems: no edit where the last item does not end where the sequence says (a tagged `!!omap [a: 1]`)', () => {
  const append = (source: string) => {
    const parsed = parseFile('t.yaml', source);
    const list = getPair(parsed.documents[0]!.root, 'd')!.value!;
    assert.ok(isSeq(list));
    return appendItems(editContextOf(parsed), list, ['ask']);
  };
  // Found by test/unit/fix-safety.test.ts: the item reads back empty, and the insertion went inside `a: 1`.
  assert.equal(append('d: !!omap [a: 1]\n'), undefined);
  assert.deepEqual(
    append('d: [x, a: 1]\n'),
    { span: { start: 11, end: 11 }, newText: ', ask' },
    'control: an untagged pair item',
  );
  assert.deepEqual(
    append('d: [\n  x, # c\n]\n'),
    { span: { start: 8, end: 8 }, newText: ',\n  ask' },
    'a comma and a comment after the last item',
  );
});

test('arguments-not-object: the object is a safe fix only where it then fits the tool, and never as a whole envelope', () => {
  const findings = fixtureFindings('envelope/arguments-not-object', 'unsure.calls.yaml').filter(
    (f) => f.rule === 'envelope/arguments-not-object',
  );
  const safety = new Map(findings.map((f) => [f.line, f.fixes.map((x) => x.safe)]));
  assert.deepEqual(safety.get(8), [false], 'a required argument missing once written');
  assert.deepEqual(safety.get(11), [false], "call_dynamic_tool's own input becomes an envelope");
  assert.deepEqual(safety.get(14), [true], 'control: it fits');
});
