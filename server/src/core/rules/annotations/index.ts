import type { Rule } from '../rule.js';
import { rule as contradiction } from './contradiction.js';
import { rule as unknownStep } from './unknown-step.js';

export const annotationsRules: Rule[] = [contradiction, unknownStep];
