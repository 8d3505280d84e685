// Translation between the core's plain data (UTF-16 offsets, findings, fixes) and LSP types.
// The core never sees an LSP type; everything crosses here.
import {
  DiagnosticSeverity,
  DiagnosticTag,
  type Diagnostic,
  type Range,
  type TextEdit as LspTextEdit,
} from 'vscode-languageserver';
import { ruleDocsUrl } from '../core/rules/rule.js';
import type { SourceText } from '../core/text/source.js';
import type { Finding, Fix, Severity, Span, TextEdit } from '../core/types.js';

export const SOURCE = 'tool-lens';

export function toRange(source: SourceText, span: Span): Range {
  return { start: source.positionAt(span.start), end: source.positionAt(span.end) };
}

export function toLspEdit(source: SourceText, edit: TextEdit): LspTextEdit {
  return { range: toRange(source, edit.span), newText: edit.newText };
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

function toLspSeverity(severity: Severity): DiagnosticSeverity {
  return SEVERITY[severity];
}

/** What a diagnostic's `data` holds: enough for a client to list the fixes without asking again. */
interface DiagnosticData {
  rule: string;
  /** The diagnostics report this came from; code actions re-check when it is stale. */
  resultId: string;
  fixes: { title: string; safe: boolean }[];
}

/** Resolves the file of a related location to its URI and text (undefined when unknown). */
export type RelatedResolver = (file: string) => { uri: string; source: SourceText } | undefined;

export function toDiagnostic(
  finding: Finding,
  source: SourceText,
  uri: string,
  resultId: string,
  resolveRelated: RelatedResolver,
  /** The diagnostic's link (lsp/ruleActions.ts ruleDocsHref); the rule's web page when not given. */
  href: string = ruleDocsUrl(finding.rule),
): Diagnostic & { message: string } {
  const diagnostic: Diagnostic & { message: string } = {
    range: toRange(source, finding.span),
    severity: toLspSeverity(finding.severity),
    code: finding.rule,
    codeDescription: { href },
    source: SOURCE,
    message: finding.message,
  };
  if (finding.rule === 'lens/unused-suppression') diagnostic.tags = [DiagnosticTag.Unnecessary];
  if (finding.why !== undefined || finding.related?.length) {
    // The why first, at the finding's own range: the editor shows it under the message (in the
    // hover and as the Problems panel's child row), as rust-analyzer shows its notes.
    const related =
      finding.why === undefined ? [] : [{ location: { uri, range: diagnostic.range }, message: finding.why }];
    for (const info of finding.related ?? []) {
      const target = info.file === undefined ? { uri, source } : resolveRelated(info.file);
      if (!target) continue;
      related.push({ location: { uri: target.uri, range: toRange(target.source, info.span) }, message: info.message });
    }
    if (related.length) diagnostic.relatedInformation = related;
  }
  const data: DiagnosticData = { rule: finding.rule, resultId, fixes: (finding.fixes ?? []).map(fixSummary) };
  diagnostic.data = data;
  return diagnostic;
}

function fixSummary(fix: Fix): { title: string; safe: boolean } {
  return { title: fix.title, safe: fix.safe };
}

export function sameRange(a: Range, b: Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}

/** Whether two ranges touch or overlap (an empty range touching the other counts). */
export function rangesIntersect(a: Range, b: Range): boolean {
  const before = (p: Range['start'], q: Range['start']) =>
    p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}
