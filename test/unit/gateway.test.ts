// The gateway model (catalog/gateway.ts): aggregation as ToolHive does it, and step references
// resolved as its router resolves them. Plus the per-workflow floor built on it, and the ajv helpers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  gatewayOf,
  resolveToolRef,
  workloadFromPrefixed,
  type Gateway,
  type ToolRefResolution,
} from '../../server/src/core/gateway/gateway.js';
import { documentContext } from '../../server/src/core/context.js';
import { floorMarkdown, floorOf } from '../../server/src/core/floor/workflowFloor.js';
import { coerceLikeToolHive, placeholderFor } from '../../server/src/core/jsonschema/arguments.js';
import { compileSchema, validateAgainstSchema } from '../../server/src/core/jsonschema/validate.js';
import { workflowsOf } from '../../server/src/core/model/workflow.js';
import type { MapNode } from '../../server/src/core/parse/nodes.js';
import { applyEdits } from '../../server/src/core/text/edits.js';
import { insertPairs, removePair } from '../../server/src/core/edit/mappingEdits.js';
import { Workspace } from '../../server/src/core/workspace.js';

const CATALOG = `
catalog: 1
servers:
  - name: filesystem
    tools:
      - name: read_file
        inputSchema: {type: object, properties: {path: {type: string}}, required: [path]}
        annotations: {readOnlyHint: true, openWorldHint: false}
      - name: write_file
        inputSchema: {type: object, properties: {path: {type: string}, content: {type: string}}}
        annotations: {readOnlyHint: false, destructiveHint: true, openWorldHint: false}
      - name: search
        inputSchema: {type: object}
  - name: memory
    tools:
      - name: search
        inputSchema: {type: object}
        annotations: {readOnlyHint: true, destructiveHint: false, openWorldHint: false}
      - name: read_graph
        inputSchema: {type: object}
  - name: agent
    tools:
      - name: notify
        inputSchema: {type: object}
    namespaces:
      - name: applets
        tools:
          - name: applet_create
            inputSchema: {type: object}
`;

function workspace(workloads: Record<string, string> = {}): Workspace {
  const ws = new Workspace('/ws');
  ws.config = { ...ws.config, workloads };
  ws.catalog.addFile(ws.parse('/ws/servers.catalog.yaml', CATALOG));
  return ws;
}

function contextOf(text: string, ws = workspace(), path = '/ws/gateway.yaml') {
  const file = ws.parse(path, text);
  const doc = file.documents.find((d) => d.kind)!;
  return documentContext(file, doc, ws);
}

function gateway(text: string, ws = workspace()): Gateway {
  return gatewayOf(contextOf(text, ws));
}

function resolve(g: Gateway, ref: string): ToolRefResolution {
  return resolveToolRef(g, ref);
}

function resolvedName(r: ToolRefResolution): string | undefined {
  return r.kind === 'resolved' ? `${r.tool.workload}:${r.tool.originalName}` : undefined;
}

const STEP = 'compositeTools:\n  - name: c\n    description: d\n    steps: [{id: a, tool: filesystem.read_file}]\n';

