import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  decidingEntries,
  deriveFloor,
  effectiveAnnotations,
  findContradictions,
  floorTable,
  mergeAnnotations,
  type Floor,
  type FloorHint,
  type StepEntry,
} from '../../server/src/core/floor/floor.js';
import { HINT_NAMES, type ToolAnnotations } from '../../server/src/core/types.js';
import { seedFor } from '../helpers/seed.js';

const SEED = seedFor(20261207, 'floor properties');

const known = (step: string, annotations: ToolAnnotations): StepEntry<string> => ({ known: true, annotations, step });
const unknown = (step: string, reason: string): StepEntry<string> => ({ known: false, reason, step });
const fsRead = (step: string) => known(step, { readOnlyHint: true, openWorldHint: false });
const describe = (s: string) => `step ${s}`;

// ---------------------------------------------------------------------------------------------
// Examples from docs/toolhive.md#the-safety-floor

test('no tool steps: no floor, explicit annotations pass through', () => {
  assert.equal(deriveFloor([]), undefined);
  assert.deepEqual(findContradictions({ readOnlyHint: true }, undefined), []);
  const explicit = { title: 'Ask', readOnlyHint: true, destructiveHint: false, openWorldHint: false };
  assert.deepEqual(mergeAnnotations(undefined, explicit), explicit);
  assert.equal(mergeAnnotations(undefined, undefined), undefined);
});

test('filesystem read tools (readOnlyHint only) still give a destructive floor', () => {
  const entries = [fsRead('a'), fsRead('b')];
  assert.deepEqual(deriveFloor(entries), { readOnlyHint: true, destructiveHint: true, openWorldHint: false });
  // Declaring destructiveHint: false lowers it.
  const fixed = entries.map((e) => (e.known ? known(e.step, { ...e.annotations, destructiveHint: false }) : e));
  assert.deepEqual(deriveFloor(fixed), { readOnlyHint: true, destructiveHint: false, openWorldHint: false });
});

test('a step declaring only readOnlyHint gives {ro, de, ow} all true', () => {
  assert.deepEqual(deriveFloor([known('a', { readOnlyHint: true })]), {
    readOnlyHint: true,
    destructiveHint: true,
    openWorldHint: true,
  });
});

test('an unknown entry taints everything', () => {
  const safe = known('a', { readOnlyHint: true, destructiveHint: false, openWorldHint: false });
  assert.deepEqual(deriveFloor([safe]), { readOnlyHint: true, destructiveHint: false, openWorldHint: false });
  assert.deepEqual(deriveFloor([safe, unknown('b', 'server has no catalog')]), {
    readOnlyHint: false,
    destructiveHint: true,
    openWorldHint: true,
  });
});

test('contradictions: all of them, in readOnly, destructive, openWorld order', () => {
  const floor: Floor = { readOnlyHint: false, destructiveHint: true, openWorldHint: true };
  assert.deepEqual(findContradictions({ openWorldHint: false, destructiveHint: false, readOnlyHint: true }, floor), [
    { hint: 'readOnlyHint', explicit: true, floor: false },
    { hint: 'destructiveHint', explicit: false, floor: true },
    { hint: 'openWorldHint', explicit: false, floor: true },
  ]);
  assert.deepEqual(findContradictions({ openWorldHint: false }, floor), [
    { hint: 'openWorldHint', explicit: false, floor: true },
  ]);
  assert.deepEqual(findContradictions(undefined, floor), []);
});

test('idempotentHint never contradicts and is never derived', () => {
  const floor = deriveFloor([known('a', { idempotentHint: false })]);
  assert.ok(floor);
  assert.equal('idempotentHint' in floor, false);
  assert.deepEqual(findContradictions({ idempotentHint: true }, floor), []);
  assert.equal(mergeAnnotations(floor, { idempotentHint: true })?.idempotentHint, true);
});

test('more conservative explicit values are allowed and advertised', () => {
  const floor: Floor = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
  const explicit = { readOnlyHint: false, destructiveHint: true, openWorldHint: true };
  assert.deepEqual(findContradictions(explicit, floor), []);
  assert.deepEqual(mergeAnnotations(floor, explicit), explicit);
});

test('merge: empty title is not laid over, non-empty is', () => {
  const floor: Floor = { readOnlyHint: false, destructiveHint: true, openWorldHint: true };
  assert.deepEqual(mergeAnnotations(floor, { title: '' }), floor);
  assert.deepEqual(mergeAnnotations(floor, { title: 'T' }), { ...floor, title: 'T' });
  // The floor object is not aliased.
  const merged = mergeAnnotations(floor, undefined);
  assert.notEqual(merged, floor);
});

