import type { Rule } from '../rule.js';
import { rule as descriptionTruncated } from './description-truncated.js';
import { rule as duplicateName } from './duplicate-name.js';
import { rule as invalidName } from './invalid-name.js';
import { rule as invalidSchema } from './invalid-schema.js';
import { rule as schemaRoot } from './schema-root.js';
import { rule as unknownField } from './unknown-field.js';

export const catalogRules: Rule[] = [invalidName, duplicateName, schemaRoot, invalidSchema, unknownField, descriptionTruncated];
