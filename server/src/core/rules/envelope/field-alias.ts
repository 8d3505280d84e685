// envelope/field-alias: an envelope field sent under another name (`tool_name` for `toolName`,
// `args` for `arguments`, `ns` for `namespace`...). The runtime reads the fields by their own names
// only, so it refuses the call as if the field were missing. The fix renames the key, keeping its
// quoting; it is safe because each alias stands for exactly one field (unless another key of the
// envelope gives that field too: then which value was meant is the user's to say).
import { CALL_KINDS, callsOf } from '../../calls/calls.js';
import { editContextOf, renameKey } from '../../edit/mappingEdits.js';
import type { Fix } from '../../types.js';
import type { Rule } from '../rule.js';
import { subjectWords } from '../../wording/callSubjects.js';

export const rule: Rule = {
  id: 'envelope/field-alias',
  defaultSeverity: 'error',
  summary: 'An envelope field under a name the runtime does not read (fix: rename the key).',
  kinds: CALL_KINDS,
  check(ctx) {
    const edit = editContextOf(ctx.file);
    for (const site of callsOf(ctx).calls) {
      const envelope = site.envelope;
      if (!envelope) continue;
      for (const field of Object.values(envelope.fields)) {
        if (!field?.alias) continue;
        const change = renameKey(edit, field.pair, field.field);
        // Where another key gives the same field too (a duplicate, or a second alias), which value
        // was meant is the user's choice: the rename is then only a suggestion.
        const alone = !envelope.shadowed.some((other) => other.field === field.field);
        const fixes: Fix[] = change ? [{ title: `Rename "${field.key}" to "${field.field}"`, safe: alone, edits: [change] }] : [];
        ctx.report({
          message:
            `${subjectWords(site.subject)}: rename "${field.key}" to "${field.field}". ` +
            `call_dynamic_tool has no field "${field.key}"; the runtime reads "${field.field}" only, so it refuses this call ` +
            `as if "${field.field}" were missing.`,
          span: field.pair.key.span,
          fixes,
        });
      }
      for (const field of envelope.shadowed) {
        const given = envelope.fields[field.field]!;
        ctx.report({
          message:
            `${subjectWords(site.subject)}: "${field.key}" repeats "${given.key}": keep one of the two. ` +
            `"${field.key}" is another name for "${field.field}", which this envelope already gives as "${given.key}"; ` +
            `the runtime reads only "${field.field}" and drops this value without a word.`,
          span: field.pair.key.span,
        });
      }
    }
  },
};
