// Hover (core/ide/hover.ts) as the protocol says it: Markdown content over a range.
import { MarkupKind, type Hover, type HoverParams } from 'vscode-languageserver';
import { hoverAt } from '../core/ide/hover.js';
import type { Finding } from '../core/types.js';
import { toRange } from './convert.js';
import type { Session } from './session.js';

/** `findings`: the file's current findings (the diagnostics the editor shows), when the caller has them. */
export function hover(session: Session, params: HoverParams, findings: readonly Finding[] = []): Hover | null {
  const file = session.fileOfUri(params.textDocument.uri);
  if (!file?.kind) return null;
  const found = hoverAt(file, session.workspace, file.source.offsetAt(params.position), findings);
  return found
    ? { contents: { kind: MarkupKind.Markdown, value: found.markdown }, range: toRange(file.source, found.span) }
    : null;
}
