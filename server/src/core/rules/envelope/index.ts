import type { Rule } from '../rule.js';

export const envelopeRules: Rule[] = [];
