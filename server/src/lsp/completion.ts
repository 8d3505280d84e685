// Completion (core/ide/completion.ts) as LSP completion items, each with the text edit it makes.
import { CompletionItemKind, MarkupKind, type CompletionItem, type CompletionParams } from 'vscode-languageserver';
import { completionsAt, type CompletionEntry, type CompletionKind } from '../core/ide/completion.js';
import type { SourceText } from '../core/text/source.js';
import { toRange } from './convert.js';
import type { Session } from './session.js';

export const COMPLETION_TRIGGERS = ['.', '"', ' ', '[', ','];

const KINDS: Record<CompletionKind, CompletionItemKind> = {
  function: CompletionItemKind.Function,
  reference: CompletionItemKind.Reference,
  property: CompletionItemKind.Property,
  module: CompletionItemKind.Module,
  variable: CompletionItemKind.Variable,
  field: CompletionItemKind.Field,
  'enum-member': CompletionItemKind.EnumMember,
  enum: CompletionItemKind.Enum,
  value: CompletionItemKind.Value,
};

export function completion(session: Session, params: CompletionParams): CompletionItem[] {
  const entry = session.entryOf(params.textDocument.uri);
  const file = entry ? session.fileOf(entry) : undefined;
  if (!file) return [];
  return completionsAt(file, session.workspace, file.source.offsetAt(params.position)).map((e) =>
    completionItem(file.source, e),
  );
}

/** An entry as an item: its text edit on `source`, its documentation as Markdown. */
export function completionItem(source: SourceText, entry: CompletionEntry): CompletionItem {
  return {
    label: entry.label,
    kind: KINDS[entry.kind],
    ...(entry.detail !== undefined ? { detail: entry.detail } : {}),
    ...(entry.documentation !== undefined
      ? { documentation: { kind: MarkupKind.Markdown, value: entry.documentation } }
      : {}),
    ...(entry.sortText !== undefined ? { sortText: entry.sortText } : {}),
    ...(entry.filterText !== undefined ? { filterText: entry.filterText } : {}),
    textEdit: { range: toRange(source, entry.span), newText: entry.newText },
    // VS Code's command (the client runs it; others leave an unknown one alone).
    ...(entry.suggestNext ? { command: { title: 'Suggest', command: 'editor.action.triggerSuggest' } } : {}),
  };
}
