// args/wrong-type: a literal argument the backend tool's schema rejects. The value is first coerced
// as ToolHive coerces it (a string that parses as the declared number or boolean is fine), then
// validated with ajv in the schema's dialect. Strings holding templates are only known at run time
// and are skipped, as are nulls (they count as absent) and arguments the schema does not declare.
import { floorOf } from '../../floor/workflowFloor.js';
import { coerceLikeToolHive, describeValue, isTemplateString, pathText, typeWords } from '../../jsonschema/arguments.js';
import { topLevelProperties } from '../../jsonschema/properties.js';
import { validateAgainstSchema, type SchemaIssue } from '../../jsonschema/validate.js';
import { workflowsOf } from '../../model/workflow.js';
import { getPair, isScalar, nodeAtPath, toValue, walk, type MapNode, type Node } from '../../parse/nodes.js';
import { replaceScalarText, type EditContext } from '../../text/mappingEdits.js';
import { closest } from '../../text/suggest.js';
import type { Fix, Span } from '../../types.js';
import type { Rule } from '../rule.js';
import { WORKFLOW_KINDS } from '../rule.js';

// Keywords whose verdict on a mapping or list does not depend on what its templates render to.
const SHAPE_KEYWORDS = new Set(['type', 'required', 'additionalProperties', 'minItems', 'maxItems', 'minProperties', 'maxProperties']);

export const rule: Rule = {
  id: 'args/wrong-type',
  defaultSeverity: 'error',
  summary: "A literal argument the tool's schema rejects.",
  kinds: WORKFLOW_KINDS,
  check(ctx) {
    const edit: EditContext = { text: ctx.file.source.text, json: ctx.file.language !== 'yaml' };
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const entry of floorOf(ctx, workflow).entries) {
        const { step, tool, stepId } = entry.step;
        const schema = tool?.tool.inputSchema;
        const args = step.arguments;
        if (!tool || !args || !isObject(schema)) continue;
        const declared = topLevelProperties(schema).properties;
        const result = validateAgainstSchema(schema, coerceLikeToolHive(schema, toValue(args)));
        // A schema that does not compile is catalog/invalid-schema's finding.
        if (!result.compiled) continue;
        const seen = new Set<string>();
        for (const issue of result.issues) {
          const key = dedupeKey(issue);
          if (!relevant(issue) || seen.has(key)) continue;
          const first = issue.path[0];
          if (first === undefined || !declared.has(String(first))) continue;
          const node = nodeAtPath(args, issue.path);
          if (!node || (isScalar(node) && (node.value === null || isTemplateString(node.value)))) continue;
          if (!isScalar(node) && hasTemplate(node) && !SHAPE_KEYWORDS.has(issue.keyword)) continue;
          seen.add(key);
          const value = toValue(node);
          ctx.report({
            message: `Step "${stepId}": argument "${pathText(issue.path)}" ${problem(issue, value)}; ${step.toolText ?? tool.resolvedName} rejects the call and the step fails.`,
            span: spanFor(args, issue, node),
            fixes: enumFix(edit, issue, node),
          });
        }
      }
    }
  },
};

/** One finding per value; a mapping may lack several properties or carry several extra ones. */
function dedupeKey(issue: SchemaIssue): string {
  if (issue.keyword === 'required') return `${issue.instancePath}\0required\0${String(issue.params.missingProperty)}`;
  if (issue.keyword === 'additionalProperties') return `${issue.instancePath}\0extra\0${String(issue.params.additionalProperty)}`;
  return issue.instancePath;
}

/** Branch errors of anyOf/oneOf are noise next to the summary error; so is the `if` wrapper. */
function relevant(issue: SchemaIssue): boolean {
  if (issue.keyword === 'if' || issue.keyword === 'error') return false;
  return !/\/(anyOf|oneOf)\/\d+\//.test(issue.schemaPath);
}

function problem(issue: SchemaIssue, value: unknown): string {
  const p = issue.params;
  switch (issue.keyword) {
    case 'type':
      return `is ${describeValue(value)}, but the tool wants ${typeWords(p.type)}`;
    case 'enum': {
      const allowed = Array.isArray(p.allowedValues) ? p.allowedValues.map((v) => JSON.stringify(v)).join(', ') : '';
      return `is ${describeValue(value)}, which is not one of ${allowed}`;
    }
    case 'const':
      return `is ${describeValue(value)}, but must be ${JSON.stringify(p.allowedValue)}`;
    case 'required':
      return `lacks the property "${String(p.missingProperty)}" it requires`;
    case 'additionalProperties':
      return `has a property "${String(p.additionalProperty)}" that its schema does not allow`;
    case 'format':
      return `is ${describeValue(value)}, which is not a valid ${String(p.format)}`;
    case 'anyOf':
      return `is ${describeValue(value)}, which matches none of the forms the tool accepts`;
    case 'oneOf':
      return Array.isArray(p.passingSchemas)
        ? `is ${describeValue(value)}, which matches more than one of the forms the tool accepts (it must match exactly one)`
        : `is ${describeValue(value)}, which matches none of the forms the tool accepts`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'pattern':
    case 'multipleOf':
      return `is ${describeValue(value)}, but ${issue.message}`;
    default:
      return `fails the schema's "${issue.keyword}" check (${issue.message})`;
  }
}

/** The extra property's key for additionalProperties; otherwise the value itself. */
function spanFor(args: MapNode, issue: SchemaIssue, node: Node): Span {
  if (issue.keyword === 'additionalProperties') {
    const pair = getPair(nodeAtPath(args, issue.path), String(issue.params.additionalProperty));
    if (pair) return pair.key.span;
  }
  return node.span;
}

function enumFix(edit: EditContext, issue: SchemaIssue, node: Node): Fix[] | undefined {
  if (issue.keyword !== 'enum' || !isScalar(node) || typeof node.value !== 'string') return undefined;
  const allowed = Array.isArray(issue.params.allowedValues) ? issue.params.allowedValues.filter((v): v is string => typeof v === 'string') : [];
  const best = closest(node.value, allowed);
  if (best === undefined) return undefined;
  const change = replaceScalarText(edit, node, best);
  return change ? [{ title: `Change to "${best}"`, safe: false, edits: [change] }] : undefined;
}

function hasTemplate(node: Node): boolean {
  let found = false;
  walk(node, (n) => {
    if (isScalar(n) && isTemplateString(n.value)) found = true;
  });
  return found;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
