// lens/declined: part of a document Tool Lens did not check because one of its limits applies
// (core/limits.ts): content nested too deep, and whatever else an analysis declined. Said at info:
// nothing is known to be wrong there, but nothing is known to be right either, and the rest of the
// document was checked. Runs after every other rule (its family is listed last), so it sees what
// the analyses those rules ran declined.
import { declinedOf, type Declined } from '../../declined.js';
import type { LimitName } from '../../limits.js';
import type { Rule } from '../rule.js';

export const rule: Rule = {
  id: 'lens/declined',
  defaultSeverity: 'info',
  summary: 'A part of a document not checked because a limit applies.',
  kinds: '*',
  check(ctx) {
    for (const problem of ctx.doc.problems) {
      if (problem.rule === 'lens/declined') ctx.report({ message: problem.message, span: problem.span });
    }
    for (const declined of declinedOf(ctx)) ctx.report({ message: message(declined), span: declined.span });
  },
};

const WHY: Record<LimitName, string> = {
  nesting: 'it nests deeper than Tool Lens reads',
  aliasNodes: 'its aliases stand for more values than Tool Lens builds from aliases in one file',
  fileBytes: 'the file is larger than Tool Lens reads',
  fileValues: 'the file holds more values than Tool Lens reads',
};

function message(declined: Declined): string {
  return `Tool Lens did not check ${declined.what}: ${WHY[declined.limit]}. The rest of the document is checked.`;
}
