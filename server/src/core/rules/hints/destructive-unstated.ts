// A catalog tool that is not read-only and leaves `destructiveHint` out: MCP's default makes it
// destructive, and ToolHive's floor counts the missing hint as destructive too.
import { hintAuditOf } from '../../audit/hints.js';
import { describeTool } from '../../model/catalogDeclarations.js';
import { overrideAdvice, toolHeadline } from '../../wording/hintAdvice.js';
import type { HintProblem } from '../../audit/hints.js';
import { defineRule, reportShare } from '../rule.js';

const messages = {
  /** The audit's problem is the data: the tool, and whether it declares readOnlyHint: false. */
  countsAsDestructive: (problem: Extract<HintProblem, { rule: 'hints/destructive-unstated' }>) =>
    toolHeadline(describeTool(problem.tool), problem.tool.name, 'counts as destructive: declare its destructiveHint.') +
    ` It ${problem.readOnlyDeclared ? 'is not read-only and does not declare destructiveHint' : 'declares neither readOnlyHint nor destructiveHint'}; ` +
    'declare whether it destroys anything. Until then it counts as destructive (the MCP default): a client may ask before every call, ' +
    'and every composite tool that calls it gets a destructive safety floor, so none of them may declare ' +
    'destructiveHint: false. If the tool only adds or updates and never deletes or overwrites, declaring ' +
    'destructiveHint: false lifts that for the composites whose other steps are non-destructive too; if it does destroy, ' +
    'declaring destructiveHint: true says so. ' +
    overrideAdvice(problem.tool.name ?? 'TOOL', 'destructiveHint: false'),
};

export const rule = defineRule({
  id: 'hints/destructive-unstated',
  defaultSeverity: 'info',
  summary: 'A catalog tool that is not read-only and omits destructiveHint: it counts as destructive.',
  kinds: ['tool-catalog'],
  messages,
  check(ctx) {
    reportShare(ctx, messages, 'hints/destructive-unstated', hintAuditOf(ctx), (problem) => ({
      messageId: 'countsAsDestructive',
      data: problem,
      span: problem.span,
    }));
  },
});
