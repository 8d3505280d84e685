import type { Rule } from '../rule.js';

export const schemaRules: Rule[] = [];
