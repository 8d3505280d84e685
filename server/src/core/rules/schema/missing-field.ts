import { schemaRule } from './shared.js';

export const rule = schemaRule('schema/missing-field', 'A required field is absent.');
