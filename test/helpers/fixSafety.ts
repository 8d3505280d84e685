// Fix safety as a property: what applying every safe fix of a file (as `--fix` does: the first safe
// fix of each finding, those that fit together by chooseCompatibleFixes, applied by applyEdits) may
// and may not do, checked on the texts before and after, never by trusting the code that made the
// fixes:
//
// - no character outside the edits' ranges changes (the texts compared around and between them);
// - no edit edits an alias token (`*env`): an edit may take one whole only as part of something
//   larger around it (a pair removed, a value replaced), never replace it, cut into it or insert
//   inside it, since its nodes are the anchor's and have no text there;
// - no edit touches an anchored node that aliases use (overlaps it, or inserts from its start to
//   before its end), and each such node reads back the same value after the fixes (matched by
//   anchor name and occurrence): a change there would change every alias too;
// - the re-check has no error finding that was not there before (rule id and message).
//
// Used by test/unit/fix-safety.test.ts on every fixture, corpus and example file and on mutated
// ones, and on hand-built unsafe fixes to show that it can fail.
import { checkFile, type FileReport } from '../../server/src/core/engine.js';
import type { ParsedFile } from '../../server/src/core/parse/file.js';
import type { AnchorUse, Node } from '../../server/src/core/parse/nodes.js';
import { applyEdits, chooseCompatibleFixes } from '../../server/src/core/text/edits.js';
import type { Finding, Fix, Span, TextEdit } from '../../server/src/core/types.js';
import type { Workspace } from '../../server/src/core/workspace.js';

export interface FixSafetyResult {
  /** What broke the property, one line each; empty when it holds. */
  violations: string[];
  /** The safe fixes applied, each with its finding's rule. */
  applied: { rule: string; fix: Fix }[];
  /** The text after them. */
  after: string;
}

/** The first safe fix of each finding, as `--fix` picks them. */
export function safeFixesOf(findings: readonly Finding[]): { rule: string; fix: Fix }[] {
  return findings.flatMap((finding) => {
    const fix = finding.fixes?.find((candidate) => candidate.safe);
    return fix ? [{ rule: finding.rule, fix }] : [];
  });
}

/** The property on one file and its report: `recheck` parses and checks the fixed text as the same file. */
export function fixSafetyOf(
  file: ParsedFile,
  report: FileReport,
  recheck: (text: string) => FileReport,
): FixSafetyResult {
  const before = file.source.text;
  const offered = safeFixesOf(report.findings);
  const { chosen } = chooseCompatibleFixes(offered.map((o) => o.fix));
  const applied = chosen.map((fix) => offered.find((o) => o.fix === fix)!);
  if (!chosen.length) return { violations: [], applied, after: before };
  const edits = chosen.flatMap((fix) => fix.edits);
  const after = applyEdits(before, edits);
  const violations: string[] = [];
  const by = (edit: TextEdit) => {
    const owner = applied.find((a) => a.fix.edits.includes(edit))!;
    return `${owner.rule} "${owner.fix.title}" [${edit.span.start}, ${edit.span.end}) → ${JSON.stringify(edit.newText)}`;
  };

  violations.push(...changedOutside(before, after, edits));

  for (const doc of file.documents) {
    const refs = doc.references;
    if (!refs) continue;
    for (const token of refs.aliases) {
      for (const edit of edits) {
        if (editsAliasToken(edit.span, token))
          violations.push(
            `edits the alias token ${JSON.stringify(before.slice(token.start, token.end))} at [${token.start}, ${token.end}): ${by(edit)}`,
          );
      }
    }
    for (const anchor of refs.anchors) {
      if (!anchor.aliases.length) continue;
      for (const edit of edits) {
        if (touchesNode(edit.span, anchor.span) && !removesOnlyComments(file, edit))
          violations.push(
            `touches the node anchored as &${anchor.name} at [${anchor.span.start}, ${anchor.span.end}), which ${anchor.aliases.length} alias(es) use: ${by(edit)}`,
          );
      }
    }
  }

  const rechecked = recheck(after);
  const afterFile = rechecked.file;
  // What each used anchor stands for, by name and occurrence, before and after.
  const valuesAfter = anchoredValues(afterFile, false);
  for (const [key, value] of anchoredValues(file, true)) {
    if (!valuesAfter.has(key)) violations.push(`the anchor ${key} that aliases use is gone after the fixes`);
    else if (valuesAfter.get(key) !== value)
      violations.push(
        `the anchor ${key} stands for another value after the fixes: ${value} became ${valuesAfter.get(key)}`,
      );
  }

  // An error is new unless one of the same rule was there before with the same words, or at the
  // same place (its start carried through the edits: a renamed key quoted in the message).
  const key = (f: Finding) => `${f.rule}\0${f.message}`;
  const errors = report.findings.filter((f) => f.severity === 'error');
  const errorsBefore = new Set(errors.map(key));
  const placesBefore = errors.map((f) => ({ rule: f.rule, at: carried(edits, f.span.start) }));
  for (const finding of rechecked.findings) {
    const samePlace = placesBefore.some(
      (p) => p.rule === finding.rule && p.at.start <= finding.span.start && finding.span.start <= p.at.end,
    );
    if (finding.severity === 'error' && !errorsBefore.has(key(finding)) && !samePlace) {
      const at = afterFile.source.positionAt(finding.span.start);
      violations.push(
        `a new error after the fixes: ${at.line + 1}:${at.character + 1} ${finding.rule}: ${finding.message}`,
      );
    }
  }
  return { violations, applied, after };
}

