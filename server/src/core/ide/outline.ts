// The outline of a file: composite tools and their steps; faces under their server; catalog
// servers with their tools and dynamic namespaces. Each item with its whole span and the span of
// its name (inside the whole one); lsp/symbols.ts says it as document symbols.
import { documentContext } from '../context.js';
import { serverNameFromFile } from '../catalog/load.js';
import { facesOf } from '../model/faces.js';
import { workflowsOf, type StepModel } from '../model/workflow.js';
import type { ParsedFile } from '../parse/file.js';
import { getScalar, getSeq, getString, isMap, type MapNode, type Node } from '../parse/nodes.js';
import { WORKFLOW_KINDS } from '../types.js';
import type { Span } from '../types.js';
import type { Workspace } from '../workspace.js';

/** The outline stops here, as big generated catalogs would otherwise make it useless and slow. */
const MAX_SYMBOLS = 5000;

/** What an outline item is, as the editor's icons tell them apart. */
export type OutlineKind = 'function' | 'method' | 'event' | 'object' | 'module' | 'namespace';

export interface OutlineItem {
  name: string;
  kind: OutlineKind;
  /** The whole item. */
  span: Span;
  /** Its name, inside `span` (the start of `span` when it has none there). */
  selection: Span;
  detail?: string;
  children?: OutlineItem[];
}

/** The outline of a file, at most MAX_SYMBOLS items in all. */
export function outlineOf(file: ParsedFile, workspace: Workspace): OutlineItem[] {
  if (!file.kind) return [];
  const budget = { left: MAX_SYMBOLS };
  const out: OutlineItem[] = [];
  for (const doc of file.documents) {
    if (!doc.kind) continue;
    const ctx = documentContext(file, doc, workspace);
    if (WORKFLOW_KINDS.includes(doc.kind)) {
      for (const workflow of workflowsOf(ctx).workflows) {
        const children = workflow.steps
          .map((step) => stepSymbol(step, budget))
          .filter((s): s is OutlineItem => s !== undefined);
        const symbol = make(
          workflow.nameText || '(unnamed composite tool)',
          'function',
          workflow.node.span,
          workflow.name?.span,
          budget,
          {
            detail: `${workflow.steps.length} step${workflow.steps.length === 1 ? '' : 's'}`,
            children,
          },
        );
        if (symbol) out.push(symbol);
      }
    } else if (doc.kind === 'face-overlay' || doc.kind === 'mcp-servers') {
      for (const server of facesOf(ctx).servers) {
        if (!server.toolFaces) continue;
        const faces = server.faces
          .map((face) =>
            make(face.toolName, 'object', face.pair.span, face.key.span, budget, { detail: face.family?.value }),
          )
          .filter((s): s is OutlineItem => s !== undefined);
        const range = server.entry?.span ?? server.toolFaces.span;
        const symbol = make(
          server.name ?? '(no server)',
          'module',
          range,
          server.nameNode?.span ?? server.toolFacesPair?.key.span,
          budget,
          {
            detail: `${server.faces.length} face${server.faces.length === 1 ? '' : 's'}`,
            children: faces,
          },
        );
        if (symbol) out.push(symbol);
      }
    } else if (doc.kind === 'tool-catalog' && isMap(doc.root)) {
      if (getScalar(doc.root, 'catalog')?.value === 1) {
        for (const item of getSeq(doc.root, 'servers')?.items ?? []) {
          if (!isMap(item)) continue;
          const symbol = serverSymbol(
            getString(item, 'name') ?? '(unnamed server)',
            item,
            getScalar(item, 'name')?.span,
            budget,
          );
          if (symbol) out.push(symbol);
        }
      } else if (getSeq(doc.root, 'tools')) {
        const name = getString(doc.root, 'server') ?? serverNameFromFile(file.path);
        const symbol = serverSymbol(name, doc.root, getScalar(doc.root, 'server')?.span, budget);
        if (symbol) out.push(symbol);
      }
    }
  }
  return out;
}

function stepSymbol(step: StepModel, budget: { left: number }): OutlineItem | undefined {
  const children = step.inner ? [stepSymbol(step.inner, budget)].filter((s): s is OutlineItem => s !== undefined) : [];
  const detail =
    step.type === 'elicitation'
      ? 'elicitation'
      : step.type === 'forEach'
        ? `forEach ${step.inner?.toolText ?? ''}`.trim()
        : (step.toolText ?? step.type);
  return make(
    step.idText || `step ${step.index + 1}`,
    step.type === 'elicitation' ? 'event' : 'method',
    step.node.span,
    step.id?.span,
    budget,
    {
      detail,
      children,
    },
  );
}

function serverSymbol(
  name: string,
  node: MapNode,
  nameSpan: Span | undefined,
  budget: { left: number },
): OutlineItem | undefined {
  const children: OutlineItem[] = [...toolSymbols(getSeq(node, 'tools')?.items ?? [], budget)];
  for (const ns of getSeq(node, 'namespaces')?.items ?? []) {
    if (!isMap(ns)) continue;
    const symbol = make(
      getString(ns, 'name') ?? '(unnamed namespace)',
      'namespace',
      ns.span,
      getScalar(ns, 'name')?.span,
      budget,
      {
        detail: `dynamic namespace${getString(ns, 'status') && getString(ns, 'status') !== 'ready' ? ` (${getString(ns, 'status')})` : ''}`,
        children: toolSymbols(getSeq(ns, 'tools')?.items ?? [], budget),
      },
    );
    if (symbol) children.push(symbol);
  }
  return make(name, 'module', node.span, nameSpan, budget, { detail: `${children.length} entries`, children });
}

function toolSymbols(items: Node[], budget: { left: number }): OutlineItem[] {
  const out: OutlineItem[] = [];
  for (const item of items) {
    if (!isMap(item)) continue;
    const symbol = make(
      getString(item, 'name') ?? '(unnamed tool)',
      'function',
      item.span,
      getScalar(item, 'name')?.span,
      budget,
      {
        detail: getString(item, 'title'),
      },
    );
    if (symbol) out.push(symbol);
  }
  return out;
}

function make(
  name: string,
  kind: OutlineKind,
  span: Span,
  selection: Span | undefined,
  budget: { left: number },
  extra: { detail?: string; children?: OutlineItem[] },
): OutlineItem | undefined {
  if (budget.left <= 0) return undefined;
  budget.left--;
  // The selection must lie inside the item.
  const inside =
    selection && selection.start >= span.start && selection.end <= span.end
      ? selection
      : { start: span.start, end: span.start };
  return {
    name: name || ' ',
    kind,
    span,
    selection: inside,
    ...(extra.detail ? { detail: extra.detail } : {}),
    ...(extra.children ? { children: extra.children } : {}),
  };
}
