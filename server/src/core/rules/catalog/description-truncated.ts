// A runtime with dynamic namespaces shows the model a catalog of its dynamic tools (names and
// descriptions, no schemas) and cuts each description to 200 code points there, ending it in
// "... [truncated]". Only a lookup of the one tool shows the rest, so the model chooses a tool
// from the first 185 code points.
import { getPair, isScalar } from '../../parse/nodes.js';
import { defineRule } from '../rule.js';
import { catalogDeclarationsOf, describeTool, type ToolDecl } from '../../model/catalogDeclarations.js';

const CATALOG_DESCRIPTION_MAX = 200;
const SUFFIX_LENGTH = '... [truncated]'.length;

export const rule = defineRule({
  id: 'catalog/description-truncated',
  defaultSeverity: 'info',
  summary: "A dynamic tool's description over 200 characters: runtimes cut it in the catalog the model reads.",
  kinds: ['tool-catalog'],
  messages: {
    /** `length`: the description's length; `tool`: the tool it describes. */
    tooLong: ({ length, tool }: { length: number; tool: ToolDecl }) =>
      `This description is ${length} characters long, over ${CATALOG_DESCRIPTION_MAX}: put what matters first, or shorten it. ` +
      `It is the description of ${describeTool(tool)}. In the catalog of dynamic tools the model ` +
      `reads, the runtime cuts it to ${CATALOG_DESCRIPTION_MAX} characters (the first ${CATALOG_DESCRIPTION_MAX - SUFFIX_LENGTH} ` +
      'and "... [truncated]"); the rest is only seen once the model looks the tool up. Put what the model needs to pick ' +
      'this tool at the start.',
  },
  check(ctx) {
    for (const tool of catalogDeclarationsOf(ctx).tools) {
      if (!tool.namespace) continue;
      const pair = getPair(tool.node, 'description');
      if (!pair || !isScalar(pair.value) || typeof pair.value.value !== 'string') continue;
      // The runtime counts code points, not UTF-16 units.
      const length = [...pair.value.value].length;
      if (length <= CATALOG_DESCRIPTION_MAX) continue;
      ctx.report({
        messageId: 'tooLong',
        data: { length, tool },
        span: pair.value.span,
      });
    }
  },
});
