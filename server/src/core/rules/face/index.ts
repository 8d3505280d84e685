import type { Rule } from '../rule.js';

export const faceRules: Rule[] = [];
