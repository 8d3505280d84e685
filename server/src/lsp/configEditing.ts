// `.toollens.yaml` in the editor (core/ide/configEditing.ts): completion and the hover on a rule
// id, served for the folder's configuration file; undefined for any other file.
import {
  MarkupKind,
  type CompletionItem,
  type CompletionParams,
  type Hover,
  type HoverParams,
} from 'vscode-languageserver';
import { configCompletionsAt, configHoverAt } from '../core/ide/configEditing.js';
import type { ParsedFile } from '../core/parse/file.js';
import { completionItem } from './completion.js';
import { toRange } from './convert.js';
import type { Session } from './session.js';

/** Completion in the folder's `.toollens.yaml`; undefined for any other file. */
export function configCompletion(session: Session, params: CompletionParams): CompletionItem[] | undefined {
  const entry = session.entryOf(params.textDocument.uri);
  if (!entry || !session.isConfig(entry)) return undefined;
  const file = session.fileOf(entry);
  if (!file) return [];
  return configCompletionsAt(file, session.workspace, file.source.offsetAt(params.position), () =>
    checkedFiles(session),
  ).map((e) => completionItem(file.source, e));
}

function* checkedFiles(session: Session): Iterable<ParsedFile> {
  for (const entry of session.checkedEntries()) {
    const file = session.fileOf(entry);
    if (file) yield file;
  }
}

/** Hover on a rule id in the folder's `.toollens.yaml`: the rule's summary. Undefined for any other file. */
export function configHover(session: Session, params: HoverParams): Hover | null | undefined {
  const entry = session.entryOf(params.textDocument.uri);
  if (!entry || !session.isConfig(entry)) return undefined;
  const file = session.fileOf(entry);
  if (!file) return null;
  const found = configHoverAt(file, file.source.offsetAt(params.position));
  return found
    ? { contents: { kind: MarkupKind.Markdown, value: found.markdown }, range: toRange(file.source, found.span) }
    : null;
}
