// annotations/unknown-step: a tool step whose annotations are unknown. The floor then assumes the
// worst for it, so the composite can never be advertised as read-only, non-destructive or
// closed-world. Only reported when the composite declares `annotations` (otherwise it is noise).
import { hiddenByText } from '../../gateway/words.js';
import { toolStepsOf, type ResolvedStep } from '../../gateway/steps.js';
import type { Rule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';
import { addCatalogAdviceFor } from '../../wording/catalogAdvice.js';
import { LIMITS } from '../../limits.js';
import { listOf } from '../../text/words.js';

const TAINT =
  'so the floor assumes the worst for it: this composite tool cannot be advertised as read-only, non-destructive or closed-world';

export const rule: Rule = {
  id: 'annotations/unknown-step',
  defaultSeverity: 'info',
  summary: 'A step whose tool has no known annotations, tainting the floor.',
  kinds: WORKFLOW_KINDS,
  check(ctx) {
    for (const { workflow, step: s } of toolStepsOf(ctx)) {
      if (!workflow.annotations || s.cause === undefined || s.cause === 'no-tool' || !s.step.tool) continue;
      ctx.report({ message: message(s), span: s.step.tool.span });
    }
  },
};

function message(s: ResolvedStep): string {
  const head = `Step "${s.stepId}": the annotations of "${s.toolRef}" are unknown`;
  switch (s.cause) {
    case 'no-catalog': {
      const workloads = s.resolution?.kind === 'no-catalog' ? s.resolution.workloads : [];
      const servers = workloads.length ? ` (no catalog for ${listOf(workloads.map((w) => w.serverName), LIMITS.messageItems)})` : ' (it is in no catalog)';
      return (
        `${head}${servers}, ${TAINT}. ${addCatalogAdviceFor(workloads)} Or declare the hints in an annotation override ` +
        `(aggregation.tools[].overrides.<tool>.annotations, beside a \`description\`: ToolHive refuses an override without a name or description), which the gateway lays over the backend's.`
      );
    }
    case 'no-annotations': {
      const workload = s.tool?.workload ?? '<workload>';
      const name = s.tool?.originalName ?? '<tool>';
      return (
        `${head}: the tool declares none, ${TAINT}. Declare them in the server, or patch them in the gateway with ` +
        `aggregation.tools[{workload: ${workload}}].overrides.${name}.annotations (beside a \`description\`: ToolHive refuses an override without a name or description).`
      );
    }
    case 'hidden':
      return (
        `${head}: the tool is hidden from clients (${s.tool ? hiddenByText(s.tool) : 'by the advertising filter'}), and ToolHive reads the annotations of advertised ` +
        `tools only, ${TAINT}. Advertising the tool (adding it to the filter) makes its annotations count.`
      );
    case 'dynamic':
    case 'unresolved':
    default:
      return `${head}: the reference does not resolve to a listed backend tool, ${TAINT}. Fix the reference (see tool/unknown).`;
  }
}