test('effectiveAnnotations fills MCP defaults and marks n/a on read-only tools', () => {
  assert.deepEqual(effectiveAnnotations(undefined), {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  });
  assert.deepEqual(effectiveAnnotations({ readOnlyHint: true, destructiveHint: false, title: 'X' }), {
    title: 'X',
    readOnlyHint: true,
    destructiveHint: undefined,
    idempotentHint: undefined,
    openWorldHint: true,
  });
  assert.deepEqual(effectiveAnnotations({ destructiveHint: false, idempotentHint: true, openWorldHint: false }), {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  });
});

test('decidingEntries names the steps that make the hint', () => {
  const w = known('write', { readOnlyHint: false, destructiveHint: true });
  const r = fsRead('read');
  const safe = known('safe', { readOnlyHint: true, destructiveHint: false, openWorldHint: false });
  const u = unknown('gh', 'no catalog for server github');
  const entries = [w, r, safe, u];
  assert.deepEqual(decidingEntries(entries, 'readOnlyHint'), [w, u]);
  assert.deepEqual(decidingEntries(entries, 'destructiveHint'), [w, r, u]);
  assert.deepEqual(decidingEntries(entries, 'openWorldHint'), [w, u]);
  assert.deepEqual(decidingEntries([safe, r], 'readOnlyHint'), [safe, r]);
  assert.deepEqual(decidingEntries([], 'readOnlyHint'), []);
});

test('floorTable explains the filesystem surprise in words', () => {
  const table = floorTable([fsRead('list'), fsRead('read')], { destructiveHint: false }, describe);
  assert.deepEqual(table.floor, { readOnlyHint: true, destructiveHint: true, openWorldHint: false });
  assert.deepEqual(table.contradictions, [{ hint: 'destructiveHint', explicit: false, floor: true }]);
  assert.deepEqual(
    table.rows.map((r) => r.hint),
    [...HINT_NAMES],
  );
  const de = table.rows[1]!;
  assert.equal(de.floor, true);
  assert.equal(de.explicit, false);
  assert.equal(de.advertised, false);
  assert.deepEqual(
    de.deciding.map((e) => e.step),
    ['list', 'read'],
  );
  assert.match(de.why, /step list and step read omit destructiveHint/);
  assert.match(de.why, /counts as destructive/);
  assert.match(de.why, /readOnlyHint: true/);
  assert.match(de.why, /destructiveHint: false on those tools/);
  assert.match(de.why, /aggregation\.tools\[\]\.overrides/);
  assert.match(de.why, /contradicts the floor/);
  for (const row of table.rows) assert.doesNotMatch(row.why, /remov/i);

  const ro = table.rows[0]!;
  assert.match(ro.why, /Every step tool \(step list and step read\) declares readOnlyHint: true/);

  const idem = table.rows[2]!;
  assert.equal(idem.floor, undefined);
  assert.equal(idem.advertised, undefined);
  assert.deepEqual(idem.deciding, []);
  assert.match(idem.why, /Never derived/);
});

test('floorTable: unknown steps give their reason; one omitting tool gets singular advice', () => {
  const table = floorTable(
    [
      known('w', { readOnlyHint: false, destructiveHint: true, openWorldHint: false }),
      known('r', {}),
      unknown('gh', 'no catalog for server github'),
    ],
    { idempotentHint: true },
    describe,
  );
  const [ro, de, idem, ow] = table.rows;
  assert.match(ro!.why, /step w declares readOnlyHint: false/);
  assert.match(ro!.why, /step r does not declare readOnlyHint: true/);
  assert.match(ro!.why, /step gh is unknown \(no catalog for server github\)/);
  assert.match(de!.why, /step w declares destructiveHint: true/);
  assert.match(de!.why, /step r omits destructiveHint.*on that tool/);
  assert.doesNotMatch(de!.why, /even though/);
  assert.match(ow!.why, /step r omits openWorldHint/);
  assert.doesNotMatch(ow!.why, /step w/);
  assert.equal(idem!.advertised, true);
  assert.match(idem!.why, /declares it \(true\)/);
});

test('floorTable without tool steps', () => {
  const table = floorTable<string>([], { readOnlyHint: true }, describe);
  assert.equal(table.floor, undefined);
  assert.deepEqual(table.advertised, { readOnlyHint: true });
  assert.deepEqual(table.contradictions, []);
  assert.equal(table.rows[0]!.advertised, true);
  assert.match(table.rows[0]!.why, /no floor/);
  assert.equal(table.rows[3]!.advertised, undefined);
});

// ---------------------------------------------------------------------------------------------
// Property-based: compare against a second formulation written from the sentences of docs/toolhive.md#derivation.

const hintValue = fc.option(fc.boolean(), { nil: undefined });
const annotationsArb: fc.Arbitrary<ToolAnnotations> = fc.record(
  {
    title: fc.constantFrom('', 'T'),
    readOnlyHint: hintValue,
    destructiveHint: hintValue,
    idempotentHint: hintValue,
    openWorldHint: hintValue,
  },
  { requiredKeys: [] },
);
const entryArb: fc.Arbitrary<StepEntry<number>> = fc.oneof(
  fc.record({ known: fc.constant(true as const), annotations: annotationsArb, step: fc.nat() }),
  fc.record({ known: fc.constant(false as const), reason: fc.constant('no catalog'), step: fc.nat() }),
);
const entriesArb = fc.array(entryArb, { maxLength: 6 });
const explicitArb = fc.option(annotationsArb, { nil: undefined });

