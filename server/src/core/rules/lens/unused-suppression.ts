import type { Rule } from '../rule.js';

// Reported by the engine once suppressions have been applied (see core/suppressions.ts): only it
// knows which suppressions silenced something. This module carries the rule's metadata.
export const rule: Rule = {
  id: 'lens/unused-suppression',
  defaultSeverity: 'warning',
  summary: 'A suppression comment that suppresses nothing.',
  kinds: '*',
};