/** Where an offset of the text before the edits is after them: one offset outside the edits, an edit's new text for one inside it. */
function carried(edits: readonly TextEdit[], offset: number): { start: number; end: number } {
  let shift = 0;
  for (const edit of [...edits].sort((a, b) => a.span.start - b.span.start)) {
    if (edit.span.end <= offset && !(edit.span.start === edit.span.end && edit.span.start === offset))
      shift += edit.newText.length - (edit.span.end - edit.span.start);
    else if (edit.span.start <= offset)
      return { start: edit.span.start + shift, end: edit.span.start + shift + edit.newText.length };
    else break;
  }
  return { start: offset + shift, end: offset + shift };
}

/** The property for a text checked as `path` in `workspace`. */
export function fixSafetyIn(
  workspace: Workspace,
  path: string,
  text: string,
): FixSafetyResult & { report: FileReport } {
  const check = (t: string) => checkFile(workspace.parse(path, t), workspace);
  const report = check(text);
  return { ...fixSafetyOf(report.file, report, check), report };
}

/** What changed outside the edits (compared, not computed from applyEdits): the text around and between them must be the same. */
export function changedOutside(before: string, after: string, edits: readonly TextEdit[]): string[] {
  const violations: string[] = [];
  const sorted = [...edits].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  let cursorBefore = 0;
  let cursorAfter = 0;
  for (const edit of sorted) {
    const kept = before.slice(cursorBefore, edit.span.start);
    if (after.slice(cursorAfter, cursorAfter + kept.length) !== kept) {
      violations.push(`text outside the edits changed in [${cursorBefore}, ${edit.span.start})`);
      return violations;
    }
    cursorAfter += kept.length;
    // The edit's own text must be there, then the original resumes at its end.
    if (after.slice(cursorAfter, cursorAfter + edit.newText.length) !== edit.newText) {
      violations.push(`the edit at [${edit.span.start}, ${edit.span.end}) is not what the text holds after the fixes`);
      return violations;
    }
    cursorAfter += edit.newText.length;
    cursorBefore = edit.span.end;
  }
  if (after.slice(cursorAfter) !== before.slice(cursorBefore))
    violations.push(`text after the last edit changed (from ${cursorBefore})`);
  return violations;
}

/**
 * An edit that only removes comments (and the blanks around them): what an alias stands for is
 * the anchor's value, never its comments (a comment on a block scalar's header lies inside its
 * span), so such an edit changes no alias; that the value reads back the same is checked anyway.
 */
function removesOnlyComments(file: ParsedFile, edit: TextEdit): boolean {
  if (edit.newText !== '') return false;
  const text = file.source.text;
  let rest = '';
  let cursor = edit.span.start;
  for (const comment of file.comments) {
    if (comment.span.end <= edit.span.start || comment.span.start >= edit.span.end) continue;
    if (comment.span.start < edit.span.start || comment.span.end > edit.span.end) return false;
    rest += text.slice(cursor, comment.span.start);
    cursor = comment.span.end;
  }
  rest += text.slice(cursor, edit.span.end);
  return /^\s*$/.test(rest) && cursor !== edit.span.start;
}

/** An edit edits an alias token unless it leaves it alone or takes it whole with more around it. */
export function editsAliasToken(edit: Span, token: Span): boolean {
  if (edit.start === edit.end) return token.start < edit.start && edit.start < token.end;
  if (edit.end <= token.start || token.end <= edit.start) return false;
  return !(edit.start <= token.start && token.end <= edit.end && edit.end - edit.start > token.end - token.start);
}

/** An edit touches a node when it overlaps it, or inserts at its start or inside it. */
export function touchesNode(edit: Span, node: Span): boolean {
  if (edit.start === edit.end) return node.start <= edit.start && edit.start < node.end;
  return edit.start < node.end && node.start < edit.end;
}

/** `&name#occurrence` → the value the anchored node stands for (JSON of its plain value), for anchors aliases use (`usedOnly`) or all. */
function anchoredValues(file: ParsedFile, usedOnly: boolean): Map<string, string> {
  const out = new Map<string, string>();
  const seen = new Map<string, number>();
  const anchors: AnchorUse[] = file.documents.flatMap((doc) => doc.references?.anchors ?? []);
  for (const anchor of [...anchors].sort((a, b) => a.span.start - b.span.start || b.span.end - a.span.end)) {
    const n = (seen.get(anchor.name) ?? 0) + 1;
    seen.set(anchor.name, n);
    if (usedOnly && !anchor.aliases.length) continue;
    const node = nodeAt(file, anchor.span);
    out.set(`&${anchor.name}#${n}`, node === undefined ? '(no node)' : JSON.stringify(plain(node)));
  }
  return out;
}

/** The node of the file with exactly this span (the outermost such), found by descending through the nodes that hold it. */
function nodeAt(file: ParsedFile, span: Span): Node | undefined {
  for (const doc of file.documents) {
    if (doc.embedded || !doc.root) continue;
    const stack: Node[] = [doc.root];
    while (stack.length) {
      const node = stack.pop()!;
      if (node.span.start === span.start && node.span.end === span.end) return node;
      if (node.span.start > span.start || node.span.end < span.end) continue;
      if (node.type === 'map') {
        for (const pair of node.pairs) {
          if (pair.key.span.start === span.start && pair.key.span.end === span.end) return pair.key;
          if (pair.value) stack.push(pair.value);
        }
      } else if (node.type === 'seq') stack.push(...node.items);
    }
  }
  return undefined;
}

function plain(node: Node): unknown {
  switch (node.type) {
    case 'scalar':
      return node.value;
    case 'seq':
      return node.items.map(plain);
    case 'map':
      return node.pairs.map((pair) => [pair.key.value, pair.value ? plain(pair.value) : null]);
  }
}
