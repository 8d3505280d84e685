import type { Rule } from '../rule.js';
import { rule as ambiguousStep } from './ambiguous-step.js';
import { rule as dependencyCycle } from './dependency-cycle.js';
import { rule as duplicateName } from './duplicate-name.js';
import { rule as duplicateStepId } from './duplicate-step-id.js';
import { rule as elicitationNeedsSchema } from './elicitation-needs-schema.js';
import { rule as fieldIgnored } from './field-ignored.js';
import { rule as foreachInnerId } from './foreach-inner-id.js';
import { rule as limit } from './limit.js';
import { rule as parametersNotObject } from './parameters-not-object.js';
import { rule as retryNeedsCount } from './retry-needs-count.js';
import { rule as unknownDependency } from './unknown-dependency.js';

export const workflowRules: Rule[] = [
  duplicateName,
  duplicateStepId,
  unknownDependency,
  dependencyCycle,
  parametersNotObject,
  elicitationNeedsSchema,
  foreachInnerId,
  ambiguousStep,
  fieldIgnored,
  limit,
  retryNeedsCount,
];
