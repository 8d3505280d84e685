// Runs the rules over a parsed file, then applies the configuration (severities, overrides) and
// inline suppressions. A rule that throws is logged once and the others still run. With a time
// budget (the language server's), the rules not yet run once it is spent are declined, and the file
// gets a lens/declined info that names them: one file never holds the editor for long.
import { configuredSeverity } from './config/config.js';
import { sharedEffectOf, sharedIndexOf, type SharedIndex } from './edit/sharedEdits.js';
import type { ParsedFile } from './parse/file.js';
import { isMap, isSeq, type Node } from './parse/nodes.js';
import { rule as declinedRule } from './rules/lens/declined.js';
import { rule as unusedSuppressionRule } from './rules/lens/unused-suppression.js';
import { ALL_RULES, RULE_IDS } from './rules/registry.js';
import { wordReport, type Rule, type RuleContext } from './rules/rule.js';
import { documentContext } from './context.js';
import { applySuppressions, findDirectives, UNUSED_SUPPRESSION, unusedSuppressionFindings } from './suppressions.js';
import { wholeCharacters } from './text/source.js';
import type { Finding, Fix, Severity, Span } from './types.js';
import { sharedFixTitle } from './wording/sharedFixTitle.js';
import type { Workspace } from './workspace.js';

export interface FileReport {
  file: ParsedFile;
  findings: Finding[];
}

export interface CheckOptions {
  /** Milliseconds of rule work after which the remaining rules are declined; absent: no bound (the CLI). */
  budgetMs?: number;
  /** The clock the budget is measured with (tests pass their own). */
  now?: () => number;
}

const loggedFailures = new Set<string>();

/** The rule that says what was declined runs whatever the budget: it is what makes a decline visible. */
const ALWAYS_RUNS = declinedRule.id;

/**
 * The rules that run over a partial resource (a Chainsaw assertion or patch: parse/embedded.ts):
 * those about what is written (a wrong-typed, unknown or refused value, a duplicate key), never
 * one that needs the fields such a fragment leaves out (docs/behaviour.md#resources-inside-other-yaml).
 */
const PARTIAL_RULES = new Set([
  'schema/unknown-key',
  'schema/wrong-type',
  'schema/invalid-value',
  'yaml/duplicate-key',
  'yaml/syntax',
  ALWAYS_RUNS,
]);

/** The rules that word the parsers' own problems: they report on what the parser could not read. */
const PARSER_RULES = new Set(['yaml/syntax', 'yaml/duplicate-key', ALWAYS_RUNS]);

/** Whether a finding's range shares a character with a syntax error's (an empty range: lies inside it). */
function touches(error: Span, finding: Span): boolean {
  if (finding.start === finding.end) return finding.start >= error.start && finding.start < error.end;
  return finding.start < error.end && error.start < finding.end;
}

/** `start:end` of each mapping key whose value holds the start of one of `spans`. */
function keysHolding(root: Node, spans: readonly Span[]): Set<string> {
  const out = new Set<string>();
  const within = (node: Node): boolean => spans.some((s) => s.start >= node.span.start && s.start < node.span.end);
  const visit = (node: Node): void => {
    if (!within(node)) return;
    if (isMap(node)) {
      for (const pair of node.pairs) {
        if (!pair.value || !within(pair.value)) continue;
        out.add(`${pair.key.span.start}:${pair.key.span.end}`);
        visit(pair.value);
      }
    } else if (isSeq(node)) for (const item of node.items) visit(item);
  };
  visit(root);
  return out;
}

