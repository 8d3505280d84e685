// The top-level keys of an MCP Tool. The catalog schema keeps the Tool object open on purpose
// (servers add keys), so this rule, not schema/unknown-key, reports the others: both SDK clients
// drop unknown keys while parsing tools/list, so whatever they hold never reaches a client.
import { getPair } from '../../parse/nodes.js';
import { closest } from '../../text/suggest.js';
import type { Rule } from '../rule.js';
import { replaceScalarEdit } from '../schema/validate.js';
import { catalogDeclarationsOf, describeTool } from './declarations.js';

export const TOOL_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', 'execution', '_meta'] as const;

/** Other formats' spellings of the same fields: Anthropic's `input_schema`, OpenAI's `parameters`... */
export const TOOL_FIELD_SYNONYMS: Record<string, string> = {
  input_schema: 'inputSchema',
  parameters: 'inputSchema',
  params: 'inputSchema',
  schema: 'inputSchema',
  input: 'inputSchema',
  inputs: 'inputSchema',
  arguments: 'inputSchema',
  output_schema: 'outputSchema',
  output: 'outputSchema',
  returns: 'outputSchema',
  annotation: 'annotations',
  hints: 'annotations',
  meta: '_meta',
  metadata: '_meta',
  icon: 'icons',
  displayName: 'title',
  display_name: 'title',
  label: 'title',
  desc: 'description',
  summary: 'description',
};

const FOREIGN: Record<string, string> = {
  input_schema: "(the Anthropic API's spelling)",
  parameters: "(the OpenAI function-calling spelling)",
};

/** The field an unknown tool key most likely means, if any. */
export function suggestToolField(key: string): string | undefined {
  return closest(key, TOOL_FIELDS, { synonyms: TOOL_FIELD_SYNONYMS });
}

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
        const base =
          `\`${key}\` is not a field of an MCP tool (${describeTool(tool)}). MCP clients drop unknown keys while reading the ` +
          'tool list, so nothing in it reaches them.';
        const suggestion = suggestToolField(key);
        if (suggestion && !getPair(tool.node, suggestion)) {
          const edit = replaceScalarEdit(ctx.file.source.text, pair.key, suggestion);
          ctx.report({
            message: `${base} Did you mean \`${suggestion}\`${Object.hasOwn(FOREIGN, key) ? ` ${FOREIGN[key]!}` : ''}?`,
            span: pair.key.span,
            ...(edit ? { fixes: [{ title: `Rename \`${key}\` to \`${suggestion}\``, safe: false, edits: [edit] }] } : {}),
          });
          continue;
        }
        const extra = suggestion
          ? ` It looks like a second \`${suggestion}\`, which the tool already has.`
          : ' Vendor data belongs under `_meta`.';
        ctx.report({ message: base + extra, span: pair.key.span });
      }
    }
  },
};
