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
import { parseFile } from '../../server/src/core/parse/file.js';
import { getPair, isMap, isScalar, isSeq, type MapNode, type Node, type ScalarNode, type SeqNode } from '../../server/src/core/parse/nodes.js';

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
  assert.equal(replaceValue(map('aliasedMap').pairs[0]!.value!, 'w'), undefined, 'a node inside an alias has the alias as its text');
  assert.equal(replaceValueText(ctx, value('other'), 'w'), undefined);
  assert.equal(replaceValueText(ctx, map('holder'), '{}'), undefined, 'replacing a mapping would take the anchor in it along');
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
