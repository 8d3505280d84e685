// The workflow graph as an SVG inside a webview page: steps in layers by `dependsOn` (a step sits
// one layer below the deepest step it waits for), coloured by what their tools' annotations say,
// and marked where something is wrong: a banner when the gateway drops the composite (its hints
// contradict the floor), a badge on each step that breaks the claim, reads a step it does not wait
// for (and a dashed `reads` edge for that race), or has unknown annotations.
// Pure functions, no `vscode` import, so they are unit-tested directly.
import type {
  AnnotationClass,
  WorkflowGraph,
  WorkflowGraphMark,
  WorkflowGraphNode,
} from '../../server/src/lsp/protocol.js';

export const CLASS_STYLE: Record<AnnotationClass, { fill: string; label: string }> = {
  'read-only': { fill: '#2e7d32', label: 'read-only (readOnlyHint: true)' },
  additive: { fill: '#1565c0', label: 'additive (destructiveHint: false)' },
  destructive: { fill: '#c62828', label: 'destructive (destructiveHint true or omitted)' },
  unknown: { fill: '#8d6e00', label: 'unknown (no catalog, unresolved, or no annotations)' },
  'no-tool': { fill: '#546e7a', label: 'no tool (elicitation)' },
};

/** The badge of each mark, and what the legend says of it. */
export const MARK_STYLE: Record<WorkflowGraphMark['kind'], { badge: string; fill: string; label: string }> = {
  'breaks-claim': { badge: 'breaks claim', fill: '#b71c1c', label: "breaks the composite's claimed hints" },
  race: { badge: 'race', fill: '#e65100', label: 'reads a step it does not wait for (dashed edge)' },
  unknown: { badge: 'unknown', fill: '#6d4c41', label: 'annotations unknown: the floor assumes the worst' },
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
    // A race's reads edge is no dependency: the layers are what `dependsOn` says.
    if (edge.kind === 'reads' || !byId.has(edge.from) || !byId.has(edge.to) || edge.from === edge.to) continue;
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
    row.forEach((node, i) =>
      placed.push({ ...node, layer, x: left + i * (NODE_WIDTH + GAP_X), y: MARGIN + layer * (NODE_HEIGHT + GAP_Y) }),
    );
  }
  const layers = Math.max(1, rows.size);
  return { nodes: placed, width, height: MARGIN * 2 + layers * NODE_HEIGHT + (layers - 1) * GAP_Y };
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
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
    '<path d="M 0 0 L 10 5 L 0 10 z" class="edge-head"/></marker>',
    '<marker id="arrow-reads" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">',
    '<path d="M 0 0 L 10 5 L 0 10 z" class="reads-head"/></marker></defs>',
  );
  for (const edge of graph.edges) {
    const from = at.get(edge.from);
    const to = at.get(edge.to);
    if (!from || !to || from === to) continue;
    if (edge.kind === 'reads') {
      parts.push(readsEdge(from, to));
      continue;
    }
    const x1 = from.x + NODE_WIDTH / 2;
    const y1 = from.y + NODE_HEIGHT;
    const x2 = to.x + NODE_WIDTH / 2;
    const y2 = to.y;
    const middle = (y1 + y2) / 2;
    parts.push(
      `<path class="edge" d="M ${x1} ${y1} C ${x1} ${middle}, ${x2} ${middle}, ${x2} ${y2}" marker-end="url(#arrow)"/>`,
    );
  }
  for (const node of nodes) {
    const style = CLASS_STYLE[node.annotationClass];
    const marks = node.marks ?? [];
    const title = [
      `${node.id}${node.tool ? ` → ${node.tool}` : ''}`,
      node.detail,
      ...marks.map((m) => `${MARK_STYLE[m.kind].badge}: ${m.text}`),
    ].join('\n');
    parts.push(
      `<g class="node${marks.length ? ' marked' : ''}" data-line="${node.line}" data-marks="${escapeXml(marks.map((m) => m.kind).join(' '))}" tabindex="0">`,
      `<title>${escapeXml(title)}</title>`,
      `<rect x="${node.x}" y="${node.y}" width="${NODE_WIDTH}" height="${NODE_HEIGHT}" rx="6" fill="${style.fill}"/>`,
      `<text x="${node.x + 10}" y="${node.y + 19}" class="id">${escapeXml(clip(node.id, 26))}</text>`,
      `<text x="${node.x + 10}" y="${node.y + 36}" class="tool">${escapeXml(clip(node.tool ?? node.type, 30))}</text>`,
      ...badges(node, marks),
      '</g>',
    );
  }
  parts.push('</svg>');
  return parts.join('\n');
}