describe('prefix strategy', () => {
  test('default {workload}_: exact names and the dot form resolve; a bare name suggests the routing name', () => {
    const g = gateway(STEP);
    assert.equal(g.aggregation.strategy, 'prefix');
    assert.equal(resolvedName(resolve(g, 'filesystem_read_file')), 'filesystem:read_file');
    assert.equal(resolvedName(resolve(g, 'filesystem.read_file')), 'filesystem:read_file');
    const bare = resolve(g, 'read_file');
    assert.equal(bare.kind, 'unresolved');
    assert.ok(bare.kind === 'unresolved' && bare.problem === 'strategy');
    // One spelling per tool, the one the step chose: a reference without a dot asks for the routing name.
    assert.deepEqual(bare.kind === 'unresolved' && bare.suggestions, ['filesystem_read_file']);
  });

  test('"did you mean" names each near tool once, in the spelling of the reference', () => {
    const g = gateway(STEP);
    const prefixed = resolve(g, 'filesystem_read_fil');
    // Before: filesystem_read_file, filesystem.read_file, filesystem_write_file (one tool twice).
    assert.deepEqual(prefixed.kind === 'unresolved' && prefixed.suggestions, [
      'filesystem_read_file',
      'filesystem_write_file',
      'filesystem_search',
    ]);
    const dotted = resolve(g, 'filesystem.read_fil');
    assert.deepEqual(dotted.kind === 'unresolved' && dotted.suggestions, ['filesystem.read_file']);
  });

  test('a configured prefixFormat is used; the same tool name in two workloads does not clash', () => {
    const g = gateway(`aggregation:\n  conflictResolutionConfig: {prefixFormat: "{workload}__"}\n${STEP}`);
    assert.equal(resolvedName(resolve(g, 'memory__search')), 'memory:search');
    assert.equal(resolvedName(resolve(g, 'filesystem__search')), 'filesystem:search');
    assert.equal(resolve(g, 'memory_search').kind, 'unresolved');
  });

  test('the dot form is split at the first dot', () => {
    const g = gateway(`aggregation:\n  conflictResolutionConfig: {prefixFormat: "{workload}."}\n${STEP}`);
    assert.equal(resolvedName(resolve(g, 'memory.read_graph')), 'memory:read_graph');
    const typo = resolve(g, 'memory.read_graf');
    assert.ok(typo.kind === 'unresolved' && typo.problem === 'no-such-tool');
    assert.deepEqual(typo.kind === 'unresolved' && typo.suggestions, ['memory.read_graph']);
  });

  test('a composite tool definition uses the default prefix strategy', () => {
    const g = gateway(
      'apiVersion: toolhive.stacklok.dev/v1beta1\nkind: VirtualMCPCompositeToolDefinition\nmetadata: {name: x}\nspec:\n  name: c\n  description: d\n  steps: [{id: a, tool: memory_search}]\n',
    );
    assert.equal(resolvedName(resolve(g, 'memory_search')), 'memory:search');
    assert.equal(g.aggregation.prefixFormat, '{workload}_');
  });
});

describe('overrides', () => {
  const text = `aggregation:
  tools:
    - workload: filesystem
      overrides:
        read_file:
          name: cat
          description: Print a file.
          annotations: {destructiveHint: false, title: Cat}
${STEP}`;

  test('rename before the prefix; the dot form keeps the original name', () => {
    const g = gateway(text);
    const cat = resolve(g, 'filesystem_cat');
    assert.equal(resolvedName(cat), 'filesystem:read_file');
    assert.equal(resolvedName(resolve(g, 'filesystem.read_file')), 'filesystem:read_file');
    assert.equal(resolve(g, 'filesystem_read_file').kind, 'unresolved');
    const after = resolve(g, 'filesystem.cat');
    assert.ok(after.kind === 'unresolved' && after.problem === 'override-name-after-dot');
    assert.deepEqual(after.kind === 'unresolved' && after.suggestions, ['filesystem.read_file']);
  });

  test('description and annotation patches are what later readers see', () => {
    const g = gateway(text);
    const r = resolve(g, 'filesystem_cat');
    assert.ok(r.kind === 'resolved');
    assert.equal(r.tool.tool.description, 'Print a file.');
    assert.deepEqual(r.tool.tool.annotations, {
      readOnlyHint: true,
      openWorldHint: false,
      destructiveHint: false,
      title: 'Cat',
    });
    // An override on a tool that declares nothing gives it annotations.
    const g2 = gateway(
      `aggregation:\n  tools:\n    - workload: memory\n      overrides: {read_graph: {description: Graph, annotations: {readOnlyHint: true}}}\n${STEP}`,
    );
    const graph = resolve(g2, 'memory_read_graph');
    assert.ok(graph.kind === 'resolved');
    assert.deepEqual(graph.tool.tool.annotations, { readOnlyHint: true });
  });

  test('an override ToolHive refuses (annotations only, no name or description) does not count, for the floor either', () => {
    const composite = `compositeTools:
  - name: c
    description: d
    annotations: {readOnlyHint: true, destructiveHint: false, openWorldHint: false}
    steps: [{id: a, tool: filesystem_read_file}]
`;
    const overrideOf = (fields: string) =>
      `aggregation:\n  tools:\n    - workload: filesystem\n      overrides:\n        read_file: {${fields}}\n${composite}`;
    const accepted = contextOf(overrideOf('description: Read, annotations: {destructiveHint: false}'));
    const refused = contextOf(overrideOf('annotations: {destructiveHint: false}'));
    const emptyDescription = contextOf(overrideOf('description: "", annotations: {destructiveHint: false}'));

    const tool = (ctx: ReturnType<typeof contextOf>) => {
      const r = resolveToolRef(gatewayOf(ctx), 'filesystem_read_file');
      assert.ok(r.kind === 'resolved');
      return r.tool;
    };
    assert.deepEqual(tool(accepted).tool.annotations, {
      readOnlyHint: true,
      openWorldHint: false,
      destructiveHint: false,
    });
    assert.equal(tool(accepted).override?.refused, false);
    for (const ctx of [refused, emptyDescription]) {
      assert.equal(tool(ctx).override, undefined, 'a refused override is not applied');
      assert.deepEqual(
        tool(ctx).tool.annotations,
        { readOnlyHint: true, openWorldHint: false },
        "the backend's own annotations",
      );
    }

    // The floor: with the accepted patch the read-only composite is honest; without it the missing
    // destructiveHint counts as destructive and contradicts the composite's destructiveHint: false.
    const floorOfDoc = (ctx: ReturnType<typeof contextOf>) => floorOf(ctx, workflowsOf(ctx).workflows[0]!).table;
    assert.equal(floorOfDoc(accepted).floor?.destructiveHint, false);
    assert.deepEqual(floorOfDoc(accepted).contradictions, []);
    for (const ctx of [refused, emptyDescription]) {
      assert.equal(floorOfDoc(ctx).floor?.destructiveHint, true);
      assert.deepEqual(
        floorOfDoc(ctx).contradictions.map((c) => c.hint),
        ['destructiveHint'],
      );
    }
  });
});

