import type { Rule } from '../rule.js';

export const resultRules: Rule[] = [];
