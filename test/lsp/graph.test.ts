// The workflow graph page (client/src/graph.ts): layers by dependsOn, colours, escaping, and a
// Content Security Policy that allows nothing but the nonce'd style and script; the marks (the
// dropped composite, the steps that break its claim, races, unknown steps) and the tab's title.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CLASS_STYLE,
  graphHtml,
  graphTitle,
  isGraphPanelState,
  layout,
  MARK_STYLE,
  sameComposites,
} from '../../client/src/graph.js';
import type { WorkflowGraph } from '../../server/src/lsp/protocol.js';

const GRAPH: WorkflowGraph = {
  workflow: 'release <notes>',
  uri: 'file:///w.yaml',
  nodes: [
    {
      id: 'fetch',
      tool: 'github.list_pull_requests',
      type: 'tool',
      annotationClass: 'read-only',
      detail: 'declares readOnlyHint: true',
      line: 3,
    },
    { id: 'confirm', type: 'elicitation', annotationClass: 'no-tool', detail: 'elicitation', line: 8 },
    {
      id: 'open',
      tool: 'github.create_issue',
      type: 'tool',
      annotationClass: 'additive',
      detail: 'declares destructiveHint: false',
      line: 12,
    },
    {
      id: 'post',
      tool: 'slack.post',
      type: 'tool',
      annotationClass: 'unknown',
      detail: 'unknown: no catalog',
      line: 16,
    },
  ],
  edges: [
    { from: 'fetch', to: 'confirm' },
    { from: 'confirm', to: 'open' },
    { from: 'fetch', to: 'open' },
    { from: 'open', to: 'post' },
  ],
};

test('layers follow the longest dependsOn path', () => {
  const { nodes } = layout(GRAPH);
  assert.deepEqual(
    nodes.map((n) => `${n.id}:${n.layer}`),
    ['fetch:0', 'confirm:1', 'open:2', 'post:3'],
  );
});

test('a cycle does not hang the layout', () => {
  const cyclic: WorkflowGraph = {
    ...GRAPH,
    edges: [
      { from: 'fetch', to: 'confirm' },
      { from: 'confirm', to: 'fetch' },
    ],
  };
  assert.equal(layout(cyclic).nodes.length, 4);
});

