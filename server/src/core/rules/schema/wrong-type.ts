import { schemaRule } from './shared.js';

export const rule = schemaRule('schema/wrong-type', 'A value of the wrong type.');
