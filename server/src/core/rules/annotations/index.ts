import type { Rule } from '../rule.js';

export const annotationsRules: Rule[] = [];
