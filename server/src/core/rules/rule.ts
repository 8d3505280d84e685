// The shape every rule module has: metadata plus a check over one parsed document.
import type { DocumentContext } from '../context.js';
import type { DocumentKind, Fix, RelatedInfo, Severity, Span } from '../types.js';

export interface Report {
  message: string;
  span: Span;
  /** Only when this finding differs from the rule's default (tool/unknown without a catalog: info). */
  severity?: Severity;
  fixes?: Fix[];
  related?: RelatedInfo[];
}

export interface RuleContext extends DocumentContext {
  report(report: Report): void;
}

export interface Rule {
  /** Stable public id, e.g. `annotations/contradiction`; the module's file name. */
  id: string;
  defaultSeverity: Severity;
  /** One line for `tool-lens rules` and the docs index. */
  summary: string;
  /** The document kinds this rule looks at; '*' for every recognised kind. */
  kinds: readonly DocumentKind[] | '*';
  /** Absent only for rules the engine itself reports (lens/unused-suppression). */
  check?(ctx: RuleContext): void;
}

export const DOCS_BASE_URL = 'https://github.com/tool-lens/tool-lens/blob/main/docs/rules/';

/**
 * The web page of a rule: the project's, or the configuration's `ruleDocsUrl` (`{rule}` replaced
 * by the id; without it, the id and `.md` appended to it as to a folder).
 */
export function ruleDocsUrl(id: string, configured?: string): string {
  if (configured === undefined) return `${DOCS_BASE_URL}${id}.md`;
  if (configured.includes('{rule}')) return configured.replaceAll('{rule}', id);
  return `${configured.endsWith('/') ? configured : `${configured}/`}${id}.md`;
}

/** One rule's share of the problems an analysis tagged with rule ids (the args/* rules share one analysis). */
export function problemsOf<P extends { rule: string }, Id extends P['rule']>(problems: readonly P[], id: Id): Extract<P, { rule: Id }>[] {
  return problems.filter((p): p is Extract<P, { rule: Id }> => p.rule === id);
}

/**
 * Reports one rule's share of an analysis that serves several rules (its problems tagged with
 * their rule id), each problem in that rule's words: `word` turns it into the report. Two problems
 * that come to the same words at the same span are one finding.
 */
export function reportShare<P extends { rule: string }, Id extends P['rule']>(
  ctx: RuleContext,
  id: Id,
  problems: readonly P[],
  word: (problem: Extract<P, { rule: Id }>) => Report,
): void {
  const seen = new Set<string>();
  for (const problem of problems) {
    if (problem.rule !== id) continue;
    const report = word(problem as Extract<P, { rule: Id }>);
    const key = `${report.span.start}\0${report.span.end}\0${report.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    ctx.report(report);
  }
}
