// The document-kind schemas are validated by ajv's standalone code, generated at build time
// (scripts/generate-validators.mjs, called by scripts/build.mjs). It must be
// up to date with schemas/*.schema.json, cover every ref validate.ts asks for, and give exactly the
// errors a freshly compiled ajv gives: same keyword, paths, params, message and, with `verbose`,
// the very same `schema` and `parentSchema` objects, which validate.ts names by identity.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import Ajv, { type ErrorObject } from 'ajv';
import { toValue } from '../../server/src/core/parse/nodes.js';
import { createValidators, REFS, SCHEMA_FILES } from '../../server/src/core/structure/generated/validators.js';
import { bundledSchemas, CALL_ENTRY, SCHEMA_FOR_KIND } from '../../server/src/core/structure/validate.js';
import { Workspace } from '../../server/src/core/workspace.js';

const ROOT = join(__dirname, '..', '..');
const GENERATOR = join(ROOT, 'scripts/generate-validators.mjs');
const BASE = 'https://tool-lens.dev/schemas/';

/** The very objects validate.ts hands to the generated code. */
const SCHEMAS = bundledSchemas();

/** What validate.ts compiled at run time before the standalone code. */
function freshAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true, verbose: true });
  ajv.addKeyword('markdownDescription');
  for (const schema of Object.values(SCHEMAS)) ajv.addSchema(schema);
  return ajv;
}

function* filesUnder(dir: string): Generator<string> {
  // The folders are the repository's own: a missing one is a failure, not nothing to compare.
  assert.ok(existsSync(dir), `no ${dir}`);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(ya?ml|jsonc?|jsonl)$/i.test(entry.name))
      yield join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name);
  }
}

describe('standalone schema validators', () => {
  test('generated/validators.js is up to date with schemas/*.schema.json', () => {
    const result = spawnSync(process.execPath, [GENERATOR, '--check'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr || result.stdout);
  });

  test('cover every ref validate.ts asks for, over the schema files it bundles', () => {
    assert.deepEqual([...REFS].sort(), [...new Set([...Object.values(SCHEMA_FOR_KIND), CALL_ENTRY])].sort());
    assert.deepEqual([...SCHEMA_FILES].sort(), Object.keys(SCHEMAS).sort());
    assert.throws(() => createValidators({}), /is missing/);
  });

  test('give the same errors as a freshly compiled ajv on every fixture, corpus file and example', () => {
    const standalone = createValidators(SCHEMAS);
    const ajv = freshAjv();
    const workspace = new Workspace(ROOT);
    let documents = 0;
    let errors = 0;
    const refsSeen = new Set<string>();
    for (const dir of ['test/fixtures', 'test/corpus', 'examples']) {
      for (const absolute of filesUnder(join(ROOT, dir))) {
        const path = relative(ROOT, absolute);
        const file = workspace.parse(path, readFileSync(absolute, 'utf8'));
        for (const [index, doc] of file.documents.entries()) {
          if (!doc.kind || !doc.root) continue;
          const ref = file.language === 'jsonl' && doc.kind === 'tool-calls' ? CALL_ENTRY : SCHEMA_FOR_KIND[doc.kind];
          const value = toValue(doc.root);
          const compiled = ajv.getSchema(BASE + ref)!;
          const generated = standalone[ref]!;
          const where = `${path} document ${index} (${ref})`;
          assert.equal(generated(value), compiled(value), where);
          const got: ErrorObject[] = generated.errors ?? [];
          const want: ErrorObject[] = compiled.errors ?? [];
          assert.deepStrictEqual(got, want, where);
          for (const [i, error] of got.entries()) {
            // Identity, not only equality: validate.ts maps parentSchema objects to names.
            assert.equal(
              error.parentSchema,
              want[i]!.parentSchema,
              `${where}: parentSchema of error ${i} is another object`,
            );
            assert.equal(error.schema, want[i]!.schema, `${where}: schema of error ${i} is another object`);
          }
          documents++;
          errors += got.length;
          refsSeen.add(ref);
        }
      }
    }
    // Not a vacuous comparison: many documents, of every ref, many of them invalid.
    assert.ok(documents > 300, `only ${documents} documents compared`);
    assert.ok(errors > 50, `only ${errors} errors compared`);
    assert.deepEqual([...refsSeen].sort(), [...REFS].sort());
  });
});
