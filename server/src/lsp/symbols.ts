// Document symbols (the outline): composite tools and their steps; faces under their server;
// catalog servers with their tools and dynamic namespaces.
import { SymbolKind, type DocumentSymbol, type DocumentSymbolParams } from 'vscode-languageserver';
import { documentContext } from '../core/context.js';
import { serverNameFromFile } from '../core/catalog/load.js';
import { facesOf } from '../core/model/faces.js';
import { workflowsOf, type StepModel } from '../core/model/workflow.js';
import type { ParsedFile } from '../core/parse/file.js';
import { getScalar, getSeq, getString, isMap, type MapNode, type Node } from '../core/parse/nodes.js';
import { WORKFLOW_KINDS } from '../core/types.js';
import type { Span } from '../core/types.js';
import { toRange } from './convert.js';
import type { Session } from './session.js';

/** The outline stops here, as big generated catalogs would otherwise make it useless and slow. */
const MAX_SYMBOLS = 5000;

export function documentSymbols(session: Session, params: DocumentSymbolParams): DocumentSymbol[] {
  const file = session.fileOfUri(params.textDocument.uri);
  if (!file?.kind) return [];
  const budget = { left: MAX_SYMBOLS };
  const out: DocumentSymbol[] = [];
  for (const doc of file.documents) {
    if (!doc.kind) continue;
    const ctx = documentContext(file, doc, session.workspace);
    if (WORKFLOW_KINDS.includes(doc.kind)) {
      for (const workflow of workflowsOf(ctx).workflows) {
        const children = workflow.steps.map((step) => stepSymbol(file, step, budget)).filter((s): s is DocumentSymbol => s !== undefined);
        const symbol = make(file, workflow.nameText || '(unnamed composite tool)', SymbolKind.Function, workflow.node.span, workflow.name?.span, budget, {
          detail: `${workflow.steps.length} step${workflow.steps.length === 1 ? '' : 's'}`,
          children,
        });
        if (symbol) out.push(symbol);
      }
    } else if (doc.kind === 'face-overlay' || doc.kind === 'mcp-servers') {
      for (const server of facesOf(ctx).servers) {
        if (!server.toolFaces) continue;
        const faces = server.faces
          .map((face) => make(file, face.toolName, SymbolKind.Object, face.pair.span, face.key.span, budget, { detail: face.family?.value }))
          .filter((s): s is DocumentSymbol => s !== undefined);
        const range = server.entry?.span ?? server.toolFaces.span;
        const symbol = make(file, server.name ?? '(no server)', SymbolKind.Module, range, server.nameNode?.span ?? server.toolFacesPair?.key.span, budget, {
          detail: `${server.faces.length} face${server.faces.length === 1 ? '' : 's'}`,
          children: faces,
        });
        if (symbol) out.push(symbol);
      }
    } else if (doc.kind === 'tool-catalog' && isMap(doc.root)) {
      if (getScalar(doc.root, 'catalog')?.value === 1) {
        for (const item of getSeq(doc.root, 'servers')?.items ?? []) {
          if (!isMap(item)) continue;
          const symbol = serverSymbol(file, getString(item, 'name') ?? '(unnamed server)', item, getScalar(item, 'name')?.span, budget);
          if (symbol) out.push(symbol);
        }
      } else if (getSeq(doc.root, 'tools')) {
        const name = getString(doc.root, 'server') ?? serverNameFromFile(file.path);
        const symbol = serverSymbol(file, name, doc.root, getScalar(doc.root, 'server')?.span, budget);
        if (symbol) out.push(symbol);
      }
    }
  }
  return out;
}

function stepSymbol(file: ParsedFile, step: StepModel, budget: { left: number }): DocumentSymbol | undefined {
  const children = step.inner ? [stepSymbol(file, step.inner, budget)].filter((s): s is DocumentSymbol => s !== undefined) : [];
  const detail = step.type === 'elicitation' ? 'elicitation' : step.type === 'forEach' ? `forEach ${step.inner?.toolText ?? ''}`.trim() : (step.toolText ?? step.type);
  return make(file, step.idText || `step ${step.index + 1}`, step.type === 'elicitation' ? SymbolKind.Event : SymbolKind.Method, step.node.span, step.id?.span, budget, {
    detail,
    children,
  });
}

function serverSymbol(file: ParsedFile, name: string, node: MapNode, nameSpan: Span | undefined, budget: { left: number }): DocumentSymbol | undefined {
  const children: DocumentSymbol[] = [...toolSymbols(file, getSeq(node, 'tools')?.items ?? [], budget)];
  for (const ns of getSeq(node, 'namespaces')?.items ?? []) {
    if (!isMap(ns)) continue;
    const symbol = make(file, getString(ns, 'name') ?? '(unnamed namespace)', SymbolKind.Namespace, ns.span, getScalar(ns, 'name')?.span, budget, {
      detail: `dynamic namespace${getString(ns, 'status') && getString(ns, 'status') !== 'ready' ? ` (${getString(ns, 'status')})` : ''}`,
      children: toolSymbols(file, getSeq(ns, 'tools')?.items ?? [], budget),
    });
    if (symbol) children.push(symbol);
  }
  return make(file, name, SymbolKind.Module, node.span, nameSpan, budget, { detail: `${children.length} entries`, children });
}

function toolSymbols(file: ParsedFile, items: Node[], budget: { left: number }): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  for (const item of items) {
    if (!isMap(item)) continue;
    const symbol = make(file, getString(item, 'name') ?? '(unnamed tool)', SymbolKind.Function, item.span, getScalar(item, 'name')?.span, budget, {
      detail: getString(item, 'title'),
    });
    if (symbol) out.push(symbol);
  }
  return out;
}

function make(
  file: ParsedFile,
  name: string,
  kind: SymbolKind,
  span: Span,
  selection: Span | undefined,
  budget: { left: number },
  extra: { detail?: string; children?: DocumentSymbol[] },
): DocumentSymbol | undefined {
  if (budget.left <= 0) return undefined;
  budget.left--;
  const range = toRange(file.source, span);
  // The selection range must lie inside the range.
  const inside = selection && selection.start >= span.start && selection.end <= span.end ? selection : { start: span.start, end: span.start };
  return {
    name: name || ' ',
    kind,
    range,
    selectionRange: toRange(file.source, inside),
    ...(extra.detail ? { detail: extra.detail } : {}),
    ...(extra.children ? { children: extra.children } : {}),
  };
}
