// The default, human format: `path:line:col: severity message [rule]`, then the source line and a
// `^~~~` underline under the exact range (its first line), like actionlint and rustc. Paths,
// messages and source lines come from the checked files: what a terminal would act on in them is
// printed as an escape (visible.ts), and the underline counts the escape's width.
import { counted } from '../../core/text/words.js';
import type { Palette } from '../colors.js';
import type { SourceText } from '../../core/text/source.js';
import type { Finding, Span } from '../../core/types.js';
import { summarize, toLocation, type CheckedFile, type CheckResult, type Summary } from '../result.js';
import { escapeCharacter, isUnsafe, visible } from './visible.js';

/** Longest stretch of a source line that is shown; longer lines are clipped around the range. */
const MAX_SNIPPET = 120;
/** How much of a clipped line is kept before the range starts. */
const CONTEXT_BEFORE = 40;

export function formatStylish(result: CheckResult, colors: Palette): string {
  const byPath = new Map(result.files.map((file) => [file.path, file]));
  const blocks: string[] = [];
  for (const file of result.files) {
    if (file.findings.length === 0) continue;
    const lines: string[] = [];
    for (const finding of file.findings) lines.push(...formatFinding(file, finding, colors, byPath));
    blocks.push(lines.join('\n'));
  }
  blocks.push(summaryLine(summarize(result), colors));
  return blocks.join('\n\n') + '\n';
}

function formatFinding(
  file: CheckedFile,
  finding: Finding,
  colors: Palette,
  byPath: Map<string, CheckedFile>,
): string[] {
  const start = toLocation(file.source, finding.span.start);
  const header =
    `${colors.bold(`${visible(file.path)}:${start.line}:${start.column}:`)} ${colors.severity(finding.severity, finding.severity)} ` +
    `${visible(finding.message)} ${colors.dim(`[${finding.rule}]`)}`;
  const gutterWidth = String(start.line).length;
  const blank = ' '.repeat(gutterWidth);
  const { shown, underline } = snippet(file.source, finding.span, start.line - 1);
  const caret = underline.indexOf('^');
  const out = [
    header,
    `${colors.dim(`${String(start.line).padStart(gutterWidth)} |`)}${shown ? ` ${shown}` : ''}`,
    `${colors.dim(`${blank} |`)} ${underline.slice(0, caret)}${colors.severity(finding.severity, underline.slice(caret))}`,
  ];
  // The why under the line, as rustc's notes: the header keeps to the one sentence a list shows.
  if (finding.why !== undefined) out.push(`${colors.dim(`${blank} =`)} ${visible(finding.why)}`);
  for (const related of finding.related ?? []) {
    out.push(
      `${colors.dim(`${blank} =`)} ${visible(related.message)} at ${relatedPlace(file, related.file, related.span, byPath)}`,
    );
  }
  return out;
}

function relatedPlace(
  file: CheckedFile,
  otherPath: string | undefined,
  span: Span,
  byPath: Map<string, CheckedFile>,
): string {
  if (otherPath === undefined || otherPath === file.path) {
    const at = toLocation(file.source, span.start);
    return `${at.line}:${at.column}`;
  }
  const other = byPath.get(otherPath);
  if (!other) return visible(otherPath);
  const at = toLocation(other.source, span.start);
  return `${visible(otherPath)}:${at.line}:${at.column}`;
}

/**
 * The source line (clipped when long) and the underline that sits under the range. Tabs before the
 * range are copied into the padding so the caret lines up whatever the terminal's tab width is;
 * wide characters count two columns, a character shown as its escape (`\x1b`) the escape's.
 */
export function snippet(source: SourceText, span: Span, line: number): { shown: string; underline: string } {
  const text = source.lineText(line);
  const lineStart = source.lineStarts[line] ?? 0;
  const from = Math.min(Math.max(span.start - lineStart, 0), text.length);
  // Only the first line of a multi-line range is underlined.
  const to = Math.max(from, Math.min(span.end - lineStart, text.length));
  let first = 0;
  let last = text.length;
  if (text.length > MAX_SNIPPET) {
    first = Math.max(0, from - CONTEXT_BEFORE);
    last = Math.min(text.length, first + MAX_SNIPPET);
    if (last === text.length) first = Math.max(0, text.length - MAX_SNIPPET);
    // Never cut a surrogate pair in half.
    if (first > 0 && isLowSurrogate(text.charCodeAt(first))) first--;
    if (last < text.length && isLowSurrogate(text.charCodeAt(last))) last++;
  }
  const clippedBefore = first > 0;
  const clippedAfter = last < text.length;
  const shown = `${clippedBefore ? '…' : ''}${visible(text.slice(first, last))}${clippedAfter ? '…' : ''}`;
  const padding =
    (clippedBefore ? ' ' : '') +
    [...text.slice(first, from)].map((ch) => (ch === '\t' ? '\t' : ' '.repeat(charWidth(ch)))).join('');
  let marks = '';
  let caretPlaced = false;
  for (const ch of text.slice(from, Math.min(to, last))) {
    if (ch === '\t') {
      marks += '\t';
      continue;
    }
    marks += (caretPlaced ? '~' : '^') + '~'.repeat(charWidth(ch) - 1);
    caretPlaced = true;
  }
  // An empty range (an insertion point, the end of the file) still gets its caret.
  if (!caretPlaced) marks = '^' + marks;
  return { shown, underline: padding + marks };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Terminal columns of one code point as shown: its escape's length for one `visible` escapes, 2 for East Asian wide and emoji ranges, 1 otherwise. */
function charWidth(ch: string): number {
  if (isUnsafe(ch)) return escapeCharacter(ch).length;
  const code = ch.codePointAt(0) ?? 0;
  const wide =
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x1f900 && code <= 0x1f9ff) ||
    (code >= 0x20000 && code <= 0x3fffd);
  return wide ? 2 : 1;
}

function summaryLine(summary: Summary, colors: Palette): string {
  const parts = [
    summary.error ? colors.red(counted(summary.error, 'error')) : counted(0, 'error'),
    summary.warning ? colors.yellow(counted(summary.warning, 'warning')) : counted(0, 'warning'),
    summary.info ? colors.cyan(counted(summary.info, 'info')) : counted(0, 'info'),
  ];
  if (summary.hint) parts.push(counted(summary.hint, 'hint'));
  return `${parts.join(', ')} in ${counted(summary.files, 'file')}`;
}