describe('advertising filter', () => {
  test('filter matches the name after overrides, before the prefix; hidden tools stay routable', () => {
    const g = gateway(`aggregation:
  tools:
    - workload: filesystem
      filter: [cat]
      overrides: {read_file: {name: cat}}
${STEP}`);
    const cat = resolve(g, 'filesystem_cat');
    assert.ok(cat.kind === 'resolved' && cat.tool.advertised);
    const write = resolve(g, 'filesystem_write_file');
    assert.ok(write.kind === 'resolved' && !write.tool.advertised && write.tool.hiddenBy === 'filter');
    assert.ok(!g.advertised.some((t) => t.resolvedName === 'filesystem_write_file'));
  });

  test('excludeAll, excludeAllTools and defaultToolVisibility: deny', () => {
    const g = gateway(
      `aggregation:\n  defaultToolVisibility: deny\n  tools:\n    - workload: memory\n      excludeAll: true\n    - workload: filesystem\n${STEP}`,
    );
    const hidden = (ref: string) => {
      const r = resolve(g, ref);
      return r.kind === 'resolved' ? r.tool.hiddenBy : 'unresolved';
    };
    assert.equal(hidden('memory_search'), 'excludeAll');
    assert.equal(hidden('agent_notify'), 'defaultToolVisibility');
    assert.equal(hidden('filesystem_read_file'), undefined);
    const all = gateway(`aggregation: {excludeAllTools: true}\n${STEP}`);
    assert.equal(all.advertised.length, 0);
    assert.equal(resolve(all, 'filesystem.read_file').kind, 'resolved');
  });
});

