import type { Rule } from '../rule.js';

export const argsRules: Rule[] = [];
