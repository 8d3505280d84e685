// RE2 (re2js) loaded on first use: a quarter of a megabyte of code that only a pattern to check
// needs (patterns.ts, gojsonschema.ts). re2.chunk.ts is its own file beside the bundles.
import type { RE2JS } from 're2js';
import type * as Chunk from './re2.chunk.js';

let chunk: typeof Chunk | undefined;

/** The RE2JS class, loaded on the first call. */
export function re2js(): typeof RE2JS {
  // A literal path in a function: the build keeps it a require of the chunk's file (lazyChunkPlugin).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  chunk ??= require('./re2.chunk.js') as typeof Chunk;
  return chunk.RE2JS;
}
