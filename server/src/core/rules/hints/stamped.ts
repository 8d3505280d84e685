// One identical set of hints on every tool of a server (or of one dynamic namespace), though the
// tools' own words say some read and some change things: a default stamped wholesale, so the hints
// say nothing about each tool, and every floor built on them is only as right as the stamp.
import { hintAuditOf, STAMP_MIN_TOOLS } from '../../audit/hints.js';
import { firstItems, quotedList } from '../../text/words.js';
import { hintsWords } from '../../wording/hints.js';
import { reportShare, type Rule } from '../rule.js';

export const rule: Rule = {
  id: 'hints/stamped',
  defaultSeverity: 'warning',
  summary: `Every tool of a server (${STAMP_MIN_TOOLS} or more) declares one identical set of hints, though some read and some change things.`,
  kinds: ['tool-catalog'],
  check(ctx) {
    reportShare(ctx, 'hints/stamped', hintAuditOf(ctx), (problem) => {
      const where = problem.namespace !== undefined ? `of namespace "${problem.namespace}" of server "${problem.server}"` : `of server "${problem.server}"`;
      const names = (tools: typeof problem.reading) => quotedList(tools.map((t) => t.name ?? ''));
      const readOnlyStamp = problem.hints.readOnlyHint === true;
      const consequence = readOnlyStamp
        ? `${names(problem.changing)} claim${problem.changing.length === 1 ? 's' : ''} to be read-only: a client may run ${problem.changing.length === 1 ? 'it' : 'them'} unasked, and composite tools calling ${problem.changing.length === 1 ? 'it' : 'them'} may be advertised as read-only.`
        : `${names(problem.reading)} ${problem.reading.length === 1 ? 'is' : 'are'} declared as if ${problem.reading.length === 1 ? 'it' : 'they'} changed things, and every composite tool calling ${problem.reading.length === 1 ? 'it' : 'them'} gets the stamp's floor.`;
      return {
        message:
          `All ${problem.tools.length} tools ${where} share one set of hints: give each tool its own. ` +
          `They all declare ${hintsWords(problem.hints)}, though some read and ` +
          'some change things: likely one default stamped on every tool. Give them their own hints upstream or in ' +
          `the gateway. By their names or descriptions ${names(problem.reading)} read${problem.reading.length === 1 ? 's' : ''} and ` +
          `${names(problem.changing)} change${problem.changing.length === 1 ? 's' : ''} something, so the hints cannot be right for ` +
          `all of them. ${consequence} Report it upstream; meanwhile override the tools' annotations in the gateway that serves ` +
          'them (`aggregation.tools[].overrides.TOOL: {description: ..., annotations: {...}}`; an override needs a description ' +
          'or a name besides its annotations).',
        span: problem.span,
        related: [
          ...firstItems(problem.reading).shown.map((t) => ({ span: (t.nameNode ?? t.node).span, message: `"${t.name ?? ''}" reads, by its words` })),
          ...firstItems(problem.changing).shown.map((t) => ({ span: (t.nameNode ?? t.node).span, message: `"${t.name ?? ''}" changes something, by its words` })),
        ],
      };
    });
  },
};
