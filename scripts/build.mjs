// Bundles the entry points into dist/ with esbuild. One line per bundle in ENTRIES; an entry whose
// source does not exist yet is skipped, so the build works while the project grows.
// Not minified: readable stack traces from users matter more than a few kilobytes.
// Each output is written to a temporary name and renamed, so a test or a user running
// dist/cli.js while another build runs never sees half a file.
// First, every build regenerates the document-kind schema validators (ajv standalone code, git-
// ignored) from schemas/*.schema.json, so the bundles and the tests never use stale ones. Code that
// only some runs need (the schema files, each kind's validators, ajv, re2js, the TOML parser, the MCP SDK) is a lazy chunk: a file of its own beside the bundles,
// which they `require` on first use, so a start does not parse it (LAZY_CHUNKS). Then it
// refreshes the committed files that list every rule (docs/rules/README.md's tables, the rules: keys
// of schemas/toollens-config.schema.json) from the rule registry: scripts/generate-rule-files.ts,
// loaded through tsx since the registry is TypeScript (and imports those validators).
import { build } from 'esbuild';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { require as tsxRequire } from 'tsx/cjs/api';
import { writeRuleModules } from './generate-rule-modules.mjs';
import { moduleFile, moduleOf, OUTPUT_DIR as VALIDATORS_DIR, REFS, writeValidators } from './generate-validators.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** @type {{ in: string, out: string, bin?: boolean, external?: string[] }[]} */
const ENTRIES = [
  { in: 'server/src/cli/main.ts', out: 'dist/cli.js', bin: true },
  { in: 'server/src/server.ts', out: 'dist/server.js', bin: true },
  { in: 'client/src/extension.ts', out: 'dist/extension.js', external: ['vscode'] },
];

/**
 * The lazy chunks: source module → file in dist/chunks/. Each is bundled on its own, and an import
 * of it from another bundle stays a `require` of that file, relative to dist/ (lazyChunkPlugin), so
 * it is read and compiled only when the code that requires it runs. The source requires it in a
 * function, by a literal path: run from the source (tests, through tsx), it loads the same way.
 * V8 parses a bundle whole at every start, about 11 ms a megabyte: the validators of the
 * Kubernetes resources alone are 0.7 MB that a check of gateway files never runs.
 */
const LAZY_CHUNKS = [
  // ajv's standalone code for each document kind (generate-validators.mjs), required by its index.
  ...[...new Set(REFS.map(moduleOf))].map((kind) => ({
    in: join(VALIDATORS_DIR, moduleFile(kind)),
    out: `dist/chunks/validators-${kind}.js`,
  })),
  // The first document validated: the document-kind schema files (validate.ts, bundledSchemas).
  { in: join(ROOT, 'server/src/core/structure/schemas.chunk.ts'), out: 'dist/chunks/schemas.js' },
  // Tool schemas to compile (a catalog's, a call's): ajv, its formats, our uniqueItems keyword.
  { in: join(ROOT, 'server/src/core/jsonschema/ajv.chunk.ts'), out: 'dist/chunks/ajv.js' },
  // Patterns to check (a catalog's input schemas): re2js.
  { in: join(ROOT, 'server/src/core/jsonschema/re2.chunk.ts'), out: 'dist/chunks/re2js.js' },
  // Codex's TOML config: toml-eslint-parser.
  { in: join(ROOT, 'server/src/core/parse/toml.chunk.ts'), out: 'dist/chunks/toml.js' },
  // A catalog fetch: the MCP SDK, zod and the transports.
  { in: join(ROOT, 'server/src/live/sdk.chunk.ts'), out: 'dist/chunks/mcp-sdk.js' },
];

/** A path without its .js/.ts extension: a source imports `x.chunk.js` for `x.chunk.ts`. */
const stem = (path) => path.replace(/\.[cm]?[jt]s$/, '');

/** Keeps each lazy chunk out of the bundles that import it: a `require` of its file in dist/chunks/. */
const lazyChunkPlugin = {
  name: 'lazy-chunks',
  setup(pluginBuild) {
    const names = [...new Set(LAZY_CHUNKS.map((chunk) => stem(chunk.in.split(sep).pop())))];
    const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const filter = new RegExp(`/(${names.map(escape).join('|')})(\\.[cm]?[jt]s)?$`);
    pluginBuild.onResolve({ filter }, (args) => {
      const chunk = LAZY_CHUNKS.find((c) => stem(c.in) === stem(join(args.resolveDir, args.path)));
      // The chunk's own build bundles it; every other bundle is in dist/, so the path is the same from each.
      if (!chunk || args.kind === 'entry-point') return undefined;
      return { path: `./${posix.relative('dist', chunk.out)}`, external: true };
    });
  },
};

