// schema/wrong-type: a value of the wrong type. The validation (schema/validate.ts) says which value,
// which types the schema wants, and whether quoting or unquoting it would do; the words here name
// the types and the value (text/jsonWords.ts, the args checks' vocabulary) and say what follows.
import { defineRule, reportShare } from '../rule.js';
import { isMap, isSeq, type Node } from '../../parse/nodes.js';
import { describeValue, typeWords } from '../../text/jsonWords.js';
import { capitalize } from '../../text/words.js';
import { DOCUMENT_KINDS, type DocumentKind, type Fix } from '../../types.js';
import { schemaProblemsOf } from '../../structure/validate.js';
import type { Retype } from '../../structure/problems.js';

/** `expected`: the types in words; `actual`: the value in words; `effect`: what follows, as a sentence's start. */
interface WrongType {
  field: string;
  /** The value is empty (then `actual` is not said). */
  empty: boolean;
  expected: string;
  actual: string;
  effect: string;
}

const messages = {
  documentType: ({ expected, actual, effect }: Omit<WrongType, 'field' | 'empty'>) =>
    `The document must be ${expected}, not ${actual}. ${effect}.`,
  empty: (data: Omit<WrongType, 'actual' | 'empty'>) => wrongType({ ...data, actual: '', empty: true }),
  wrongType: (data: WrongType) => wrongType(data),
  /** A number written for a duration: which unit is meant is the author's to say. */
  durationUnit: (data: WrongType & { written: string }) =>
    `${wrongType(data)} A duration needs a unit: write ${data.written}s, ${data.written}m or ${data.written}h.`,
  /** The value is right once its quotes change: written as a number, a boolean or a string. */
  quoting: (data: WrongType & { as: 'number' | 'boolean' | 'string' }) => `${wrongType(data)} ${RETYPE_HINT[data.as]}`,
};

function wrongType({ field, empty, expected, actual, effect }: WrongType): string {
  return empty
    ? `\`${field}\` is empty; it must be ${expected}. ${effect}.`
    : `\`${field}\` must be ${expected}, not ${actual}. ${effect}.`;
}

export const rule = defineRule({
  id: 'schema/wrong-type',
  defaultSeverity: 'error',
  summary: 'A value of the wrong type.',
  kinds: DOCUMENT_KINDS,
  messages,
  check(ctx) {
    reportShare(ctx, messages, 'schema/wrong-type', schemaProblemsOf(ctx), (problem) => {
      const expected = typeWords(problem.expected);
      const actual = describeValue(valueOf(problem.node));
      const effect = capitalize(effectOf(problem.kind, problem.inFace));
      if (problem.at === 'document')
        return { messageId: 'documentType', data: { expected, actual, effect }, span: problem.span };
      if (problem.at === 'empty' && !problem.retype)
        return { messageId: 'empty', data: { field: problem.field, expected, effect }, span: problem.span };
      const data = { field: problem.field, empty: problem.at === 'empty', expected, actual, effect };
      if (!problem.retype) return { messageId: 'wrongType', data, span: problem.span };
      // Quoting would not do for a duration: "30" is no duration either.
      if (problem.retype.as === 'duration')
        return { messageId: 'durationUnit', data: { ...data, written: problem.retype.written }, span: problem.span };
      return {
        messageId: 'quoting',
        data: { ...data, as: problem.retype.as },
        span: problem.span,
        fixes: [retypeFix(problem.retype)],
      };
    });
  },
});

/** The value as describeValue reads it: a mapping or a list by its shape alone. */
function valueOf(node: Node): unknown {
  if (isMap(node)) return {};
  if (isSeq(node)) return [];
  return node.value;
}

/** The hint at the end of a message about a value that only needs its quotes changed. */
const RETYPE_HINT = {
  number: 'Write the number without quotes.',
  boolean: 'Write the boolean without quotes.',
  string: 'Put it in quotes to make it a string.',
} as const;

/** The fix of a value that only needs its quotes changed. */
function retypeFix(retype: Exclude<Retype, { as: 'duration' }>): Fix {
  const { written, edit } = retype;
  const title = retype.as === 'string' ? `Quote ${written}` : `Write ${written} as a ${retype.as}`;
  return { title, safe: false, edits: [edit] };
}

/** What a value of the wrong type does at run time, by who reads the document. */
function effectOf(kind: DocumentKind, inFace: boolean): string {
  if (inFace) return 'the runtime cannot read the face as written';
  switch (kind) {
    case 'vmcp-config':
      return "ToolHive's loader cannot decode it and refuses the configuration";
    case 'vmcp-server':
    case 'vmcp-composite':
      return 'Kubernetes rejects the resource: the CRD declares another type';
    case 'tool-catalog':
      return 'MCP clients that check the tool list refuse it, and Tool Lens cannot read it';
    case 'tool-calls':
      return 'MCP never sends or returns it in this shape, so the entry does not describe a real call';
    case 'mcp-servers':
      return 'the client cannot read this entry as written';
    default:
      return 'it cannot be read as written';
  }
}
