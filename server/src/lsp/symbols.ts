// Document symbols: the outline of a file (core/ide/outline.ts) with LSP ranges and symbol kinds.
import { SymbolKind, type DocumentSymbol, type DocumentSymbolParams } from 'vscode-languageserver';
import { outlineOf, type OutlineItem, type OutlineKind } from '../core/ide/outline.js';
import type { SourceText } from '../core/text/source.js';
import { toRange } from './convert.js';
import type { Session } from './session.js';

const KINDS: Record<OutlineKind, SymbolKind> = {
  function: SymbolKind.Function,
  method: SymbolKind.Method,
  event: SymbolKind.Event,
  object: SymbolKind.Object,
  module: SymbolKind.Module,
  namespace: SymbolKind.Namespace,
};

export function documentSymbols(session: Session, params: DocumentSymbolParams): DocumentSymbol[] {
  const file = session.fileOfUri(params.textDocument.uri);
  if (!file?.kind) return [];
  return outlineOf(file, session.workspace).map((item) => symbolOf(file.source, item));
}

function symbolOf(source: SourceText, item: OutlineItem): DocumentSymbol {
  return {
    name: item.name,
    kind: KINDS[item.kind],
    range: toRange(source, item.span),
    selectionRange: toRange(source, item.selection),
    ...(item.detail ? { detail: item.detail } : {}),
    ...(item.children ? { children: item.children.map((child) => symbolOf(source, child)) } : {}),
  };
}
