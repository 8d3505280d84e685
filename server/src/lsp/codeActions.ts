// Code actions: every fix of the core as a quick fix tied to its diagnostic (safe ones preferred;
// the same fix of several findings offered once, tied to all of them),
// "Fix all <rule> problems in this file", `source.fixAll.toolLens` (safe fixes only), and
// "Suppress <rule> on this line", then "Disable <rule> for this file" and "Show documentation for
// <rule>" (ruleActions.ts); for aggregation/advertised-rename "Accept the catalog as it is now" (the
// server command that makes it the baseline). In `.toollens.yaml`, the fixes of its problems and the documentation. On an MCP client config's
// `toolFaces`, "Move these faces to an overlay file" (moveFaces.ts).
import {
  CodeActionKind,
  type CodeAction,
  type CodeActionParams,
  type Diagnostic,
  type TextEdit as LspTextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import type { ParsedFile } from '../core/parse/file.js';
import { ADVERTISED_RENAME } from '../core/rules/aggregation/advertised-rename.js';
import { walk } from '../core/parse/nodes.js';
import { findDirectives, UNUSED_SUPPRESSION } from '../core/suppressions.js';
import { chooseCompatibleFixes } from '../core/text/edits.js';
import type { Finding, Fix, TextEdit } from '../core/types.js';
import { rangesIntersect, sameRange, SOURCE, toLspEdit } from './convert.js';
import type { Diagnostics, Report } from './diagnostics.js';
import { ruleActions } from './ruleActions.js';
import { SERVER_COMMANDS } from './protocol.js';
import { moveFacesActions } from './moveFaces.js';
import type { Session } from './session.js';

const FIX_ALL_KIND = 'source.fixAll.toolLens';
export const CODE_ACTION_KINDS = [CodeActionKind.QuickFix, CodeActionKind.SourceFixAll, FIX_ALL_KIND];

export interface CodeActionOptions {
  /** The client takes `documentChanges` (versioned edits), so a stale edit is refused rather than misapplied. */
  documentChanges: boolean;
  /** The client's command that shows a rule's page (InitializationOptions.ruleDocsCommand). */
  ruleDocsCommand?: string;
  /** The client creates files in a workspace edit (`resourceOperations` holds `create`). */
  createFiles?: boolean;
}

export function codeActions(
  session: Session,
  diagnostics: Diagnostics,
  params: CodeActionParams,
  options: CodeActionOptions,
): CodeAction[] {
  const entry = session.entryOf(params.textDocument.uri);
  if (!entry) return [];
  const report = diagnostics.report(entry, session);
  const config = session.isConfig(entry);
  if (!report || (!report.kind && !config)) return [];
  // A report of a file no editor holds may have let its parse go (Session.settleParse).
  const file = report.file ?? session.fileOf(entry);
  if (!file) return [];
  const uri = entry.uri;
  const version = entry.editor?.version ?? null;
  const source = file.source;
  const only = params.context.only;
  const wants = (kind: string) => !only || only.some((o) => kind === o || kind.startsWith(`${o}.`));
  const workspaceEdit = (edits: readonly TextEdit[]): WorkspaceEdit => {
    const lsp: LspTextEdit[] = edits.map((e) => toLspEdit(source, e));
    return options.documentChanges
      ? { documentChanges: [{ textDocument: { uri, version }, edits: lsp }] }
      : { changes: { [uri]: lsp } };
  };
  const actions: CodeAction[] = [];

  if (wants(CodeActionKind.QuickFix)) {
    const targets = targetFindings(report, params);
    // One quick fix per fix of each finding; a fix that another finding here already offers
    // (the same title and the same edits) is one entry naming both diagnostics.
    const offered = new Map<string, CodeAction>();
    for (const { finding, diagnostic } of targets) {
      let preferredGiven = false;
      for (const fix of finding.fixes ?? []) {
        const preferred = fix.safe && !preferredGiven;
        if (preferred) preferredGiven = true;
        const key = fixKey(fix);
        const same = offered.get(key);
        if (same) {
          if (!same.diagnostics!.includes(diagnostic)) same.diagnostics!.push(diagnostic);
          if (preferred) same.isPreferred = true;
          continue;
        }
        const action: CodeAction = {
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          ...(preferred ? { isPreferred: true } : {}),
          edit: workspaceEdit(fix.edits),
        };
        offered.set(key, action);
        actions.push(action);
      }
    }
    // A renamed advertised name: the quick fix accepts the catalog as it is now (a command, no edit).
    const renames = targets.filter((t) => t.finding.rule === ADVERTISED_RENAME);
    if (renames.length) {
      const title = 'Accept the catalog as it is now (the new baseline for advertised names)';
      actions.push({
        title,
        kind: CodeActionKind.QuickFix,
        diagnostics: renames.map((t) => t.diagnostic),
        command: { title, command: SERVER_COMMANDS.acceptCatalog, arguments: [{ uri }] },
      });
    }
    // Fix all of one rule, when the file has more than one finding of it with a safe fix.
    const rules = [...new Set(targets.map((t) => t.finding.rule))];
    for (const rule of rules) {
      const fixable = report.findings.filter((f) => f.rule === rule && firstSafe(f));
      if (fixable.length < 2) continue;
      const { chosen } = chooseCompatibleFixes(fixable.map((f) => firstSafe(f)!));
      actions.push({
        title: `Fix all ${rule} problems in this file`,
        kind: CodeActionKind.QuickFix,
        diagnostics: fixable.map((f) => diagnosticOf(report, f)).filter((d): d is Diagnostic => d !== undefined),
        edit: workspaceEdit(chosen.flatMap((f) => f.edits)),
      });
    }
    // Suppress a rule on the finding's line.
    const done = new Set<string>();
    for (const { finding, diagnostic } of targets) {
      if (finding.rule === UNUSED_SUPPRESSION || config) continue;
      const line = source.positionAt(finding.span.start).line;
      const key = `${finding.rule}@${line}`;
      if (done.has(key)) continue;
      done.add(key);
      const edit = suppressionEdit(file, finding.rule, line);
      if (!edit) continue;
      actions.push({
        title: `Suppress ${finding.rule} on this line`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        edit: workspaceEdit([edit]),
      });
    }
    actions.push(
      ...ruleActions(file, targets, {
        workspaceEdit,
        docsCommand: options.ruleDocsCommand,
        suppressible: !config,
      }),
    );
  }

  if (wants(CodeActionKind.QuickFix))
    actions.push(
      ...moveFacesActions(session, file, uri, version, params, { createFiles: options.createFiles === true }),
    );

  // Only on request: a source action is what "fix all on save" runs.
  if (only && wants(FIX_ALL_KIND)) {
    const safe = report.findings.map(firstSafe).filter((f): f is Fix => f !== undefined);
    if (safe.length) {
      const { chosen } = chooseCompatibleFixes(safe);
      actions.push({
        title: 'Fix all safely fixable Tool Lens problems',
        kind: FIX_ALL_KIND,
        edit: workspaceEdit(chosen.flatMap((f) => f.edits)),
      });
    }
  }
  return actions;
}

/** What makes two fixes the same entry of the menu: the title and the edits, in the order they apply. */
function fixKey(fix: Fix): string {
  const edits = [...fix.edits].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  return JSON.stringify([fix.title, edits.map((e) => [e.span.start, e.span.end, e.newText])]);
}

function firstSafe(finding: Finding): Fix | undefined {
  return finding.fixes?.find((f) => f.safe);
}

function diagnosticOf(report: Report, finding: Finding): Diagnostic | undefined {
  const index = report.findings.indexOf(finding);
  return index >= 0 ? report.diagnostics[index] : undefined;
}

/**
 * The findings the request is about: those matching the diagnostics the client sent (same rule,
 * same range), or, when it sent none, those overlapping the requested range.
 */
function targetFindings(report: Report, params: CodeActionParams): { finding: Finding; diagnostic: Diagnostic }[] {
  const out: { finding: Finding; diagnostic: Diagnostic }[] = [];
  const ours = params.context.diagnostics.filter((d) => d.source === SOURCE || typeof d.code === 'string');
  if (ours.length) {
    for (const sent of ours) {
      const index = report.diagnostics.findIndex(
        (d, i) =>
          d.code === sent.code && sameRange(d.range, sent.range) && !out.some((o) => o.finding === report.findings[i]),
      );
      if (index >= 0) out.push({ finding: report.findings[index]!, diagnostic: report.diagnostics[index]! });
    }
    return out;
  }
  report.findings.forEach((finding, i) => {
    const diagnostic = report.diagnostics[i]!;
    if (rangesIntersect(diagnostic.range, params.range)) out.push({ finding, diagnostic });
  });
  return out;
}

/**
 * `# tool-lens-disable-next-line RULE -- ` above the line, with the line's indentation (`//` in
 * JSON); when a next-line suppression is already there, the rule joins its list. Undefined where
 * a comment cannot go: JSONL, and lines inside a multi-line string (the comment would become text).
 */
function suppressionEdit(file: ParsedFile, rule: string, line: number): TextEdit | undefined {
  if (file.language === 'jsonl') return undefined;
  const source = file.source;
  const lineStart = source.lineStarts[line];
  if (lineStart === undefined) return undefined;
  for (const doc of file.documents) {
    let inside = false;
    walk(doc.root, (node) => {
      if (node.type === 'scalar' && node.span.start < lineStart && node.span.end > lineStart) inside = true;
    });
    if (inside) return undefined;
  }
  const existing = findDirectives(file).find((d) => d.kind === 'next-line' && d.line === line - 1);
  if (existing && existing.rules.length) {
    if (existing.rules.some((r) => r.id === rule)) return undefined;
    const last = existing.rules[existing.rules.length - 1]!;
    return { span: { start: last.span.end, end: last.span.end }, newText: `, ${rule}` };
  }
  const indentation = /^[ \t]*/.exec(source.lineText(line))![0];
  const marker = file.language === 'yaml' ? '#' : '//';
  return {
    span: { start: lineStart, end: lineStart },
    newText: `${indentation}${marker} tool-lens-disable-next-line ${rule} -- ${source.eol}`,
  };
}
