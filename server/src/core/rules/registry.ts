// Every rule, in the order `tool-lens rules`, SARIF and the docs index list them: by family in
// FAMILY_ORDER, then by name. The modules come from modules.generated.ts, which the build writes
// from the files under rules/<family>/: a new rule is found there, with nothing to register.
import { RULE_MODULES } from './modules.generated.js';
import type { Rule } from './rule.js';

/** The rule families, in the order they are listed. A new family goes here (test/rules-shape.test.ts says so). */
export const FAMILY_ORDER: readonly string[] = [
  'schema',
  'yaml',
  'workflow',
  'template',
  'aggregation',
  'operational',
  'tool',
  'args',
  'annotations',
  'face',
  'client',
  'envelope',
  'result',
  'catalog',
  'hints',
  'lens',
];

function familyRank(id: string): number {
  const rank = FAMILY_ORDER.indexOf(id.slice(0, id.indexOf('/')));
  return rank < 0 ? FAMILY_ORDER.length : rank;
}

export const ALL_RULES: readonly Rule[] = RULE_MODULES.map((module) => module.rule).sort(
  (a, b) => familyRank(a.id) - familyRank(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
);

export const RULE_IDS: ReadonlySet<string> = new Set(ALL_RULES.map((r) => r.id));
