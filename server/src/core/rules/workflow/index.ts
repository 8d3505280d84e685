import type { Rule } from '../rule.js';

export const workflowRules: Rule[] = [];
