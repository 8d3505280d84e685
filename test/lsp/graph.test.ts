// The workflow graph page (client/src/graph.ts): layers by dependsOn, colours, escaping, and a
// Content Security Policy that allows nothing but the nonce'd style and script.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLASS_STYLE, graphHtml, layout } from '../../client/src/graph.js';
import type { WorkflowGraph } from '../../server/src/lsp/protocol.js';

const GRAPH: WorkflowGraph = {
  workflow: 'release <notes>',
  uri: 'file:///w.yaml',
  nodes: [
    { id: 'fetch', tool: 'github.list_pull_requests', type: 'tool', annotationClass: 'read-only', detail: 'declares readOnlyHint: true', line: 3 },
    { id: 'confirm', type: 'elicitation', annotationClass: 'no-tool', detail: 'elicitation', line: 8 },
    { id: 'open', tool: 'github.create_issue', type: 'tool', annotationClass: 'additive', detail: 'declares destructiveHint: false', line: 12 },
    { id: 'post', tool: 'slack.post', type: 'tool', annotationClass: 'unknown', detail: 'unknown: no catalog', line: 16 },
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
  const cyclic: WorkflowGraph = { ...GRAPH, edges: [{ from: 'fetch', to: 'confirm' }, { from: 'confirm', to: 'fetch' }] };
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
