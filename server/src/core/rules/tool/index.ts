import type { Rule } from '../rule.js';
import { rule as nameConflict } from './name-conflict.js';
import { rule as unknown } from './unknown.js';

export const toolRules: Rule[] = [unknown, nameConflict];