// "declares X" per docs/toolhive.md#entries: only an explicit value on a known entry counts.
const declares = (e: StepEntry<unknown>, hint: FloorHint, value: boolean) =>
  e.known === true && e.annotations[hint] === value;

function oracleFloor(entries: StepEntry<unknown>[]): Floor | undefined {
  if (entries.length === 0) return undefined;
  return {
    readOnlyHint: entries.every((e) => declares(e, 'readOnlyHint', true)),
    destructiveHint: entries.some((e) => !declares(e, 'destructiveHint', false)),
    openWorldHint: entries.some((e) => !declares(e, 'openWorldHint', false)),
  };
}

function oracleContradictions(explicit: ToolAnnotations | undefined, floor: Floor | undefined) {
  if (explicit === undefined || floor === undefined) return [];
  const unsafeClaims: [FloorHint, boolean][] = [
    ['readOnlyHint', true],
    ['destructiveHint', false],
    ['openWorldHint', false],
  ];
  return unsafeClaims
    .filter(([hint, claim]) => explicit[hint] === claim && floor[hint] !== claim)
    .map(([hint, claim]) => ({ hint, explicit: claim, floor: floor[hint] }));
}

function oracleMerge(floor: Floor | undefined, explicit: ToolAnnotations | undefined) {
  if (floor === undefined && explicit === undefined) return undefined;
  const keys = ['title', ...HINT_NAMES] as const;
  const pairs = keys
    .map((k) => {
      const mine = explicit?.[k];
      const fromExplicit = k === 'title' ? mine !== undefined && mine !== '' : mine !== undefined;
      const fromFloor = k === 'title' || k === 'idempotentHint' ? undefined : floor?.[k];
      return [k, fromExplicit ? mine : fromFloor] as const;
    })
    .filter(([, v]) => v !== undefined);
  return Object.fromEntries(pairs) as ToolAnnotations;
}

test('property: deriveFloor, findContradictions and mergeAnnotations match the documented formulation', () => {
  fc.assert(
    fc.property(entriesArb, explicitArb, (entries, explicit) => {
      const floor = deriveFloor(entries);
      assert.deepEqual(floor, oracleFloor(entries));
      assert.deepEqual(findContradictions(explicit, floor), oracleContradictions(explicit, floor));
      assert.deepEqual(mergeAnnotations(floor, explicit), oracleMerge(floor, explicit));
      const table = floorTable(entries, explicit, String);
      assert.deepEqual(table.advertised, oracleMerge(floor, explicit));
      for (const row of table.rows) {
        assert.equal(row.advertised, table.advertised?.[row.hint]);
        assert.doesNotMatch(row.why, /remov/i);
      }
    }),
    { numRuns: 2000, seed: SEED },
  );
});

const SAFE: Record<FloorHint, boolean> = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

function makeSafe<S>(e: StepEntry<S>, hint: FloorHint): StepEntry<S> {
  const annotations = e.known ? { ...e.annotations } : {};
  annotations[hint] = SAFE[hint];
  return { known: true, annotations, step: e.step };
}

test('property: decidingEntries are exactly what holds the hint on its unsafe side', () => {
  const hintArb = fc.constantFrom<FloorHint>('readOnlyHint', 'destructiveHint', 'openWorldHint');
  fc.assert(
    fc.property(entriesArb, hintArb, (entries, hint) => {
      const floor = deriveFloor(entries);
      const deciding = decidingEntries(entries, hint);
      if (!floor) {
        assert.deepEqual(deciding, []);
        return;
      }
      if (floor[hint] === SAFE[hint]) {
        // On the safe side every entry decides.
        assert.deepEqual(deciding, entries);
        return;
      }
      assert.ok(deciding.length > 0);
      // Making every deciding entry safe moves the hint to the safe side...
      const flipped = entries.map((e) => (deciding.includes(e) ? makeSafe(e, hint) : e));
      assert.equal(deriveFloor(flipped)?.[hint], SAFE[hint]);
      // ...and leaving any one of them out of the fix keeps it unsafe.
      for (const keep of deciding) {
        const partial = entries.map((e) => (e !== keep && deciding.includes(e) ? makeSafe(e, hint) : e));
        assert.equal(deriveFloor(partial)?.[hint], !SAFE[hint]);
      }
      // Removing a non-deciding entry does not change the hint.
      entries.forEach((e, i) => {
        if (deciding.includes(e)) return;
        const without = entries.filter((_, j) => j !== i);
        assert.equal(deriveFloor(without)?.[hint], floor[hint]);
      });
    }),
    { numRuns: 2000, seed: SEED },
  );
});
