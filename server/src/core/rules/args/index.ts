import type { Rule } from '../rule.js';
import { rule as missingRequired } from './missing-required.js';
import { rule as unknown } from './unknown.js';
import { rule as wrongType } from './wrong-type.js';

export const argsRules: Rule[] = [missingRequired, unknown, wrongType];
