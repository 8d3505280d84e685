// The benchmark's floor: read every YAML/JSON file of a folder and parse it with `yaml`
// (parseAllDocuments), nothing more. What `tool-lens check` costs is measured against this.
//
//   node test/bench/baseline.mjs DIR
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

const EXTENSIONS = /\.(ya?ml|jsonc?|jsonl)$/;

function walk(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (EXTENSIONS.test(entry.name)) out.push(path);
  }
  return out;
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node test/bench/baseline.mjs DIR');
  process.exit(2);
}
let documents = 0;
let errors = 0;
for (const path of walk(dir, []).sort()) {
  for (const doc of parseAllDocuments(readFileSync(path, 'utf8'))) {
    documents++;
    errors += doc.errors.length;
  }
}
// Printed so the work cannot be optimised away and the run can be sanity-checked.
console.log(JSON.stringify({ documents, errors }));
