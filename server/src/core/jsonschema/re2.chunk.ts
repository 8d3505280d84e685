// re2js as a lazy chunk (scripts/build.mjs, LAZY_CHUNKS): the bundles require this module's file on
// the first pattern they check (re2.ts), so a start that checks none does not parse re2js.
export { RE2JS } from 're2js';
