// A catalog tool that declares no hints at all. MCP's defaults then apply: not read-only,
// destructive, open-world; and ToolHive's floor counts the tool as unknown, which is as bad.
import { hintAuditOf, type HintProblem } from '../../audit/hints.js';
import { describeTool } from '../../model/catalogDeclarations.js';
import { firstItems } from '../../text/words.js';
import { overrideAdvice, toolHeadline } from '../../wording/hintAdvice.js';
import { defineRule, reportShare } from '../rule.js';

type NoneDeclared = Extract<HintProblem, { rule: 'hints/none-declared' }>;

const messages = {
  /** Not one tool of the server declares hints (`whole`): said once, at the server. */
  noneOnServer: ({ whole }: { whole: NonNullable<NoneDeclared['whole']> }) =>
    `None of the ${whole.tools.length} tools of server "${whole.server}" declares annotations: give them their hints. ` +
    'Declare them upstream or in the gateway. Without them ' +
    'clients and gateways take every one as not read-only, destructive and open-world: a client may ask before every ' +
    'call, and every composite tool that calls one gets a destructive, open-world safety floor. ' +
    overrideAdvice('TOOL', 'readOnlyHint: ..., destructiveHint: ..., openWorldHint: ...'),
  /** One tool declares no hints (`titleOnly`: its annotations hold a title alone). */
  noneOnTool: (problem: NoneDeclared) =>
    toolHeadline(
      describeTool(problem.tool),
      problem.tool.name,
      `declares ${problem.titleOnly ? 'a title but no hints' : 'no annotations'}: give it hints, upstream or in the gateway.`,
    ) +
    ' Without them clients and gateways take it as not read-only, destructive and ' +
    'open-world: a client may ask before every call, and every composite tool that calls it gets a destructive, ' +
    'open-world safety floor. ' +
    overrideAdvice(problem.tool.name ?? 'TOOL', 'readOnlyHint: ..., destructiveHint: ..., openWorldHint: ...'),
};

export const rule = defineRule({
  id: 'hints/none-declared',
  defaultSeverity: 'info',
  summary:
    'A catalog tool that declares no annotation hints: clients and gateways take it as destructive and open-world.',
  kinds: ['tool-catalog'],
  messages,
  check(ctx) {
    reportShare(ctx, messages, 'hints/none-declared', hintAuditOf(ctx), (problem) =>
      problem.whole
        ? {
            messageId: 'noneOnServer',
            data: { whole: problem.whole },
            span: problem.span,
            related: firstItems(problem.whole.tools).shown.map((t) => ({
              span: t.nameNode!.span,
              message: `"${t.name ?? ''}" declares no hints`,
            })),
          }
        : { messageId: 'noneOnTool', data: problem, span: problem.span },
    );
  },
});
