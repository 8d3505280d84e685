import type { Rule } from '../rule.js';

export const templateRules: Rule[] = [];
