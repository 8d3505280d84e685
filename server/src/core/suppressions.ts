// Inline suppressions: `# tool-lens-disable-next-line RULE[, RULE] -- reason` (and `-line`,
// `-file`; `//` in JSONC). Each listed rule that silences nothing is itself reported. They are read
// from the comments the parser found (`file.comments`), so text in a string or a key that looks
// like one is not taken for one. Only line comments hold them: `#` in YAML, `//` in JSON.
import type { ParsedFile } from './parse/file.js';
import { SourceText } from './text/source.js';
import type { Finding, Fix, Span } from './types.js';

type DirectiveKind = 'next-line' | 'line' | 'file';

export interface Directive {
  kind: DirectiveKind;
  /** 0-based line the comment is on. */
  line: number;
  rules: { id: string; span: Span; used: boolean }[];
  /** The comment itself, from its marker to the end of the line. */
  commentSpan: Span;
  /** What to delete to remove the whole comment (its line when it stands alone). */
  removalSpan: Span;
  /**
   * How certain removing it is: `safe`; `none` in a document with a syntax error, where what is a
   * comment is the library's guess while it recovers (past an unclosed `[`, a `#` inside a quoted
   * key reads as one).
   */
  removal: 'safe' | 'none';
}

/** A directive in a comment's text (the rest of its line): at its start, or after other words of it. */
const DIRECTIVE = /(^|\s)(#|\/\/)\s*tool-lens-disable-(next-line|line|file)\b([^\n\r]*)$/;

/**
 * The directives of a parsed file, from its comments. Given only a text, every line is read as if
 * it were a comment (a string that looks like a directive is then taken for one): pass the file.
 */
export function findDirectives(
  file: Pick<ParsedFile, 'source' | 'comments'> & Partial<Pick<ParsedFile, 'documents'>>,
): Directive[] {
  const directives: Directive[] = [];
  const source = file.source;
  const text = source.text;
  // Cheap pre-check: most files have none.
  if (!text.includes('tool-lens-disable')) return directives;
  const broken = (file.documents ?? [])
    .filter((doc) => doc.problems.some((p) => p.rule === 'yaml/syntax'))
    .map((doc) => doc.span);
  for (const comment of file.comments) {
    // Block comments (`/* */` in JSON) hold none: the rule list would run into the `*/`.
    if (comment.text.startsWith('/*') || !comment.text.includes('tool-lens-disable')) continue;
    const { line } = source.positionAt(comment.span.start);
    const lineStart = source.lineStarts[line]!;
    const lineText = source.lineText(line);
    // Where the comment starts in its line; a comment runs to the end of its line.
    const commentAt = comment.span.start - lineStart;
    const match = DIRECTIVE.exec(lineText.slice(commentAt));
    if (!match) continue;
    const markerIndex = commentAt + match.index + match[1]!.length;
    const commentStart = lineStart + markerIndex;
    const rest = match[4]!;
    const restStart = lineStart + lineText.length - rest.length;
    const reasonAt = rest.search(/\s--(\s|$)/);
    const list = reasonAt >= 0 ? rest.slice(0, reasonAt) : rest;
    const rules: Directive['rules'] = [];
    const idPattern = /[^\s,]+/g;
    let id: RegExpExecArray | null;
    while ((id = idPattern.exec(list))) {
      rules.push({
        id: id[0],
        span: { start: restStart + id.index, end: restStart + id.index + id[0].length },
        used: false,
      });
    }
    const before = lineText.slice(0, markerIndex);
    const standsAlone = before.trim() === '';
    const lineEnd = source.lineEnd(line);
    const nextLineStart = source.lineStarts[line + 1] ?? lineEnd;
    const removalSpan = standsAlone
      ? { start: lineStart, end: nextLineStart }
      : { start: lineStart + before.replace(/\s+$/, '').length, end: lineEnd };
    // A lone CR ends a line for the parsers as for the editor (loneCrAsLf), so removing a line is as certain there.
    const removal = broken.some((doc) => doc.start <= commentStart && commentStart < doc.end) ? 'none' : 'safe';
    directives.push({
      kind: match[3] as DirectiveKind,
      line,
      rules,
      commentSpan: { start: commentStart, end: lineEnd },
      removalSpan,
      removal,
    });
  }
  return directives;
}

/** Drops suppressed findings; marks the directive entries that did the suppressing. */
export function applySuppressions(findings: Finding[], directives: Directive[], source: SourceText): Finding[] {
  if (directives.length === 0) return findings;
  return findings.filter((finding) => {
    const line = source.positionAt(finding.span.start).line;
    let suppressed = false;
    for (const directive of directives) {
      const applies =
        directive.kind === 'file' ||
        (directive.kind === 'line' && directive.line === line) ||
        (directive.kind === 'next-line' && directive.line === line - 1);
      if (!applies) continue;
      for (const rule of directive.rules) {
        if (rule.id === finding.rule) {
          rule.used = true;
          suppressed = true;
        }
      }
    }
    return !suppressed;
  });
}

export const UNUSED_SUPPRESSION = 'lens/unused-suppression';

/** Where a directive applies, as the words of an unused suppression say it. */
export type DirectiveReach = Directive['kind'];

/** The messages of lens/unused-suppression (its rule module holds them; the engine passes them in). */
export interface UnusedSuppressionMessages {
  namesNoRule: () => string;
  silencesNothing: (data: { rule: string; known: boolean; reach: DirectiveReach }) => string;
}

/** One finding per listed rule that silenced nothing, with a fix that removes it. */
export function unusedSuppressionFindings(
  directives: Directive[],
  source: SourceText,
  knownRules: ReadonlySet<string>,
  messages: UnusedSuppressionMessages,
): Finding[] {
  const findings: Finding[] = [];
  for (const directive of directives) {
    if (directive.rules.length === 0) {
      findings.push({
        rule: UNUSED_SUPPRESSION,
        messageId: 'namesNoRule',
        severity: 'warning',
        message: messages.namesNoRule(),
        span: directive.commentSpan,
        ...(directive.removal === 'none'
          ? {}
          : {
              fixes: [
                {
                  title: 'Remove this suppression comment',
                  safe: directive.removal === 'safe',
                  edits: [{ span: directive.removalSpan, newText: '' }],
                },
              ],
            }),
      });
      continue;
    }
    const unused = directive.rules.filter((r) => !r.used);
    for (const rule of unused) {
      findings.push({
        rule: UNUSED_SUPPRESSION,
        messageId: 'silencesNothing',
        severity: 'warning',
        message: messages.silencesNothing({ rule: rule.id, known: knownRules.has(rule.id), reach: directive.kind }),
        span: rule.span,
        ...(directive.removal === 'none' ? {} : { fixes: [removalFix(directive, rule, source)] }),
      });
    }
  }
  return findings;
}

function removalFix(directive: Directive, rule: Directive['rules'][number], source: SourceText): Fix {
  if (directive.rules.length === 1 || directive.rules.every((r) => !r.used)) {
    return {
      title: 'Remove this suppression comment',
      safe: directive.removal === 'safe',
      edits: [{ span: directive.removalSpan, newText: '' }],
    };
  }
  // Remove the id and the comma that joins it to its neighbour (inside the comment: safe wherever its line ends).
  const text = source.text;
  let { start, end } = rule.span;
  const after = /^\s*,\s*/.exec(text.slice(end));
  if (after) end += after[0].length;
  else {
    const before = /\s*,\s*$/.exec(text.slice(directive.commentSpan.start, start));
    if (before) start -= before[0].length;
  }
  return {
    title: `Remove ${rule.id} from this suppression`,
    safe: true,
    edits: [{ span: { start, end }, newText: '' }],
  };
}
