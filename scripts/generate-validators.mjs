// Writes server/src/core/structure/generated/: ajv's standalone validation code for the document-kind
// schemas, so neither the language server nor the CLI compiles a schema at run time (that took
// 100-220 ms on the first document). One module per document kind (validators-<kind>.js, holding
// the refs of that kind's schema file), and an index (validators.js) that loads a kind's module on
// first use: a `tool-lens check` of gateway files never parses the code for the Kubernetes
// resources, which is twice as large. scripts/build.mjs calls it before every bundle, so the files
// are never older than schemas/*.schema.json, and bundles each kind module into a file of its own
// beside the bundles (dist/chunks/validators-<kind>.js), which the index's `require` finds there;
// `node generate-validators.mjs --check` (run by test/unit/schema-standalone.test.ts) fails when
// any file is stale.
//
// One change to ajv's output: ajv's standalone code carries a JSON copy of every schema it
// reads, and errors made with `verbose` point into those copies (`parentSchema`, `schema`).
// validate.ts names subschemas by object identity, walking the schema files schemas.chunk.ts
// imports, so here every such copy is replaced by the path to the same object in those files: each
// kind module exports a factory that takes them (`createValidators(schemas)`), and its errors
// point into them.
import Ajv from 'ajv';
import { _Code } from 'ajv/dist/compile/codegen/code.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
export const OUTPUT_DIR = join(ROOT, 'server/src/core/structure/generated');
/** The index; the kind modules are `validators-<kind>.js` beside it. */
export const OUTPUT = join(OUTPUT_DIR, 'validators.js');

const BASE = 'https://tool-lens.dev/schemas/';

/** The schema files structure/schemas.chunk.ts bundles (its BUNDLED_SCHEMAS); keep the two lists together. */
export const SCHEMA_FILES = [
  'toolhive-keys.schema.json',
  'vmcp-common.schema.json',
  'face-overlay.schema.json',
  'vmcp-config.schema.json',
  'vmcp-server.schema.json',
  'vmcp-composite.schema.json',
  'tool-catalog.schema.json',
  'mcp-servers.schema.json',
  'tool-calls.schema.json',
];

/** The refs validate.ts asks for: its SCHEMA_FOR_KIND values and CALL_ENTRY (a test checks). */
export const REFS = [
  'vmcp-config.schema.json',
  'vmcp-server.schema.json',
  'vmcp-composite.schema.json',
  'tool-catalog.schema.json',
  'mcp-servers.schema.json',
  'face-overlay.schema.json',
  'tool-calls.schema.json',
  'tool-calls.schema.json#/definitions/CallEntry',
];

/** The same options as validate.ts always used; `code.source` only adds the source text. */
export const AJV_OPTIONS = { strict: true, allErrors: true, allowUnionTypes: true, verbose: true };

/** The kind module of a ref: its schema file's name (`tool-calls` for `tool-calls.schema.json#/...`). */
export function moduleOf(ref) {
  return ref.split('#')[0].replace(/\.schema\.json$/, '');
}

/** The file name of a kind module, beside the index. */
export const moduleFile = (kind) => `validators-${kind}.js`;

