// Go to definition: a step id in `dependsOn` or in a template (`.steps.X`) → the step's `id`;
// `.params.X` → the parameter's declaration; a step's tool reference → the tool's declaration in
// its catalog file; a face key → the catalog tool it is for. `symbolAt` is shared with references.
import type { DefinitionParams, Location } from 'vscode-languageserver';
import type { CatalogTool } from '../core/catalog/model.js';
import { faceTargetOf, facesOf } from '../core/model/faces.js';
import { templatesOf } from '../core/model/templates.js';
import type { StepModel, WorkflowModel } from '../core/model/workflow.js';
import type { ParsedFile } from '../core/parse/file.js';
import { getMap, getPair } from '../core/parse/nodes.js';
import type { DocumentContext } from '../core/context.js';
import { WORKFLOW_KINDS } from '../core/types.js';
import type { Span } from '../core/types.js';
import { toRange } from './convert.js';
import { contextOf, locate, relativePath, samePath, workflowAt } from './cursor.js';
import type { Session } from './session.js';
import { catalogToolOf, resolveStepTool } from './tools.js';

export type SymbolAt =
  | { kind: 'step'; ctx: DocumentContext; workflow: WorkflowModel; id: string; span: Span }
  | { kind: 'param'; ctx: DocumentContext; workflow: WorkflowModel; name: string; span: Span }
  | { kind: 'tool'; tool: CatalogTool; span: Span };

const within = (offset: number, span: Span) => offset >= span.start && offset <= span.end;

/** What the cursor names: a step, a workflow parameter, or a catalog tool. */
export function symbolAt(session: Session, file: ParsedFile, offset: number): SymbolAt | undefined {
  const located = locate(file, offset);
  if (!located?.doc.kind) return undefined;
  const ctx = contextOf(file, located.doc, session.workspace);
  const target = located.target;
  const kind = located.doc.kind;

  if (WORKFLOW_KINDS.includes(kind)) {
    const { workflow, step } = workflowAt(ctx, located.path);
    if (!workflow) return undefined;
    if (target.kind === 'value') {
      const node = target.node;
      if (step) {
        const rel = relativePath(located.path, step.path);
        if (samePath(rel, ['id']) && node.value !== null) return { kind: 'step', ctx, workflow, id: String(node.value), span: node.span };
        if (rel[0] === 'dependsOn' && rel.length === 2 && node.value !== null) return { kind: 'step', ctx, workflow, id: String(node.value), span: node.span };
        if (samePath(rel, ['tool'])) {
          const tool = catalogToolOf(resolveStepTool(ctx, step));
          return tool ? { kind: 'tool', tool, span: node.span } : undefined;
        }
      }
      const template = templatesOf(ctx).strings.find((s) => s.scalar === node);
      for (const reference of template?.references ?? []) {
        const segment = reference.segments[1];
        if (!segment || !within(offset, segment.span)) continue;
        if (reference.root === 'steps') return { kind: 'step', ctx, workflow, id: segment.name, span: segment.span };
        if (reference.root === 'params') return { kind: 'param', ctx, workflow, name: segment.name, span: segment.span };
      }
      return undefined;
    }
    if (target.kind === 'key' && !step) {
      const rel = relativePath(located.path, workflow.path);
      if (rel.length === 3 && rel[0] === 'parameters' && rel[1] === 'properties') {
        return { kind: 'param', ctx, workflow, name: String(rel[2]), span: target.pair.key.span };
      }
    }
    return undefined;
  }

  if ((kind === 'face-overlay' || kind === 'mcp-servers') && target.kind === 'key') {
    for (const server of facesOf(ctx).servers) {
      const face = server.faces.find((f) => f.pair === target.pair);
      if (!face) continue;
      const faceTarget = faceTargetOf(ctx, server, face);
      return faceTarget.state === 'listed' ? { kind: 'tool', tool: faceTarget.tool, span: face.key.span } : undefined;
    }
    return undefined;
  }

  if (kind === 'tool-catalog' && target.kind === 'value') {
    // A tool's own `name` in the catalog: the declaration itself (for references).
    for (const name of session.workspace.catalog.serverNames) {
      const server = session.workspace.catalog.server(name);
      for (const tool of [...(server?.tools ?? []), ...(server?.namespaces ?? []).flatMap((n) => n.tools)]) {
        if (tool.origin.file === file.path && tool.origin.span.start === target.node.span.start) return { kind: 'tool', tool, span: target.node.span };
      }
    }
  }
  return undefined;
}

/** Where a symbol is declared. */
export function declarationOf(session: Session, symbol: SymbolAt): Location | undefined {
  switch (symbol.kind) {
    case 'step': {
      const step: StepModel | undefined = symbol.workflow.byId.get(symbol.id);
      if (!step?.id) return undefined;
      return { uri: session.uriOf(symbol.ctx.file.path), range: toRange(symbol.ctx.file.source, step.id.span) };
    }
    case 'param': {
      const pair = getPair(getMap(symbol.workflow.parameters, 'properties'), symbol.name);
      if (!pair) return undefined;
      return { uri: session.uriOf(symbol.ctx.file.path), range: toRange(symbol.ctx.file.source, pair.key.span) };
    }
    case 'tool':
      return locationOf(session, symbol.tool.origin.file, symbol.tool.origin.span);
  }
}

function locationOf(session: Session, path: string, span: Span): Location | undefined {
  const entry = session.entries.get(path);
  const file = entry ? session.fileOf(entry) : undefined;
  if (!entry || !file) return undefined;
  return { uri: entry.uri, range: toRange(file.source, span) };
}

export function definition(session: Session, params: DefinitionParams): Location[] {
  const file = session.fileOfUri(params.textDocument.uri);
  if (!file?.kind) return [];
  const symbol = symbolAt(session, file, file.source.offsetAt(params.position));
  if (!symbol) return [];
  const location = declarationOf(session, symbol);
  return location ? [location] : [];
}
