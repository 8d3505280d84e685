// Every rule, in the order `tool-lens rules` lists them. Each family folder exports its list.
import { annotationsRules } from './annotations/index.js';
import { argsRules } from './args/index.js';
import { catalogRules } from './catalog/index.js';
import { envelopeRules } from './envelope/index.js';
import { faceRules } from './face/index.js';
import { rule as unusedSuppression } from './lens/unused-suppression.js';
import { resultRules } from './result/index.js';
import type { Rule } from './rule.js';
import { schemaRules } from './schema/index.js';
import { templateRules } from './template/index.js';
import { toolRules } from './tool/index.js';
import { workflowRules } from './workflow/index.js';
import { yamlRules } from './yaml/index.js';

export const ALL_RULES: readonly Rule[] = [
  ...schemaRules,
  ...yamlRules,
  ...workflowRules,
  ...templateRules,
  ...toolRules,
  ...argsRules,
  ...annotationsRules,
  ...faceRules,
  ...envelopeRules,
  ...resultRules,
  ...catalogRules,
  unusedSuppression,
];

export const RULE_IDS: ReadonlySet<string> = new Set(ALL_RULES.map((r) => r.id));

export function ruleById(id: string): Rule | undefined {
  return ALL_RULES.find((r) => r.id === id);
}
