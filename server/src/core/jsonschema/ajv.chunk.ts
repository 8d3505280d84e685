// ajv, its formats and our uniqueItems keyword as a lazy chunk (scripts/build.mjs, LAZY_CHUNKS):
// the bundles require this module's file on the first tool schema they compile (validate.ts), so a
// start that compiles none (no catalog, no recorded call) does not parse ajv.
export { default as Ajv } from 'ajv';
export { default as Ajv2020 } from 'ajv/dist/2020.js';
export { default as addFormats } from 'ajv-formats';
export { uniqueItems } from './uniqueItems.js';
