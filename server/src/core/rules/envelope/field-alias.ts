// envelope/field-alias: an envelope field sent under another name (`tool_name` for `toolName`,
// `args` for `arguments`, `ns` for `namespace`...). The runtime reads the fields by their own names
// only, so it refuses the call as if the field were missing. The fix renames the key, keeping its
// quoting; it is safe because each alias stands for exactly one field (unless another key of the
// envelope gives that field too: then which value was meant is the user's to say).
import { CALL_KINDS, callsOf } from '../../calls/calls.js';
import { editContextOf, renameKey } from '../../edit/mappingEdits.js';
import type { Fix } from '../../types.js';
import { defineRule } from '../rule.js';
import { subjectWords, type CallSubject } from '../../wording/callSubjects.js';

export const rule = defineRule({
  id: 'envelope/field-alias',
  defaultSeverity: 'error',
  summary: 'An envelope field under a name the runtime does not read (fix: rename the key).',
  kinds: CALL_KINDS,
  messages: {
    /** `key`: the name written; `field`: the envelope field it stands for. */
    alias: ({ subject, key, field }: { subject: CallSubject; key: string; field: string }) =>
      `${subjectWords(subject)}: rename "${key}" to "${field}". ` +
      `call_dynamic_tool has no field "${key}"; the runtime reads "${field}" only, so it refuses this call ` +
      `as if "${field}" were missing.`,
    /** `given`: the key that already gives the field. */
    repeats: ({ subject, key, field, given }: { subject: CallSubject; key: string; field: string; given: string }) =>
      `${subjectWords(subject)}: "${key}" repeats "${given}": keep one of the two. ` +
      `"${key}" is another name for "${field}", which this envelope already gives as "${given}"; ` +
      `the runtime reads only "${field}" and drops this value without a word.`,
  },
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
        const fixes: Fix[] = change
          ? [{ title: `Rename "${field.key}" to "${field.field}"`, safe: alone, edits: [change] }]
          : [];
        ctx.report({
          messageId: 'alias',
          data: { subject: site.subject, key: field.key, field: field.field },
          span: field.pair.key.span,
          fixes,
        });
      }
      for (const field of envelope.shadowed) {
        const given = envelope.fields[field.field]!;
        ctx.report({
          messageId: 'repeats',
          data: { subject: site.subject, key: field.key, field: field.field, given: given.key },
          span: field.pair.key.span,
        });
      }
    }
  },
});
