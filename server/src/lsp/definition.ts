// Go to definition: what the cursor names and where it is declared (core/ide/navigation.ts) as an
// LSP location. `declarationLocation` is shared with references.
import type { DefinitionParams, Location } from 'vscode-languageserver';
import { declarationOf, symbolAt, type SymbolAt } from '../core/ide/navigation.js';
import type { Span } from '../core/types.js';
import { toRange } from './convert.js';
import type { Session } from './session.js';

/** Where a symbol is declared, as a location: in the symbol's own file, or in the catalog file the session holds. */
export function declarationLocation(session: Session, symbol: SymbolAt): Location | undefined {
  const place = declarationOf(symbol);
  if (!place) return undefined;
  if (symbol.kind !== 'tool')
    return { uri: session.uriOf(place.file), range: toRange(symbol.ctx.file.source, place.span) };
  return locationOf(session, place.file, place.span);
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
  const symbol = symbolAt(file, session.workspace, file.source.offsetAt(params.position));
  if (!symbol) return [];
  const location = declarationLocation(session, symbol);
  return location ? [location] : [];
}
