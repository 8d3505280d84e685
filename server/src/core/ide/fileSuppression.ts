// "Disable RULE for this file": the edit that adds a file-wide suppression of a rule, which
// lsp/ruleActions.ts offers beside every diagnostic of the rule.
import type { ParsedFile } from '../parse/file.js';
import { findDirectives } from '../suppressions.js';
import type { TextEdit } from '../types.js';

/**
 * `# tool-lens-disable-file RULE -- ` as the file's first line (`//` in JSON); when the file already
 * has a file-wide suppression, the rule joins the first one's list. Undefined in JSONL (no
 * comments) and when the rule is listed already.
 */
export function fileSuppressionEdit(file: ParsedFile, rule: string): TextEdit | undefined {
  if (file.language === 'jsonl') return undefined;
  const existing = findDirectives(file).filter((d) => d.kind === 'file');
  if (existing.some((d) => d.rules.some((r) => r.id === rule))) return undefined;
  const listed = existing.find((d) => d.rules.length > 0 && d.removal === 'safe');
  if (listed) {
    const last = listed.rules[listed.rules.length - 1]!;
    return { span: { start: last.span.end, end: last.span.end }, newText: `, ${rule}` };
  }
  const source = file.source;
  const start = source.lineStarts[0] ?? 0;
  const marker = file.language === 'yaml' || file.language === 'toml' ? '#' : '//';
  return { span: { start, end: start }, newText: `${marker} tool-lens-disable-file ${rule} -- ${source.eol}` };
}
