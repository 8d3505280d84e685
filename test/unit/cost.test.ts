// Inputs whose cost used to explode: analyses that were steps x references, "did you mean" without
// a cut-off, catalogs of thousands of tools, schemas whose references fan out. Each hostile case is
// sized so that the code as it is now finishes it at once, and says in a comment what the code
// before it did at that size; nothing here measures time (the benchmark does). Each also checks
// that the answers are the ones the slow code gave.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { documentContext } from '../../server/src/core/context.js';
import { checkFile } from '../../server/src/core/engine.js';
import { topLevelProperties } from '../../server/src/core/jsonschema/properties.js';
import { compileSchema, plainlyValid, validateAgainstSchema } from '../../server/src/core/jsonschema/validate.js';
import { LIMITS } from '../../server/src/core/limits.js';
import {
  waitsForEach,
  workflowsOf,
  type StepModel,
  type WaitQuestion,
  type WorkflowModel,
} from '../../server/src/core/model/workflow.js';
import {
  closest,
  closestN,
  editDistance,
  editDistanceWithin,
  SuggestionBudget,
} from '../../server/src/core/text/suggest.js';
import type { Finding } from '../../server/src/core/types.js';
import { Workspace } from '../../server/src/core/workspace.js';
import { seedFor } from '../helpers/seed.js';
import { fullText } from '../helpers/text.js';

const SEED = seedFor(20261207, 'cost properties');

/** The findings of one file checked in a workspace of the given catalog files; no rule may fail. */
function check(path: string, text: string, catalogs: Record<string, string> = {}): Finding[] {
  const logs: string[] = [];
  const workspace = new Workspace('/ws', (message) => logs.push(message));
  for (const [name, body] of Object.entries(catalogs)) workspace.catalog.addFile(workspace.parse(`/ws/${name}`, body));
  const { findings } = checkFile(workspace.parse(`/ws/${path}`, text), workspace);
  assert.deepEqual(logs, [], 'no rule failed');
  return findings;
}

// ---------------------------------------------------------------------------------------------
// Reachability through dependsOn

/** The question as the old code answered it: one breadth-first walk over ids per question. */
function walkWaitsFor(workflow: WorkflowModel, from: StepModel, to: StepModel): boolean {
  const id = to.idText;
  const queue = (from.parent ?? from).dependsOn.map((d) => String(d.value));
  const seen = new Set<string>();
  for (let i = 0; i < queue.length; i++) {
    const current = queue[i]!;
    if (current === id) return true;
    if (seen.has(current)) continue;
    seen.add(current);
    const dep = workflow.byId.get(current);
    if (dep) for (const next of dep.dependsOn) queue.push(String(next.value));
  }
  return false;
}

function workflowOf(text: string): WorkflowModel {
  const workspace = new Workspace('/ws');
  const file = workspace.parse('/ws/w.vmcp.yaml', text);
  return workflowsOf(documentContext(file, file.documents[0]!, workspace)).workflows[0]!;
}

/**
 * A workflow as the model gives it, built without a parse (a parse of 40,000 steps is the slow
 * part of checking them): only what the dependsOn graph reads is filled in.
 */
function syntheticWorkflow(deps: (i: number) => number[], n: number): WorkflowModel {
  const steps = Array.from({ length: n }, (_, i) => ({
    idText: `s${i}`,
    index: i,
    dependsOn: [] as { value: string }[],
  }));
  steps.forEach((step, i) => (step.dependsOn = deps(i).map((d) => ({ value: `s${d}` }))));
  const byId = new Map(steps.map((s) => [s.idText, s]));
  return { steps, byId } as unknown as WorkflowModel;
}

