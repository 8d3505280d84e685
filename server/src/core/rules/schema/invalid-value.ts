import { schemaRule } from './shared.js';

export const rule = schemaRule('schema/invalid-value', 'A value outside an enum, pattern, range or format.');
