// getPair on wide mappings goes through a key index built on first use (parse/nodes.ts): it must
// answer exactly as the scan of the pairs did (first pair of a duplicated key, string keys only),
// and stay right when the language server's re-parse moves nodes into a newer tree.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseFile } from '../../server/src/core/parse/file.js';
import { reparseFile } from '../../server/src/core/parse/incremental.js';
import { getPair, isMap, walk, type MapNode, type Node, type Pair } from '../../server/src/core/parse/nodes.js';
import { seedFor } from '../helpers/seed.js';

/** The answer of the scan getPair used to be. */
function scan(map: MapNode, key: string): Pair | undefined {
  for (const pair of map.pairs) if (pair.key.value === key) return pair;
  return undefined;
}

function mapsOf(root: Node | null): MapNode[] {
  const maps: MapNode[] = [];
  walk(root, (node) => {
    if (isMap(node)) maps.push(node);
  });
  return maps;
}

/** Every key of every mapping, and some that are in none, looked up both ways. */
function assertSameAsScan(root: Node | null, extra: readonly string[] = []): void {
  for (const map of mapsOf(root)) {
    const keys = [...new Set([...map.pairs.map((p) => String(p.key.value)), ...extra])];
    for (const key of keys) assert.equal(getPair(map, key), scan(map, key), `key ${JSON.stringify(key)}`);
  }
}

test('a wide mapping: the first pair of each key, string keys only, nothing for a key it lacks', () => {
  const lines = Array.from({ length: 40 }, (_, i) => `k${i % 30}: v${i}`);
  const text = `${lines.join('\n')}\n1: number\ntrue: boolean\nnull: nothing\n"2": two\n`;
  const root = parseFile('wide.yaml', text).documents[0]!.root;
  assert.ok(isMap(root));
  assert.equal(getPair(root, 'k3'), root.pairs[3], 'k3 is written twice: the first one');
  assert.equal(getPair(root, '1'), undefined, 'the number key 1 is not the string "1"');
  assert.equal(getPair(root, 'true'), undefined);
  assert.equal(getPair(root, '2')?.key.value, '2');
  assert.equal(getPair(root, '__proto__'), undefined);
  assert.equal(getPair(root, 'constructor'), undefined);
  assertSameAsScan(root, ['missing', '', 'toString', 'hasOwnProperty']);
});

test('pairs added to a mapping after a lookup are found; a mapping given other pairs is read again', () => {
  const root = parseFile('wide.yaml', Array.from({ length: 20 }, (_, i) => `k${i}: v`).join('\n')).documents[0]!
    .root as MapNode;
  assert.equal(getPair(root, 'k25'), undefined);
  const extra = parseFile('more.yaml', Array.from({ length: 10 }, (_, i) => `k${i + 15}: w`).join('\n')).documents[0]!
    .root as MapNode;
  root.pairs.push(...extra.pairs);
  assert.equal(getPair(root, 'k25'), extra.pairs[10 - 15 + 25]);
  assert.equal(getPair(root, 'k15'), root.pairs[15], 'the first k15 still wins');
  root.pairs = extra.pairs;
  assert.equal(getPair(root, 'k15'), extra.pairs[0]);
  assert.equal(getPair(root, 'k0'), undefined);
});

test('the index of nodes a consuming re-parse moves into the new tree stays right', () => {
  // Random edits of a wide document, each re-parse consuming the one before, as the language
  // server does, with every mapping looked up (so indexed) before the next edit.
  const base = `servers:\n${Array.from({ length: 12 }, (_, i) => `  s${i}:\n${Array.from({ length: 20 }, (__, j) => `    k${j}: v${i}_${j}`).join('\n')}`).join('\n')}\n`;
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.nat(), fc.constantFrom('k3', 'k17', 'k3: again\n    k3', 'x', '\n    k40: new', '')), {
        minLength: 1,
        maxLength: 8,
      }),
      (edits) => {
        let file = parseFile('w.yaml', base);
        assertSameAsScan(file.documents[0]!.root);
        for (const [at, insert] of edits) {
          const text = file.source.text;
          const offset = at % text.length;
          const next = text.slice(0, offset) + insert + text.slice(offset);
          file = reparseFile(file, next, null, { consume: true }) ?? parseFile('w.yaml', next);
          assertSameAsScan(file.documents[0]?.root ?? null, ['k40', 'k3']);
          const fresh = parseFile('w.yaml', next);
          for (const [i, map] of mapsOf(fresh.documents[0]?.root ?? null).entries()) {
            const moved = mapsOf(file.documents[0]?.root ?? null)[i];
            assert.ok(moved);
            for (const pair of map.pairs)
              assert.deepEqual(getPair(moved, String(pair.key.value))?.span, scan(map, String(pair.key.value))?.span);
          }
        }
      },
    ),
    { numRuns: 25, seed: seedFor(10, 'key-index property') },
  );
});
