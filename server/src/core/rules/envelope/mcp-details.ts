// envelope/mcp-details: an envelope into an external namespace must say why it calls the tool, in a
// non-blank `mcpDetails.description`; the runtime refuses it otherwise. The fix adds a placeholder
// sentence, as a suggestion: only the user can write the real one. Into a namespace that is not
// external, `mcpDetails` is ignored by the runtime: a hint, whose fix removes it. That fix is a
// suggestion too: it deletes text the user wrote, and a catalog can lag behind a namespace that
// has since become external.
import { CALL_KINDS, callsOf, envelopeNamespace, MCP_DETAILS_PLACEHOLDER } from '../../calls/calls.js';
import { getPair, isMap, isScalar } from '../../parse/nodes.js';
import { appendEntry, editContextOf, flowSeparators, removePair, renderString, replaceValueText, type EditContext } from '../../edit/mappingEdits.js';
import type { MapNode } from '../../parse/nodes.js';
import type { Fix, TextEdit } from '../../types.js';
import type { Rule } from '../rule.js';
import { subjectWords } from '../../wording/callSubjects.js';

const PLACEHOLDER = JSON.stringify(MCP_DETAILS_PLACEHOLDER);

export const rule: Rule = {
  id: 'envelope/mcp-details',
  defaultSeverity: 'error',
  summary: 'An envelope into an external namespace without mcpDetails.description (hint: mcpDetails where it is ignored).',
  kinds: CALL_KINDS,
  check(ctx) {
    const edit = editContextOf(ctx.file);
    for (const site of callsOf(ctx).calls) {
      const envelope = site.envelope;
      const namespace = envelope ? envelopeNamespace(envelope) : undefined;
      if (!envelope || !namespace) continue;
      const details = envelope.fields.mcpDetails;
      const refused = `The runtime refuses calls into external namespace "${namespace.name}" unless mcpDetails.description says, in a sentence, why the call is made.`;
      const say = 'say why in mcpDetails.description.';
      const fix = (change: TextEdit | TextEdit[] | undefined): Fix[] =>
        change ? [{ title: 'Add an mcpDetails.description placeholder to fill in', safe: false, edits: Array.isArray(change) ? change : [change] }] : [];

      if (!namespace.external) {
        if (!details) continue;
        const change = removePair(edit, envelope.map, details.pair);
        ctx.report({
          message:
            `${subjectWords(site.subject)}: namespace "${namespace.name}" is not external: remove mcpDetails. ` +
            'The runtime ignores mcpDetails here; it is only noise.',
          span: details.pair.key.span,
          severity: 'hint',
          fixes: change ? [{ title: 'Remove mcpDetails', safe: false, edits: [change] }] : [],
        });
        continue;
      }

      if (!details) {
        const anchor = envelope.fields.namespace?.value;
        if (!anchor) continue;
        ctx.report({
          message: `${subjectWords(site.subject)}: no mcpDetails: ${say} The envelope has no mcpDetails. ${refused}`,
          span: anchor.span,
          fixes: fix(
            appendEntry(edit, envelope.map, 'mcpDetails', flowDetails(edit, envelope.map), { entries: [{ key: 'description', value: { inline: PLACEHOLDER } }] }),
          ),
        });
        continue;
      }
      const map = details.value;
      if (!isMap(map)) {
        const empty = isScalar(map) && map.value === null;
        ctx.report({
          message: `${subjectWords(site.subject)}: mcpDetails ${empty ? 'is empty' : 'is not a mapping'}: ${say} It must be a mapping with a "description". ${refused}`,
          span: map && map.span.start < map.span.end ? map.span : details.pair.key.span,
          fixes: empty && map ? fix(replaceValueText(edit, map, flowDetails(edit, envelope.map))) : [],
        });
        continue;
      }
      const description = getPair(map, 'description');
      if (!description) {
        ctx.report({
          message: `${subjectWords(site.subject)}: mcpDetails has no "description": ${say} ${refused}`,
          span: details.pair.key.span,
          fixes: fix(appendEntry(edit, map, 'description', PLACEHOLDER)),
        });
        continue;
      }
      const value = description.value;
      const text = isScalar(value) && typeof value.value === 'string' ? value.value : undefined;
      if (text !== undefined && text.trim() !== '') continue;
      ctx.report({
        message:
          `${subjectWords(site.subject)}: mcpDetails.description is ${text !== undefined ? 'blank' : value && isScalar(value) && value.value === null ? 'empty' : 'not text'}: ${say} ${refused}`,
        span: value && value.span.start < value.span.end ? value.span : description.key.span,
        fixes: value ? fix(replaceValueText(edit, value, PLACEHOLDER)) : [],
      });
    }
  },
};

/** `{description: "<...>"}` with the separators the mapping uses. */
function flowDetails(edit: EditContext, map: MapNode): string {
  const { colon } = flowSeparators(edit, map);
  return `{${renderString(edit, 'description')}${colon}${PLACEHOLDER}}`;
}