/** The generated files for the schema files as they are on disk: file name → text. */
export function generateValidators() {
  const schemas = Object.fromEntries(
    SCHEMA_FILES.map((file) => [file, JSON.parse(readFileSync(join(ROOT, 'schemas', file), 'utf8'))]),
  );
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true, lines: true } });
  // VS Code's hover text; not a validation keyword.
  ajv.addKeyword('markdownDescription');
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  for (const ref of REFS) if (!ajv.getSchema(BASE + ref)) throw new Error(`no schema for ${ref}`);

  // Where each (sub)schema object sits: `schemas["tool-calls.schema.json"]["definitions"]["CallEntry"]`.
  const places = new Map();
  const walk = (value, code) => {
    if (typeof value !== 'object' || value === null) return;
    if (!places.has(value)) places.set(value, code);
    for (const [key, child] of Object.entries(value))
      walk(child, `${code}[${Array.isArray(value) ? key : JSON.stringify(key)}]`);
  };
  for (const [file, schema] of Object.entries(schemas)) walk(schema, `schemas[${JSON.stringify(file)}]`);
  // ajv keys its `schema` scope values by the schema object itself (ajv 8's ValueScope).
  const schemaValues = ajv.scope._values.schema;
  if (!(schemaValues instanceof Map) || schemaValues.size === 0)
    throw new Error('ajv keeps its schema values elsewhere: update generate-validators.mjs');
  // (ajv also compiled the draft-07 meta-schema, to check ours; no validator uses it.)
  const foreign = [];
  for (const [object, name] of schemaValues) {
    const place = places.get(object);
    if (place && name.value) name.value.code = new _Code(place);
    else foreign.push(String(name));
  }

  const version = JSON.parse(readFileSync(join(ROOT, 'node_modules/ajv/package.json'), 'utf8')).version;
  const banner = (what) => [
    `// Generated by ${relative(ROOT, fileURLToPath(import.meta.url))} from schemas/*.schema.json with ajv ${version}'s`,
    `// standalone code: ${what}. Do not edit: scripts/build.mjs rewrites it on every build (git-ignored).`,
    '"use strict";',
  ];
  const kinds = [...new Set(REFS.map(moduleOf))];
  const files = {};
  for (const kind of kinds) {
    const refs = REFS.filter((ref) => moduleOf(ref) === kind);
    // Only the code these refs reach: each kind's module stands alone (shared definitions are repeated).
    const code = standaloneCode(ajv, Object.fromEntries(refs.map((ref) => [ref, BASE + ref])));
    const body = code.replace(/^"use strict";/, '');
    // A schema literal left in the code would break the names validate.ts gives errors.
    const embedded = foreign.filter((name) => new RegExp(`\\b(const|var) ${name} =`).test(body));
    if (embedded.length)
      throw new Error(`the standalone code embeds schemas that are not in the schema files (${embedded.join(', ')})`);
    files[moduleFile(kind)] = [
      ...banner(`the validators of ${refs.join(', ')}`),
      '/** The validators by ref, over the schema objects given (by file name), which their errors point into. */',
      'exports.createValidators = function createValidators(schemas) {',
      '  const exports = {};',
      body.trim(),
      '  return exports;',
      '};',
      '',
    ].join('\n');
  }
  files[relative(OUTPUT_DIR, OUTPUT)] = [
    ...banner('the index of the kind modules'),
    `const SCHEMA_FILES = ${JSON.stringify(SCHEMA_FILES)};`,
    `const REFS = ${JSON.stringify(REFS)};`,
    'exports.SCHEMA_FILES = SCHEMA_FILES;',
    'exports.REFS = REFS;',
    '/** Each kind module, required on first use. Literal paths: the bundles keep them as requires of separate files. */',
    'const MODULES = {',
    ...kinds.map((kind) => `  ${JSON.stringify(kind)}: () => require(${JSON.stringify(`./${moduleFile(kind)}`)}),`),
    '};',
    `const MODULE_OF_REF = ${JSON.stringify(Object.fromEntries(REFS.map((ref) => [ref, moduleOf(ref)])))};`,
    'function checked(schemas) {',
    '  for (const file of SCHEMA_FILES) if (!schemas[file]) throw new Error(`createValidators: ${file} is missing`);',
    '  return schemas;',
    '}',
    '/** The validator of one ref over the schema objects given (by file name), loading its kind module only; undefined for an unknown ref. */',
    'exports.createValidator = function createValidator(ref, schemas) {',
    '  const kind = Object.hasOwn(MODULE_OF_REF, ref) ? MODULE_OF_REF[ref] : undefined;',
    '  if (!kind) return undefined;',
    '  return MODULES[kind]().createValidators(checked(schemas))[ref];',
    '};',
    '/** Every validator by ref (every kind module loaded). */',
    'exports.createValidators = function createValidators(schemas) {',
    '  checked(schemas);',
    '  return Object.assign({}, ...Object.values(MODULES).map((load) => load().createValidators(schemas)));',
    '};',
    '',
  ].join('\n');
  return files;
}

/** The names of the generated files now in the output folder (a kind module may have gone). */
function generatedNow() {
  if (!existsSync(OUTPUT_DIR)) return [];
  return readdirSync(OUTPUT_DIR).filter((name) => /^validators(-[a-z0-9-]+)?\.js$/.test(name));
}

/** Rewrites the generated files whose text changes and removes stale kind modules; true when any changed. */
export function writeValidators() {
  const files = generateValidators();
  let changed = false;
  mkdirSync(OUTPUT_DIR, { recursive: true });
  for (const name of generatedNow())
    if (!Object.hasOwn(files, name)) {
      rmSync(join(OUTPUT_DIR, name));
      changed = true;
    }
  for (const [name, text] of Object.entries(files)) {
    const path = join(OUTPUT_DIR, name);
    if (existsSync(path) && readFileSync(path, 'utf8') === text) continue;
    // Through a temporary name, like the bundles: a concurrent build or test never reads half a file.
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, text);
    renameSync(temporary, path);
    changed = true;
  }
  return changed;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const where = relative(ROOT, OUTPUT_DIR);
  if (process.argv.includes('--check')) {
    const files = generateValidators();
    const present = generatedNow();
    const stale = [
      ...Object.keys(files).filter(
        (name) => !present.includes(name) || readFileSync(join(OUTPUT_DIR, name), 'utf8') !== files[name],
      ),
      ...present.filter((name) => !Object.hasOwn(files, name)),
    ];
    if (stale.length) {
      console.error(`${where}: ${stale.join(', ')} missing, stale or left over: run npm run build`);
      process.exit(1);
    }
  } else {
    console.log(`${where}/validators*.js ${writeValidators() ? 'written' : 'up to date'}`);
  }
}
