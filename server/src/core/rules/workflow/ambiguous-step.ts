import { getPair, type MapNode } from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import { editContextOf, insertPairs, plainEntry } from '../../edit/mappingEdits.js';
import type { Fix } from '../../types.js';
import type { Rule } from '../rule.js';
import { WORKFLOW_KINDS, type DocumentKind } from '../../types.js';

/** A step with both `tool` and `message` and no `type`: ToolHive cannot tell what it is. */
export const rule: Rule = {
  id: 'workflow/ambiguous-step',
  defaultSeverity: 'error',
  summary: '`tool` and `message` without an explicit `type`.',
  kinds: WORKFLOW_KINDS,
  check(ctx) {
    const target = editContextOf(ctx.file);
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const step of workflow.steps) {
        if (!isAmbiguous(step.node, ctx.doc.kind)) continue;
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
        ctx.report({
          message:
            'This step has both `tool` and `message` but no `type`, so it could be a tool call or an elicitation: ToolHive refuses ' +
            'to load the workflow. Add `type: tool` (the message is then ignored) or `type: elicitation` (the tool is then ignored), ' +
            'and remove the field you do not need.',
          span: later.key.span,
          related: [{ span: earlier.key.span, message: `\`${earlier.key.value}\` is here` }],
          fixes,
        });
      }
    }
  },
};

/**
 * `tool` and `message` both set and `type` absent or empty, in a CLI configuration (ValidateStepType
 * refuses it). Not in a Kubernetes resource: the CRD defaults a step's `type` to `tool`
 * (+kubebuilder:default=tool on WorkflowStepConfig.Type), and the API server fills it before the
 * operator validates, so such a step is a tool step whose `message` does nothing (workflow/field-ignored
 * says so). Shared with workflow/field-ignored.
 */
export function isAmbiguous(node: MapNode, kind: DocumentKind | null | undefined): boolean {
  if (kind !== 'vmcp-config') return false;
  const type = getPair(node, 'type');
  const typeValue = type?.value?.type === 'scalar' ? type.value.value : undefined;
  if (type && typeValue !== null && typeValue !== '' && typeValue !== undefined) return false;
  const set = (key: string) => {
    const value = getPair(node, key)?.value;
    return value !== undefined && value !== null && !(value.type === 'scalar' && (value.value === null || value.value === ''));
  };
  return set('tool') && set('message');
}
