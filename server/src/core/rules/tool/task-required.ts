// tool/task-required: a recorded plain tools/call of a tool that declares `execution.taskSupport:
// required` (MCP 2025-11-25, basic/utilities/tasks "Tool-level negotiation"). Such a tool MUST be
// called as a task (`params.task`), and the server MUST answer a plain call with -32601, so the
// recorded call cannot have worked; the official TypeScript SDK v1 client refuses to send it at all
// (its callTool points to the task API instead). Only the shapes that are MCP messages can say
// whether a call was a task (tools/call params, a JSON-RPC request); from 2026-07-28 on, tasks are
// an extension the server may start on its own, and `execution` is gone.
import { callsOf } from '../../calls/calls.js';
import { getPair, isMap } from '../../parse/nodes.js';
import { defineRule } from '../rule.js';
import { subjectWords, type CallSubject } from '../../wording/callSubjects.js';

const REVISION_2026 = '2026-07-28';

export const rule = defineRule({
  id: 'tool/task-required',
  defaultSeverity: 'error',
  summary: 'A recorded plain call of a tool that requires task execution (`taskSupport: required`).',
  kinds: ['tool-calls'],
  messages: {
    /** `tool`: the tool's name. */
    plainCall: ({ subject, tool }: { subject: CallSubject; tool: string }) =>
      `${subjectWords(subject)}: the tool requires a task, this call is plain: send it with \`task\`. ` +
      `${tool} declares \`execution.taskSupport: required\`, so the server must refuse a call without \`params.task\` ` +
      '(-32601), and the official TypeScript SDK client (v1) will not send one (it points to its task API instead).',
  },
  check(ctx) {
    for (const site of callsOf(ctx).calls) {
      if (site.shape !== 'tools-call' && site.shape !== 'jsonrpc') continue;
      const tool = site.tool;
      if (!tool || tool.taskSupport !== 'required' || !site.name) continue;
      if (tool.revision !== undefined && tool.revision >= REVISION_2026) continue;
      if (getPair(site.container, 'task')) continue;
      // A recorded failure says the same as this finding.
      if (site.result && isMap(site.result.pair.value) && site.result.isError) continue;
      ctx.report({ messageId: 'plainCall', data: { subject: site.subject, tool: tool.name }, span: site.name.span });
    }
  },
});
