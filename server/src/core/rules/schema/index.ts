import type { Rule } from '../rule.js';
import { rule as invalidValue } from './invalid-value.js';
import { rule as missingField } from './missing-field.js';
import { rule as unknownKey } from './unknown-key.js';
import { rule as wrongType } from './wrong-type.js';

export const schemaRules: Rule[] = [unknownKey, missingField, wrongType, invalidValue];
