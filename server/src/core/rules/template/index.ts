import type { Rule } from '../rule.js';
import { rule as conditionNotBoolean } from './condition-not-boolean.js';
import { rule as elicitationPath } from './elicitation-path.js';
import { rule as foreachVar } from './foreach-var.js';
import { rule as missingDefault } from './missing-default.js';
import { rule as notUpstream } from './not-upstream.js';
import { rule as syntax } from './syntax.js';
import { rule as unknownParam } from './unknown-param.js';
import { rule as unknownStep } from './unknown-step.js';

export const templateRules: Rule[] = [
  syntax,
  unknownParam,
  unknownStep,
  notUpstream,
  elicitationPath,
  foreachVar,
  conditionNotBoolean,
  missingDefault,
];
