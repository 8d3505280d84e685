// `--format rdjson`: the Reviewdog Diagnostic Format's `DiagnosticResult` (one JSON object), for
// `reviewdog -f=rdjson`. reviewdog counts a column in UTF-8 bytes from 1 (reviewdog.proto's
// Position), not in UTF-16 code units as our other formats do, so columns are converted here;
// ranges end exclusive, as ours. Safe fixes and suggestions alike become `suggestions`
// (reviewdog offers them as suggested changes on the review; nothing is applied by it).
import { PROJECT_URL, ruleDocsUrl } from '../../core/rules/rule.js';
import type { SourceText } from '../../core/text/source.js';
import type { Finding, Severity, Span } from '../../core/types.js';
import { fullMessage, type CheckResult } from '../result.js';

const SOURCE = { name: 'tool-lens', url: PROJECT_URL };

type RdSeverity = 'ERROR' | 'WARNING' | 'INFO';
const SEVERITY: Record<Severity, RdSeverity> = { error: 'ERROR', warning: 'WARNING', info: 'INFO', hint: 'INFO' };

interface RdPosition {
  line: number;
  column: number;
}

interface RdRange {
  start: RdPosition;
  end: RdPosition;
}

interface RdDiagnostic {
  message: string;
  location: { path: string; range: RdRange };
  severity: RdSeverity;
  source: typeof SOURCE;
  code: { value: string; url: string };
  suggestions?: { range: RdRange; text: string }[];
}

/** 1-based line, and 1-based column in UTF-8 bytes from the start of the line. */
export function utf8Position(source: SourceText, offset: number): RdPosition {
  const at = source.positionAt(offset);
  const lineStart = source.lineStarts[at.line] ?? 0;
  return {
    line: at.line + 1,
    column: Buffer.byteLength(source.text.slice(lineStart, lineStart + at.character), 'utf8') + 1,
  };
}

function range(source: SourceText, span: Span): RdRange {
  return { start: utf8Position(source, span.start), end: utf8Position(source, span.end) };
}

function diagnostic(path: string, source: SourceText, finding: Finding, docsUrl: string | undefined): RdDiagnostic {
  const out: RdDiagnostic = {
    message: fullMessage(finding),
    location: { path, range: range(source, finding.span) },
    severity: SEVERITY[finding.severity],
    source: SOURCE,
    code: { value: finding.rule, url: ruleDocsUrl(finding.rule, docsUrl) },
  };
  // reviewdog applies the suggestions of one diagnostic together, so only a fix of one edit, or
  // the first fix (a finding's fixes are alternatives), is offered.
  const fix = finding.fixes?.find((candidate) => candidate.safe) ?? finding.fixes?.[0];
  if (fix) out.suggestions = fix.edits.map((edit) => ({ range: range(source, edit.span), text: edit.newText }));
  return out;
}

export function formatRdjson(result: CheckResult): string {
  const diagnostics: RdDiagnostic[] = [];
  for (const file of result.files)
    for (const finding of file.findings)
      diagnostics.push(diagnostic(file.path, file.source, finding, result.ruleDocsUrl));
  return JSON.stringify({ source: SOURCE, diagnostics }) + '\n';
}
