// A catalog tool that is not read-only and leaves `destructiveHint` out: MCP's default makes it
// destructive, and ToolHive's floor counts the missing hint as destructive too.
import { hintAuditOf } from '../../audit/hints.js';
import { describeTool } from '../../model/catalogDeclarations.js';
import { overrideAdvice, toolHeadline } from '../../wording/hintAdvice.js';
import type { HintProblem } from '../../audit/hints.js';
import { firstItems } from '../../text/words.js';
import { getPair } from '../../parse/nodes.js';
import { defineRule, reportShare } from '../rule.js';

type Unstated = Extract<HintProblem, { rule: 'hints/destructive-unstated' }>;

const messages = {
  /** Two or more tools of one server that all omit destructiveHint alike: said once, at the server. */
  unstatedOnServer: ({
    whole,
    readOnlyDeclared,
  }: {
    whole: NonNullable<Unstated['whole']>;
    readOnlyDeclared: boolean;
  }) =>
    `${whole.tools.length} tools of server "${whole.server}" count as destructive: declare their destructiveHint. ` +
    `Each ${readOnlyDeclared ? 'is not read-only and does not declare destructiveHint' : 'declares neither readOnlyHint nor destructiveHint'}, ` +
    'so each counts as destructive (the MCP default): a client may ask before every call, and every composite tool ' +
    'that calls one gets a destructive safety floor. Declare destructiveHint: false on those that only add or update, ' +
    'and destructiveHint: true on those that delete or overwrite. ' +
    overrideAdvice('TOOL', 'destructiveHint: false'),
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
    reportShare(ctx, messages, 'hints/destructive-unstated', hintAuditOf(ctx), (problem) =>
      problem.whole
        ? {
            messageId: 'unstatedOnServer',
            data: { whole: problem.whole, readOnlyDeclared: problem.readOnlyDeclared },
            span: problem.span,
            related: firstItems(problem.whole.tools).shown.map((t) => ({
              span: (getPair(t.node, 'annotations')?.key ?? t.nameNode!).span,
              message: `"${t.name ?? ''}" declares no destructiveHint`,
            })),
          }
        : { messageId: 'countsAsDestructive', data: problem, span: problem.span },
    );
  },
});
