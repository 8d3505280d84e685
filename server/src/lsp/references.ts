// Find references (core/ide/navigation.ts) as LSP locations: a step or a parameter in its
// workflow's file; a catalog tool in every checked file of the workspace, until the client cancels.
import type { CancellationToken, Location, ReferenceParams } from 'vscode-languageserver';
import { localReferences, symbolAt, toolReferencesIn } from '../core/ide/navigation.js';
import { toRange } from './convert.js';
import { declarationLocation } from './definition.js';
import type { Session } from './session.js';

export function references(session: Session, params: ReferenceParams, token: CancellationToken): Location[] {
  const file = session.fileOfUri(params.textDocument.uri);
  if (!file?.kind) return [];
  const symbol = symbolAt(file, session.workspace, file.source.offsetAt(params.position));
  if (!symbol) return [];
  const out: Location[] = [];
  if (params.context.includeDeclaration) {
    const declaration = declarationLocation(session, symbol);
    if (declaration) out.push(declaration);
  }
  if (symbol.kind !== 'tool') {
    const uri = session.uriOf(symbol.ctx.file.path);
    for (const span of localReferences(symbol)) out.push({ uri, range: toRange(symbol.ctx.file.source, span) });
    return out;
  }
  for (const entry of session.checkedEntries()) {
    if (token.isCancellationRequested) break;
    const checked = session.fileOf(entry);
    if (!checked?.kind) continue;
    for (const span of toolReferencesIn(checked, session.workspace, symbol.tool))
      out.push({ uri: entry.uri, range: toRange(checked.source, span) });
  }
  return out;
}