export function checkFile(
  file: ParsedFile,
  workspace: Workspace,
  rules: readonly Rule[] = ALL_RULES,
  options: CheckOptions = {},
): FileReport {
  const raw: Finding[] = [];
  const now = options.now ?? Date.now;
  const deadline = options.budgetMs === undefined ? Infinity : now() + options.budgetMs;
  const skipped = new Set<string>();
  let shared: SharedIndex | undefined | null = null;
  const heldToAnchors = (fixes: Fix[] | undefined): Fix[] | undefined => {
    if (!fixes?.length) return fixes;
    if (shared === null) shared = sharedIndexOf(file);
    return shared ? fixesHeldToAnchors(fixes, shared, file) : fixes;
  };
  for (const doc of file.documents) {
    if (!doc.kind) continue;
    const base = documentContext(file, doc, workspace);
    // A document with a syntax error is the parser's best guess at what was meant: a fix computed
    // on it may be right, but never certain, so none of its fixes is safe (`--fix` leaves it alone).
    const broken = doc.problems
      .filter((problem) => problem.rule === 'yaml/syntax')
      .map((problem) => problem.recovered ?? problem.span);
    const guessed = broken.length > 0;
    // A finding on a key is about its value (a missing argument, field or id): when the value holds
    // what the parser rebuilt, what it lacks may be what the parser made into something else.
    const holders = guessed && doc.root ? keysHolding(doc.root, broken) : undefined;
    const rebuilt = (span: Span): boolean =>
      broken.some((error) => touches(error, span)) || holders?.has(`${span.start}:${span.end}`) === true;
    const expressions = doc.embedded?.expressions ?? [];
    // One context per document, reporting for the rule that runs now: a context per rule (a copy
    // of the document's and a closure) was a measurable part of the rules' time. No rule keeps its
    // context past its check.
    let rule: Rule = rules[0]!;
    const ctx: RuleContext = {
      ...base,
      report: (report) => {
        // What Chainsaw evaluates is not what it applies: no finding starts inside an expression.
        if (expressions.some((e) => report.span.start >= e.start && report.span.start < e.end)) return;
        // What the parser rebuilt past a syntax error (a key that swallowed the next line, a list
        // whose `]` never came) is its guess, not what the user wrote: no rule but the parser's
        // own reports on it, so the syntax error is the one finding of that mistake.
        if (guessed && !PARSER_RULES.has(rule.id) && rebuilt(report.span)) return;
        const held = heldToAnchors(report.fixes);
        const fixes =
          guessed && held?.some((fix) => fix.safe)
            ? held.map((fix) => (fix.safe ? { ...fix, safe: false } : fix))
            : held;
        raw.push({
          rule: rule.id,
          messageId: report.messageId,
          severity: report.severity ?? rule.defaultSeverity,
          // Throws for an id the rule's table lacks: logged as the rule's failure, like any other.
          message: wordReport(rule.id, rule.messages, report),
          span: report.span,
          ...(fixes?.length ? { fixes } : {}),
          ...(report.related?.length ? { related: report.related } : {}),
        });
      },
    };
    for (const each of rules) {
      if (each.kinds !== '*' && !each.kinds.includes(doc.kind)) continue;
      if (doc.partial && !PARTIAL_RULES.has(each.id)) continue;
      if (each.check && each.id !== ALWAYS_RUNS && now() > deadline) {
        skipped.add(each.id);
        continue;
      }
      rule = each;
      try {
        rule.check?.(ctx);
      } catch (error) {
        const key = `${rule.id}\0${String(error)}`;
        if (!loggedFailures.has(key)) {
          loggedFailures.add(key);
          workspace.log(
            `rule ${rule.id} failed on ${file.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          );
        }
      }
    }
  }
  if (!file.kind) return { file, findings: [] };
  if (skipped.size > 0) raw.push(budgetSpent(file, options.budgetMs ?? 0, [...skipped]));
  const relative = workspace.relative(file.path);
  const configured = applyConfiguredSeverities(raw, workspace, relative, rules);
  const directives = findDirectives(file);
  const kept = applySuppressions(configured, directives, file.source);
  const unusedSeverity = configuredSeverity(workspace.config, UNUSED_SUPPRESSION, relative) ?? 'warning';
  if (unusedSeverity !== 'off') {
    for (const finding of unusedSuppressionFindings(
      directives,
      file.source,
      RULE_IDS,
      unusedSuppressionRule.messages,
    )) {
      kept.push({ ...finding, severity: unusedSeverity });
    }
  }
  return { file, findings: sortFindings(kept.map((finding) => onWholeCharacters(finding, file.source.text))) };
}

/**
 * Every fix held to the file's anchors and aliases (edit/sharedEdits.ts), whichever rule built it
 * and however: one that edits an alias token, or takes away an anchored node others use, is
 * withdrawn; one that edits inside an anchored node others use becomes a suggestion whose title
 * names the lines it also changes. The one place every rule's fixes pass.
 */
function fixesHeldToAnchors(fixes: Fix[], index: SharedIndex, file: ParsedFile): Fix[] {
  const out: Fix[] = [];
  for (const fix of fixes) {
    const effect = sharedEffectOf(index, fix.edits);
    if (effect.kind === 'none') out.push(fix);
    else if (effect.kind === 'shared') {
      const lines = effect.uses.map((use) => file.source.positionAt(use.start).line + 1);
      out.push({ ...fix, title: sharedFixTitle(fix.title, effect.names, lines), safe: false });
    }
  }
  return out;
}

/**
 * A finding whose range and related places (in this file) lie on whole characters and line breaks
 * (`wholeCharacters`): the one place every finding passes, so no rule, parser position or
 * directive can show a range that splits a CRLF pair or an astral character, or lies outside the
 * text. Its fixes are left as they are: an edit is the rule's to get right, not to be moved.
 */
function onWholeCharacters(finding: Finding, text: string): Finding {
  const span = wholeCharacters(text, finding.span);
  let related = finding.related;
  if (related?.some((r) => r.file === undefined && wholeCharacters(text, r.span) !== r.span)) {
    related = related.map((r) => (r.file === undefined ? { ...r, span: wholeCharacters(text, r.span) } : r));
  }
  return span === finding.span && related === finding.related
    ? finding
    : { ...finding, span, ...(related ? { related } : {}) };
}

/** The info that says which rules a spent budget kept from running, at the start of the file. */
function budgetSpent(file: ParsedFile, budgetMs: number, skipped: string[]): Finding {
  return {
    rule: ALWAYS_RUNS,
    messageId: 'budgetSpent',
    severity: 'info',
    message: declinedRule.messages.budgetSpent({ budgetMs, skipped }),
    span: { start: 0, end: Math.min(1, file.source.text.length) },
  };
}

/**
 * A configured severity replaces the rule's default. Findings a rule deliberately reported at
 * another severity (for example `info` because a server has no catalog) keep theirs unless the
 * rule is turned off: configuration must not turn "cannot know" into "wrong".
 */
// The registry's table is made once, not once per file; another rule list (a test's) gets its own.
let registryDefaults: Map<string, Severity> | undefined;
function defaultSeverities(rules: readonly Rule[]): Map<string, Severity> {
  const make = () => new Map<string, Severity>(rules.map((r) => [r.id, r.defaultSeverity]));
  if (rules !== ALL_RULES) return make();
  return (registryDefaults ??= make());
}

function applyConfiguredSeverities(
  findings: Finding[],
  workspace: Workspace,
  relative: string,
  rules: readonly Rule[],
): Finding[] {
  if (findings.length === 0) return [];
  const defaults = defaultSeverities(rules);
  const out: Finding[] = [];
  for (const finding of findings) {
    const configured = configuredSeverity(workspace.config, finding.rule, relative);
    if (configured === 'off') continue;
    if (configured && finding.severity === defaults.get(finding.rule)) out.push({ ...finding, severity: configured });
    else out.push(finding);
  }
  return out;
}

function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort(
    (a, b) => a.span.start - b.span.start || a.span.end - b.span.end || a.rule.localeCompare(b.rule),
  );
}
