// args/unknown: an argument the tool's input schema does not declare. Most servers drop such
// arguments without a word, so a typo like `max_lenght` means the value never arrives; a schema
// with `additionalProperties: false` makes the server reject the call (then: an error). The fix
// renames the key to a declared argument. The check itself is calls/arguments.ts.
import { ARGUMENT_KINDS, argumentProblemsOf, type UnknownArgument } from '../../calls/arguments.js';
import { editContextOf, renameKey } from '../../edit/mappingEdits.js';
import type { Fix } from '../../types.js';
import { calledToolWords, subjectWords } from '../../wording/callSubjects.js';
import { defineRule, problemsOf } from '../rule.js';
import { LIMITS } from '../../limits.js';
import { listOf } from '../../text/words.js';

export const rule = defineRule({
  id: 'args/unknown',
  defaultSeverity: 'warning',
  summary: "An argument the tool's schema does not declare (error when it forbids extra properties).",
  kinds: ARGUMENT_KINDS,
  messages: {
    /** The analysis's problem is the data: the argument, the tool, and whether its schema forbids others. */
    unknownArgument: (problem: UnknownArgument) => message(problem),
  },
  check(ctx) {
    const edit = editContextOf(ctx.file);
    for (const problem of problemsOf(argumentProblemsOf(ctx), 'args/unknown')) {
      const fixes: Fix[] = [];
      for (const suggestion of problem.suggestions) {
        const change = renameKey(edit, problem.pair, suggestion);
        if (change) fixes.push({ title: `Rename the argument to "${suggestion}"`, safe: false, edits: [change] });
      }
      ctx.report({
        messageId: 'unknownArgument',
        data: problem,
        span: problem.pair.key.span,
        // A schema that forbids other properties makes the server refuse the call.
        ...(problem.closed ? { severity: 'error' as const } : {}),
        fixes,
      });
    }
  },
});

function message({ place, name, declared, suggestions, closed }: UnknownArgument): string {
  const known = declared.length
    ? ` It takes ${listOf(
        declared.slice(0, LIMITS.messageItems).map((d) => `"${d}"`),
        LIMITS.messageItems,
        declared.length,
      )}.`
    : ' It takes no arguments.';
  const headline = `${subjectWords(place.subject)}: no argument "${name}"${suggestions.length ? `; did you mean "${suggestions[0]}"?` : ': remove it.'}`;
  // The why says what the server does with it; the headline has already named the argument.
  const tool = calledToolWords(place);
  const why = closed
    ? ` The schema of ${tool} forbids any argument it does not list (additionalProperties: false): the server rejects the call${place.origin === 'step' ? ' and the step fails' : ''}.`
    : ` Most servers drop unknown arguments without a word, so this value never reaches ${tool}.`;
  return `${headline}${why}${suggestions.length ? '' : known}`;
}
