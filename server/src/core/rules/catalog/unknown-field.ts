// The top-level keys of an MCP Tool. The catalog schema keeps the Tool object open on purpose
// (servers add keys), so this rule, not schema/unknown-key, reports the others: both SDK clients
// drop unknown keys while parsing tools/list, so whatever they hold never reaches a client.
import { getPair } from '../../parse/nodes.js';
import { editContextOf, replaceScalarText } from '../../edit/mappingEdits.js';
import { defineRule } from '../rule.js';
import {
  catalogDeclarationsOf,
  describeTool,
  FOREIGN_TOOL_FIELDS,
  suggestToolField,
  TOOL_FIELDS,
  type ToolDecl,
} from '../../model/catalogDeclarations.js';

/** Why an unknown field is lost, and where it is. */
function dropped(tool: ToolDecl): string {
  return `It is in ${describeTool(tool)}. MCP clients drop unknown keys while reading the tool list, so nothing in it reaches them.`;
}

export const rule = defineRule({
  id: 'catalog/unknown-field',
  defaultSeverity: 'warning',
  summary: 'An unknown key in a tool declaration.',
  kinds: ['tool-catalog'],
  messages: {
    /** `suggestion`: the MCP field probably meant (not written in this tool). */
    misspelt: ({ key, suggestion, tool }: { key: string; suggestion: string; tool: ToolDecl }) =>
      `\`${key}\` is not a field of an MCP tool: did you mean \`${suggestion}\`? ${Object.hasOwn(FOREIGN_TOOL_FIELDS, key) ? `\`${key}\` is ${FOREIGN_TOOL_FIELDS[key]!.slice(1, -1)}. ` : ''}${dropped(tool)}`,
    /** `suggestion`: the MCP field it seems to repeat, written in this tool too. */
    secondSpelling: ({ key, suggestion, tool }: { key: string; suggestion: string; tool: ToolDecl }) =>
      `\`${key}\` is not a field of an MCP tool: it looks like a second \`${suggestion}\`; keep one. ${dropped(tool)}`,
    unknownField: ({ key, tool }: { key: string; tool: ToolDecl }) =>
      `\`${key}\` is not a field of an MCP tool: remove it, or move vendor data under \`_meta\`. ${dropped(tool)}`,
  },
  check(ctx) {
    for (const tool of catalogDeclarationsOf(ctx).tools) {
      for (const pair of tool.node.pairs) {
        const key = String(pair.key.value);
        if ((TOOL_FIELDS as readonly string[]).includes(key)) continue;
        const suggestion = suggestToolField(key);
        if (suggestion && !getPair(tool.node, suggestion)) {
          const edit = replaceScalarText(editContextOf(ctx.file), pair.key, suggestion);
          ctx.report({
            messageId: 'misspelt',
            data: { key, suggestion, tool },
            span: pair.key.span,
            ...(edit
              ? { fixes: [{ title: `Rename \`${key}\` to \`${suggestion}\``, safe: false, edits: [edit] }] }
              : {}),
          });
          continue;
        }
        if (suggestion)
          ctx.report({ messageId: 'secondSpelling', data: { key, suggestion, tool }, span: pair.key.span });
        else ctx.report({ messageId: 'unknownField', data: { key, tool }, span: pair.key.span });
      }
    }
  },
});
