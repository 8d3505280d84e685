// args/wrong-type: a literal argument the tool's schema rejects, validated with ajv in the schema's
// dialect. A workflow step's arguments are first coerced as ToolHive coerces them (a string that
// parses as the declared number or boolean is fine), and its template strings are only known at run
// time and skipped; a recorded call's JSON is checked as written. Nulls (they count as absent) and
// arguments the schema does not declare are other rules' findings. The check itself is
// calls/arguments.ts.
import { ARGUMENT_KINDS, argumentProblemsOf, type WrongArgument } from '../../calls/arguments.js';
import { editContextOf, replaceScalarFixes } from '../../edit/mappingEdits.js';
import { issueWords, pathText } from '../../jsonschema/arguments.js';
import { isScalar, toValue } from '../../parse/nodes.js';
import { calledToolWords, subjectWords } from '../../wording/callSubjects.js';
import { defineRule, problemsOf } from '../rule.js';

export const rule = defineRule({
  id: 'args/wrong-type',
  defaultSeverity: 'error',
  summary: "A literal argument the tool's schema rejects.",
  kinds: ARGUMENT_KINDS,
  messages: {
    /** The analysis's problem is the data: the argument, what the schema says of it, and the value. */
    wrongType: (problem: WrongArgument) => message(problem),
  },
  check(ctx) {
    const edit = editContextOf(ctx.file);
    for (const problem of problemsOf(argumentProblemsOf(ctx), 'args/wrong-type')) {
      const { node, closestAllowed } = problem;
      const fixes =
        closestAllowed !== undefined && isScalar(node)
          ? replaceScalarFixes(edit, node, [closestAllowed], (value) => `Change to "${value}"`)
          : [];
      ctx.report({ messageId: 'wrongType', data: problem, span: problem.span, ...(fixes.length ? { fixes } : {}) });
    }
  },
});

function message({ place, issue, node }: WrongArgument): string {
  const refuses = place.origin === 'step' ? 'rejects the call and the step fails' : 'refuses the call';
  const argument = `${subjectWords(place.subject)}: argument "${pathText(issue.path)}"`;
  const words = issueWords(issue, toValue(node));
  // A list of allowed values would push the advice off the row: the headline says to pick one, the list follows.
  const headline =
    issue.keyword === 'enum'
      ? `${argument} is not an allowed value: use one of those listed. It ${words}.`
      : issue.keyword === 'pattern'
        ? `${argument} does not match the schema's pattern: fix the value. It ${words}.`
        : `${argument} ${words}.`;
  return `${headline} The tool ${calledToolWords(place)} ${refuses}.`;
}
