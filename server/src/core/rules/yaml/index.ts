import { rule as duplicateKey } from './duplicate-key.js';
import { rule as syntax } from './syntax.js';

export const yamlRules = [syntax, duplicateKey];
