// Types of generate-rule-modules.mjs, for the tests that import it.
export const OUTPUT: string;
export function ruleModuleIds(): string[];
export function renderRuleModules(ids?: string[]): string;
export function writeRuleModules(): boolean;
