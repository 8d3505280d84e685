// envelope/namespace-not-ready: an envelope into a namespace whose status is not `ready` (it needs
// authentication, is disabled...). The runtime refuses every call into such a namespace.
import { CALL_KINDS, callsOf, envelopeNamespace } from '../../calls/calls.js';
import { defineRule } from '../rule.js';
import { subjectWords, type CallSubject } from '../../wording/callSubjects.js';

export const rule = defineRule({
  id: 'envelope/namespace-not-ready',
  defaultSeverity: 'error',
  summary: 'An envelope into a namespace whose status is not ready.',
  kinds: CALL_KINDS,
  messages: {
    /** `status`: the namespace's status; `server`: the server it belongs to. */
    notReady: ({
      subject,
      namespace,
      status,
      server,
    }: {
      subject: CallSubject;
      namespace: string;
      status: string;
      server: string;
    }) =>
      `${subjectWords(subject)}: namespace "${namespace}" is "${status}": make it ready first. ` +
      `Namespace "${namespace}" of server "${server}" has status "${status}", not "ready", ` +
      `so the runtime refuses every call into it. Make the namespace ready first (for example, complete its authentication), ` +
      `or refresh the catalog if its status has changed.`,
  },
  check(ctx) {
    for (const site of callsOf(ctx).calls) {
      const envelope = site.envelope;
      const namespace = envelope ? envelopeNamespace(envelope) : undefined;
      const value = envelope?.fields.namespace?.value;
      if (!namespace || !value || namespace.status === 'ready') continue;
      ctx.report({
        messageId: 'notReady',
        data: { subject: site.subject, namespace: namespace.name, status: namespace.status, server: namespace.server },
        span: value.span,
      });
    }
  },
});
