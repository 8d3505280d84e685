// aggregation/incomplete-override: an override in aggregation.tools[].overrides that sets neither
// `name` nor `description`. ToolHive's validator (`validateToolOverrides` in
// pkg/vmcp/config/validator.go) refuses the whole configuration for it, even when the override
// patches annotations; the CLI at load, a VirtualMCPServer when its vMCP pod starts (the operator
// does not check overrides, the pod runs the same validator). The gateway does not apply such an
// override (gateway/gateway.ts), so its annotations do not move the safety floor either.
import { editContextOf, insertPairs, plainEntry } from '../../edit/mappingEdits.js';
import { gatewayOf } from '../../gateway/gateway.js';
import { aggregationOf } from '../../model/aggregation.js';
import { isMap } from '../../parse/nodes.js';
import type { Fix } from '../../types.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  id: 'aggregation/incomplete-override',
  defaultSeverity: 'error',
  summary: 'A tool override sets neither `name` nor `description` (annotations alone are refused).',
  kinds: ['vmcp-config', 'vmcp-server'],
  messages: {
    /** `patches`: it sets annotations only (else nothing at all); `moment`: when ToolHive refuses it. */
    noDescriptionOrName: ({ tool, patches, moment }: { tool: string; patches: boolean; moment: string }) =>
      [
        `The override of "${tool}" needs a \`description\` or a new \`name\`: add one.`,
        `It sets neither (${patches ? 'it only patches annotations' : 'it changes nothing'}).`,
        `ToolHive's validator refuses an override without one of them (validateToolOverrides): ${moment}.`,
        ...(patches ? ['Until then Tool Lens does not count its annotations for the safety floor.'] : []),
      ].join(' '),
  },
  check(ctx) {
    const settings = aggregationOf(ctx);
    const moment =
      settings.dialect === 'kubernetes'
        ? 'the operator accepts the resource, but the vMCP pod runs the same validator on the configuration it is given and does not start'
        : '`thv vmcp validate` and `vmcp serve` refuse the file';
    for (const config of settings.aggregation.tools.values()) {
      for (const override of config.overrides.values()) {
        if (!override.refused) continue;
        const value = override.pair.value;
        const patches = override.annotations !== undefined;
        const fixes: Fix[] = [];
        const backend = gatewayOf(ctx)
          .workloads.get(config.workload)
          ?.server?.tools.find((t) => t.name === override.toolName);
        if (isMap(value) && backend?.description) {
          const target = editContextOf(ctx.file);
          const edit = insertPairs(target, value, [plainEntry(target, 'description', backend.description)]);
          if (edit)
            fixes.push({ title: "Add `description` with the backend's own description", safe: false, edits: [edit] });
        }
        ctx.report({
          messageId: 'noDescriptionOrName',
          data: { tool: override.toolName, patches, moment },
          span: override.pair.key.span,
          fixes,
        });
      }
    }
  },
});
