// What every diagnostic's quick-fix menu offers about its rule, beside the core's fixes and
// "Disable RULE for this line" (codeActions.ts): "Disable RULE for the entire file" (a
// `tool-lens-disable-file` comment at the top, or the rule added to the one there; the titles are
// vscode-eslint's) and, when the client has a command that shows a rule's page, "Show
// documentation for RULE". Also where a diagnostic's link points: that command, or the rule's web page.
import { CodeActionKind, type CodeAction, type Diagnostic, type WorkspaceEdit } from 'vscode-languageserver';
import type { ParsedFile } from '../core/parse/file.js';
import { ruleDocsUrl } from '../core/rules/rule.js';
import { fileSuppressionEdit } from '../core/ide/fileSuppression.js';
import { ADVERTISED_RENAME } from '../core/rules/aggregation/advertised-rename.js';
import { UNUSED_SUPPRESSION } from '../core/suppressions.js';
import type { Finding, TextEdit } from '../core/types.js';

/** A client command name Tool Lens will put in a `command:` link: letters, digits, `.`, `_`, `-`. */
export function validCommandName(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z][\w.-]{0,99}$/.test(value);
}

/**
 * The link of a rule's diagnostic: the client's command with the rule id as its one argument (a
 * `command:` URI, which VS Code runs from the hover and the Problems panel), or the rule's web page
 * (`ruleDocsUrl` of the folder's configuration, else the project's).
 */
export function ruleDocsHref(rule: string, options: { command?: string; url?: string }): string {
  if (options.command) return `command:${options.command}?${encodeURIComponent(JSON.stringify([rule]))}`;
  return ruleDocsUrl(rule, options.url);
}

export interface RuleActionOptions {
  /** Turns core edits into the workspace edit of an action (versioned when the client takes that). */
  workspaceEdit(edits: readonly TextEdit[]): WorkspaceEdit;
  /** The client's command that shows a rule's page; without it, no "Show documentation" action. */
  docsCommand?: string;
  /** Whether suppression comments apply to the file (not `.toollens.yaml`: its problems stop a run). */
  suppressible: boolean;
}

/**
 * Whether a suppression comment is offered for the rule's findings: not for lens/unused-suppression
 * (a comment about comments), nor for a finding that reports a change rather than a mistake
 * (aggregation/advertised-rename: accepting the catalog is what answers it).
 */
export function suppressible(rule: string): boolean {
  return rule !== UNUSED_SUPPRESSION && rule !== ADVERTISED_RENAME;
}

/** One "Disable RULE for the entire file" and one "Show documentation for RULE" per rule among the targets. */
export function ruleActions(
  file: ParsedFile,
  targets: readonly { finding: Finding; diagnostic: Diagnostic }[],
  options: RuleActionOptions,
): CodeAction[] {
  const actions: CodeAction[] = [];
  const seen = new Set<string>();
  for (const { finding, diagnostic } of targets) {
    const rule = finding.rule;
    if (seen.has(rule)) continue;
    seen.add(rule);
    const diagnostics = targets.filter((t) => t.finding.rule === rule).map((t) => t.diagnostic);
    if (options.suppressible && suppressible(rule)) {
      const edit = fileSuppressionEdit(file, rule);
      if (edit)
        actions.push({
          title: `Disable ${rule} for the entire file`,
          kind: CodeActionKind.QuickFix,
          diagnostics,
          edit: options.workspaceEdit([edit]),
        });
    }
    if (options.docsCommand) {
      const title = `Show documentation for ${rule}`;
      actions.push({
        title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        command: { title, command: options.docsCommand, arguments: [rule] },
      });
    }
  }
  return actions;
}
