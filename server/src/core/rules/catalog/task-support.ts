// `execution.taskSupport` (2025-11-25, basic/utilities/tasks "Tool-level negotiation") against the
// server's capabilities. Without `tasks.requests.tools.call` among them, clients MUST NOT call any
// of the server's tools as a task, whatever the tool says; and a tool that says "required" MUST be
// called as a task, the server answering -32601 to a plain call. Such a tool can never be called.
// "optional" without the capability only promises nothing. The check needs the capabilities the
// catalog records (a capture's `serverCapabilities`, a snapshot's `fetched.capabilities`): where
// none are recorded it says nothing. From 2026-07-28 on, `execution` is catalog/unknown-field's.
import { getPair, isMap, isScalar } from '../../parse/nodes.js';
import { defineRule } from '../rule.js';
import {
  catalogDeclarationsOf,
  describeTool,
  REVISION_2026,
  revisionAtLeast,
  type ToolDecl,
} from '../../model/catalogDeclarations.js';

export const rule = defineRule({
  id: 'catalog/task-support',
  defaultSeverity: 'error',
  summary: "A tool's `execution.taskSupport` that the server's capabilities make impossible or meaningless.",
  kinds: ['tool-catalog'],
  messages: {
    requiredWithoutCapability: ({ tool }: { tool: ToolDecl }) =>
      `This tool requires a task, but its server announces no tool tasks: add them or allow plain calls. ` +
      'As it is, no client can call it. ' +
      `${describeTool(tool).replace(/^./, (c) => c.toUpperCase())} declares \`taskSupport: required\`, so the server must refuse a ` +
      "plain call (-32601); and the server's capabilities lack `tasks.requests.tools.call`, so clients must not call it as a " +
      'task either.',
    optionalWithoutCapability: ({ tool }: { tool: ToolDecl }) =>
      `This tool offers a task, but its server announces no tool tasks: announce them, or drop \`execution\`. ` +
      'Clients call it plainly. ' +
      `${describeTool(tool).replace(/^./, (c) => c.toUpperCase())} declares \`taskSupport: optional\`; without ` +
      "`tasks.requests.tools.call` among the server's capabilities clients must not use tasks with its tools, so the " +
      'declaration promises nothing.',
  },
  check(ctx) {
    for (const tool of catalogDeclarationsOf(ctx).tools) {
      const capabilities = tool.server.capabilities;
      if (capabilities === undefined || revisionAtLeast(tool.server, REVISION_2026)) continue;
      const execution = getPair(tool.node, 'execution')?.value;
      if (!isMap(execution)) continue;
      const support = getPair(execution, 'taskSupport')?.value;
      if (!isScalar(support) || (support.value !== 'required' && support.value !== 'optional')) continue;
      if (toolTasksAnnounced(capabilities)) continue;
      if (support.value === 'required')
        ctx.report({ messageId: 'requiredWithoutCapability', data: { tool }, span: support.span });
      // Harmless: the tool works, only the declaration is idle.
      else ctx.report({ severity: 'info', messageId: 'optionalWithoutCapability', data: { tool }, span: support.span });
    }
  },
});

/** Whether server capabilities include `tasks.requests.tools.call`. */
function toolTasksAnnounced(capabilities: unknown): boolean {
  const at = (value: unknown, key: string): unknown =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)[key]
      : undefined;
  const call = at(at(at(at(capabilities, 'tasks'), 'requests'), 'tools'), 'call');
  return typeof call === 'object' && call !== null;
}
