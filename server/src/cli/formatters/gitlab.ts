// `--format gitlab`: a GitLab Code Quality report (a JSON array of issues) for
// `artifacts:reports:codequality`. GitLab reads `description`, `check_name`, `fingerprint`,
// `severity`, `location.path` and `location.lines.begin` (docs/behaviour.md, "Output formats").
//
// The fingerprint is how GitLab tells, between the target branch's report and the merge request's,
// which issues are new, which fixed and which unchanged, so it must not change when nothing about
// the finding did: it hashes the rule, the path, the message and the finding's rank among the
// findings of that file with the same rule and message, never the line, so an edit above a
// finding does not make it look fixed and new again; the rank keeps two identical findings in one
// file apart (GitLab shows one issue per fingerprint).
import { createHash } from 'node:crypto';
import type { Severity } from '../../core/types.js';
import { fullMessage, toLocation, type CheckResult } from '../result.js';

type GitlabSeverity = 'info' | 'minor' | 'major' | 'critical' | 'blocker';
const SEVERITY: Record<Severity, GitlabSeverity> = { error: 'major', warning: 'minor', info: 'info', hint: 'info' };

interface GitlabIssue {
  type: 'issue';
  check_name: string;
  description: string;
  severity: GitlabSeverity;
  fingerprint: string;
  location: { path: string; lines: { begin: number; end: number } };
}

export function fingerprint(rule: string, path: string, message: string, rank: number): string {
  return createHash('sha256')
    .update(JSON.stringify(['tool-lens', rule, path, message, rank]))
    .digest('hex');
}

export function formatGitlab(result: CheckResult): string {
  const issues: GitlabIssue[] = [];
  for (const file of result.files) {
    const ranks = new Map<string, number>();
    for (const finding of file.findings) {
      const key = JSON.stringify([finding.rule, finding.message]);
      const rank = ranks.get(key) ?? 0;
      ranks.set(key, rank + 1);
      const begin = toLocation(file.source, finding.span.start).line;
      // The last line the range covers (its end is exclusive: a range up to a line break ends there).
      const last = finding.span.end > finding.span.start ? finding.span.end - 1 : finding.span.end;
      const end = Math.max(begin, toLocation(file.source, last).line);
      issues.push({
        type: 'issue',
        check_name: finding.rule,
        description: fullMessage(finding),
        severity: SEVERITY[finding.severity],
        fingerprint: fingerprint(finding.rule, file.path, finding.message, rank),
        location: { path: file.path, lines: { begin, end } },
      });
    }
  }
  return JSON.stringify(issues, null, 2) + '\n';
}
