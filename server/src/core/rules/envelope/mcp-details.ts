// envelope/mcp-details: an envelope into an external namespace must say why it calls the tool, in a
// non-blank `mcpDetails.description`; the runtime refuses it otherwise. The fix adds a placeholder
// sentence, as a suggestion: only the user can write the real one. Into a namespace that is not
// external, `mcpDetails` is ignored by the runtime: a hint, whose fix removes it. That fix is a
// suggestion too: it deletes text the user wrote, and a catalog can lag behind a namespace that
// has since become external.
import { CALL_KINDS, callsOf, envelopeNamespace, MCP_DETAILS_PLACEHOLDER } from '../../calls/calls.js';
import { getPair, isMap, isScalar } from '../../parse/nodes.js';
import {
  appendEntry,
  editContextOf,
  flowSeparators,
  removePair,
  renderString,
  replaceValueText,
  type EditContext,
} from '../../edit/mappingEdits.js';
import type { MapNode } from '../../parse/nodes.js';
import type { Fix, TextEdit } from '../../types.js';
import { defineRule } from '../rule.js';
import { subjectWords, type CallSubject } from '../../wording/callSubjects.js';

const PLACEHOLDER = JSON.stringify(MCP_DETAILS_PLACEHOLDER);

const SAY = 'say why in mcpDetails.description.';

function refused(namespace: string): string {
  return `The runtime refuses calls into external namespace "${namespace}" unless mcpDetails.description says, in a sentence, why the call is made.`;
}

const messages = {
  /** mcpDetails in an envelope into a namespace that is not external: ignored. */
  notExternal: ({ subject, namespace }: { subject: CallSubject; namespace: string }) =>
    `${subjectWords(subject)}: namespace "${namespace}" is not external: remove mcpDetails. ` +
    'The runtime ignores mcpDetails here; it is only noise.',
  noDetails: ({ subject, namespace }: { subject: CallSubject; namespace: string }) =>
    `${subjectWords(subject)}: no mcpDetails: ${SAY} The envelope has no mcpDetails. ${refused(namespace)}`,
  /** `empty`: mcpDetails is written empty (else it is not a mapping). */
  detailsNotMapping: ({ subject, namespace, empty }: { subject: CallSubject; namespace: string; empty: boolean }) =>
    `${subjectWords(subject)}: mcpDetails ${empty ? 'is empty' : 'is not a mapping'}: ${SAY} It must be a mapping with a "description". ${refused(namespace)}`,
  noDescription: ({ subject, namespace }: { subject: CallSubject; namespace: string }) =>
    `${subjectWords(subject)}: mcpDetails has no "description": ${SAY} ${refused(namespace)}`,
  /** `what`: how the description is written instead of a sentence. */
  blankDescription: ({
    subject,
    namespace,
    what,
  }: {
    subject: CallSubject;
    namespace: string;
    what: 'blank' | 'empty' | 'not text';
  }) => `${subjectWords(subject)}: mcpDetails.description is ${what}: ${SAY} ${refused(namespace)}`,
};

export const rule = defineRule({
  id: 'envelope/mcp-details',
  defaultSeverity: 'error',
  summary:
    'An envelope into an external namespace without mcpDetails.description (hint: mcpDetails where it is ignored).',
  kinds: CALL_KINDS,
  messages,
  check(ctx) {
    const edit = editContextOf(ctx.file);
    for (const site of callsOf(ctx).calls) {
      const envelope = site.envelope;
      const namespace = envelope ? envelopeNamespace(envelope) : undefined;
      if (!envelope || !namespace) continue;
      const details = envelope.fields.mcpDetails;
      const words = { subject: site.subject, namespace: namespace.name };
      const fix = (change: TextEdit | TextEdit[] | undefined): Fix[] =>
        change
          ? [
              {
                title: 'Add an mcpDetails.description placeholder to fill in',
                safe: false,
                edits: Array.isArray(change) ? change : [change],
              },
            ]
          : [];

      if (!namespace.external) {
        if (!details) continue;
        const change = removePair(edit, envelope.map, details.pair);
        ctx.report({
          messageId: 'notExternal',
          data: words,
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
          messageId: 'noDetails',
          data: words,
          span: anchor.span,
          fixes: fix(
            appendEntry(edit, envelope.map, 'mcpDetails', flowDetails(edit, envelope.map), {
              entries: [{ key: 'description', value: { inline: PLACEHOLDER } }],
            }),
          ),
        });
        continue;
      }
      const map = details.value;
      if (!isMap(map)) {
        const empty = isScalar(map) && map.value === null;
        ctx.report({
          messageId: 'detailsNotMapping',
          data: { ...words, empty },
          span: map && map.span.start < map.span.end ? map.span : details.pair.key.span,
          fixes: empty && map ? fix(replaceValueText(edit, map, flowDetails(edit, envelope.map))) : [],
        });
        continue;
      }
      const description = getPair(map, 'description');
      if (!description) {
        ctx.report({
          messageId: 'noDescription',
          data: words,
          span: details.pair.key.span,
          fixes: fix(appendEntry(edit, map, 'description', PLACEHOLDER)),
        });
        continue;
      }
      const value = description.value;
      const text = isScalar(value) && typeof value.value === 'string' ? value.value : undefined;
      if (text !== undefined && text.trim() !== '') continue;
      ctx.report({
        messageId: 'blankDescription',
        data: {
          ...words,
          what: text !== undefined ? 'blank' : value && isScalar(value) && value.value === null ? 'empty' : 'not text',
        },
        span: value && value.span.start < value.span.end ? value.span : description.key.span,
        fixes: value ? fix(replaceValueText(edit, value, PLACEHOLDER)) : [],
      });
    }
  },
});

/** `{description: "<...>"}` with the separators the mapping uses. */
function flowDetails(edit: EditContext, map: MapNode): string {
  const { colon } = flowSeparators(edit, map);
  return `{${renderString(edit, 'description')}${colon}${PLACEHOLDER}}`;
}
