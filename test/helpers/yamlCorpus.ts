// The YAML files of the repository, and random edits of them, for the tests that hold one parse
// to another (block-yaml.test.ts, incremental.test.ts, suppressions.test.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

export const ROOT = join(__dirname, '..', '..');
/** Folders that are no part of the repository's own files (built, installed, or written by the bench). */
const SKIP = new Set(['node_modules', '.git', 'dist', '.tmp', 'out']);

/** Every `.yaml` and `.yml` file under `dir`, sorted. */
export function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) yamlFiles(full, out);
    else if (/\.ya?ml$/.test(name)) out.push(full);
  }
  return out.sort();
}

export interface Sample {
  /** Relative to the repository, with forward slashes. */
  path: string;
  text: string;
}

export function samplesOf(files: readonly string[]): Sample[] {
  return files.map((file) => ({
    path: file.slice(ROOT.length + 1).replace(/\\/g, '/'),
    text: readFileSync(file, 'utf8'),
  }));
}

/** What an edit inserts: YAML punctuation, indentation, line breaks and the characters parsers treat apart. */
export const INSERTS = [
  'x',
  'a: 1',
  ':',
  ' ',
  '  ',
  '\n',
  '\n  ',
  '\n    ',
  '- ',
  '\n- x',
  '#',
  ' # note',
  '{',
  '}',
  '[',
  ']',
  ',',
  '"',
  "'",
  '|',
  '>',
  '&a ',
  '*a',
  '!!str ',
  '---\n',
  '...\n',
  '%YAML 1.2\n',
  '\t',
  '\r\n',
  '\r',
  '\uFEFF',
  '{{',
  '? ',
  'key: value\n',
  '  key: value\n',
  '&b\n',
  '- - x',
  ': : x',
  '\\',
  '@',
];

export interface Edit {
  /** Where, as a fraction of the text's length. */
  at: number;
  remove: number;
  insert: string;
}

export const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  remove: fc.oneof(fc.constant(0), fc.nat({ max: 3 }), fc.nat({ max: 30 })),
  insert: fc.oneof(fc.constantFrom(...INSERTS), fc.constant('')),
});

export function applyEdits(text: string, edits: readonly Edit[]): string {
  for (const e of edits) {
    const at = Math.floor(e.at * text.length);
    text = text.slice(0, at) + e.insert + text.slice(Math.min(text.length, at + e.remove));
  }
  return text;
}
