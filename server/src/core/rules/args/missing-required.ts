// args/missing-required: a tool step or call that leaves out an argument the tool requires. The
// tool refuses the call, so a step fails (and with it the workflow, unless onError says otherwise).
// A property with a default is never missing; `null` counts as missing. The fix adds the arguments
// with a placeholder of the right type. The check itself is calls/arguments.ts (shared by the
// three args rules, for workflow steps, recorded calls and envelopes' inner arguments).
import { ARGUMENT_KINDS, argumentProblemsOf, type MissingArguments } from '../../calls/arguments.js';
import { byCount, listOf, quotedList } from '../../text/words.js';
import type { Fix } from '../../types.js';
import { calledToolWords, subjectWords } from '../../wording/callSubjects.js';
import { defineRule, problemsOf } from '../rule.js';
import { LIMITS } from '../../limits.js';

export const rule = defineRule({
  id: 'args/missing-required',
  defaultSeverity: 'error',
  summary: 'A tool step or call lacks an argument the tool requires.',
  kinds: ARGUMENT_KINDS,
  messages: {
    /** The analysis's problem is the data: the call site, the arguments missing, those given as null. */
    missing: (problem: MissingArguments) => message(problem),
  },
  check(ctx) {
    for (const problem of problemsOf(argumentProblemsOf(ctx), 'args/missing-required')) {
      ctx.report({ messageId: 'missing', data: problem, span: problem.span, fixes: fixes(problem) });
    }
  },
});

function message({ place, names, nulls }: MissingArguments): string {
  const nullNote = nulls.length
    ? ` ${quotedList(nulls)} ${byCount(nulls.length, 'is', 'are')} null, which counts as missing.`
    : '';
  const consequence =
    place.origin === 'step' ? 'The backend rejects the call and the step fails.' : 'The tool refuses the call.';
  return (
    `${subjectWords(place.subject)}: ${calledToolWords(place)} requires ${quotedList(names)}: add ${byCount(names.length, 'it', 'them')}. ` +
    `The arguments lack ${names.length === 1 ? 'it' : 'them'}.${nullNote} ${consequence}`
  );
}

function fixes({ names, edits }: MissingArguments): Fix[] {
  if (!edits) return [];
  const title =
    names.length === 1
      ? `Add the required argument "${names[0]}"`
      : `Add the required arguments ${listOf(names, LIMITS.messageItems)}`;
  return [{ title, safe: false, edits }];
}
