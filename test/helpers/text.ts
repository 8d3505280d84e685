// A finding's whole text: its one-sentence message and the why after it (core/wording/headlines.ts),
// for tests that look for words the why holds.
export function fullText(finding: { message: string; why?: string }): string {
  return finding.why === undefined ? finding.message : `${finding.message} ${finding.why}`;
}
