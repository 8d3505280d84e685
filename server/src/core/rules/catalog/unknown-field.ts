// The top-level keys of an MCP Tool. The catalog schema keeps the Tool object open on purpose
// (servers add keys), so this rule, not schema/unknown-key, reports the others: both SDK clients
// drop unknown keys while parsing tools/list, so whatever they hold never reaches a client.
import { getPair } from '../../parse/nodes.js';
import { editContextOf, replaceScalarText } from '../../edit/mappingEdits.js';
import type { Rule } from '../rule.js';
import { catalogDeclarationsOf, describeTool, FOREIGN_TOOL_FIELDS, suggestToolField, TOOL_FIELDS } from '../../model/catalogDeclarations.js';

export const rule: Rule = {
  id: 'catalog/unknown-field',
  defaultSeverity: 'warning',
  summary: 'An unknown key in a tool declaration.',
  kinds: ['tool-catalog'],
  check(ctx) {
    for (const tool of catalogDeclarationsOf(ctx).tools) {
      for (const pair of tool.node.pairs) {
        const key = String(pair.key.value);
        if ((TOOL_FIELDS as readonly string[]).includes(key)) continue;
        const why =
          `It is in ${describeTool(tool)}. MCP clients drop unknown keys while reading the ` +
          'tool list, so nothing in it reaches them.';
        const base = `\`${key}\` is not a field of an MCP tool`;
        const suggestion = suggestToolField(key);
        if (suggestion && !getPair(tool.node, suggestion)) {
          const edit = replaceScalarText(editContextOf(ctx.file), pair.key, suggestion);
          ctx.report({
            message: `${base}: did you mean \`${suggestion}\`? ${Object.hasOwn(FOREIGN_TOOL_FIELDS, key) ? `\`${key}\` is ${FOREIGN_TOOL_FIELDS[key]!.slice(1, -1)}. ` : ''}${why}`,
            span: pair.key.span,
            ...(edit ? { fixes: [{ title: `Rename \`${key}\` to \`${suggestion}\``, safe: false, edits: [edit] }] } : {}),
          });
          continue;
        }
        const headline = suggestion
          ? `${base}: it looks like a second \`${suggestion}\`; keep one.`
          : `${base}: remove it, or move vendor data under \`_meta\`.`;
        ctx.report({ message: `${headline} ${why}`, span: pair.key.span });
      }
    }
  },
};
