import { getMap, getNode, isMap, isScalar, type Node } from '../../parse/nodes.js';
import { renameSegmentEdit, templatesOf } from '../../model/templates.js';
import { suggestionBudgetOf } from '../../context.js';
import { closest } from '../../text/suggest.js';
import { LIMITS } from '../../limits.js';
import { listOf } from '../../text/words.js';
import type { Fix } from '../../types.js';
import { defineRule } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

/** The declared parameters, the first few quoted. */
function declaredList(declared: ReadonlySet<string>): string {
  const shown: string[] = [];
  for (const name of declared) {
    if (shown.length >= LIMITS.messageItems) break;
    shown.push(`"${name}"`);
  }
  return listOf(shown, LIMITS.messageItems, declared.size);
}

export const rule = defineRule({
  id: 'template/unknown-param',
  defaultSeverity: 'warning',
  summary: '`.params.X` names a parameter the workflow does not declare.',
  kinds: WORKFLOW_KINDS,
  messages: {
    /** `guess`: the parameter probably meant; else `declared` lists those there are. */
    unknownParam: ({
      name,
      guess,
      declared,
    }: {
      name: string;
      guess: string | undefined;
      declared: ReadonlySet<string>;
    }) =>
      `No parameter "${name}": ${guess !== undefined ? `did you mean "${guess}"?` : 'declare it, or use a declared one.'} ` +
      `The workflow declares no parameter "${name}": clients only send declared parameters, so at run time this renders the text ` +
      `\`<no value>\` without any error.` +
      (guess !== undefined
        ? ''
        : declared.size
          ? ` The declared parameters are ${declaredList(declared)}; declare "${name}" under \`parameters.properties\` or use one of them.`
          : ` Declare "${name}" under \`parameters.properties\`.`),
  },
  check(ctx) {
    const source = ctx.file.source.text;
    // Per workflow, once: a workflow has many templates.
    const declaredOf = new Map<Node | undefined, Set<string> | undefined>();
    for (const template of templatesOf(ctx).strings) {
      const parameters = template.workflow.parameters;
      if (!declaredOf.has(parameters)) declaredOf.set(parameters, declaredParameters(parameters));
      const declared = declaredOf.get(parameters);
      if (!declared) continue;
      for (const reference of template.references) {
        if (reference.root !== 'params') continue;
        const param = reference.segments[1];
        if (!param || declared.has(param.name)) continue;
        const guess = closest(param.name, declared, { budget: suggestionBudgetOf(ctx) });
        const fixes: Fix[] = [];
        const edit = guess !== undefined ? renameSegmentEdit(source, template, reference, 1, guess) : undefined;
        if (edit) fixes.push({ title: `Change to .params.${guess}`, safe: false, edits: [edit] });
        ctx.report({
          messageId: 'unknownParam',
          data: { name: param.name, guess, declared },
          span: param.span,
          fixes,
        });
      }
    }
  },
});

/**
 * The parameter names, or undefined when they cannot be known: a schema that is not a plain
 * object schema, or one that accepts undeclared properties on purpose. No parameters at all (or
 * an empty mapping, which ToolHive skips) declare nothing.
 */
function declaredParameters(parameters: Node | undefined): Set<string> | undefined {
  if (parameters === undefined || (isScalar(parameters) && parameters.value === null)) return new Set();
  if (!isMap(parameters)) return undefined;
  if (parameters.pairs.length === 0) return new Set();
  // A schema that is not an object schema is workflow/parameters-not-object's: its names mean nothing yet.
  const type = getNode(parameters, 'type');
  if (!isScalar(type) || type.value !== 'object') return undefined;
  const additional = getNode(parameters, 'additionalProperties');
  if (additional && !(isScalar(additional) && additional.value === false)) return undefined;
  // Composition keywords can declare properties elsewhere: do not guess.
  for (const keyword of ['allOf', 'anyOf', 'oneOf', '$ref', 'patternProperties'])
    if (getNode(parameters, keyword)) return undefined;
  const properties = getNode(parameters, 'properties');
  if (properties === undefined) return new Set();
  if (!isMap(properties)) return undefined;
  return new Set(getMap(parameters, 'properties')!.pairs.map((p) => String(p.key.value)));
}
