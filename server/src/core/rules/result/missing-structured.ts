// result/missing-structured: a recorded successful result of a tool that declares an outputSchema,
// without structuredContent. MCP requires such a tool to return structured content that fits the
// schema; clients that validate (the official SDKs do) turn this result into an error. Results with
// `isError: true` are exempt: their text is for the model, not for validation.
import { callsOf } from '../../calls/calls.js';
import { isMap } from '../../parse/nodes.js';
import { defineRule } from '../rule.js';
import { subjectWords, type CallSubject } from '../../wording/callSubjects.js';

export const rule = defineRule({
  id: 'result/missing-structured',
  defaultSeverity: 'error',
  summary: 'A successful recorded result of a tool with an outputSchema lacks structuredContent.',
  kinds: ['tool-calls'],
  messages: {
    /** `tool`: the tool in words, with its namespace when dynamic. */
    noStructuredContent: ({ subject, tool }: { subject: CallSubject; tool: string }) =>
      `${subjectWords(subject)}: the result lacks structuredContent: record it, or set isError: true. ` +
      `${tool} declares an outputSchema, so a successful result must carry structuredContent that fits it, ` +
      'and this one has none. Clients that validate results reject it as an error. Record the structuredContent the tool ' +
      'returned, or mark a failed call with isError: true.',
  },
  check(ctx) {
    for (const site of callsOf(ctx).calls) {
      const result = site.result;
      const tool = site.tool;
      if (!result || !tool || tool.outputSchema === undefined || result.isError) continue;
      if (!isMap(result.pair.value) || result.structured) continue;
      const who = tool.namespace !== undefined ? `${tool.name} (namespace "${tool.namespace}")` : tool.name;
      ctx.report({
        messageId: 'noStructuredContent',
        data: { subject: site.subject, tool: who },
        span: result.pair.key.span,
      });
    }
  },
});
