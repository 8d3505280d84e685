// `--format junit`: JUnit XML, the test report every CI system reads (GitLab's
// `artifacts:reports:junit`, Jenkins, Azure Pipelines, CircleCI). One `<testsuite>` per checked
// file; each finding is a `<testcase>`, a `<failure>` when it reaches --fail-on (so the report
// fails exactly when the exit code does) and a passing case carrying the finding in `<system-out>`
// below it; a file without findings is one passing case, so every checked file is counted.
// Text that XML 1.0 cannot hold (control characters, lone surrogates) is written as `\uXXXX`.
import type { Finding, Severity } from '../../core/types.js';
import { SEVERITY_ORDER } from '../../core/types.js';
import { fullMessage, toLocation, type CheckedFile, type CheckResult } from '../result.js';

export interface JunitOptions {
  /** The lowest severity that fails (the run's --fail-on). */
  failOn: Severity;
}

/** Whether XML 1.0 can hold a UTF-16 code unit as it is (tab, LF, CR, U+0020 up but U+FFFE/U+FFFF; surrogates checked in pairs). */
function allowed(code: number): boolean {
  return code === 0x09 || code === 0x0a || code === 0x0d || (code >= 0x20 && code !== 0xfffe && code !== 0xffff);
}

/** The text with what XML 1.0 cannot hold (control characters, lone surrogates) written `\uXXXX`. */
function xmlSafe(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text[i]! + text[i + 1]!;
        i++;
        continue;
      }
      out += `\\u${code.toString(16)}`;
    } else if ((code >= 0xdc00 && code <= 0xdfff) || !allowed(code)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += text[i]!;
  }
  return out;
}

export function escapeText(text: string): string {
  return xmlSafe(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttribute(text: string): string {
  // Line breaks and tabs in an attribute are kept as character references (a parser would turn
  // them into spaces otherwise).
  return escapeText(text)
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

function testcase(file: CheckedFile, finding: Finding, fails: boolean): string {
  const at = toLocation(file.source, finding.span.start);
  const where = `${file.path}:${at.line}:${at.column}`;
  const name = `${finding.rule} at ${at.line}:${at.column}`;
  const body = `${where}: ${finding.severity} ${fullMessage(finding)} [${finding.rule}]`;
  const open = `    <testcase classname="${escapeAttribute(file.path)}" name="${escapeAttribute(name)}" file="${escapeAttribute(file.path)}" line="${at.line}"`;
  if (fails) {
    return `${open}>\n      <failure type="${escapeAttribute(finding.severity)}" message="${escapeAttribute(finding.message)}">${escapeText(body)}</failure>\n    </testcase>`;
  }
  return `${open}>\n      <system-out>${escapeText(body)}</system-out>\n    </testcase>`;
}

export function formatJunit(result: CheckResult, options: JunitOptions): string {
  const threshold = SEVERITY_ORDER[options.failOn];
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  for (const file of result.files) {
    const cases: string[] = [];
    let fileFailures = 0;
    for (const finding of file.findings) {
      const fails = SEVERITY_ORDER[finding.severity] >= threshold;
      if (fails) fileFailures++;
      cases.push(testcase(file, finding, fails));
    }
    if (cases.length === 0)
      cases.push(
        `    <testcase classname="${escapeAttribute(file.path)}" name="${escapeAttribute(file.path)}" file="${escapeAttribute(file.path)}"/>`,
      );
    tests += cases.length;
    failures += fileFailures;
    suites.push(
      `  <testsuite name="${escapeAttribute(file.path)}" tests="${cases.length}" failures="${fileFailures}" errors="0" skipped="0">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="tool-lens" tests="${tests}" failures="${failures}" errors="0">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
