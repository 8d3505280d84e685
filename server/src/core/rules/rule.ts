// The shape every rule module has: metadata, the table of its messages by id, and a check over one
// parsed document. A report names a message of the table and gives its data; the engine words it.
import { repository } from '../../../../package.json';
import type { DocumentContext } from '../context.js';
import type { DocumentKind, Fix, RelatedInfo, Severity, Span } from '../types.js';

/**
 * A rule's messages by id: each turns the report's data into the finding's text. The ids are a
 * public interface (the JSON report's `messageId`): short camelCase names that say the case, kept
 * stable once published.
 */
export type Messages = Record<string, (data: never) => string>;

/** The data a message of the table takes: none for a message without a parameter. */
type DataOf<F> = F extends () => string
  ? { data?: undefined }
  : F extends (data: infer D) => string
    ? { data: D }
    : never;

interface ReportPlace {
  span: Span;
  /** Only when this finding differs from the rule's default (tool/unknown without a catalog: info). */
  severity?: Severity;
  fixes?: Fix[];
  related?: RelatedInfo[];
}

/** One finding as a rule reports it: a message of its table by id, with the data that message takes. */
export type Report<M extends Messages = Messages> = string extends keyof M
  ? // Any rule's report, as the engine takes it.
    ReportPlace & { messageId: string; data?: unknown }
  : { [Id in keyof M & string]: ReportPlace & { messageId: Id } & DataOf<M[Id]> }[keyof M & string];

export interface RuleContext<M extends Messages = Messages> extends DocumentContext {
  report(report: Report<M>): void;
}

export interface Rule<M extends Messages = Messages> {
  /** Stable public id, e.g. `annotations/contradiction`; the module's file name. */
  id: string;
  defaultSeverity: Severity;
  /** One line for `tool-lens rules` and the docs index. */
  summary: string;
  /** The document kinds this rule looks at; '*' for every recognised kind. */
  kinds: readonly DocumentKind[] | '*';
  /** Every message this rule reports, by id. */
  messages: M;
  /** Absent only for rules the engine itself reports (lens/unused-suppression). */
  check?(ctx: RuleContext<M>): void;
}

/**
 * A rule, with its reports checked against its own messages: the id must be one, and the data what
 * it takes. What it returns is a rule of the general shape the engine runs (whose context takes any
 * report), keeping the type of its table.
 */
export function defineRule<M extends Messages>(rule: Rule<M> & { messages: M }): Rule & { messages: M } {
  // Only the context's type differs: the engine words each report with this same table (wordReport).
  return rule as unknown as Rule & { messages: M };
}

/** The text of a report: its message worded with its data. Throws for an id the rule does not have. */
export function wordReport(ruleId: string, messages: Messages, report: { messageId: string; data?: unknown }): string {
  const word = Object.hasOwn(messages, report.messageId)
    ? (messages[report.messageId] as ((data: unknown) => string) | undefined)
    : undefined;
  if (!word) throw new Error(`rule ${ruleId} has no message "${report.messageId}"`);
  return word(report.data);
}

/**
 * The project's home: `repository.url` of package.json, the one place it is configured. The rule
 * pages, the reports' tool links and the extension readme's links are derived from it
 * (test/release/links.test.ts keeps every other mention equal to it).
 */
export const PROJECT_URL = repository.url;

export const DOCS_BASE_URL = `${PROJECT_URL}/blob/main/docs/rules/`;

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
export function problemsOf<P extends { rule: string }, Id extends P['rule']>(
  problems: readonly P[],
  id: Id,
): Extract<P, { rule: Id }>[] {
  return problems.filter((p): p is Extract<P, { rule: Id }> => p.rule === id);
}

/**
 * Reports one rule's share of an analysis that serves several rules (its problems tagged with
 * their rule id), each problem in that rule's words: `word` turns it into the report. Two problems
 * that come to the same words at the same span are one finding.
 */
export function reportShare<M extends Messages, P extends { rule: string }, Id extends P['rule']>(
  ctx: RuleContext<M>,
  messages: M,
  id: Id,
  problems: readonly P[],
  word: (problem: Extract<P, { rule: Id }>) => Report<M>,
): void {
  const seen = new Set<string>();
  for (const problem of problems) {
    if (problem.rule !== id) continue;
    const report = word(problem as Extract<P, { rule: Id }>);
    const key = `${report.span.start}\0${report.span.end}\0${wordReport(id, messages, report)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    ctx.report(report);
  }
}
