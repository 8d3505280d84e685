// The workflow graph as an SVG inside a webview page: steps in layers by `dependsOn` (a step sits
// one layer below the deepest step it waits for), coloured by what their tools' annotations say.
// Pure functions, no `vscode` import, so they are unit-tested directly.
import type { AnnotationClass, WorkflowGraph, WorkflowGraphNode } from '../../server/src/lsp/protocol.js';

export const CLASS_STYLE: Record<AnnotationClass, { fill: string; label: string }> = {
  'read-only': { fill: '#2e7d32', label: 'read-only (readOnlyHint: true)' },
  additive: { fill: '#1565c0', label: 'additive (destructiveHint: false)' },
  destructive: { fill: '#c62828', label: 'destructive (destructiveHint true or omitted)' },
  unknown: { fill: '#8d6e00', label: 'unknown (no catalog, unresolved, or no annotations)' },
  'no-tool': { fill: '#546e7a', label: 'no tool (elicitation)' },
};

const NODE_WIDTH = 200;
const NODE_HEIGHT = 46;
const GAP_X = 36;
const GAP_Y = 56;
const MARGIN = 24;

export interface PlacedNode extends WorkflowGraphNode {
  x: number;
  y: number;
  layer: number;
}

/** Layers by longest path from the steps that wait for nothing; cycles are cut, not followed. */
export function layout(graph: WorkflowGraph): { nodes: PlacedNode[]; width: number; height: number } {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const waitsFor = new Map<string, string[]>();
  for (const edge of graph.edges) {
    if (!byId.has(edge.from) || !byId.has(edge.to) || edge.from === edge.to) continue;
    const list = waitsFor.get(edge.to) ?? [];
    list.push(edge.from);
    waitsFor.set(edge.to, list);
  }
  const layerOf = new Map<string, number>();
  const visiting = new Set<string>();
  const depth = (id: string): number => {
    const known = layerOf.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0; // a cycle: the cycle rule reports it; draw it flat
    visiting.add(id);
    let layer = 0;
    for (const dependency of waitsFor.get(id) ?? []) layer = Math.max(layer, depth(dependency) + 1);
    visiting.delete(id);
    layerOf.set(id, layer);
    return layer;
  };
  const rows = new Map<number, WorkflowGraphNode[]>();
  for (const node of graph.nodes) {
    const layer = depth(node.id);
    const row = rows.get(layer) ?? [];
    row.push(node);
    rows.set(layer, row);
  }
  const widest = Math.max(1, ...[...rows.values()].map((r) => r.length));
  const width = MARGIN * 2 + widest * NODE_WIDTH + (widest - 1) * GAP_X;
  const placed: PlacedNode[] = [];
  for (const [layer, row] of [...rows].sort((a, b) => a[0] - b[0])) {
    const rowWidth = row.length * NODE_WIDTH + (row.length - 1) * GAP_X;
    const left = (width - rowWidth) / 2;
    row.forEach((node, i) => placed.push({ ...node, layer, x: left + i * (NODE_WIDTH + GAP_X), y: MARGIN + layer * (NODE_HEIGHT + GAP_Y) }));
  }
  const layers = Math.max(1, rows.size);
  return { nodes: placed, width, height: MARGIN * 2 + layers * NODE_HEIGHT + (layers - 1) * GAP_Y };
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function graphSvg(graph: WorkflowGraph): string {
  const { nodes, width, height } = layout(graph);
  const at = new Map(nodes.map((n) => [n.id, n]));
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(`Steps of ${graph.workflow}`)}">`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">',
    '<path d="M 0 0 L 10 5 L 0 10 z" class="edge-head"/></marker></defs>',
  );
  for (const edge of graph.edges) {
    const from = at.get(edge.from);
    const to = at.get(edge.to);
    if (!from || !to || from === to) continue;
    const x1 = from.x + NODE_WIDTH / 2;
    const y1 = from.y + NODE_HEIGHT;
    const x2 = to.x + NODE_WIDTH / 2;
    const y2 = to.y;
    const middle = (y1 + y2) / 2;
    parts.push(`<path class="edge" d="M ${x1} ${y1} C ${x1} ${middle}, ${x2} ${middle}, ${x2} ${y2}" marker-end="url(#arrow)"/>`);
  }
  for (const node of nodes) {
    const style = CLASS_STYLE[node.annotationClass];
    const title = `${node.id}${node.tool ? ` → ${node.tool}` : ''}\n${node.detail}`;
    parts.push(
      `<g class="node" data-line="${node.line}" tabindex="0">`,
      `<title>${escapeXml(title)}</title>`,
      `<rect x="${node.x}" y="${node.y}" width="${NODE_WIDTH}" height="${NODE_HEIGHT}" rx="6" fill="${style.fill}"/>`,
      `<text x="${node.x + 10}" y="${node.y + 19}" class="id">${escapeXml(clip(node.id, 26))}</text>`,
      `<text x="${node.x + 10}" y="${node.y + 36}" class="tool">${escapeXml(clip(node.tool ?? node.type, 30))}</text>`,
      '</g>',
    );
  }
  parts.push('</svg>');
  return parts.join('\n');
}

function legendHtml(): string {
  const items = (Object.keys(CLASS_STYLE) as AnnotationClass[]).map((key) => {
    const style = CLASS_STYLE[key];
    return `<li><svg width="14" height="14" aria-hidden="true"><rect width="14" height="14" rx="3" fill="${style.fill}"/></svg> ${escapeXml(style.label)}</li>`;
  });
  return `<ul class="legend">${items.join('')}</ul>`;
}

/**
 * The whole webview page. The Content Security Policy allows nothing but our own nonce'd style
 * and script: no network, no other inline code.
 */
export function graphHtml(graphs: WorkflowGraph[], nonce: string): string {
  const sections = graphs.length
    ? graphs.map((g) => `<section><h2>${escapeXml(g.workflow)}</h2>${g.nodes.length ? graphSvg(g) : '<p>No steps.</p>'}</section>`).join('\n')
    : '<p>This document has no composite tools.</p>';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Workflow graph</title>
<style nonce="${nonce}">
  body { color: var(--vscode-foreground); font-family: var(--vscode-font-family); padding: 0 16px 16px; }
  h2 { font-size: 1.1em; margin: 16px 0 8px; }
  .legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 6px 18px; }
  .legend li { display: flex; align-items: center; gap: 6px; }
  .edge { fill: none; stroke: var(--vscode-foreground); stroke-opacity: 0.6; stroke-width: 1.5; }
  .edge-head { fill: var(--vscode-foreground); fill-opacity: 0.6; }
  .node { cursor: pointer; }
  .node:focus rect, .node:hover rect { stroke: var(--vscode-focusBorder); stroke-width: 3; }
  .node text { fill: #ffffff; font-family: var(--vscode-editor-font-family); }
  .node .id { font-weight: bold; font-size: 13px; }
  .node .tool { font-size: 11px; }
</style>
</head>
<body>
${legendHtml()}
${sections}
<script nonce="${nonce}">
  const vscode = acquireVsCodeApi();
  for (const node of document.querySelectorAll('.node')) {
    const reveal = () => vscode.postMessage({ type: 'reveal', line: Number(node.getAttribute('data-line')) });
    node.addEventListener('click', reveal);
    node.addEventListener('keydown', (event) => { if (event.key === 'Enter') reveal(); });
  }
</script>
</body>
</html>`;
}
