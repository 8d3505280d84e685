// `--format github`: GitHub Actions workflow commands, one line per finding, which the runner
// turns into annotations on the pull request. info and hint become notices.
import type { Severity } from '../../core/types.js';
import { toRange, type CheckResult } from '../result.js';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice', hint: 'notice' };

/** The command's message: `%`, CR and LF would end or garble the command. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
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
      lines.push(`::${COMMAND[finding.severity]} ${properties}::${escapeData(finding.message)}`);
    }
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}
