import { getPair, isMap } from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';
import { capitalize } from '../../text/words.js';
import { refusedAtStart } from '../../wording/refusalMoments.js';

/**
 * An elicitation step without a schema, or with an empty one: ToolHive's start-up conversion
 * (convertElicitation in pkg/vmcp/server/workflow_converter.go) refuses both, since an empty
 * mapping counts as no schema there (thvjson.Map.IsEmpty). The load-time validator does not look.
 */
export const rule = defineRule({
  id: 'workflow/elicitation-needs-schema',
  defaultSeverity: 'error',
  summary: 'An elicitation step without `schema`, or with an empty one.',
  kinds: WORKFLOW_KINDS,
  messages: {
    /** `accepted`: the moment ToolHive refuses it, as a sentence's start. */
    noSchema: ({ id, accepted }: { id: string; accepted: string }) =>
      `Elicitation step "${id}" has no \`schema\`. ${accepted}: it needs the schema to know what to ask the ` +
      'user. Add a `schema` of `type: object` with a property per answer.',
    emptySchema: ({ id, accepted }: { id: string; accepted: string }) =>
      `Elicitation step "${id}" has an empty \`schema\`, which ToolHive counts as none. ${accepted}. ` +
      'Write a `schema` of `type: object` with a property per answer.',
  },
  check(ctx) {
    const accepted = capitalize(refusedAtStart(ctx.doc.kind));
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const step of workflow.steps) {
        if (step.type !== 'elicitation' || !step.typeNode) continue;
        const schema = getPair(step.node, 'schema');
        if (!schema) {
          ctx.report({
            messageId: 'noSchema',
            data: { id: step.idText ?? '?', accepted },
            span: step.typeNode.span,
          });
        } else if (isMap(schema.value) && schema.value.pairs.length === 0) {
          ctx.report({
            messageId: 'emptySchema',
            data: { id: step.idText ?? '?', accepted },
            span: schema.value.span,
          });
        }
        // An empty `schema:` is there but not a mapping: schema/wrong-type says so.
      }
    }
  },
});
