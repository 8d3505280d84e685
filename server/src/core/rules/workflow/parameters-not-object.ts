import { getPair, isMap, isScalar, isSeq, type Pair } from '../../parse/nodes.js';
import type { Span } from '../../types.js';
import { workflowsOf } from '../../model/workflow.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

// ToolHive advertises `parameters` verbatim as the tool's MCP inputSchema, and its config loader
// refuses anything but an object schema. A `parameters` that is not a mapping at all is a type
// error for schema/wrong-type; an empty mapping is skipped by ToolHive.
export const rule = defineRule({
  id: 'workflow/parameters-not-object',
  defaultSeverity: 'error',
  summary: '`parameters` is not a JSON Schema with `type: object`.',
  kinds: WORKFLOW_KINDS,
  messages: {
    /** `where`: the composite tool, in words. */
    noType: ({ where }: { where: string }) =>
      `The \`parameters\` of ${where} have no \`type\`: add \`type: object\`. They are the tool's input schema, which must be \`type: object\`: ` +
      'ToolHive refuses to load the configuration.',
    typeNotString: () =>
      `\`parameters.type\` must be the string \`object\`. ToolHive refuses any other value, including a list of types.`,
    typeNotObject: ({ type }: { type: string }) =>
      `\`parameters.type\` is "${type}": use \`type: object\`, each argument under \`properties\`. ` +
      "A tool's input is always an object of named arguments: ToolHive " +
      'refuses to load the configuration. Use `type: object` and describe each argument under `properties`.',
    propertiesNotMap: () =>
      '`parameters.properties` must map each argument name to its schema. ToolHive refuses anything else.',
    requiredNotList: () =>
      '`parameters.required` must be a list of argument names, such as `[a, b]`. ToolHive refuses anything else.',
  },
  check(ctx) {
    for (const workflow of workflowsOf(ctx).workflows) {
      const parameters = workflow.parameters;
      if (!isMap(parameters) || parameters.pairs.length === 0) continue;
      const where = `composite tool${workflow.nameText ? ` "${workflow.nameText}"` : ''}`;
      const typePair = getPair(parameters, 'type');
      if (!typePair) {
        const key = getPair(workflow.node, 'parameters')!.key;
        ctx.report({
          messageId: 'noType',
          data: { where },
          span: key.span,
        });
      } else if (!isScalar(typePair.value) || typeof typePair.value.value !== 'string') {
        ctx.report({
          messageId: 'typeNotString',
          span: spanOf(typePair),
        });
      } else if (typePair.value.value !== 'object') {
        ctx.report({
          messageId: 'typeNotObject',
          data: { type: typePair.value.value },
          span: typePair.value.span,
        });
      }
      const properties = getPair(parameters, 'properties');
      if (properties && !isMap(properties.value)) {
        ctx.report({
          messageId: 'propertiesNotMap',
          span: spanOf(properties),
        });
      }
      const required = getPair(parameters, 'required');
      if (required && !isSeq(required.value)) {
        ctx.report({
          messageId: 'requiredNotList',
          span: spanOf(required),
        });
      }
    }
  },
});

/** The value, or the key when the value is empty (`properties:` with nothing after it). */
function spanOf(pair: Pair): Span {
  return pair.value && pair.value.span.end > pair.value.span.start ? pair.value.span : pair.key.span;
}
