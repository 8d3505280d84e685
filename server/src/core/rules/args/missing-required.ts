// args/missing-required: a tool step that leaves out an argument the backend tool requires. The
// backend rejects the call, so the step fails (and with it the workflow, unless onError says
// otherwise). A property with a default is never missing; `null` counts as missing.
import { floorOf } from '../../floor/workflowFloor.js';
import { placeholderFor } from '../../jsonschema/arguments.js';
import { topLevelProperties } from '../../jsonschema/properties.js';
import { stepKey, workflowsOf } from '../../model/workflow.js';
import { getPair, isScalar, type Pair } from '../../parse/nodes.js';
import { insertPairs, renderInlineValue, replaceValue, type EditContext, type InsertEntry } from '../../text/mappingEdits.js';
import type { Fix, TextEdit } from '../../types.js';
import type { Rule } from '../rule.js';
import { WORKFLOW_KINDS } from '../rule.js';

export const rule: Rule = {
  id: 'args/missing-required',
  defaultSeverity: 'error',
  summary: 'A tool step lacks an argument the tool requires.',
  kinds: WORKFLOW_KINDS,
  check(ctx) {
    const edit: EditContext = { text: ctx.file.source.text, json: ctx.file.language !== 'yaml' };
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const entry of floorOf(ctx, workflow).entries) {
        const { step, tool, stepId } = entry.step;
        const schema = tool?.tool.inputSchema;
        if (!tool || !isObject(schema) || !step.tool) continue;
        const argumentsPair = stepKey(step, 'arguments');
        const args = step.arguments;
        // `arguments` written as something else (a template string, a list) is the schema rules' business.
        const emptyKey = argumentsPair && isScalar(argumentsPair.value) && argumentsPair.value.value === null;
        if (argumentsPair && !args && !emptyKey) continue;
        const properties = topLevelProperties(schema);
        const absent: string[] = [];
        const nulls: Pair[] = [];
        const names: string[] = [];
        for (const property of properties.properties.values()) {
          if (!property.required || 'default' in property.schema) continue;
          const pair = getPair(args, property.name);
          if (!pair) absent.push(property.name);
          else if (isScalar(pair.value) && pair.value.value === null) nulls.push(pair);
          else continue;
          names.push(property.name);
        }
        if (names.length === 0) continue;

        const quoted = names.map((n) => `"${n}"`);
        const list = quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
        const nullNote = nulls.length ? ` (${nulls.map((p) => `"${String(p.key.value)}"`).join(', ')} ${nulls.length === 1 ? 'is' : 'are'} null, which counts as missing)` : '';
        const message =
          `Step "${stepId}": ${step.toolText} requires ${list}, ` +
          `which the arguments lack${nullNote}. The backend rejects the call and the step fails.`;

        const placeholder = (name: string) => renderInlineValue(placeholderFor(properties.properties.get(name)!.schema, schema));
        const edits: TextEdit[] = nulls.map((p) => replaceValue(p.value!, placeholder(String(p.key.value))));
        const entries: InsertEntry[] = absent.map((name) => ({ key: name, value: { inline: placeholder(name) } }));
        let insertion: TextEdit | undefined;
        if (entries.length) {
          if (args) insertion = insertPairs(edit, args, entries);
          else if (emptyKey) insertion = undefined; // `arguments:` with nothing after it: no layout to follow
          else insertion = insertPairs(edit, step.node, [{ key: 'arguments', value: { entries } }], stepKey(step, 'tool'));
        }
        const fixes: Fix[] = [];
        if (!entries.length || insertion) {
          fixes.push({
            title: names.length === 1 ? `Add the required argument "${names[0]}"` : `Add the required arguments ${names.join(', ')}`,
            safe: false,
            edits: insertion ? [...edits, insertion] : edits,
          });
        }
        ctx.report({ message, span: argumentsPair ? argumentsPair.key.span : step.tool.span, fixes });
      }
    }
  },
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
