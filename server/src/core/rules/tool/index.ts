import type { Rule } from '../rule.js';

export const toolRules: Rule[] = [];
