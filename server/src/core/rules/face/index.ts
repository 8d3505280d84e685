import type { Rule } from '../rule.js';
import { rule as cardNeedsParam } from './card-needs-param.js';
import { rule as closedSet } from './closed-set.js';
import { rule as inconsistent } from './inconsistent.js';
import { rule as reservedCard } from './reserved-card.js';
import { rule as tooLong } from './too-long.js';
import { rule as undeclared } from './undeclared.js';
import { rule as unknownParam } from './unknown-param.js';

export const faceRules: Rule[] = [closedSet, unknownParam, inconsistent, cardNeedsParam, reservedCard, tooLong, undeclared];