test('the page: strict CSP, nonce on style and script, colours, legend, escaped text', () => {
  const html = graphHtml([GRAPH], 'abc123');
  assert.match(html, /content="default-src 'none'; style-src 'nonce-abc123'; script-src 'nonce-abc123';"/);
  assert.match(html, /<style nonce="abc123">/);
  assert.match(html, /<script nonce="abc123">/);
  assert.equal((html.match(/<script/g) ?? []).length, 1);
  assert.doesNotMatch(html, /https?:\/\/(?!www\.w3\.org\/2000\/svg)/, 'nothing is loaded from the network');
  assert.doesNotMatch(html, / style="/, 'no inline style attributes (the CSP would block them)');
  assert.match(html, new RegExp(`fill="${CLASS_STYLE['read-only'].fill}"`));
  assert.match(html, new RegExp(`fill="${CLASS_STYLE.additive.fill}"`));
  assert.match(html, /release &lt;notes&gt;/);
  for (const style of Object.values(CLASS_STYLE)) assert.ok(html.includes(style.label), `legend: ${style.label}`);
  assert.equal((html.match(/class="edge"/g) ?? []).length, 4);
});

test('the marks: the dropped banner, a badge per mark on its step, the race as a dashed reads edge', () => {
  const marked: WorkflowGraph = {
    workflow: 'copy_readme',
    uri: 'file:///w/gateways/docs.vmcp.yaml',
    dropped: 'Dropped by the gateway: the composite claims readOnlyHint: true, which its steps contradict.',
    nodes: [
      {
        id: 'read',
        tool: 'fs.read',
        type: 'tool',
        annotationClass: 'read-only',
        detail: 'declares readOnlyHint: true',
        line: 3,
      },
      {
        id: 'write',
        tool: 'fs.write',
        type: 'tool',
        annotationClass: 'destructive',
        detail: 'declares destructiveHint: true',
        line: 7,
        marks: [
          { kind: 'breaks-claim', text: "makes the floor's readOnlyHint false" },
          { kind: 'race', text: 'reads .steps.read without waiting for it: a race' },
        ],
      },
      {
        id: 'notify',
        tool: 'fs.nope',
        type: 'tool',
        annotationClass: 'unknown',
        detail: 'unknown: not resolved',
        line: 12,
        marks: [{ kind: 'unknown', text: 'annotations unknown' }],
      },
    ],
    edges: [
      { from: 'write', to: 'notify' },
      { from: 'read', to: 'write', kind: 'reads' },
    ],
  };
  const html = graphHtml([marked], 'n');
  assert.match(html, /<p class="dropped" role="alert">Dropped by the gateway: the composite claims readOnlyHint: true/);
  assert.match(html, /data-marks="breaks-claim race"/);
  assert.match(html, /data-marks="unknown"/);
  assert.match(html, /data-marks=""/, 'an unmarked step');
  for (const kind of ['breaks-claim', 'race', 'unknown'] as const)
    assert.ok(html.includes(`>${MARK_STYLE[kind].badge}</text>`), `the ${kind} badge`);
  assert.equal((html.match(/class="edge"/g) ?? []).length, 1, 'one dependsOn edge');
  assert.equal((html.match(/class="edge reads"/g) ?? []).length, 1, 'one reads edge');
  assert.match(html, /write reads \.steps\.read without waiting for it/);
  // "read" and "write" share a layer (no dependsOn between them): the reads edge joins their facing sides.
  const { nodes } = layout(marked);
  assert.equal(nodes.find((n) => n.id === 'read')!.layer, nodes.find((n) => n.id === 'write')!.layer);
  // The page without marks has no banner.
  assert.doesNotMatch(graphHtml([GRAPH], 'n'), /class="dropped"/);
});

test('the tab names the composite and the file', () => {
  assert.equal(graphTitle([GRAPH], { path: '/w/gateways/docs.vmcp.yaml' }), 'Graph: release <notes> · docs.vmcp.yaml');
  assert.equal(graphTitle([GRAPH, GRAPH], { path: '/w/a.yaml' }), 'Graph: 2 composites · a.yaml');
  assert.equal(graphTitle([], { path: '/w/a.yaml' }), 'Graph: no composite tools · a.yaml');
});

test("the page keeps what it shows as the webview's state, so a reloaded window shows it again", () => {
  const state = {
    uri: 'file:///w/a</script>.yaml',
    position: { line: 4, character: 2 },
    workflows: ['release <notes>'],
  };
  const html = graphHtml([GRAPH], 'n', state);
  const saved = /vscode\.setState\((.*)\);/.exec(html)?.[1];
  assert.ok(saved, 'the script saves the state');
  assert.doesNotMatch(saved, /</, 'no `<` that could close the script');
  assert.deepEqual(JSON.parse(saved), state);
  assert.ok(isGraphPanelState(JSON.parse(saved)));
  assert.doesNotMatch(graphHtml([GRAPH], 'n'), /setState/, 'no state, nothing saved');
  for (const bad of [
    null,
    'x',
    { uri: 1, workflows: [] },
    { uri: 'u' },
    { uri: 'u', workflows: [1] },
    { uri: 'u', workflows: [], position: { line: 'a' } },
  ])
    assert.equal(isGraphPanelState(bad), false, JSON.stringify(bad));
});

test('after a change the panel shows the same composites by name, or asks again when none is left', () => {
  const other: WorkflowGraph = { ...GRAPH, workflow: 'other' };
  const renamed: WorkflowGraph = { ...GRAPH, workflow: 'renamed' };
  assert.deepEqual(sameComposites([other, GRAPH], ['release <notes>']), [GRAPH]);
  assert.deepEqual(sameComposites([GRAPH, other], ['other', 'release <notes>']), [GRAPH, other]);
  assert.equal(sameComposites([renamed, other], ['release <notes>']), undefined);
  assert.equal(sameComposites([], ['release <notes>']), undefined);
});