/**
 * Our schema files as one `JSON.parse` of their text each rather than as object literals: V8 scans
 * a string and parses JSON several times faster than it compiles and runs the same object as code.
 * The objects are the same (same keys in the same order, the same values).
 */
const jsonParsePlugin = {
  name: 'json-parse',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]schemas[\\/][^\\/]+\.schema\.json$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      JSON.parse(text); // a broken file fails the build here, not at run time
      return { contents: `export default JSON.parse(${JSON.stringify(text)});\n`, loader: 'js' };
    });
  },
};

// "use strict" first: esbuild's own directive comes after the banner, where it no longer counts.
const IMPORT_META_URL = '"use strict";\nvar __bundleUrl = require("node:url").pathToFileURL(__filename).href;';

/**
 * The bundle with every character past ASCII written as a `\u` escape. esbuild escapes them in
 * strings, but not in the comments and regular expressions it keeps, and a single one makes V8
 * hold the whole source (it keeps it for lazy compilation) as two bytes a character: 6 MB for
 * the CLI instead of 3. An escape means the same character in a string, a regular expression or
 * an identifier, and is plain text in a comment; no bundle uses a raw template literal.
 */
function asciiOnly(text) {
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

async function bundle(entry) {
  const outfile = join(ROOT, entry.out);
  const input = entry.in.startsWith(ROOT) ? entry.in : join(ROOT, entry.in);
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [input],
    plugins: [lazyChunkPlugin, jsonParsePlugin],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    // Prefer packages' ES module builds: jsonc-parser's main is a UMD file whose dynamic
    // requires a bundler cannot follow.
    mainFields: ['module', 'main'],
    external: entry.external ?? [],
    // A dependency that ships only ESM calling createRequire(import.meta.url) would find
    // import.meta empty in a CommonJS bundle: give it this file's URL.
    define: { 'import.meta.url': '__bundleUrl' },
    banner: { js: [entry.bin ? '#!/usr/bin/env node' : '', IMPORT_META_URL].filter(Boolean).join('\n') },
    logLevel: 'warning',
    write: false,
  });
  let size = 0;
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    const contents = file.path.endsWith('.js') ? asciiOnly(file.text) : file.contents;
    writeFileSync(temporary, contents);
    if (entry.bin && file.path === outfile) chmodSync(temporary, 0o755);
    renameSync(temporary, file.path);
    if (file.path === outfile) size = contents.length;
  }
  return { out: relative(ROOT, outfile), size };
}

/** Removes from dist/chunks/ the files of chunks there are no more. */
function removeStaleChunks() {
  const dir = join(ROOT, 'dist', 'chunks');
  if (!existsSync(dir)) return;
  const wanted = new Set(LAZY_CHUNKS.map((chunk) => join(ROOT, chunk.out)));
  for (const name of readdirSync(dir))
    if (!wanted.has(join(dir, name)) && !wanted.has(join(dir, name.replace(/\.map$/, '')))) rmSync(join(dir, name));
}

const present = ENTRIES.filter((entry) => existsSync(join(ROOT, entry.in)));
try {
  writeValidators();
  // The registry imports every rule module through this list; it is written before anything reads it.
  if (writeRuleModules()) console.log('server/src/core/rules/modules.generated.ts regenerated from the rule modules');
  const bundles = Promise.all([...present, ...LAZY_CHUNKS].map(bundle));
  // The rule files are written while esbuild bundles (in its own process); the bundles read neither.
  const { writeRuleFiles } = tsxRequire('./generate-rule-files.ts', import.meta.url);
  for (const file of writeRuleFiles()) console.log(`${file} regenerated from the rule registry`);
  const built = await bundles;
  removeStaleChunks();
  for (const { out, size } of built.slice(0, present.length))
    console.log(`${out.padEnd(20)} ${(size / 1024).toFixed(0).padStart(6)} KB`);
  const chunks = built.slice(present.length).reduce((sum, { size }) => sum + size, 0);
  console.log(
    `${'dist/chunks/'.padEnd(20)} ${(chunks / 1024).toFixed(0).padStart(6)} KB in ${LAZY_CHUNKS.length} lazy chunks`,
  );
} catch (error) {
  // esbuild has already printed the located errors; the message alone is enough here (a schema
  // the generator cannot compile, or a rules index without its family title, throws without
  // esbuild's help: say which).
  console.error(`build failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  process.exit(1);
}
