// The committed files generated from the rule registry (scripts/generate-rule-files.ts, run by
// `npm run build`) are up to date: docs/rules/README.md's tables and the rules: keys of
// schemas/toollens-config.schema.json; and the list of rule modules (scripts/generate-rule-modules.mjs).
// Rendered here in memory and compared with the files.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { test } from 'node:test';
import { ALL_RULES } from '../server/src/core/rules/registry.js';
import { renderConfigSchema, renderRulesIndex, ruleFiles } from '../scripts/generate-rule-files.js';

const ROOT = `${__dirname}/..`;

/** The first line where the two texts differ, both ways, for the failure message. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line < 0 ? a.length : line;
  return `first difference at line ${at + 1}:\n  committed: ${a[at] ?? '(end of file)'}\n  generated: ${b[at] ?? '(end of file)'}`;
}

for (const file of ruleFiles()) {
  test(`${relative(ROOT, file.path)} is generated from the rule registry`, () => {
    assert.ok(
      file.current === file.text,
      `${relative(ROOT, file.path)} differs from what the rule registry gives: run \`npm run build\` (scripts/generate-rule-files.ts) and commit the result; do not edit its generated part by hand.\n${firstDifference(file.current ?? '', file.text)}`,
    );
  });
}

test('the generated files change with the registry, and keep what is written by hand', () => {
  const [index, schema] = ruleFiles().map((file) => file.current!);
  const added = [
    ...ALL_RULES,
    { id: 'lens/new-rule', defaultSeverity: 'hint' as const, summary: 'A `new` rule | with a bar.' },
  ];
  const newIndex = renderRulesIndex(index!, added);
  assert.ok(newIndex.includes('| [lens/new-rule](lens/new-rule.md) | hint | A `new` rule \\| with a bar. |'));
  assert.equal(
    newIndex.slice(0, index!.indexOf('<!--')),
    index!.slice(0, index!.indexOf('<!--')),
    'the prose before the tables is kept',
  );
  const newSchema = JSON.parse(renderConfigSchema(schema!, added)) as {
    definitions: { RuleSeverities: { properties: Record<string, { description: string }> } };
  };
  assert.equal(
    newSchema.definitions.RuleSeverities.properties['lens/new-rule']?.description,
    'A new rule | with a bar. Default: hint.',
  );
  assert.deepEqual(
    Object.keys(newSchema.definitions.RuleSeverities.properties),
    added.map((rule) => rule.id),
  );
  assert.throws(
    () => renderRulesIndex(index!, [{ id: 'brand-new/rule', defaultSeverity: 'error', summary: 'x' }]),
    /FAMILY_TITLES in scripts\/generate-rule-files\.ts/,
  );
  assert.throws(() => renderRulesIndex('# Rules\n', ALL_RULES), /generated region/);
});

test('rules/modules.generated.ts lists every rule module on disk', async () => {
  const generator = await import('../scripts/generate-rule-modules.mjs');
  const current = readFileSync(generator.OUTPUT, 'utf8');
  assert.ok(
    current === generator.renderRuleModules(),
    `server/src/core/rules/modules.generated.ts is out of date: run \`npm run build\` and commit it.\n${firstDifference(current, generator.renderRuleModules())}`,
  );
  // The list follows the files: one more module, one more entry.
  assert.match(
    generator.renderRuleModules(['lens/new-rule']),
    /import \{ rule as lensNewRule \} from '\.\/lens\/new-rule\.js';[\s\S]*\{ path: 'lens\/new-rule', rule: lensNewRule \}/,
  );
});
