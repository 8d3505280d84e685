// Find references: a step id (its `id`, `dependsOn` entries and `.steps.X` in templates of the
// same workflow), a workflow parameter (`.params.X`), and a catalog tool (every step that
// resolves to it and every face for it, across the workspace).
import type { CancellationToken, Location, ReferenceParams } from 'vscode-languageserver';
import { documentContext } from '../core/context.js';
import { faceTargetOf, facesOf } from '../core/model/faces.js';
import { templatesOf } from '../core/model/templates.js';
import { workflowsOf, type StepModel } from '../core/model/workflow.js';
import { WORKFLOW_KINDS } from '../core/types.js';
import { toRange } from './convert.js';
import { declarationOf, symbolAt, type SymbolAt } from './definition.js';
import type { Session } from './session.js';
import { catalogToolOf, resolveStepTool, sameDeclaration } from './tools.js';

export function references(session: Session, params: ReferenceParams, token: CancellationToken): Location[] {
  const file = session.fileOfUri(params.textDocument.uri);
  if (!file?.kind) return [];
  const symbol = symbolAt(session, file, file.source.offsetAt(params.position));
  if (!symbol) return [];
  const out: Location[] = [];
  if (params.context.includeDeclaration) {
    const declaration = declarationOf(session, symbol);
    if (declaration) out.push(declaration);
  }
  if (symbol.kind === 'tool') out.push(...toolReferences(session, symbol, token));
  else out.push(...localReferences(session, symbol));
  return out;
}

function localReferences(session: Session, symbol: Exclude<SymbolAt, { kind: 'tool' }>): Location[] {
  const { ctx, workflow } = symbol;
  const uri = session.uriOf(ctx.file.path);
  const source = ctx.file.source;
  const out: Location[] = [];
  if (symbol.kind === 'step') {
    const steps: StepModel[] = workflow.steps.flatMap((s) => (s.inner ? [s, s.inner] : [s]));
    for (const step of steps) {
      for (const dependency of step.dependsOn) {
        if (String(dependency.value) === symbol.id) out.push({ uri, range: toRange(source, dependency.span) });
      }
    }
  }
  const root = symbol.kind === 'step' ? 'steps' : 'params';
  const name = symbol.kind === 'step' ? symbol.id : symbol.name;
  for (const template of templatesOf(ctx).strings) {
    if (template.workflow !== workflow) continue;
    for (const reference of template.references) {
      const segment = reference.segments[1];
      if (reference.root === root && segment?.name === name) out.push({ uri, range: toRange(source, segment.span) });
    }
  }
  return out;
}

/** Every step and face in the workspace that names this catalog tool. */
function toolReferences(session: Session, symbol: Extract<SymbolAt, { kind: 'tool' }>, token: CancellationToken): Location[] {
  const out: Location[] = [];
  for (const entry of session.checkedEntries()) {
    if (token.isCancellationRequested) break;
    const file = session.fileOf(entry);
    if (!file?.kind) continue;
    for (const doc of file.documents) {
      if (!doc.kind) continue;
      const ctx = documentContext(file, doc, session.workspace);
      if (WORKFLOW_KINDS.includes(doc.kind)) {
        for (const workflow of workflowsOf(ctx).workflows) {
          for (const step of workflow.steps.flatMap((s) => (s.inner ? [s, s.inner] : [s]))) {
            if (!step.tool) continue;
            const tool = catalogToolOf(resolveStepTool(ctx, step));
            if (tool && sameDeclaration(tool, symbol.tool)) out.push({ uri: entry.uri, range: toRange(file.source, step.tool.span) });
          }
        }
      } else if (doc.kind === 'face-overlay' || doc.kind === 'mcp-servers') {
        for (const server of facesOf(ctx).servers) {
          for (const face of server.faces) {
            const target = faceTargetOf(ctx, server, face);
            if (target.state === 'listed' && sameDeclaration(target.tool, symbol.tool)) {
              out.push({ uri: entry.uri, range: toRange(file.source, face.key.span) });
            }
          }
        }
      }
    }
  }
  return out;
}
