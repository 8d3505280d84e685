import type { Rule } from '../rule.js';

export const catalogRules: Rule[] = [];
