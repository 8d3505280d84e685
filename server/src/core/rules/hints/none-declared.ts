// A catalog tool that declares no hints at all. MCP's defaults then apply: not read-only,
// destructive, open-world; and ToolHive's floor counts the tool as unknown, which is as bad.
import { hintAuditOf } from '../../audit/hints.js';
import { describeTool } from '../../model/catalogDeclarations.js';
import { firstItems } from '../../text/words.js';
import { overrideAdvice, toolHeadline } from '../../wording/hints.js';
import { reportShare, type Rule } from '../rule.js';

export const rule: Rule = {
  id: 'hints/none-declared',
  defaultSeverity: 'info',
  summary: 'A catalog tool that declares no annotation hints: clients and gateways take it as destructive and open-world.',
  kinds: ['tool-catalog'],
  check(ctx) {
    reportShare(ctx, 'hints/none-declared', hintAuditOf(ctx), (problem) => problem.whole ? {
      message:
        `None of the ${problem.whole.tools.length} tools of server "${problem.whole.server}" declares annotations: give them their hints. ` +
        'Declare them upstream or in the gateway. Without them ' +
        'clients and gateways take every one as not read-only, destructive and open-world: a client may ask before every ' +
        'call, and every composite tool that calls one gets a destructive, open-world safety floor. ' +
        overrideAdvice('TOOL', 'readOnlyHint: ..., destructiveHint: ..., openWorldHint: ...'),
      span: problem.span,
      related: firstItems(problem.whole.tools).shown.map((t) => ({ span: t.nameNode!.span, message: `"${t.name ?? ''}" declares no hints` })),
    } : {
      message:
        toolHeadline(describeTool(problem.tool), problem.tool.name, `declares ${problem.titleOnly ? 'a title but no hints' : 'no annotations'}: give it its hints, upstream or in the gateway.`) +
        ' Without them clients and gateways take it as not read-only, destructive and ' +
        'open-world: a client may ask before every call, and every composite tool that calls it gets a destructive, ' +
        'open-world safety floor. ' +
        overrideAdvice(problem.tool.name ?? 'TOOL', 'readOnlyHint: ..., destructiveHint: ..., openWorldHint: ...'),
      span: problem.span,
    });
  },
};
