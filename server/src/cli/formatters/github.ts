// `--format github`: GitHub Actions workflow commands, one line per finding, which the runner
// turns into annotations on the pull request. info and hint become notices. The runner reads the
// `%` escapes back (`%25`, `%0D`, `%0A`, and in properties `%3A`, `%2C`), so a message's line
// breaks and a path's odd characters reach the annotation exactly; every other character a
// terminal or the log view would act on (ESC, BEL, bidi controls) is written as a visible
// escape first (visible.ts), as the stylish format writes it.
import type { Severity } from '../../core/types.js';
import { fullMessage, toRange, type CheckResult } from '../result.js';
import { escapeCharacter } from './visible.js';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice', hint: 'notice' };

// eslint-disable-next-line no-control-regex -- visible.ts's characters but CR and LF, which have their % escapes
const UNSAFE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/g;

/** The command's message: `%`, CR and LF would end or garble the command; other controls are shown as escapes. */
export function escapeData(text: string): string {
  return text.replace(UNSAFE, escapeCharacter).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value: additionally `:` and `,`, which separate properties. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function formatGithub(result: CheckResult): string {
  const lines: string[] = [];
  for (const file of result.files) {
    for (const finding of file.findings) {
      const range = toRange(file.source, finding.span);
      const properties = [
        `file=${escapeProperty(file.path)}`,
        `line=${range.start.line}`,
        `col=${range.start.column}`,
        `endLine=${range.end.line}`,
        `endColumn=${range.end.column}`,
        `title=${escapeProperty(finding.rule)}`,
      ].join(',');
      lines.push(`::${COMMAND[finding.severity]} ${properties}::${escapeData(fullMessage(finding))}`);
    }
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}
