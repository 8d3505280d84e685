import { defineRule } from '../rule.js';

// Reported by the engine once suppressions have been applied (see core/suppressions.ts): only it
// knows which suppressions silenced something. This module carries the rule's metadata and words.
export const rule = defineRule({
  id: 'lens/unused-suppression',
  defaultSeverity: 'warning',
  summary: 'A suppression comment that suppresses nothing.',
  kinds: '*',
  messages: {
    namesNoRule: () => 'This suppression names no rule, so it silences nothing; list the rule ids it is meant for.',
    /** `known`: `rule` is a rule id; `reach`: the directive's (`file`, `line`, `next-line`). */
    silencesNothing: ({
      rule,
      known,
      reach,
    }: {
      rule: string;
      known: boolean;
      reach: 'file' | 'line' | 'next-line';
    }) => {
      const where = reach === 'file' ? 'in this file' : reach === 'line' ? 'on this line' : 'on the next line';
      const headline = known
        ? `This suppression of ${rule} silences nothing: remove it.`
        : `This suppression names "${rule}", which is no rule id: remove it.`;
      const why = known ? `${rule} reports nothing ${where}. ` : '';
      return `${headline} ${why}Left in place, it would hide a future finding.`;
    },
  },
});
