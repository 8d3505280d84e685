// envelope/namespace-not-ready: an envelope into a namespace whose status is not `ready` (it needs
// authentication, is disabled...). The runtime refuses every call into such a namespace.
import { CALL_KINDS, callsOf, envelopeNamespace } from '../../calls/calls.js';
import type { Rule } from '../rule.js';
import { subjectWords } from '../../wording/callSubjects.js';

export const rule: Rule = {
  id: 'envelope/namespace-not-ready',
  defaultSeverity: 'error',
  summary: 'An envelope into a namespace whose status is not ready.',
  kinds: CALL_KINDS,
  check(ctx) {
    for (const site of callsOf(ctx).calls) {
      const envelope = site.envelope;
      const namespace = envelope ? envelopeNamespace(envelope) : undefined;
      const value = envelope?.fields.namespace?.value;
      if (!namespace || !value || namespace.status === 'ready') continue;
      ctx.report({
        message:
          `${subjectWords(site.subject)}: namespace "${namespace.name}" is "${namespace.status}": make it ready first. ` +
          `Namespace "${namespace.name}" of server "${namespace.server}" has status "${namespace.status}", not "ready", ` +
          `so the runtime refuses every call into it. Make the namespace ready first (for example, complete its authentication), ` +
          `or refresh the catalog if its status has changed.`,
        span: value.span,
      });
    }
  },
};
