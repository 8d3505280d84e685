// lens/declined: part of a document Tool Lens did not check because one of its limits applies
// (core/limits.ts): content nested too deep, and whatever else an analysis declined. Said at info:
// nothing is known to be wrong there, but nothing is known to be right either, and the rest of the
// document was checked. A whole file declined (fileBytes, fileValues) is an error instead: none of
// it was checked, and a gate must not pass it (docs/limits.md). Runs after every other rule (its family is listed last), so it sees what
// the analyses those rules ran declined.
import { declinedOf } from '../../declined.js';
import { LIMITS, type LimitName, type Limits } from '../../limits.js';
import { defineRule } from '../rule.js';
import { headlineFits } from '../../wording/headlines.js';
import { aliasesNotExpandedWords, byteLimitWords, fileSizeWords, unreadableWords } from '../../wording/parserWords.js';

/** What the parser declined (parse/problems.ts), when a headline goes before its own words. */
const PART_NOT_CHECKED = 'Part of this document is not checked: a limit of Tool Lens applies.';

/** The headline of aliases left unexpanded: what to do, the limit after it (parserWords.ts). */
const ALIASES_NOT_EXPANDED = 'Aliases here are not expanded: raise `limits.aliasNodes` to check what they stand for.';

export const rule = defineRule({
  id: 'lens/declined',
  defaultSeverity: 'info',
  summary: 'A part of a document not checked because a limit applies.',
  kinds: '*',
  messages: {
    /** An analysis declined part of the document (declined.ts); `why` is the limit's reason in the workspace's values. */
    declined: ({ limit, what, why }: { limit: LimitName; what: string; why: string }) =>
      `${HEADLINE[limit]} Tool Lens did not check ${what}: ${why}. The rest of the document is checked.`,
    tooDeep: ({ limit }: { limit: number }) =>
      `This value nests deeper than ${limit} levels, so Tool Lens does not check it. The rest of the document is checked.`,
    aliasesNotExpanded: ({ more, limit }: { more: number; limit: number }) =>
      `${ALIASES_NOT_EXPANDED} ${aliasesNotExpandedWords(more, limit)}`,
    fileTooLarge: ({ bytes, limit }: { bytes: number; limit: number }) =>
      `This file is ${fileSizeWords(bytes)}, more than the ${byteLimitWords(limit)} Tool Lens reads: split it to have it checked. ` +
      'None of it is checked (`limits.fileBytes` of `.toollens.yaml` sets the size).',
    fileTooManyValues: ({ limit }: { limit: number }) =>
      `This file holds more than the ${limit.toLocaleString('en-US')} values Tool Lens reads: split it to have it checked. ` +
      'None of it is checked (`limits.fileValues` of `.toollens.yaml` sets the count).',
    /** `error`: what the parser threw; absent when it ran out of stack. */
    unreadable: ({ error }: { error?: string }) => {
      const words = unreadableWords(error);
      return headlineFits(words) ? words : `${PART_NOT_CHECKED} ${words}`;
    },
    /** The editor's time for one file ran out (engine.ts) before the rules `skipped` ran. */
    budgetSpent: ({ budgetMs, skipped }: { budgetMs: number; skipped: readonly string[] }) => {
      const shown = skipped.slice(0, 5).join(', ') + (skipped.length > 5 ? ` and ${skipped.length - 5} more` : '');
      return (
        `Tool Lens stopped checking this file after ${budgetMs} ms, so ${skipped.length === 1 ? 'one rule' : `${skipped.length} rules`} did not run (${shown}). ` +
        'The findings shown come from the rules that ran; `tool-lens check` runs them all.'
      );
    },
  },
  check(ctx) {
    for (const problem of ctx.doc.problems) {
      switch (problem.code) {
        case 'tooDeep':
          ctx.report({ messageId: 'tooDeep', data: problem.data, span: problem.span });
          break;
        case 'aliasesNotExpanded':
          ctx.report({ messageId: 'aliasesNotExpanded', data: problem.data, span: problem.span });
          break;
        // A file declined whole was not checked at all: an error, so that the default gate
        // (`--fail-on error`, the Action's) does not pass what it never looked at. Padding a file
        // past a limit must not be a way to hide its mistakes.
        case 'fileTooLarge':
          ctx.report({ messageId: 'fileTooLarge', data: problem.data, span: problem.span, severity: 'error' });
          break;
        case 'fileTooManyValues':
          ctx.report({ messageId: 'fileTooManyValues', data: problem.data, span: problem.span, severity: 'error' });
          break;
        case 'unreadable':
          ctx.report({ messageId: 'unreadable', data: problem.data, span: problem.span });
          break;
      }
    }
    const declined = declinedOf(ctx);
    // The words cost (toLocaleString), and most documents decline nothing.
    if (declined.length === 0) return;
    const why = WHY(ctx.workspace.limits);
    for (const one of declined)
      ctx.report({
        messageId: 'declined',
        data: { limit: one.limit, what: one.what, why: why[one.limit] },
        span: one.span,
      });
  },
});