describe('priority strategy', () => {
  const text = `backends: [{name: filesystem}, {name: memory}]
aggregation:
  conflictResolution: priority
  conflictResolutionConfig: {priorityOrder: [memory], prefixFormat: "{workload}."}
${STEP}`;

  test('unique names stay bare; the first listed workload wins a conflict and the others are dropped', () => {
    const g = gateway(text);
    assert.equal(resolvedName(resolve(g, 'read_file')), 'filesystem:read_file');
    assert.equal(resolvedName(resolve(g, 'search')), 'memory:search');
    const lost = resolve(g, 'filesystem.search');
    assert.ok(lost.kind === 'unresolved' && lost.problem === 'dropped');
    assert.deepEqual(lost.kind === 'unresolved' && lost.suggestions, ['memory.search']);
    const prefixed = resolve(g, 'filesystem_read_file');
    assert.ok(prefixed.kind === 'unresolved' && prefixed.problem === 'strategy');
  });

  test('a conflict between unlisted workloads falls back to the DEFAULT {workload}_ prefix', () => {
    const g = gateway(text.replace('priorityOrder: [memory]', 'priorityOrder: [agent]'));
    assert.equal(resolvedName(resolve(g, 'filesystem_search')), 'filesystem:search');
    assert.equal(resolvedName(resolve(g, 'memory_search')), 'memory:search');
    assert.equal(resolve(g, 'filesystem.search').kind, 'resolved');
    assert.equal(resolve(g, 'search').kind, 'unresolved');
    assert.equal(g.conflicts[0]?.outcome, 'prefixed');
  });
});

describe('manual strategy', () => {
  test('an unresolved conflict has no routing key; an override resolves it', () => {
    const broken = gateway(
      `backends: [{name: filesystem}, {name: memory}]\naggregation: {conflictResolution: manual}\n${STEP}`,
    );
    const bare = resolve(broken, 'search');
    assert.ok(bare.kind === 'unresolved' && bare.problem === 'conflict');
    assert.equal(resolvedName(resolve(broken, 'memory.search')), 'memory:search');
    assert.equal(resolvedName(resolve(broken, 'read_file')), 'filesystem:read_file');
    const fixed = gateway(
      `backends: [{name: filesystem}, {name: memory}]\naggregation:\n  conflictResolution: manual\n  tools: [{workload: memory, overrides: {search: {name: graph_search}}}]\n${STEP}`,
    );
    assert.equal(resolvedName(resolve(fixed, 'search')), 'filesystem:search');
    assert.equal(resolvedName(resolve(fixed, 'graph_search')), 'memory:search');
    assert.equal(fixed.conflicts.length, 0);
  });
});

describe('workloads and catalogs', () => {
  test('a backends list is a closed set: other workloads are wrong, uncatalogued ones unknown', () => {
    const g = gateway(`backends: [{name: filesystem}, {name: github}]\n${STEP}`);
    assert.deepEqual([...g.workloads.keys()], ['filesystem', 'github']);
    assert.equal(resolve(g, 'memory_search').kind, 'unresolved');
    const slack = resolve(g, 'slack.post');
    assert.ok(slack.kind === 'unresolved' && slack.problem === 'no-such-workload');
    const gh = resolve(g, 'github.create_issue');
    assert.ok(gh.kind === 'no-catalog' && gh.workloads[0]?.name === 'github');
    const prefixed = resolve(g, 'github_create_issue');
    assert.ok(prefixed.kind === 'no-catalog');
    // Under prefix, a bare name that cannot carry github's prefix is not github's.
    assert.equal(resolve(g, 'create_issue').kind, 'unresolved');
  });

  test('without a backends list, an unnamed workload is unknown, not wrong', () => {
    const g = gateway(STEP);
    assert.equal(resolve(g, 'github.create_issue').kind, 'no-catalog');
    const guessed = resolve(g, 'gh_create_issue');
    assert.ok(guessed.kind === 'no-catalog' && guessed.workloads[0]?.name === 'gh');
    // A near name is a typo, not a stranger.
    assert.equal(resolve(g, 'filesystem_read_fil').kind, 'unresolved');
    assert.equal(workloadFromPrefixed('{workload}_', 'gh_create_issue'), 'gh');
    assert.equal(workloadFromPrefixed('{workload}', 'ghcreate'), undefined);
  });

  test('aggregation-named workloads join the set; priority with an uncatalogued one makes bare names unknown', () => {
    const g = gateway(
      `aggregation:\n  conflictResolution: priority\n  conflictResolutionConfig: {priorityOrder: [github, filesystem]}\n${STEP}`,
    );
    assert.ok(g.workloads.has('github') && !g.workloads.get('github')!.server);
    assert.equal(resolve(g, 'create_issue').kind, 'no-catalog');
    assert.equal(resolvedName(resolve(g, 'read_file')), 'filesystem:read_file');
  });

  test('the workloads mapping: an alias reaches the server, and so does the server name in a dot form', () => {
    const ws = workspace({ fs: 'filesystem' });
    const g = gateway(STEP, ws);
    assert.equal(resolvedName(resolve(g, 'fs_read_file')), 'fs:read_file');
    assert.equal(resolvedName(resolve(g, 'fs.read_file')), 'fs:read_file');
    assert.equal(resolvedName(resolve(g, 'filesystem.read_file')), 'filesystem:read_file');
  });

  test('dynamic tools resolve as dynamic, with their namespaces', () => {
    const g = gateway(STEP);
    const dotted = resolve(g, 'agent.applet_create');
    assert.ok(dotted.kind === 'dynamic' && dotted.namespaces[0]?.name === 'applets');
    const prefixed = resolve(g, 'agent_applet_create');
    assert.ok(prefixed.kind === 'dynamic' && prefixed.toolName === 'applet_create');
  });

  test('VirtualMCPServer: aggregation and backends come from spec.config', () => {
    const g = gateway(`apiVersion: toolhive.stacklok.dev/v1beta1
kind: VirtualMCPServer
metadata: {name: v}
spec:
  groupRef: {name: g}
  config:
    backends: [{name: memory}]
    aggregation: {conflictResolution: priority, conflictResolutionConfig: {priorityOrder: [memory]}}
    compositeTools: [{name: c, description: d, steps: [{id: a, tool: search}]}]
`);
    assert.equal(g.aggregation.strategy, 'priority');
    assert.deepEqual([...g.workloads.keys()], ['memory']);
    assert.equal(resolvedName(resolve(g, 'search')), 'memory:search');
  });
});

