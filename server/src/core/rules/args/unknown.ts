// args/unknown: an argument the tool's input schema does not declare. Most servers drop such
// arguments without a word, so a typo like `max_lenght` means the value never arrives; a schema
// with `additionalProperties: false` makes the server reject the call (then: an error).
import { floorOf } from '../../floor/workflowFloor.js';
import { topLevelProperties } from '../../jsonschema/properties.js';
import { workflowsOf } from '../../model/workflow.js';
import { keyText } from '../../parse/nodes.js';
import { renameKey, type EditContext } from '../../text/mappingEdits.js';
import { closestN } from '../../text/suggest.js';
import type { Fix } from '../../types.js';
import type { Rule } from '../rule.js';
import { WORKFLOW_KINDS } from '../rule.js';

export const rule: Rule = {
  id: 'args/unknown',
  defaultSeverity: 'warning',
  summary: "An argument the tool's schema does not declare (error when it forbids extra properties).",
  kinds: WORKFLOW_KINDS,
  check(ctx) {
    const edit: EditContext = { text: ctx.file.source.text, json: ctx.file.language !== 'yaml' };
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const entry of floorOf(ctx, workflow).entries) {
        const { step, tool, stepId } = entry.step;
        const schema = tool?.tool.inputSchema;
        const args = step.arguments;
        if (!tool || !args || !isObject(schema)) continue;
        // A schema that accepts extra properties on purpose, or lists them in a way we cannot enumerate.
        if (isObject(schema.additionalProperties) || schema.additionalProperties === true) continue;
        const properties = topLevelProperties(schema);
        if (properties.open) continue;
        const declared = [...properties.properties.keys()];
        const given = new Set(args.pairs.map(keyText));
        for (const pair of args.pairs) {
          const name = keyText(pair);
          if (properties.properties.has(name)) continue;
          // Suggest only properties not already given, so a fix never makes a duplicate key.
          const suggestions = closestN(name, declared.filter((d) => !given.has(d)), 3);
          const fixes: Fix[] = [];
          for (const suggestion of suggestions) {
            const change = renameKey(edit, pair, suggestion);
            if (change) fixes.push({ title: `Rename the argument to "${suggestion}"`, safe: false, edits: [change] });
          }
          const known = declared.length ? ` It takes ${declared.map((d) => `"${d}"`).join(', ')}.` : ' It takes no arguments.';
          const didYouMean = suggestions.length ? ` Did you mean "${suggestions[0]}"?` : known;
          const toolName = step.toolText ?? tool.resolvedName;
          if (properties.closed) {
            ctx.report({
              message:
                `Step "${stepId}": ${toolName} has no argument "${name}", and its schema forbids any other ` +
                `(additionalProperties: false): the server rejects the call and the step fails.${didYouMean}`,
              span: pair.key.span,
              severity: 'error',
              fixes,
            });
          } else {
            ctx.report({
              message:
                `Step "${stepId}": ${toolName} has no argument "${name}"; most servers drop unknown arguments without ` +
                `a word, so this value never reaches the tool.${didYouMean}`,
              span: pair.key.span,
              fixes,
            });
          }
        }
      }
    }
  },
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
