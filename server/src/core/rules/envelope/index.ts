import type { Rule } from '../rule.js';
import { rule as argumentsNotObject } from './arguments-not-object.js';
import { rule as bareDynamicName } from './bare-dynamic-name.js';
import { rule as fieldAlias } from './field-alias.js';
import { rule as mcpDetails } from './mcp-details.js';
import { rule as namespaceNotReady } from './namespace-not-ready.js';
import { rule as unknownNamespace } from './unknown-namespace.js';

export const envelopeRules: Rule[] = [bareDynamicName, mcpDetails, fieldAlias, argumentsNotObject, unknownNamespace, namespaceNotReady];