describe('floorOf', () => {
  const text = `aggregation:
  tools:
    - workload: filesystem
      filter: [read_file]
      overrides: {read_file: {description: Read, annotations: {destructiveHint: false}}}
compositeTools:
  - name: c
    description: d
    annotations: {readOnlyHint: true}
    steps:
      - {id: read, tool: filesystem.read_file}
      - {id: ask, type: elicitation, message: ok?, schema: {type: object}}
      - id: each
        type: forEach
        collection: "[]"
        step: {id: write, type: tool, tool: filesystem_write_file}
      - {id: graph, tool: memory_read_graph}
      - {id: gh, tool: github.get_issue}
`;

  test('entries per tool step in order, with the reasons unknown ones are unknown', () => {
    const ctx = contextOf(text);
    const workflow = workflowsOf(ctx).workflows[0]!;
    const floor = floorOf(ctx, workflow);
    assert.equal(floorOf(ctx, workflow), floor, 'memoised');
    assert.deepEqual(
      floor.entries.map((e) => e.step.stepId),
      ['read', 'write', 'graph', 'gh'],
    );
    const [read, write, graph, gh] = floor.entries;
    assert.ok(read!.known && read!.annotations.destructiveHint === false);
    assert.ok(!write!.known && write!.step.cause === 'hidden' && /advertised tools only/.test(write!.reason));
    assert.ok(!graph!.known && graph!.reason === 'tool declares no annotations');
    assert.ok(
      !gh!.known &&
        gh!.reason === 'step "gh": tool "github.get_issue" is not in any catalog (server github has no catalog)',
    );
    assert.deepEqual(floor.table.floor, { readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    assert.deepEqual(
      floor.table.contradictions.map((c) => c.hint),
      ['readOnlyHint'],
    );
    const markdown = floorMarkdown(floor);
    assert.ok(markdown.includes('| hint | floor | explicit | advertised | decided by |'));
    assert.ok(markdown.includes('| readOnlyHint | `false` | `true` | `true` |'));
  });
});

describe('validate.ts', () => {
  test('dialect by $schema; without it 2020-12, falling back to draft-07', () => {
    const draft7 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { a: { type: 'integer' } },
    };
    assert.equal(compileSchema(draft7).dialect, 'draft-07');
    assert.equal(
      compileSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' }).dialect,
      '2020-12',
    );
    assert.equal(compileSchema({ type: 'object' }).dialect, '2020-12');
    const tuple = { type: 'object', properties: { p: { type: 'array', items: [{ type: 'string' }] } } };
    const compiled = compileSchema(tuple);
    assert.ok(compiled.ok && compiled.dialect === 'draft-07');
    assert.equal(compileSchema(draft7), compileSchema(draft7), 'cached per schema object');
    const result = validateAgainstSchema(draft7, { a: 'x' });
    assert.ok(result.compiled && result.issues[0]?.keyword === 'type' && result.issues[0].path[0] === 'a');
  });

  test('never throws: unknown $schema, a broken schema, formats', () => {
    assert.ok(compileSchema({ $schema: 'https://example.com/mine', type: 'object' }).ok);
    const broken = compileSchema({ type: 'object', properties: { a: { type: 'strin' } } });
    assert.equal(broken.ok, false);
    const dated = validateAgainstSchema(
      { type: 'object', properties: { d: { type: 'string', format: 'date' } } },
      { d: 'soon' },
    );
    assert.ok(dated.compiled && dated.issues[0]?.keyword === 'format');
  });

  test('coercion as ToolHive does it, and placeholders', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer' },
        f: { type: 'number' },
        b: { type: 'boolean' },
        l: { type: 'array', items: { type: 'integer' } },
        u: { type: ['integer', 'null'] },
      },
    };
    assert.deepEqual(coerceLikeToolHive(schema, { n: '7', f: '1.5', b: 'True', l: ['1', 'x'], u: '3', z: '4' }), {
      n: 7,
      f: 1.5,
      b: true,
      l: [1, 'x'],
      u: '3',
      z: '4',
    });
    assert.deepEqual(coerceLikeToolHive(schema, { n: 'seven', b: 'yes' }), { n: 'seven', b: 'yes' });
    assert.equal(placeholderFor({ type: 'string', enum: ['low', 'high'] }, {}), 'low');
    assert.deepEqual(placeholderFor({ $ref: '#/$defs/x' }, { $defs: { x: { type: 'array' } } }), []);
  });
});

