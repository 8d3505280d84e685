import {
  getMap,
  getNode,
  getPair,
  getString,
  isMap,
  isScalar,
  isSeq,
  type MapNode,
  type Node,
} from '../../parse/nodes.js';
import { workflowsOf } from '../../model/workflow.js';
import { templatesOf } from '../../model/templates.js';
import { refusedAtStart } from '../../wording/refusalMoments.js';
import { delimiterProblem } from '../../templates/delimiters.js';
import { defineRule, type RuleContext } from '../rule.js';
import { WORKFLOW_KINDS, type DocumentKind } from '../../types.js';

/** ToolHive's maxOutputPropertyDepth: the top-level properties are at depth 0. */
const MAX_DEPTH = 10;

/**
 * What ToolHive's start-up check of output properties refuses beyond their fields (which the
 * schema rules check): nesting deeper than ten levels, a value whose `{{` and `}}` do not pair up
 * by its own count, and a `default` the property's type does not take. All three are
 * validateOutputProperty (composer/output_validator.go), run from ValidateWorkflow when the server
 * starts: the load-time validator and the operator let them pass.
 */
const messages = {
  tooDeep: ({ name, depth, kind }: { name: string; depth: number; kind: DocumentKind | null }) =>
    `Output property "${name}" is nested ${depth + 1} levels deep, over ${MAX_DEPTH + 1}: flatten the output. ` +
    `ToolHive allows ${MAX_DEPTH + 1} levels: ${refusedAtStart(kind)}. ` +
    'Flatten the output, or return the deeper part as one `object` value rendered with `json`.',
  unpairedBraces: ({ problem, kind }: { problem: keyof typeof DELIMITER_WORDS; kind: DocumentKind | null }) =>
    `This value's \`{{\` and \`}}\` do not pair up: write literal braces as \`{{"}}"}}\`. ` +
    `Here there is ${DELIMITER_WORDS[problem]}: ${refusedAtStart(kind)}. ` +
    'ToolHive counts `{{` and `}}` in output values, each `{{` closed by a `}}` before the next.',
  /** `given`: the JSON type of the default; `takes`: the types the property's `type` accepts. */
  defaultType: ({
    type,
    given,
    takes,
    kind,
  }: {
    type: string;
    given: string;
    takes: readonly string[];
    kind: DocumentKind | null;
  }) =>
    `${capitalised(article(type))} \`${type}\` property cannot have ${article(given)} ${given} \`default\`: ` +
    `give ${takes
      .filter((t) => t !== 'string')
      .map((t) => `${article(t)} ${t}`)
      .join(' or ')}. ` +
    `${capitalised(refusedAtStart(kind))}. A string ToolHive converts when it is used also works.`,
};

export const rule = defineRule({
  id: 'workflow/output-property',
  defaultSeverity: 'error',
  summary:
    'An output property ToolHive refuses at start: nested too deep, unpaired `{{`/`}}`, or a `default` its type does not take.',
  kinds: WORKFLOW_KINDS,
  messages,
  check(ctx) {
    // Values our template parser already refuses are template/syntax's: one mistake, one finding.
    const unparsable = new Set(
      templatesOf(ctx)
        .strings.filter((t) => t.owner === 'output' && t.errors.length > 0)
        .map((t) => t.scalar),
    );
    for (const workflow of workflowsOf(ctx).workflows) {
      const properties = getMap(workflow.output, 'properties');
      if (properties) checkProperties(ctx, properties, 0, unparsable);
    }
  },
});

function checkProperties(
  ctx: RuleContext<typeof messages>,
  properties: MapNode,
  depth: number,
  unparsable: ReadonlySet<Node>,
): void {
  for (const pair of properties.pairs) {
    const property = pair.value;
    if (!isMap(property)) continue;
    const name = String(pair.key.value);
    if (depth > MAX_DEPTH) {
      ctx.report({
        messageId: 'tooDeep',
        data: { name, depth, kind: ctx.doc.kind },
        span: pair.key.span,
      });
      continue; // one finding for the branch, not one per level below it
    }
    checkValue(ctx, property, unparsable);
    checkDefault(ctx, property);
    const nested = getMap(property, 'properties');
    if (nested) checkProperties(ctx, nested, depth + 1, unparsable);
  }
}

function checkValue(ctx: RuleContext<typeof messages>, property: MapNode, unparsable: ReadonlySet<Node>): void {
  const value = getNode(property, 'value');
  if (!isScalar(value) || typeof value.value !== 'string' || unparsable.has(value)) return;
  const problem = delimiterProblem(value.value);
  if (!problem) return;
  ctx.report({
    messageId: 'unpairedBraces',
    data: { problem, kind: ctx.doc.kind },
    span: value.span,
  });
}

const DELIMITER_WORDS = {
  nested: 'a `{{` inside another',
  unopened: 'a `}}` that no `{{` opened',
  unclosed: 'a `{{` never closed',
} as const;

/** The JSON types each output type's `default` may have (validateDefaultValueType; JSON numbers are floats there). */
const DEFAULT_TAKES: Record<string, readonly string[]> = {
  integer: ['number', 'string'],
  number: ['number', 'string'],
  boolean: ['boolean', 'string'],
  object: ['object', 'string'],
  array: ['array', 'string'],
};

function checkDefault(ctx: RuleContext<typeof messages>, property: MapNode): void {
  const pair = getPair(property, 'default');
  const type = getString(property, 'type');
  const takes = type === undefined ? undefined : DEFAULT_TAKES[type];
  if (!pair?.value || !takes || type === undefined) return;
  const given = jsonType(pair.value);
  if (given === undefined || given === 'null' || takes.includes(given)) return;
  ctx.report({
    messageId: 'defaultType',
    data: { type, given, takes, kind: ctx.doc.kind },
    span: pair.value.span,
  });
}

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');
const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The JSON type of a node, as ToolHive decodes the raw `default`; undefined when unsure. */
function jsonType(node: Node): string | undefined {
  if (isMap(node)) return 'object';
  if (isSeq(node)) return 'array';
  if (!isScalar(node)) return undefined;
  if (node.value === null) return 'null';
  if (typeof node.value === 'boolean') return 'boolean';
  if (typeof node.value === 'number') return 'number';
  if (typeof node.value === 'string') return 'string';
  return undefined;
}
