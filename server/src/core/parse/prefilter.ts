// Whether a file's text can hold one of our document kinds, decided without parsing it: the CLI
// parses only the files that may (node/loader.ts), and hands back the others as files of no kind,
// which is what their full parse would find. A false "maybe" only costs a parse; a false "no"
// would lose a file, so this says "no" only when no parse can give a kind (test/unit/prefilter.test.ts
// tries every file of the repository and thousands of generated and mutated ones).
//
// Why the words below are enough: every kind is recognised by a key (or a value) of ours that the
// parsed tree holds as a string (kinds.ts `kindFromContent`, the resources embedded.ts finds, the
// text markers of `kindFromText` for a document no parser read), and a string of the tree is
// written in the text as it reads, except where the text spells it otherwise:
// - an escape in a double-quoted YAML scalar or a JSON string: `\x63`, `\u0063`, `\U00000063`,
//   and the escaped line break that joins two lines with nothing between them;
// - a `!!binary` scalar, whose base64 decodes to any string (the library decodes it under every
//   schema, and it can be named `!<tag:yaml.org,2002:binary>`, or through a `%TAG` directive or a
//   %-escape in the tag, which both write a `%`).
// Folding (plain, quoted or `>` scalars over several lines) puts a space or a line break where the
// lines meet, so it cannot join two halves of a word; aliases and merges repeat text written
// elsewhere in the file; other tags make numbers, booleans, dates or collections, none of which is
// a key of ours. So: one of our words, or a spelling otherwise, or "no".
import { SourceText } from '../text/source.js';
import type { DocumentKind } from '../types.js';
import { fileWithComments, languageOf, type ParsedFile } from './file.js';
import { kindFromName } from './kinds.js';

/**
 * One of these in the text, and a document of it may be ours: `kind: VirtualMCPServer` and
 * `VirtualMCPCompositeToolDefinition` (in a file, a List or a Chainsaw test), `compositeTools`,
 * `catalog: 1`, a tools/list result (each tool has an `inputSchema`), `toolFaces`, `calls`,
 * `mcpServers`.
 */
const OUR_WORDS = ['VirtualMCP', 'compositeTools', 'catalog', 'inputSchema', 'toolFaces', 'calls', 'mcpServers'];

/** The CLI config without composite tools needs two of these settings (kinds.ts `isCliConfig`, `cliConfigText`). */
const CLI_SETTINGS = ['groupRef', 'incomingAuth', 'outgoingAuth', 'aggregation', 'backends'];

/** A string of the tree that the text may spell otherwise than as it reads (see the top of this file). */
const SPELT_OTHERWISE = /\\[xuU\r\n]|binary|%/;

/** Whether the text spells a word otherwise than it reads: an escape, a `!!binary` scalar or a `%` of a tag. */
export function speltOtherwise(text: string): boolean {
  return SPELT_OTHERWISE.test(text);
}

/** Whether the text of a file may hold a document of ours, whatever its name and configuration. */
export function textMayBeOurs(text: string): boolean {
  for (const word of OUR_WORDS) if (text.includes(word)) return true;
  let settings = 0;
  for (const word of CLI_SETTINGS) if (text.includes(word) && ++settings === 2) return true;
  return speltOtherwise(text);
}

/**
 * Whether a file may be of one of our kinds: its name or the configuration gives it one
 * (`forcedKind`), or its text may hold one (`textMayBeOurs`). False only when its full parse
 * finds no kind in any of its documents, embedded ones included.
 */
export function mayBeOurs(path: string, text: string, forcedKind: DocumentKind | null): boolean {
  return forcedKind !== null || kindFromName(path) !== null || textMayBeOurs(text);
}

/**
 * A file `mayBeOurs` said "no" to, not parsed: its text, and no document and no kind, which is all
 * a check of it reads (a file of no kind has no findings: engine.ts), as its full parse would say.
 */
export function unparsedFile(path: string, text: string): ParsedFile {
  return fileWithComments(
    { path, source: new SourceText(text), language: languageOf(path), documents: [], kind: null },
    false,
  );
}