describe('reachability through dependsOn is computed once per workflow', () => {
  test('answers like one walk per question, on random graphs with cycles, unknown ids, duplicate ids and forEach steps', () => {
    const graph = fc.array(
      fc.record({
        id: fc.integer({ min: 0, max: 9 }),
        deps: fc.array(fc.integer({ min: 0, max: 11 }), { maxLength: 4 }),
        forEach: fc.boolean(),
      }),
      { minLength: 1, maxLength: 10 },
    );
    fc.assert(
      fc.property(graph, (steps) => {
        const lines = ['compositeTools:', '  - name: w', '    description: d.', '    steps:'];
        for (const s of steps) {
          const deps = s.deps.length ? `, dependsOn: [${s.deps.map((d) => `s${d}`).join(', ')}]` : '';
          lines.push(
            s.forEach
              ? `      - {id: s${s.id}, type: forEach, collection: x${deps}, step: {id: in${s.id}, tool: t}}`
              : `      - {id: s${s.id}, tool: t${deps}}`,
          );
        }
        const workflow = workflowOf(lines.join('\n') + '\n');
        const all = workflow.steps.flatMap((s) => (s.inner ? [s, s.inner] : [s]));
        const questions: WaitQuestion[] = [];
        for (const from of all)
          for (const to of workflow.steps)
            if (to.idText !== undefined) questions.push([from, workflow.byId.get(to.idText)!]);
        const answers = waitsForEach(workflow, questions);
        questions.forEach(([from, to], i) =>
          assert.equal(answers[i], walkWaitsFor(workflow, from, to), `${from.idText} -> ${to.idText}`),
        );
      }),
      { numRuns: 300, seed: SEED },
    );
  });

  test('a 40,000-step chain, every step asking about the first, and the first about every step', () => {
    // The old code walked the chain once per question: 40,000 walks of up to 40,000 steps, 800
    // million steps (the issue measured 196 s for such a file). Here: one pass over the graph.
    const n = 40_000;
    const workflow = syntheticWorkflow((i) => (i ? [i - 1] : []), n);
    const first = workflow.steps[0]!;
    const questions: WaitQuestion[] = [];
    for (const step of workflow.steps) questions.push([step, first], [first, step]);
    const answers = waitsForEach(workflow, questions);
    for (let i = 0; i < n; i++) {
      assert.equal(answers[2 * i], i > 0, `s${i} waits for s0`);
      assert.equal(answers[2 * i + 1], false, `s0 does not wait for s${i}`);
    }
  });

  test('a 20,000-step chain where every step asks about a different step, and a 20,000-step ring', () => {
    // The worst case: 20,000 distinct targets. The old walks: 20,000 x up to 20,000 steps.
    const chain = syntheticWorkflow((i) => (i ? [i - 1] : []), 20_000);
    const questions: WaitQuestion[] = chain.steps.map((step, i) => [step, chain.steps[Math.max(0, i - 2)]!]);
    assert.deepEqual(
      waitsForEach(chain, questions),
      chain.steps.map((_, i) => i >= 1),
    );
    // A cycle: every step waits for every step, itself included; the walk terminates.
    const ring = syntheticWorkflow((i) => [(i + 1) % 20_000], 20_000);
    const around: WaitQuestion[] = ring.steps.map((step, i) => [step, ring.steps[(i + 10_000) % 20_000]!]);
    around.push([ring.steps[7]!, ring.steps[7]!]);
    assert.ok(waitsForEach(ring, around).every(Boolean));
  });

  test('through the checker: a 2,000-step chain read from afar, two interleaved chains that read each other, a long cycle', () => {
    const head = ['compositeTools:', '  - name: w', '    description: d.', '    steps:'];
    const read = (ids: string[]) => ids.map((id) => `{{.steps.${id}.output.text}}`).join('');
    // Every step reads s0, far upstream, and the step two before: all of it waits.
    const chain = [...head];
    for (let i = 1; i <= 2_000; i++) {
      chain.push(
        `      - {id: s${i}, tool: filesystem.read_file${i > 1 ? `, dependsOn: [s${i - 1}]` : ''}, arguments: {path: "${read(i > 2 ? ['s1', `s${i - 2}`] : ['s1'])}"}}`,
      );
    }
    let found = check('chain.vmcp.yaml', chain.join('\n') + '\n', { 'fs.catalog.yaml': CATALOG });
    assert.deepEqual(
      found.filter((f) => f.rule === 'template/not-upstream'),
      [],
    );
    assert.equal(found.filter((f) => f.rule === 'template/unknown-step').length, 1, 's1 reading itself');
    // Two chains (even and odd steps) whose steps read their neighbour in the other chain: a race each time.
    const interleaved = [...head];
    for (let i = 0; i < 2_000; i++) {
      interleaved.push(
        `      - {id: s${i}, tool: filesystem.read_file${i > 1 ? `, dependsOn: [s${i - 2}]` : ''}, arguments: {path: "${read([`s${i ^ 1}`])}"}}`,
      );
    }
    found = check('interleaved.vmcp.yaml', interleaved.join('\n') + '\n', { 'fs.catalog.yaml': CATALOG }).filter(
      (f) => f.rule === 'template/not-upstream',
    );
    assert.equal(found.length, 2_000);
    assert.ok(
      found.every(
        (f, i) =>
          f.message.includes(`add "s${i ^ 1}" to \`dependsOn\``) &&
          f.fixes?.[0]?.title === `Add "s${i ^ 1}" to dependsOn`,
      ),
    );
    // A 2,000-step cycle: one finding, named by its first steps.
    const ring = [...head];
    for (let i = 0; i < 2_000; i++)
      ring.push(
        `      - {id: s${i}, tool: filesystem.read_file, dependsOn: [s${(i + 1) % 2_000}], arguments: {path: /}}`,
      );
    const cycles = check('ring.vmcp.yaml', ring.join('\n') + '\n', { 'fs.catalog.yaml': CATALOG }).filter(
      (f) => f.rule === 'workflow/dependency-cycle',
    );
    assert.equal(cycles.length, 1);
    assert.match(
      fullText(cycles[0]!),
      /"s0" waits for "s1", which waits for "s2", .* which waits for "s19", and so on through 1,980 more steps back to "s0"\./,
    );
    assert.equal(cycles[0]!.related?.length, LIMITS.messageItems);
  });
});

