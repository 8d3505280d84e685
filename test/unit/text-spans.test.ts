// The text layer's span helpers: chooseCompatibleFixes against the quadratic version it replaced
// (the same choices on random fixes, and a bounded cost on many), and wholeCharacters.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { chooseCompatibleFixes } from '../../server/src/core/text/edits.js';
import { wholeCharacters } from '../../server/src/core/text/source.js';
import type { Fix, Span } from '../../server/src/core/types.js';
import { seedFor } from '../helpers/seed.js';

/** The version before it was made near-linear: every edit against every edit taken. */
function quadraticChoice(fixes: readonly Fix[]): { chosen: Fix[]; skipped: number } {
  const overlap = (a: Span, b: Span) =>
    a.start === a.end && b.start === b.end ? a.start === b.start : a.start < b.end && b.start < a.end;
  const chosen: Fix[] = [];
  const taken: Span[] = [];
  let skipped = 0;
  for (const fix of fixes) {
    const clash = fix.edits.some((e) => taken.some((t) => overlap(e.span, t)));
    const selfClash = fix.edits.some((e, i) => fix.edits.some((o, j) => i < j && overlap(e.span, o.span)));
    if (clash || selfClash) {
      skipped++;
      continue;
    }
    chosen.push(fix);
    for (const e of fix.edits) taken.push(e.span);
  }
  return { chosen, skipped };
}

// Small offsets, so that edits meet, touch and nest often; a third of them insertions.
const span = fc
  .tuple(fc.nat(30), fc.oneof(fc.constant(0), fc.nat(6)))
  .map(([start, length]): Span => ({ start, end: start + length }));
const fixArbitrary = fc
  .array(span, { minLength: 1, maxLength: 4 })
  .map((spans): Fix => ({ title: 'f', safe: true, edits: spans.map((s) => ({ span: s, newText: 'x' })) }));

test('chooseCompatibleFixes chooses what the quadratic version chose, on random fixes', () => {
  fc.assert(
    fc.property(fc.array(fixArbitrary, { maxLength: 25 }), (fixes) => {
      const fast = chooseCompatibleFixes(fixes);
      const slow = quadraticChoice(fixes);
      assert.equal(fast.skipped, slow.skipped);
      assert.deepEqual(
        fast.chosen.map((fix) => fixes.indexOf(fix)),
        slow.chosen.map((fix) => fixes.indexOf(fix)),
      );
    }),
    { numRuns: 3000, seed: seedFor(20261201, 'text-spans property') },
  );
});

test('chooseCompatibleFixes: insertions at one point clash, an insertion at the edge of a replacement does not', () => {
  const fix = (...spans: [number, number][]): Fix => ({
    title: 't',
    safe: true,
    edits: spans.map(([start, end]) => ({ span: { start, end }, newText: 'x' })),
  });
  const [a, b, c, d, e] = [fix([5, 5]), fix([5, 5]), fix([0, 5]), fix([5, 9]), fix([6, 6])];
  assert.deepEqual(chooseCompatibleFixes([a, b, c, d, e]).chosen, [a, c, d]);
  assert.equal(chooseCompatibleFixes([fix([3, 3], [3, 3])]).skipped, 1, 'one fix with two insertions at one point');
  assert.equal(chooseCompatibleFixes([fix([0, 4], [2, 2])]).skipped, 1, 'one fix inserting inside its own replacement');
});

test('chooseCompatibleFixes reads each edit about log E times, not E times: 20,000 fixes, each clashing with its neighbour', () => {
  // Counted, not timed: every read of an edit's bounds. The quadratic version read them about
  // 400 million times here (each clash was found at the end of the 10,000 spans taken).
  let reads = 0;
  const counted = (start: number, end: number): Span => ({
    get start() {
      reads++;
      return start;
    },
    get end() {
      reads++;
      return end;
    },
  });
  const n = 20_000;
  const fixes: Fix[] = Array.from({ length: n }, (_, i) => ({
    title: 't',
    safe: true,
    edits: [{ span: counted(i * 2, i * 2 + 3), newText: '' }],
  }));
  const { chosen, skipped } = chooseCompatibleFixes(fixes);
  assert.equal(chosen.length, n / 2);
  assert.equal(skipped, n / 2);
  assert.ok(reads < 50 * n, `${reads} reads of the bounds of ${n} edits`);
});

test('wholeCharacters keeps a range off the middle of a CRLF pair and of an astral character', () => {
  const crlf = 'ab\r\ncd';
  assert.deepEqual(
    wholeCharacters(crlf, { start: 0, end: 3 }),
    { start: 0, end: 2 },
    'an end between CR and LF goes before the CR',
  );
  assert.deepEqual(
    wholeCharacters(crlf, { start: 2, end: 3 }),
    { start: 2, end: 4 },
    'a range on the CR alone covers the whole line break',
  );
  assert.deepEqual(
    wholeCharacters(crlf, { start: 3, end: 5 }),
    { start: 2, end: 5 },
    'a start between CR and LF goes back to the CR',
  );
  assert.deepEqual(wholeCharacters(crlf, { start: 3, end: 3 }), { start: 2, end: 2 }, 'an empty range stays empty');
  const emoji = 'x: 😀!';
  assert.deepEqual(
    wholeCharacters(emoji, { start: 3, end: 4 }),
    { start: 3, end: 5 },
    'half an emoji widens to all of it',
  );
  assert.deepEqual(wholeCharacters(emoji, { start: 4, end: 6 }), { start: 3, end: 6 });
  assert.deepEqual(wholeCharacters(emoji, { start: -2, end: 99 }), { start: 0, end: emoji.length }, 'inside the text');
  const same = { start: 0, end: 2 };
  assert.equal(wholeCharacters(crlf, same), same, 'the same object when nothing changes');
});