/** The badges of a step's marks, in a row on its top edge, from the right. */
function badges(node: PlacedNode, marks: readonly WorkflowGraphMark[]): string[] {
  const out: string[] = [];
  let right = node.x + NODE_WIDTH - 6;
  for (const kind of [...new Set(marks.map((m) => m.kind))]) {
    const style = MARK_STYLE[kind];
    const width = style.badge.length * 6.5 + 12;
    right -= width;
    out.push(
      `<rect class="badge" x="${right}" y="${node.y - 9}" width="${width}" height="16" rx="8" fill="${style.fill}"/>`,
      `<text class="badge-text" x="${right + width / 2}" y="${node.y + 3}" text-anchor="middle">${escapeXml(style.badge)}</text>`,
    );
    right -= 4;
  }
  return out;
}

/** A race: a dashed edge from the step read to the step reading it, between facing sides when they share a layer. */
function readsEdge(from: PlacedNode, to: PlacedNode): string {
  let d: string;
  if (from.layer === to.layer) {
    const leftToRight = from.x < to.x;
    const x1 = leftToRight ? from.x + NODE_WIDTH : from.x;
    const x2 = leftToRight ? to.x : to.x + NODE_WIDTH;
    const y = from.y + NODE_HEIGHT / 2;
    const bend = leftToRight ? 18 : -18;
    d = `M ${x1} ${y} C ${x1 + bend} ${y - 22}, ${x2 - bend} ${y - 22}, ${x2} ${y}`;
  } else {
    const down = from.y < to.y;
    const x1 = from.x + NODE_WIDTH / 2 + 24;
    const x2 = to.x + NODE_WIDTH / 2 + 24;
    const y1 = down ? from.y + NODE_HEIGHT : from.y;
    const y2 = down ? to.y : to.y + NODE_HEIGHT;
    const middle = (y1 + y2) / 2;
    d = `M ${x1} ${y1} C ${x1} ${middle}, ${x2} ${middle}, ${x2} ${y2}`;
  }
  return `<path class="edge reads" d="${d}" marker-end="url(#arrow-reads)"><title>${escapeXml(`${to.id} reads .steps.${from.id} without waiting for it`)}</title></path>`;
}

function legendHtml(): string {
  const swatch = (fill: string) =>
    `<svg width="14" height="14" aria-hidden="true"><rect width="14" height="14" rx="3" fill="${fill}"/></svg>`;
  const items = (Object.keys(CLASS_STYLE) as AnnotationClass[]).map((key) => {
    const style = CLASS_STYLE[key];
    return `<li>${swatch(style.fill)} ${escapeXml(style.label)}</li>`;
  });
  const marks = (Object.keys(MARK_STYLE) as WorkflowGraphMark['kind'][]).map((key) => {
    const style = MARK_STYLE[key];
    return `<li><span class="legend-badge badge-${key}">${escapeXml(style.badge)}</span> ${escapeXml(style.label)}</li>`;
  });
  return `<ul class="legend">${items.join('')}</ul><ul class="legend">${marks.join('')}</ul>`;
}

