// args/unknown: an argument the tool's input schema does not declare. Most servers drop such
// arguments without a word, so a typo like `max_lenght` means the value never arrives; a schema
// with `additionalProperties: false` makes the server reject the call (then: an error). The fix
// renames the key to a declared argument. The check itself is model/argumentCheck.ts.
import { ARGUMENT_KINDS, reportArgumentFindings } from '../../calls/arguments.js';
import type { Rule } from '../rule.js';

export const rule: Rule = {
  id: 'args/unknown',
  defaultSeverity: 'warning',
  summary: "An argument the tool's schema does not declare (error when it forbids extra properties).",
  kinds: ARGUMENT_KINDS,
  check: (ctx) => reportArgumentFindings(ctx, 'args/unknown'),
};
