// What one `tool-lens check` run produced, in the form every formatter reads. Positions are
// converted from offsets to 1-based lines and columns here, at the CLI's edge.
import type { SourceText } from '../core/text/source.js';
import type { DocumentKind, Finding, Span } from '../core/types.js';

export interface CheckedFile {
  /** Relative to the current directory, posix separators. */
  path: string;
  kind: DocumentKind | null;
  source: SourceText;
  findings: Finding[];
}

export interface CheckResult {
  files: CheckedFile[];
  /**
   * How many files and folders the run had to read and could not (each named on stderr): then
   * the result is incomplete, and the exit code is 2 whatever the findings.
   */
  unreadable?: number;
  /** The workspace folder of the run (absolute; node/loader.ts workspaceRootOf). */
  root?: string;
  /** Where the reports link a rule's page (`--rule-docs-url`, else `ruleDocsUrl` of the configuration): rules/rule.ts ruleDocsUrl. */
  ruleDocsUrl?: string;
}

export interface Summary {
  files: number;
  error: number;
  warning: number;
  info: number;
  hint: number;
}

export function summarize(result: CheckResult): Summary {
  const summary: Summary = { files: result.files.length, error: 0, warning: 0, info: 0, hint: 0 };
  for (const file of result.files) for (const finding of file.findings) summary[finding.severity]++;
  return summary;
}

/** 1-based line; 1-based column counted in UTF-16 code units (what JS strings and LSP use). */
export interface Location {
  line: number;
  column: number;
}

/** End exclusive: the end location is the character just after the range. */
export interface Range {
  start: Location;
  end: Location;
}

export function toLocation(source: SourceText, offset: number): Location {
  const position = source.positionAt(offset);
  return { line: position.line + 1, column: position.character + 1 };
}

export function toRange(source: SourceText, span: Span): Range {
  return { start: toLocation(source, span.start), end: toLocation(source, span.end) };
}

/**
 * A finding's message and its why as one text, for the formats that have one place for words and
 * are read in full (an annotation, a report): SARIF reads the first sentence as the summary.
 */
export function fullMessage(finding: Finding): string {
  return finding.why === undefined ? finding.message : `${finding.message} ${finding.why}`;
}
