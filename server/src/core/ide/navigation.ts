// Navigation over the core's data: what the cursor names (a step id in `id`, `dependsOn` or a
// template's `.steps.X`; a workflow parameter, declared or read as `.params.X`; a step's tool
// reference, a face key, or a tool's own `name` in a catalog: the catalog tool), where it is
// declared, and where it is referred to (a step and a parameter in their workflow; a catalog tool
// in every step that resolves to it and every face for it). lsp/definition.ts and
// lsp/references.ts turn the places into locations.
import type { CatalogTool } from '../catalog/model.js';
import { documentContext, type DocumentContext } from '../context.js';
import { faceTargetOf, facesOf } from '../model/faces.js';
import { templatesOf } from '../model/templates.js';
import { workflowsOf, type StepModel, type WorkflowModel } from '../model/workflow.js';
import type { ParsedFile } from '../parse/file.js';
import { getMap, getPair } from '../parse/nodes.js';
import { WORKFLOW_KINDS } from '../types.js';
import type { Span } from '../types.js';
import type { Workspace } from '../workspace.js';
import { contextOf, locate, relativePath, samePath, workflowAt } from './cursor.js';
import { catalogToolOf, resolveStepTool, sameDeclaration } from './tools.js';

export type SymbolAt =
  | { kind: 'step'; ctx: DocumentContext; workflow: WorkflowModel; id: string; span: Span }
  | { kind: 'param'; ctx: DocumentContext; workflow: WorkflowModel; name: string; span: Span }
  | { kind: 'tool'; tool: CatalogTool; span: Span };

const within = (offset: number, span: Span) => offset >= span.start && offset <= span.end;

/** What the cursor names: a step, a workflow parameter, or a catalog tool. */
export function symbolAt(file: ParsedFile, workspace: Workspace, offset: number): SymbolAt | undefined {
  const located = locate(file, offset);
  if (!located?.doc.kind) return undefined;
  const ctx = contextOf(file, located.doc, workspace);
  const target = located.target;
  const kind = located.doc.kind;

  if (WORKFLOW_KINDS.includes(kind)) {
    const { workflow, step } = workflowAt(ctx, located.path);
    if (!workflow) return undefined;
    if (target.kind === 'value') {
      const node = target.node;
      if (step) {
        const rel = relativePath(located.path, step.path);
        if (samePath(rel, ['id']) && node.value !== null)
          return { kind: 'step', ctx, workflow, id: String(node.value), span: node.span };
        if (rel[0] === 'dependsOn' && rel.length === 2 && node.value !== null)
          return { kind: 'step', ctx, workflow, id: String(node.value), span: node.span };
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
        if (reference.root === 'params')
          return { kind: 'param', ctx, workflow, name: segment.name, span: segment.span };
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
    for (const name of workspace.catalog.serverNames) {
      const server = workspace.catalog.server(name);
      for (const tool of [...(server?.tools ?? []), ...(server?.namespaces ?? []).flatMap((n) => n.tools)]) {
        if (tool.origin.file === file.path && tool.origin.span.start === target.node.span.start)
          return { kind: 'tool', tool, span: target.node.span };
      }
    }
  }
  return undefined;
}

/** A place in the workspace: a file by its core path, and a span of it. */
export interface Place {
  file: string;
  span: Span;
}

/** Where a symbol is declared: a step's `id`, a parameter's key, a catalog tool's entry. */
export function declarationOf(symbol: SymbolAt): Place | undefined {
  switch (symbol.kind) {
    case 'step': {
      const step: StepModel | undefined = symbol.workflow.byId.get(symbol.id);
      return step?.id ? { file: symbol.ctx.file.path, span: step.id.span } : undefined;
    }
    case 'param': {
      const pair = getPair(getMap(symbol.workflow.parameters, 'properties'), symbol.name);
      return pair ? { file: symbol.ctx.file.path, span: pair.key.span } : undefined;
    }
    case 'tool':
      return { file: symbol.tool.origin.file, span: symbol.tool.origin.span };
  }
}

/** Where a step or a parameter is referred to in its workflow, in its file (`symbol.ctx.file`), the declaration left out. */
export function localReferences(symbol: Exclude<SymbolAt, { kind: 'tool' }>): Span[] {
  const { ctx, workflow } = symbol;
  const out: Span[] = [];
  if (symbol.kind === 'step') {
    const steps: StepModel[] = workflow.steps.flatMap((s) => (s.inner ? [s, s.inner] : [s]));
    for (const step of steps) {
      for (const dependency of step.dependsOn) {
        if (String(dependency.value) === symbol.id) out.push(dependency.span);
      }
    }
  }
  const root = symbol.kind === 'step' ? 'steps' : 'params';
  const name = symbol.kind === 'step' ? symbol.id : symbol.name;
  for (const template of templatesOf(ctx).strings) {
    if (template.workflow !== workflow) continue;
    for (const reference of template.references) {
      const segment = reference.segments[1];
      if (reference.root === root && segment?.name === name) out.push(segment.span);
    }
  }
  return out;
}

/** Every step and face of a file that names this catalog tool. */
export function toolReferencesIn(file: ParsedFile, workspace: Workspace, tool: CatalogTool): Span[] {
  const out: Span[] = [];
  for (const doc of file.documents) {
    if (!doc.kind) continue;
    const ctx = documentContext(file, doc, workspace);
    if (WORKFLOW_KINDS.includes(doc.kind)) {
      for (const workflow of workflowsOf(ctx).workflows) {
        for (const step of workflow.steps.flatMap((s) => (s.inner ? [s, s.inner] : [s]))) {
          if (!step.tool) continue;
          const resolved = catalogToolOf(resolveStepTool(ctx, step));
          if (resolved && sameDeclaration(resolved, tool)) out.push(step.tool.span);
        }
      }
    } else if (doc.kind === 'face-overlay' || doc.kind === 'mcp-servers') {
      for (const server of facesOf(ctx).servers) {
        for (const face of server.faces) {
          const target = faceTargetOf(ctx, server, face);
          if (target.state === 'listed' && sameDeclaration(target.tool, tool)) out.push(face.key.span);
        }
      }
    }
  }
  return out;
}
