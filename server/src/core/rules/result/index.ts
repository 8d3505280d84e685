import type { Rule } from '../rule.js';
import { rule as missingStructured } from './missing-structured.js';
import { rule as schemaMismatch } from './schema-mismatch.js';

export const resultRules: Rule[] = [missingStructured, schemaMismatch];
