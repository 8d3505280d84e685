import { schemaRule } from './shared.js';

export const rule = schemaRule('schema/unknown-key', 'A key the format does not have (`maxRetries`, `failureMode`, ...), with a "did you mean" fix.');
