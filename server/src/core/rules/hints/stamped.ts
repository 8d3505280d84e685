// One identical set of hints on every tool of a server (or of one dynamic namespace), though the
// tools' own words say some read and some change things: a default stamped wholesale, so the hints
// say nothing about each tool, and every floor built on them is only as right as the stamp.
import { hintAuditOf, STAMP_MIN_TOOLS, type HintProblem } from '../../audit/hints.js';
import { byCount, firstItems, quotedList } from '../../text/words.js';
import { hintsWords } from '../../wording/hintAdvice.js';
import { defineRule, reportShare } from '../rule.js';

type Stamped = Extract<HintProblem, { rule: 'hints/stamped' }>;

const messages = {
  /** The audit's problem is the data: the server (and namespace), the stamp, which tools read and which change. */
  stamped: (problem: Stamped) => {
    const where =
      problem.namespace !== undefined
        ? `of namespace "${problem.namespace}" of server "${problem.server}"`
        : `of server "${problem.server}"`;
    const names = (tools: typeof problem.reading) => quotedList(tools.map((t) => t.name ?? ''));
    const changing = problem.changing.length;
    const reading = problem.reading.length;
    const consequence =
      problem.hints.readOnlyHint === true
        ? `${names(problem.changing)} ${byCount(changing, 'claims', 'claim')} to be read-only: a client may run ${byCount(changing, 'it', 'them')} unasked, and composite tools calling ${byCount(changing, 'it', 'them')} may be advertised as read-only.`
        : `${names(problem.reading)} ${byCount(reading, 'is', 'are')} declared as if ${byCount(reading, 'it', 'they')} changed things, and every composite tool calling ${byCount(reading, 'it', 'them')} gets the stamp's floor.`;
    return (
      `All ${problem.tools.length} tools ${where} share one set of hints: give each tool its own. ` +
      `They all declare ${hintsWords(problem.hints)}, though some read and ` +
      'some change things: likely one default stamped on every tool. Give them their own hints upstream or in ' +
      `the gateway. By their names or descriptions ${names(problem.reading)} ${byCount(reading, 'reads', 'read')} and ` +
      `${names(problem.changing)} ${byCount(changing, 'changes', 'change')} something, so the hints cannot be right for ` +
      `all of them. ${consequence} Report it upstream; meanwhile override the tools' annotations in the gateway that serves ` +
      'them (`aggregation.tools[].overrides.TOOL: {description: ..., annotations: {...}}`; an override needs a description ' +
      'or a name besides its annotations).'
    );
  },
};

export const rule = defineRule({
  id: 'hints/stamped',
  defaultSeverity: 'warning',
  summary: `Every tool of a server (${STAMP_MIN_TOOLS} or more) declares one identical set of hints, though some read and some change things.`,
  kinds: ['tool-catalog'],
  messages,
  check(ctx) {
    reportShare(ctx, messages, 'hints/stamped', hintAuditOf(ctx), (problem) => ({
      messageId: 'stamped',
      data: problem,
      span: problem.span,
      related: [
        ...firstItems(problem.reading).shown.map((t) => ({
          span: (t.nameNode ?? t.node).span,
          message: `"${t.name ?? ''}" reads, by its words`,
        })),
        ...firstItems(problem.changing).shown.map((t) => ({
          span: (t.nameNode ?? t.node).span,
          message: `"${t.name ?? ''}" changes something, by its words`,
        })),
      ],
    }));
  },
});
