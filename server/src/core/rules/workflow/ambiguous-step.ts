import { getPair, type MapNode } from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import { editContextOf, insertPairs, plainEntry } from '../../edit/mappingEdits.js';
import type { Fix } from '../../types.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

/**
 * A step with both `tool` and `message` and no `type`. ToolHive's validator would refuse it as
 * ambiguous (ValidateStepType), but it never sees such a step: the CLI loader sets `type: tool` on
 * every step that names a tool first (YAMLLoader.processWorkflowStep), and the CRDs default `type`
 * to `tool` before the operator reads the resource. So the step runs as a tool call and its message
 * is never shown: a warning, since the author may have meant a question.
 */
export const rule = defineRule({
  id: 'workflow/ambiguous-step',
  defaultSeverity: 'warning',
  summary: '`tool` and `message` without an explicit `type`: a tool call whose message is ignored.',
  kinds: WORKFLOW_KINDS,
  messages: {
    /** `defaulted`: who makes it a tool step, in the document's dialect. */
    toolAndMessage: ({ defaulted }: { defaulted: string }) =>
      'This step has `tool` and `message` but no `type`: add `type: elicitation` or `type: tool`. ' +
      'It runs as a tool call and its message is never shown: ' +
      `${defaulted}, before any check could call it ambiguous. If it should ask the user, add \`type: elicitation\` ` +
      '(the tool is then ignored); otherwise add `type: tool` and remove `message`.',
  },
  check(ctx) {
    const target = editContextOf(ctx.file);
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const step of workflow.steps) {
        if (!isAmbiguous(step.node)) continue;
        const tool = getPair(step.node, 'tool')!;
        const message = getPair(step.node, 'message')!;
        const [later, earlier] = tool.key.span.start > message.key.span.start ? [tool, message] : [message, tool];
        const anchor = getPair(step.node, 'id') ?? earlier;
        const fixes: Fix[] = [];
        // An empty `type:` already there would need replacing, not a second key: no fix then.
        for (const type of getPair(step.node, 'type') ? [] : (['tool', 'elicitation'] as const)) {
          const edit = insertPairs(target, step.node, [plainEntry(target, 'type', type)], anchor);
          if (edit) fixes.push({ title: `Add \`type: ${type}\``, safe: false, edits: [edit] });
        }
        const defaulted =
          ctx.doc.kind === 'vmcp-config'
            ? "ToolHive's loader makes every step that names a tool a `type: tool` step"
            : 'the CRD sets `type: tool` on a step that leaves it out';
        ctx.report({
          messageId: 'toolAndMessage',
          data: { defaulted },
          span: later.key.span,
          related: [{ span: earlier.key.span, message: `\`${earlier.key.value}\` is here` }],
          fixes,
        });
      }
    }
  },
});

/**
 * `tool` and `message` both set and `type` absent or empty, in either dialect (the loader and the
 * CRD both make it a tool step). Shared with workflow/field-ignored, which leaves such a step's
 * `message` to this rule.
 */
export function isAmbiguous(node: MapNode): boolean {
  const type = getPair(node, 'type');
  const typeValue = type?.value?.type === 'scalar' ? type.value.value : undefined;
  if (type && typeValue !== null && typeValue !== '' && typeValue !== undefined) return false;
  const set = (key: string) => {
    const value = getPair(node, key)?.value;
    return (
      value !== undefined &&
      value !== null &&
      !(value.type === 'scalar' && (value.value === null || value.value === ''))
    );
  };
  return set('tool') && set('message');
}
