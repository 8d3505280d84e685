// tool/name-conflict: a composite tool named like a backend tool the gateway advertises. ToolHive
// checks this per session when it lists tools and, on any clash, leaves out EVERY composite tool
// of the session (not just the one that clashes).
import { advertisedNamed, dotForm, gatewayOf } from '../../gateway/gateway.js';
import { floorOf } from '../../floor/workflowFloor.js';
import { workflowsOf } from '../../model/workflow.js';
import type { RelatedInfo } from '../../types.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

export const rule = defineRule({
  id: 'tool/name-conflict',
  defaultSeverity: 'error',
  summary: "A composite tool's name equals an advertised backend tool's: the gateway drops every composite tool.",
  kinds: WORKFLOW_KINDS,
  messages: {
    /** `backend`: the backend tool as the gateway names it (and where that name comes from). */
    nameConflict: ({ name, workload, backend }: { name: string; workload: string; backend: string }) =>
      `Composite tool "${name}" is also a backend tool's name: rename one of the two. ` +
      `It has the same name as the backend tool the gateway advertises for workload ` +
      `"${workload}" (${backend}). When a session lists tools, ToolHive sees the clash and ` +
      `leaves out every composite tool of the session, not only this one. Rename the composite tool, or hide or rename the backend tool in aggregation.tools.`,
  },
  check(ctx) {
    const gateway = gatewayOf(ctx);
    for (const workflow of workflowsOf(ctx).workflows) {
      const name = workflow.nameText;
      if (!name || !workflow.name) continue;
      const clash = advertisedNamed(gateway, name);
      if (!clash) continue;
      // ToolHive first leaves out composites with a step it cannot route; those take no part in the check.
      const unroutable = floorOf(ctx, workflow).entries.some(
        (e) => e.step.resolution?.kind === 'unresolved' || e.step.resolution?.kind === 'dynamic',
      );
      if (unroutable) continue;
      const backendName =
        clash.overriddenName !== clash.originalName
          ? `${clash.overriddenName}, renamed from "${clash.originalName}" by an override`
          : clash.originalName;
      const related: RelatedInfo[] = [
        {
          span: clash.tool.origin.span,
          file: clash.tool.origin.file,
          message: `the backend tool ${dotForm(clash)}, advertised as "${clash.resolvedName}"`,
        },
      ];
      ctx.report({
        messageId: 'nameConflict',
        data: { name, workload: clash.workload, backend: backendName },
        span: workflow.name.span,
        related,
      });
    }
  },
});