/** The panel's tab: `Graph: publish_readme · docs.vmcp.yaml`, or `Graph: 3 composites · …` for a file of several. */
export function graphTitle(graphs: readonly WorkflowGraph[], uri: { path: string }): string {
  const file = uri.path.slice(uri.path.lastIndexOf('/') + 1) || uri.path;
  const what =
    graphs.length === 1
      ? graphs[0]!.workflow
      : graphs.length === 0
        ? 'no composite tools'
        : `${graphs.length} composites`;
  return `Graph: ${what} · ${file}`;
}

/**
 * What a graph panel shows: the file, the cursor it was asked from, and its composites by name.
 * The page keeps it as the webview's state, so a reloaded window asks for the same graphs again.
 */
export interface GraphPanelState {
  uri: string;
  position?: { line: number; character: number };
  workflows: string[];
}

/** Whether a webview's saved state is a graph panel's (it is the page's, so it is checked). */
export function isGraphPanelState(value: unknown): value is GraphPanelState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  const position = state.position as Record<string, unknown> | undefined;
  return (
    typeof state.uri === 'string' &&
    Array.isArray(state.workflows) &&
    state.workflows.every((w) => typeof w === 'string') &&
    (position === undefined ||
      (typeof position === 'object' &&
        position !== null &&
        typeof position.line === 'number' &&
        typeof position.character === 'number'))
  );
}

/**
 * The graphs a panel shows after its file or its findings changed: the composites it showed, by
 * name, as the file has them now; undefined when none of them is left (renamed or removed), and
 * the panel asks again from where it was opened.
 */
export function sameComposites(all: readonly WorkflowGraph[], shown: readonly string[]): WorkflowGraph[] | undefined {
  const kept = all.filter((g) => shown.includes(g.workflow));
  return kept.length ? kept : undefined;
}

/** JSON that is safe inside a `<script>` element: no `<` that could close it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * The whole webview page. The Content Security Policy allows nothing but our own nonce'd style
 * and script: no network, no other inline code. `state`, when given, is kept as the webview's state.
 */
export function graphHtml(graphs: WorkflowGraph[], nonce: string, state?: GraphPanelState): string {
  const sections = graphs.length
    ? graphs
        .map((g) => {
          const dropped = g.dropped ? `<p class="dropped" role="alert">${escapeXml(g.dropped)}</p>` : '';
          return `<section class="${g.dropped ? 'workflow dropped-workflow' : 'workflow'}"><h2>${escapeXml(g.workflow)}</h2>${dropped}${g.nodes.length ? graphSvg(g) : '<p>No steps.</p>'}</section>`;
        })
        .join('\n')
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
  .node.marked rect:first-of-type { stroke: #ffb300; stroke-width: 2.5; }
  .node .badge-text, .legend-badge { fill: #ffffff; color: #ffffff; font-family: var(--vscode-font-family); font-size: 10px; font-weight: bold; }
  .edge.reads { stroke: ${MARK_STYLE.race.fill}; stroke-opacity: 1; stroke-width: 2; stroke-dasharray: 6 4; }
  .reads-head { fill: ${MARK_STYLE.race.fill}; }
  .legend-badge { border-radius: 8px; padding: 1px 7px; }
${(Object.keys(MARK_STYLE) as WorkflowGraphMark['kind'][]).map((key) => `  .badge-${key} { background: ${MARK_STYLE[key].fill}; }`).join('\n')}
  .dropped { border-left: 4px solid ${MARK_STYLE['breaks-claim'].fill}; padding: 6px 10px; margin: 0 0 10px; background: rgba(183, 28, 28, 0.12); }
</style>
</head>
<body>
${legendHtml()}
${sections}
<script nonce="${nonce}">
  const vscode = acquireVsCodeApi();${state ? `\n  vscode.setState(${scriptJson(state)});` : ''}
  for (const node of document.querySelectorAll('.node')) {
    const reveal = () => vscode.postMessage({ type: 'reveal', line: Number(node.getAttribute('data-line')) });
    node.addEventListener('click', reveal);
    node.addEventListener('keydown', (event) => { if (event.key === 'Enter') reveal(); });
  }
</script>
</body>
</html>`;
}
