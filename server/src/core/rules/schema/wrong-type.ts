// schema/wrong-type: a value of the wrong type. The validation (schema/validate.ts) says which value,
// which types the schema wants, and whether quoting or unquoting it would do; the words here name
// the types and the value (text/jsonWords.ts, the args checks' vocabulary) and say what follows.
import { reportShare, type Rule } from '../rule.js';
import { isMap, isSeq, type Node } from '../../parse/nodes.js';
import { describeValue, typeWords } from '../../text/jsonWords.js';
import { capitalize } from '../../text/words.js';
import { DOCUMENT_KINDS, type DocumentKind, type Fix } from '../../types.js';
import { schemaProblemsOf } from '../../schema/validate.js';
import type { Retype } from '../../schema/problems.js';

export const rule: Rule = {
  id: 'schema/wrong-type',
  defaultSeverity: 'error',
  summary: 'A value of the wrong type.',
  kinds: DOCUMENT_KINDS,
  check(ctx) {
    reportShare(ctx, 'schema/wrong-type', schemaProblemsOf(ctx), (problem) => {
      const expected = typeWords(problem.expected);
      const actual = describeValue(valueOf(problem.node));
      const effect = capitalize(effectOf(problem.kind, problem.inFace));
      if (problem.at === 'document') return { message: `The document must be ${expected}, not ${actual}. ${effect}.`, span: problem.span };
      const message =
        problem.at === 'empty'
          ? `\`${problem.field}\` is empty; it must be ${expected}. ${effect}.`
          : `\`${problem.field}\` must be ${expected}, not ${actual}. ${effect}.`;
      if (!problem.retype) return { message, span: problem.span };
      if (problem.retype.as === 'duration') {
        // Quoting would not do: "30" is no duration either. Which unit is meant is the author's to say.
        return { message: `${message} A duration needs a unit: write ${problem.retype.written}s, ${problem.retype.written}m or ${problem.retype.written}h.`, span: problem.span };
      }
      const { hint, fix } = retypeWords(problem.retype);
      return { message: `${message} ${hint}`, span: problem.span, fixes: [fix] };
    });
  },
};

/** The value as describeValue reads it: a mapping or a list by its shape alone. */
function valueOf(node: Node): unknown {
  if (isMap(node)) return {};
  if (isSeq(node)) return [];
  return node.value;
}

/** The hint at the end of the message and the fix, for a value that only needs its quotes changed. */
function retypeWords(retype: Exclude<Retype, { as: 'duration' }>): { hint: string; fix: Fix } {
  const { written, edit } = retype;
  switch (retype.as) {
    case 'number':
      return { hint: 'Write the number without quotes.', fix: { title: `Write ${written} as a number`, safe: false, edits: [edit] } };
    case 'boolean':
      return { hint: 'Write the boolean without quotes.', fix: { title: `Write ${written} as a boolean`, safe: false, edits: [edit] } };
    case 'string':
      return { hint: 'Put it in quotes to make it a string.', fix: { title: `Quote ${written}`, safe: false, edits: [edit] } };
  }
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