const CATALOG = `catalog: 1
servers:
  - name: filesystem
    tools:
      - name: read_file
        inputSchema: {type: object, properties: {path: {type: string}}, required: [path]}
        annotations: {readOnlyHint: true, openWorldHint: false}
`;

// ---------------------------------------------------------------------------------------------
// "Did you mean"

/** The search as it was before it was bounded (every candidate measured in full): the reference. */
function referenceClosestN(
  word: string,
  candidates: readonly string[],
  n: number,
  synonyms?: Record<string, string>,
): string[] {
  const normalize = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  const maxDistance = Math.max(1, Math.floor(word.length / 3));
  let synonym: string | undefined;
  if (synonyms) {
    if (Object.hasOwn(synonyms, word)) synonym = synonyms[word];
    else
      for (const [wrong, right] of Object.entries(synonyms))
        if (synonym === undefined && normalize(wrong) === normalize(word)) synonym = right;
  }
  const scored: { candidate: string; kind: number; distance: number; exact: number }[] = [];
  for (const candidate of new Set(candidates)) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    const exact = editDistance(word, candidate);
    let kind: number;
    if (candidate === word) kind = 0;
    else if (synonym !== undefined && (candidate === synonym || normalize(candidate) === normalize(synonym))) kind = 1;
    else if (normalize(word) !== '' && normalize(candidate) === normalize(word)) kind = 2;
    else if (distance <= maxDistance && distance < Math.min(word.length, candidate.length)) kind = 3;
    else {
      const [shorter, longer] =
        word.length <= candidate.length
          ? [word.toLowerCase(), candidate.toLowerCase()]
          : [candidate.toLowerCase(), word.toLowerCase()];
      if (shorter.length >= 4 && longer.includes(shorter)) kind = 4;
      else continue;
    }
    scored.push({ candidate, kind, distance, exact });
  }
  scored.sort(
    (x, y) =>
      x.kind - y.kind ||
      x.distance - y.distance ||
      x.exact - y.exact ||
      (x.candidate < y.candidate ? -1 : x.candidate > y.candidate ? 1 : 0),
  );
  return scored.slice(0, n).map((s) => s.candidate);
}

