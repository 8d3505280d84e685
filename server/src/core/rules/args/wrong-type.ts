// args/wrong-type: a literal argument the tool's schema rejects, validated with ajv in the schema's
// dialect. A workflow step's arguments are first coerced as ToolHive coerces them (a string that
// parses as the declared number or boolean is fine), and its template strings are only known at run
// time and skipped; a recorded call's JSON is checked as written. Nulls (they count as absent) and
// arguments the schema does not declare are other rules' findings. The check itself is
// model/argumentCheck.ts.
import { ARGUMENT_KINDS, reportArgumentFindings } from '../../calls/arguments.js';
import type { Rule } from '../rule.js';

export const rule: Rule = {
  id: 'args/wrong-type',
  defaultSeverity: 'error',
  summary: "A literal argument the tool's schema rejects.",
  kinds: ARGUMENT_KINDS,
  check: (ctx) => reportArgumentFindings(ctx, 'args/wrong-type'),
};
