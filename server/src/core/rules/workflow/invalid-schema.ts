// A composite tool's `parameters`, or a step's `schema`, that ToolHive's JSON Schema library does
// not compile. config.ValidateCompositeToolConfig → ValidateParameters and ValidateStepTemplates
// both end in ValidateJSONSchema (pkg/vmcp/config/composite_validation.go), which compiles the
// schema with gojsonschema v1.2.0 and fails the whole composite tool when it does not compile. What
// gojsonschema refuses is jsonschema/gojsonschema.ts; this module says it.
import { getPair, isMap } from '../../parse/nodes.js';
import {
  GO_JSON_TYPES,
  goSchemaProblems,
  type GoExpected,
  type GoSchemaProblem,
} from '../../jsonschema/gojsonschema.js';
import { workflowsOf } from '../../model/workflow.js';
import { refusedAtLoad } from '../../wording/refusalMoments.js';
import { WORKFLOW_KINDS } from '../../types.js';
import { defineRule } from '../rule.js';

/** The JSON Schema names of the type names people write from other languages. */
const TYPE_NAMES: ReadonlyMap<string, string> = new Map([
  ['int', 'integer'],
  ['int32', 'integer'],
  ['int64', 'integer'],
  ['long', 'integer'],
  ['uint', 'integer'],
  ['str', 'string'],
  ['text', 'string'],
  ['bool', 'boolean'],
  ['float', 'number'],
  ['double', 'number'],
  ['decimal', 'number'],
  ['float64', 'number'],
  ['dict', 'object'],
  ['map', 'object'],
  ['list', 'array'],
  ['tuple', 'array'],
  ['none', 'null'],
  ['nil', 'null'],
]);

const EXPECTED: Record<GoExpected, string> = {
  string: 'a string',
  number: 'a number',
  count: 'a whole number, 0 or more',
  boolean: 'true or false',
  list: 'a list',
  mapping: 'a mapping',
  schema: 'a mapping (draft-04 takes no boolean)',
  'schema-or-boolean': 'a mapping or a boolean',
  'schema-or-list': 'a schema or a list of schemas',
  type: 'a type name or a list of them',
  'boolean-or-number': 'true, false or a number',
  strings: 'a list of strings',
  dependency: 'a schema or a list of property names',
};

const messages = {
  /** `name`: as written; `suggestion`: the JSON Schema name it likely means, or empty; `field`, `moment`: see notCompiled. */
  typeName: ({
    name,
    suggestion,
    field,
    moment,
  }: {
    name: string;
    suggestion: string;
    field: string;
    moment: string;
  }) =>
    `\`${name}\` is not a JSON Schema type name: ` +
    (suggestion ? `write \`${suggestion}\`.` : 'use one of the seven it has.') +
    ` ToolHive compiles ${field} with gojsonschema, which knows only array, boolean, integer, number, null, object ` +
    `and string, and refuses the schema: ${moment}.`,
  /**
   * `problem`: what does not compile, as a sentence without its period; `detail`: more of it, a
   * sentence or empty; `field`: whose schema; `moment`: when ToolHive refuses it.
   */
  notCompiled: ({
    problem,
    detail,
    field,
    moment,
  }: {
    problem: string;
    detail: string;
    field: string;
    moment: string;
  }) =>
    `${problem}: fix the schema. ${detail}` +
    `ToolHive compiles ${field} with gojsonschema, which refuses this schema: ${moment}.`,
};

export const rule = defineRule({
  id: 'workflow/invalid-schema',
  defaultSeverity: 'error',
  summary: "`parameters` or an elicitation `schema` that ToolHive's JSON Schema library refuses to compile.",
  kinds: WORKFLOW_KINDS,
  messages,
  check(ctx) {
    const moment = refusedAtLoad(ctx.doc.kind);
    // A CLI file reaches ToolHive as written; in a resource the API server may drop null values.
    const nulls = ctx.doc.kind === 'vmcp-config';
    const report = (problem: GoSchemaProblem, field: string): void => {
      if (problem.code === 'typeName') {
        ctx.report({
          messageId: 'typeName',
          data: { name: problem.name, suggestion: suggestionFor(problem.name), field, moment },
          span: problem.span,
        });
      } else {
        const detail = problem.code === 'regex' ? `Go's regexp says: ${problem.reason}. ` : '';
        ctx.report({
          messageId: 'notCompiled',
          data: { problem: words(problem), detail, field, moment },
          span: problem.span,
        });
      }
    };
    for (const workflow of workflowsOf(ctx).workflows) {
      const tool = workflow.nameText ? `composite tool "${workflow.nameText}"` : 'this composite tool';
      // An empty mapping is skipped by ToolHive (thvjson.Map.IsEmpty); the root's `type` and the
      // kinds of its `properties` and `required` are workflow/parameters-not-object's.
      if (isMap(workflow.parameters) && workflow.parameters.pairs.length > 0) {
        for (const problem of goSchemaProblems(workflow.parameters, { nulls, skipRootShape: true }))
          report(problem, `the \`parameters\` of ${tool}`);
      }
      for (const step of workflow.steps) {
        const schema = getPair(step.node, 'schema')?.value;
        if (!isMap(schema) || schema.pairs.length === 0) continue;
        const field = `the \`schema\` of step ${step.idText ? `"${step.idText}"` : `${step.index + 1}`} of ${tool}`;
        for (const problem of goSchemaProblems(schema, { nulls })) report(problem, field);
      }
    }
  },
});

function words(problem: Exclude<GoSchemaProblem, { code: 'typeName' }>): string {
  switch (problem.code) {
    case 'typeTwice':
      return `\`${problem.name}\` is already in this \`type\` list`;
    case 'wrongKind': {
      const expected = EXPECTED[problem.expected];
      if (problem.keyword === '') return `The schema must be ${expected}`;
      return problem.entry
        ? `Each entry of \`${problem.keyword}\` must be ${expected}`
        : `\`${problem.keyword}\` must be ${expected}`;
    }
    case 'notAboveZero':
      return `\`${problem.keyword}\` must be above 0`;
    case 'minOverMax':
      return `\`${problem.min}\` is over \`${problem.max}\``;
    case 'exclusiveWithout':
      return `A true or false \`${problem.keyword}\` needs a \`${problem.needs}\` beside it`;
    case 'repeated':
      return `This value is already in \`${problem.keyword}\``;
    case 'regex':
      return `This ${problem.keyword === 'pattern' ? '`pattern`' : '`patternProperties` key'} is no Go regular expression`;
    case 'ref':
      return problem.found
        ? `\`$ref\` "${problem.ref}" points to something that is no schema`
        : `\`$ref\` "${problem.ref}" points to nothing in this schema`;
  }
}

/** The type name `name` likely means (`Integer`, `int`), or empty. */
function suggestionFor(name: string): string {
  const lower = name.trim().toLowerCase();
  return GO_JSON_TYPES.includes(lower) ? lower : (TYPE_NAMES.get(lower) ?? '');
}
