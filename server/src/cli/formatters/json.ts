// `--format json`: a public interface (docs/behaviour.md#json-output). Lines and columns are 1-based
// (columns in UTF-16 code units), ranges end exclusive. Every checked file is listed; files that
// are none of our kinds carry `"kind": null` and no diagnostics.
import type { SourceText } from '../../core/text/source.js';
import type { DocumentKind, Finding, Severity } from '../../core/types.js';
import { summarize, toRange, type CheckResult, type Range, type Summary } from '../result.js';

interface JsonEdit {
  range: Range;
  newText: string;
}

interface JsonFix {
  title: string;
  safe: boolean;
  edits: JsonEdit[];
}

interface JsonDiagnostic {
  rule: string;
  /** Which message of the rule's table this is: stable, so programs can tell cases apart without the text. */
  messageId: string;
  severity: Severity;
  /** One sentence: what is wrong and what to do. */
  message: string;
  /** Why it matters, when the rule says more than the message. */
  why?: string;
  range: Range;
  fixes: JsonFix[];
}

interface JsonFile {
  path: string;
  kind: DocumentKind | null;
  diagnostics: JsonDiagnostic[];
}

interface JsonReport {
  version: 1;
  files: JsonFile[];
  summary: Summary;
}

function toJsonReport(result: CheckResult): JsonReport {
  return {
    version: 1,
    files: result.files.map((file) => ({
      path: file.path,
      kind: file.kind,
      diagnostics: file.findings.map((finding) => diagnostic(file.source, finding)),
    })),
    summary: summarize(result),
  };
}

function diagnostic(source: SourceText, finding: Finding): JsonDiagnostic {
  return {
    rule: finding.rule,
    messageId: finding.messageId,
    severity: finding.severity,
    message: finding.message,
    ...(finding.why === undefined ? {} : { why: finding.why }),
    range: toRange(source, finding.span),
    fixes: (finding.fixes ?? []).map((fix) => ({
      title: fix.title,
      safe: fix.safe,
      edits: fix.edits.map((edit) => ({ range: toRange(source, edit.span), newText: edit.newText })),
    })),
  };
}

export function formatJson(result: CheckResult): string {
  return JSON.stringify(toJsonReport(result)) + '\n';
}
