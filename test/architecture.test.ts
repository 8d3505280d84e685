// The layers of ARCHITECTURE.md, kept: dependency-cruiser checks every import of server/src and
// client/src against .dependency-cruiser.cjs. A second test proves the rules can fail, on a small
// tree of its own with an import that goes up a layer and one between rule families.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import type { ICruiseResult, IConfiguration } from 'dependency-cruiser';

const ROOT = join(__dirname, '..');
const require = createRequire(__filename);
const config = require(join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration;

async function violations(baseDir: string, paths: string[]): Promise<string[]> {
  const previous = process.cwd();
  process.chdir(baseDir);
  try {
    // dependency-cruiser is an ES module only; the tests run as CommonJS.
    const { cruise } = await import('dependency-cruiser');
    const { output } = await cruise(paths, {
      ruleSet: config,
      validate: true,
      ...config.options,
      tsConfig: undefined,
      baseDir,
    });
    const result = output as ICruiseResult;
    return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
  } finally {
    process.chdir(previous);
  }
}

test('every import follows the layers', async () => {
  const found = await violations(ROOT, ['server/src', 'client/src']);
  assert.deepEqual(found, [], `imports that break ARCHITECTURE.md's layers:\n${found.join('\n')}`);
});

const scratch = mkdtempSync(join(tmpdir(), 'tool-lens-layers-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function write(path: string, text: string): void {
  const full = join(scratch, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
}

test('the layer rules catch an import up a layer (the engine into ide/ too), between rule families, and out of core', async () => {
  write('tsconfig.json', '{"compilerOptions": {"module": "NodeNext", "moduleResolution": "NodeNext"}}\n');
  write('server/src/core/types.ts', 'export type Span = { start: number; end: number };\n');
  write(
    'server/src/core/rules/rule.ts',
    "import type { Span } from '../types.js';\nexport type Rule = { span: Span };\n",
  );
  write(
    'server/src/core/rules/a/one.ts',
    "import type { Rule } from '../rule.js';\nimport { two } from '../b/two.js';\nexport const one: Rule | number = two;\n",
  );
  write('server/src/core/rules/b/two.ts', 'export const two = 2;\n');
  // text/ is below rules/: this import goes up.
  write('server/src/core/text/words.ts', "import type { Rule } from '../rules/rule.js';\nexport type Words = Rule;\n");
  // ide/ sits above the engine: the engine does not reach up into an editor feature.
  write('server/src/core/ide/at.ts', 'export const at = 1;\n');
  write('server/src/core/engine.ts', "import { at } from './ide/at.js';\nexport const engine = at;\n");
  write(
    'server/src/core/model/view.ts',
    "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
  );
  const found = await violations(scratch, ['server']);
  assert.ok(
    found.some((v) => v.startsWith('core-layer-text: server/src/core/text/words.ts → server/src/core/rules/rule.ts')),
    found.join('\n'),
  );
  assert.ok(
    found.some((v) =>
      v.startsWith('rule-families-apart: server/src/core/rules/a/one.ts → server/src/core/rules/b/two.ts'),
    ),
    found.join('\n'),
  );
  assert.ok(
    found.some((v) => v.startsWith('core-is-editor-agnostic: server/src/core/model/view.ts')),
    found.join('\n'),
  );
  assert.ok(
    found.some((v) => v.startsWith('core-layer-engine: server/src/core/engine.ts → server/src/core/ide/at.ts')),
    found.join('\n'),
  );
  assert.ok(
    found.some((v) => v.startsWith('rules-through-the-registry: server/src/core/text/words.ts')),
    found.join('\n'),
  );
});
