import { ALL_RULES } from '../server/src/core/rules/registry.js';
console.log(ALL_RULES.map((r) => r.id + ' ' + r.defaultSeverity).join('\n'));
