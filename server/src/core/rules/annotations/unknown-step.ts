// annotations/unknown-step: a tool step whose annotations are unknown. The floor then assumes the
// worst for it, so the composite can never be advertised as read-only, non-destructive or
// closed-world. Only reported when the composite declares `annotations` (otherwise it is noise), and
// only for a reference that reaches a tool: one that does not resolve, or whose server has no
// catalog, is tool/unknown's finding on the same range (one root cause, one finding), and a
// malformed one is schema/invalid-value's; the contradiction, when there is one, names such a step
// as deciding.
import { hiddenByText } from '../../gateway/words.js';
import { toolStepsOf, type ResolvedStep } from '../../gateway/steps.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

const TAINT =
  'The floor assumes the worst for it: this composite tool cannot be advertised as read-only, non-destructive or closed-world';

export const rule = defineRule({
  id: 'annotations/unknown-step',
  defaultSeverity: 'info',
  summary: 'A step whose tool has no known annotations, tainting the floor.',
  kinds: WORKFLOW_KINDS,
  messages: {
    /** The step calls a tool that declares no annotations. */
    noAnnotations: (step: ResolvedStep) => message(step),
    /** The step calls a tool the advertising filter hides, whose annotations ToolHive does not read. */
    hidden: (step: ResolvedStep) => message(step),
  },
  check(ctx) {
    for (const { workflow, step: s } of toolStepsOf(ctx)) {
      if (!workflow.annotations || !s.step.tool || !reachesATool(s)) continue;
      ctx.report({
        messageId: s.cause === 'no-annotations' ? 'noAnnotations' : 'hidden',
        data: s,
        span: s.step.tool.span,
      });
    }
  },
});

/** The causes this rule owns: the reference reaches a tool, whose annotations still do not count. */
function reachesATool(s: ResolvedStep): boolean {
  return s.cause === 'hidden' || s.cause === 'no-annotations';
}

function message(s: ResolvedStep): string {
  const unknown = `The annotations of "${s.toolRef}" are unknown:`;
  switch (s.cause) {
    case 'no-annotations': {
      const workload = s.tool?.workload ?? '<workload>';
      const name = s.tool?.originalName ?? '<tool>';
      return (
        `Step "${s.stepId}" calls a tool without annotations: declare them, or override them in the gateway. ` +
        `${unknown} the tool declares none. ${TAINT}. Declare them in the server, or patch them in the gateway with ` +
        `aggregation.tools[{workload: ${workload}}].overrides.${name}.annotations (beside a \`description\`: ToolHive refuses an override without a name or description).`
      );
    }
    case 'hidden':
    default:
      return (
        `Step "${s.stepId}" calls a hidden tool, whose annotations do not count: list it in the filter. ` +
        `${unknown} the tool is hidden from clients (${s.tool ? hiddenByText(s.tool) : 'by the advertising filter'}), and ToolHive reads the annotations of advertised ` +
        `tools only. ${TAINT}. Advertising the tool (adding it to the filter) makes its annotations count.`
      );
  }
}
