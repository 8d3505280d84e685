// toml-eslint-parser as a lazy chunk (scripts/build.mjs, LAZY_CHUNKS): the bundles require this
// module's file on the first TOML text they read (toml.ts, tomlParser), so a start that reads none
// does not parse it.
export { getStaticTOMLValue, parseTOML, traverseNodes } from 'toml-eslint-parser';