/** Why each limit declines, in the words of the workspace's values (`.toollens.yaml` may set some). */
const WHY = (limits: Limits): Record<LimitName, string> => ({
  nesting: 'it nests deeper than Tool Lens reads',
  editorCheckMs: "the editor's time for one file ran out",
  // The glob limits bound the configuration, whose problems stop a run (config/config.ts); nothing
  // of a document is declined for them.
  globLength: 'a glob of the configuration is longer than Tool Lens reads',
  globCount: 'the configuration has more globs than Tool Lens reads',
  regexEngine:
    'Tool Lens runs the patterns of tool schemas only on RE2, a linear-time engine, so that no pattern can stall a check, ' +
    'and RE2 cannot run this one (a validator with a backtracking engine still applies it)',
  regexProgram: `the pattern is larger than Tool Lens compiles (${LIMITS.regexProgram.toLocaleString('en-US')} RE2 instructions)`,
  regexWork:
    `this document's share of pattern work is spent (${limits.regexWork.toLocaleString('en-US')} instructions times characters), ` +
    'so neither this string nor any later one in the document was matched against a pattern',
  // Neither declines a check: past them a message lists fewer names, or offers no "did you mean".
  suggestionCandidates: 'its "did you mean" searches would compare more names than Tool Lens compares in one document',
  messageItems: 'it lists more entries than Tool Lens writes in one message',
  aliasNodes: 'its aliases stand for more values than Tool Lens builds from aliases in one file',
  fileBytes: 'the file is larger than Tool Lens reads',
  fileValues: 'the file holds more values than Tool Lens reads',
  schemaWork:
    `the schema's references fan out (each branch leads to more), so validating would apply parts of it more than ${LIMITS.schemaWork.toLocaleString('en-US')} times, ` +
    'past what Tool Lens validates at once; no issue of that schema is reported there',
});

/** The headline of each decline: what was not checked and, for a limit `.toollens.yaml` sets, which one to raise. */
const HEADLINE: Record<LimitName, string> = {
  nesting: 'Not checked: this nests deeper than Tool Lens reads; the rest is checked.',
  editorCheckMs: "Not checked: the editor's time for this file ran out (raise `limits.editorCheckMs`).",
  globLength: 'Not checked: a glob of the configuration is too long for Tool Lens.',
  globCount: 'Not checked: the configuration has more globs than Tool Lens reads.',
  regexEngine: 'Not checked against this pattern: Tool Lens runs patterns on RE2, which cannot run it.',
  regexProgram: 'Not checked against this pattern: it is too large for Tool Lens to compile.',
  regexWork: "Not matched against patterns: this document's pattern work is spent (raise `limits.regexWork`).",
  suggestionCandidates:
    'No "did you mean" here: the search would compare too many names (`limits.suggestionCandidates`).',
  messageItems: 'Not listed in full: more entries than Tool Lens writes in one message.',
  aliasNodes: 'Not checked: these aliases stand for more values than Tool Lens builds (`limits.aliasNodes`).',
  fileBytes: 'Not checked: the file is larger than Tool Lens reads (raise `limits.fileBytes`).',
  fileValues: 'Not checked: the file holds more values than Tool Lens reads (raise `limits.fileValues`).',
  schemaWork: 'Not checked against this schema: its references fan out past what Tool Lens validates.',
};