describe('mapping edits', () => {
  const map = (ctx: ReturnType<typeof contextOf>) => workflowsOf(ctx).workflows[0]!.annotations as MapNode;
  const doc = (annotations: string) =>
    `compositeTools:\n  - name: c\n    description: d\n    annotations:${annotations}\n    steps: [{id: a, tool: filesystem.read_file}]\n`;

  test('remove a pair: its line in block style, the entry and one comma in flow style', () => {
    const block = contextOf(doc('\n      title: T\n      readOnlyHint: true # why\n      openWorldHint: false'));
    const text = block.file.source.text;
    const edit = removePair({ text, json: false }, map(block), map(block).pairs[1]!)!;
    assert.equal(applyEdits(text, [edit]), doc('\n      title: T\n      openWorldHint: false'));
    const flow = contextOf(doc(' {title: T, readOnlyHint: true}'));
    const flowText = flow.file.source.text;
    assert.equal(
      applyEdits(flowText, [removePair({ text: flowText, json: false }, map(flow), map(flow).pairs[1]!)!]),
      doc(' {title: T}'),
    );
    assert.equal(
      applyEdits(flowText, [removePair({ text: flowText, json: false }, map(flow), map(flow).pairs[0]!)!]),
      doc(' {readOnlyHint: true}'),
    );
  });

  test('insert pairs in the mapping style', () => {
    const block = contextOf(doc('\n      title: T'));
    const text = block.file.source.text;
    const edit = insertPairs({ text, json: false }, map(block), [{ key: 'readOnlyHint', value: { inline: 'false' } }])!;
    assert.equal(applyEdits(text, [edit]), doc('\n      title: T\n      readOnlyHint: false'));
    const flow = contextOf(doc(' {}'));
    const flowText = flow.file.source.text;
    const flowEdit = insertPairs({ text: flowText, json: false }, map(flow), [
      { key: 'a', value: { entries: [{ key: 'b', value: { inline: '""' } }] } },
    ])!;
    assert.equal(applyEdits(flowText, [flowEdit]), doc(' {a: {b: ""}}'));
  });
});