describe('"did you mean" is bounded', () => {
  const letters = fc.constantFrom('a', 'b', 'c', 'A', 'B', '_', '-');
  const text = (max: number) => fc.array(letters, { maxLength: max }).map((chars) => chars.join(''));

  test('the bounded distance is the distance up to the bound, and past it only says so', () => {
    fc.assert(
      fc.property(text(40), text(40), fc.integer({ min: 0, max: 12 }), (a, b, max) => {
        const d = editDistance(a, b);
        const bounded = editDistanceWithin(a, b, max);
        if (d <= max) assert.equal(bounded, d);
        else assert.ok(bounded > max);
      }),
      { numRuns: 3000, seed: SEED },
    );
  });

  test('gives the answers of the unbounded search (words of up to 32 characters: exactly)', () => {
    fc.assert(
      fc.property(
        text(12),
        fc.array(text(14), { maxLength: 25 }),
        fc.integer({ min: 1, max: 4 }),
        (word, candidates, n) => {
          assert.deepEqual(closestN(word, candidates, n), referenceClosestN(word, candidates, n));
          assert.deepEqual(
            closestN(word, candidates, n, { synonyms: { bab: 'abc', 'A-a': 'cc' } }),
            referenceClosestN(word, candidates, n, { bab: 'abc', 'A-a': 'cc' }),
          );
        },
      ),
      { numRuns: 2000, seed: SEED },
    );
    const long = 'configuration_of_the_deployment_pipeline_stage';
    assert.equal(
      closest('configuration_of_the_deploymnet_pipeline_stage', [long, 'configuration_of_the_release']),
      long,
    );
  });

  test('a search among more candidates than the budget has left suggests nothing, and spends nothing', () => {
    const names = Array.from({ length: 101 }, (_, i) => `tool_${i}`);
    const budget = new SuggestionBudget(100);
    assert.equal(closest('tool_7x', names, { budget }), undefined);
    assert.equal(budget.left, 100);
    assert.equal(closest('tool_7x', names.slice(0, 60), { budget }), 'tool_7');
    assert.equal(budget.left, 40);
    assert.equal(closest('tool_7x', names.slice(0, 60), { budget }), undefined, 'only 40 left');
  });

  test('20 misspelt tools against a 5,000-tool catalog: each gets its suggestion', () => {
    // The old search measured every name twice in full (with and without case) and walked every
    // tool of the gateway once per reference; the issue measured 100 s for 20 typos against 20,000 tools.
    const tools = Array.from(
      { length: 5_000 },
      (_, i) => `${['create', 'delete', 'list', 'get', 'update'][i % 5]}_item_${i}`,
    );
    const catalog = `catalog: 1\nservers:\n  - name: big\n    tools:\n${tools.map((t) => `      - {name: ${t}, inputSchema: {type: object}}`).join('\n')}\n`;
    const wrong = Array.from({ length: 20 }, (_, i) => tools[i * 241]!.replace('_item_', '_itme_'));
    const steps = wrong.map((t, i) => `      - {id: s${i}, tool: big.${t}}`).join('\n');
    const found = check(
      'typos.vmcp.yaml',
      `compositeTools:\n  - name: w\n    description: d.\n    steps:\n${steps}\n`,
      { 'big.catalog.yaml': catalog },
    );
    const unknown = found.filter((f) => f.rule === 'tool/unknown');
    assert.equal(unknown.length, 20);
    unknown.forEach((f, i) =>
      assert.ok(new RegExp(`[Dd]id you mean "big\\.${tools[i * 241]!}"`).test(f.message), f.message),
    );
  });

  test('past the budget of a document, misspellings still get their finding, without a suggestion', () => {
    // 300 misspellings against 5,000 tools compare 1,500,000 names: the first 200 searches spend the
    // 1,000,000 a document may compare, the last 100 suggest nothing (and cost nothing).
    assert.equal(LIMITS.suggestionCandidates, 1_000_000);
    const tools = Array.from({ length: 5_000 }, (_, i) => `tool_${i}`);
    const catalog = `catalog: 1\nservers:\n  - name: big\n    tools:\n${tools.map((t) => `      - {name: ${t}, inputSchema: {type: object}}`).join('\n')}\n`;
    const steps = Array.from({ length: 300 }, (_, i) => `      - {id: s${i}, tool: big.tool_${i}x}`).join('\n');
    const found = check('many.vmcp.yaml', `compositeTools:\n  - name: w\n    description: d.\n    steps:\n${steps}\n`, {
      'big.catalog.yaml': catalog,
    });
    const unknown = found.filter((f) => f.rule === 'tool/unknown');
    assert.equal(unknown.length, 300);
    assert.deepEqual(
      unknown.map((f) => /[Dd]id you mean/.test(f.message)),
      Array.from({ length: 300 }, (_, i) => i < 200),
    );
  });

  test('a wrong value against a 5,000-value enum: a suggestion, and a message of the first values', () => {
    // The old message listed every allowed value: 11 MB for a 200,000-value enum.
    const values = Array.from({ length: 5_000 }, (_, i) => `mode_${i}`);
    const catalog = `catalog: 1\nservers:\n  - name: big\n    tools:\n      - name: run\n        inputSchema: {type: object, properties: {mode: {type: string, enum: [${values.join(', ')}]}}}\n`;
    const found = check(
      'enum.vmcp.yaml',
      'compositeTools:\n  - name: w\n    description: d.\n    steps:\n      - {id: s, tool: big.run, arguments: {mode: mdoe_4321}}\n',
      { 'big.catalog.yaml': catalog },
    );
    const wrong = found.filter((f) => f.rule === 'args/wrong-type');
    assert.equal(wrong.length, 1);
    assert.match(fullText(wrong[0]!), /"mode_0", "mode_1", .*"mode_19" and 4,980 more/);
    assert.ok(wrong[0]!.message.length < 1_000, `${wrong[0]!.message.length} characters`);
    assert.deepEqual(
      wrong[0]!.fixes?.map((f) => f.title),
      ['Change to "mode_4321"'],
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Catalogs and schemas

describe('catalogs of thousands of tools, and schemas whose references fan out', () => {
  const plainSchema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    schema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.boolean(),
      fc.record(
        {
          type: fc.oneof(
            fc.constantFrom('string', 'integer', 'number', 'boolean', 'object', 'array', 'null'),
            fc.uniqueArray(fc.constantFrom('string', 'null', 'integer'), { minLength: 1 }),
          ),
          description: fc.string(),
          enum: fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { minLength: 1, maxLength: 3 }),
          default: fc.jsonValue(),
          properties: fc.dictionary(fc.constantFrom('a', 'b', '__proto__', 'constructor', 'x y'), tie('schema'), {
            maxKeys: 3,
          }),
          required: fc.uniqueArray(fc.constantFrom('a', 'b', 'c')),
          items: tie('schema'),
          additionalProperties: tie('schema'),
          minLength: fc.nat(5),
          maximum: fc.double({ noNaN: true, noDefaultInfinity: true }),
          multipleOf: fc.constantFrom(1, 0.5, 3),
          format: fc.constantFrom('date-time', 'uri', 'email', 'uuid'),
          uniqueItems: fc.boolean(),
        },
        { requiredKeys: [] },
      ),
    ),
  })).schema;

  test('a schema told valid without compiling compiles, in both dialects', () => {
    fc.assert(
      fc.property(plainSchema, (schema) => {
        if (!plainlyValid(schema)) return;
        for (const dialect of [
          'https://json-schema.org/draft/2020-12/schema',
          'http://json-schema.org/draft-07/schema#',
        ]) {
          const compiled = compileSchema(
            typeof schema === 'object' ? { $schema: dialect, ...(schema as object) } : schema,
          );
          assert.ok(compiled.ok, `${JSON.stringify(schema)} in ${dialect}: ${compiled.ok ? '' : compiled.error}`);
        }
      }),
      { numRuns: 300, seed: SEED },
    );
    // What needs the compiler to know goes to the compiler.
    for (const schema of [
      { $ref: '#/x' },
      { pattern: '(' },
      { enum: [] },
      { type: 'strnig' },
      { required: ['a', 'a'] },
      { anyOf: [] },
      { minLength: -1 },
      { format: 'nope' },
      { items: [{}] },
    ]) {
      assert.equal(plainlyValid(schema), false, JSON.stringify(schema));
    }
  });

  test('a 5,000-tool catalog with schemas is checked without compiling them, and its broken schema is still found', () => {
    // The old rule compiled every tool schema (code generated and evaluated, about a millisecond
    // each); the issue measured 37 s and 2.2 GB for a 20 MB catalog.
    const tools = Array.from({ length: 5_000 }, (_, i) =>
      JSON.stringify({
        name: `tool_${i}`,
        description: `Tool number ${i}.`,
        inputSchema: {
          type: 'object',
          properties: { path: { type: 'string', description: 'A path.' }, depth: { type: 'integer', minimum: 0 } },
          required: ['path'],
        },
        annotations: { readOnlyHint: true },
      }),
    );
    tools.push(
      JSON.stringify({
        name: 'broken',
        inputSchema: { type: 'object', properties: { when: { type: 'string', pattern: '([a-z' } } },
        annotations: { readOnlyHint: true },
      }),
    );
    const found = check(
      'big.catalog.json',
      `{"catalog": 1, "servers": [{"name": "big", "tools": [\n${tools.join(',\n')}\n]}]}\n`,
    );
    assert.deepEqual(
      found.map((f) => f.rule),
      ['catalog/invalid-schema'],
    );
    assert.match(fullText(found[0]!), /is not a valid regular expression/);
  });

  test('allOf and anyOf branches that reference one definition at every level', () => {
    // 9 levels of ten references to the next level: the old property reader visited 10^9 schemas
    // (it never finished), and a property's type text would be as long.
    const refs = (to: string) => Array.from({ length: 10 }, () => ({ $ref: `#/$defs/${to}` }));
    const defs: Record<string, unknown> = { d9: { type: 'object', properties: { leaf: { type: 'string' } } } };
    for (let i = 8; i >= 0; i--) defs[`d${i}`] = { allOf: refs(`d${i + 1}`), anyOf: refs(`d${i + 1}`) };
    const schema = { $defs: defs, allOf: [{ $ref: '#/$defs/d0' }], properties: { fanned: { anyOf: refs('d0') } } };
    const properties = topLevelProperties(schema).properties;
    assert.deepEqual([...properties.keys()].sort(), ['fanned', 'leaf']);
    assert.ok(
      properties.get('fanned')!.typeText.length < 2_000,
      `${properties.get('fanned')!.typeText.length} characters`,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Wide mappings

describe('wide mappings', () => {
  test('a gateway of 10,000 unknown keys: each one found, in time linear in the keys', () => {
    // Each unknown key looked itself up by scanning the mapping (getPair), and gathered the
    // mapping's keys again to tell a misspelling from a second spelling: `tool-lens check` of this
    // file took 20 s (51 s at 20,000 keys), where the key index and one set per mapping take 1.5 s.
    const keys = Array.from({ length: 10_000 }, (_, i) => `key_${i}: v`);
    const found = check('wide.vmcp.yaml', `compositeTools: []\n${keys.join('\n')}\ngroupRf: g\n`);
    const unknown = found.filter((f) => f.rule === 'schema/unknown-key');
    assert.equal(unknown.length, 10_001);
    assert.match(unknown[0]!.message, /^`key_0` is not a top-level field/);
    assert.match(unknown[10_000]!.message, /groupRef/, 'the misspelling is still told apart');
  });
});

// ---------------------------------------------------------------------------------------------
// uniqueItems

describe('uniqueItems', () => {
  // ajv compares every pair of items (fast-deep-equal) unless they are plain scalars: 2,000 objects
  // took 0.5 s, 16,000 took 18 s, and the 250,000 values a file may hold would take hours, in the
  // arguments of a step or a recorded result alike. jsonschema/uniqueItems.ts keys each item by a
  // canonical text instead.
  test('is one pass over the items, not a comparison of every pair', () => {
    const equalModule = createRequire(__filename)('ajv/dist/runtime/equal') as {
      default: ((a: unknown, b: unknown) => boolean) & { code: string };
    };
    const equal = equalModule.default;
    let calls = 0;
    equalModule.default = Object.assign((a: unknown, b: unknown) => (calls++, equal(a, b)), { code: equal.code });
    try {
      const items = Array.from({ length: 2_000 }, (_, i) => ({ id: i, tags: [String(i)] }));
      const schema = { type: 'array', description: 'counted', uniqueItems: true };
      const result = validateAgainstSchema(schema, [...items, { tags: ['7'], id: 7 }]);
      assert.ok(result.compiled);
      assert.deepEqual(
        result.issues.map((i) => [i.keyword, i.params]),
        [['uniqueItems', { i: 7, j: 2_000 }]],
      );
    } finally {
      equalModule.default = equal;
    }
    assert.ok(calls <= 2_000, `fast-deep-equal was called ${calls} times for 2,001 items`);
  });

  test('equal as JSON Schema says: keys in any order, arrays in order, types apart', () => {
    const dup = (...items: unknown[]) => {
      const result = validateAgainstSchema({ uniqueItems: true }, items);
      assert.ok(result.compiled);
      return result.issues.length > 0;
    };
    assert.equal(dup({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }), true);
    assert.equal(dup([1, 2], [2, 1]), false);
    assert.equal(dup(1, '1'), false);
    assert.equal(dup(1, 1.0), true);
    assert.equal(dup(null, 'null', false, 0, ''), false);
    assert.equal(dup({ a: null }, {}), false);
    assert.equal(dup({ a: '1' }, { a: 1 }), false);
    assert.equal(dup([[{ x: 'y' }]], [[{ x: 'y' }]]), true);
    // Scalar items keep ajv's own path: an item of the wrong type is left to `items`.
    const typed = validateAgainstSchema({ uniqueItems: true, items: { type: 'string' } }, [1, 1, 'a']);
    assert.ok(typed.compiled);
    assert.deepEqual(
      typed.issues.map((i) => i.keyword),
      ['type', 'type'],
    );
  });

  test('through the checker: 5,000 objects in a step argument, one duplicate', () => {
    const catalog =
      'catalog: 1\nservers:\n  - name: store\n    tools:\n      - name: put\n        description: Store records.\n' +
      '        inputSchema: {type: object, properties: {records: {type: array, uniqueItems: true}}, required: [records]}\n';
    const records = Array.from({ length: 5_000 }, (_, i) => `{n: ${i}, k: r${i}}`).join(', ');
    const gateway = `compositeTools:\n  - name: load\n    description: Load the records.\n    steps:\n      - id: put\n        tool: store.put\n        arguments: {records: [${records}, {k: r5, n: 5}]}\n`;
    const found = check('load.vmcp.yaml', gateway, { 'store.catalog.yaml': catalog });
    assert.deepEqual(
      found.map((f) => f.rule),
      ['args/wrong-type'],
    );
    assert.match(fullText(found[0]!), /duplicate items \(items ## 5000 and 5 are identical\)/);
  });
});
