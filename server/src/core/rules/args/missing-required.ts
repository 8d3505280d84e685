// args/missing-required: a tool step or call that leaves out an argument the tool requires. The
// tool refuses the call, so a step fails (and with it the workflow, unless onError says otherwise).
// A property with a default is never missing; `null` counts as missing. The fix adds the arguments
// with a placeholder of the right type. The check itself is model/argumentCheck.ts (shared by the
// three args rules, for workflow steps, recorded calls and envelopes' inner arguments).
import { ARGUMENT_KINDS, reportArgumentFindings } from '../../calls/arguments.js';
import type { Rule } from '../rule.js';

export const rule: Rule = {
  id: 'args/missing-required',
  defaultSeverity: 'error',
  summary: 'A tool step or call lacks an argument the tool requires.',
  kinds: ARGUMENT_KINDS,
  check: (ctx) => reportArgumentFindings(ctx, 'args/missing-required'),
};
