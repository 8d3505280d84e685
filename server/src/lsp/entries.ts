// The files a session knows and their texts. Every file is an Entry keyed by the path the core
// uses (relative to the workspace folder, posix separators; absolute outside it; the URI itself
// for non-file URIs; the conversions are lsp/paths.ts's). An open editor's text wins over the
// disk's; each change of the text that counts bumps the entry's stamp.
// A file larger on disk than the workspace's fileBytes is never read whole: the entry keeps its
// head and its size (node/loader.ts readWithin), which is all its decline needs. A file on disk
// that holds nothing of ours keeps no text and no parse at all (`unrelated`), so a workspace full
// of other YAML costs the server what it costs the CLI.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { LensConfig } from '../core/config/config.js';
import type { ParsedFile } from '../core/parse/file.js';
import type { Workspace } from '../core/workspace.js';
import { readWithin, type DiskText } from '../node/loader.js';
import { errorText } from './listeners.js';

export interface Entry {
  path: string;
  uri: string;
  /** Text on disk when last read; undefined when the file is not on disk (or not read, or `unrelated`). */
  diskText?: string;
  /**
   * Set when the file on disk, as last read, holds no document of ours, so that neither its text
   * nor its parse is kept: `words` when the CLI's pre-filter said so from its text
   * (core/parse/prefilter.ts `mayBeOurs`), `parse` when its parse found no kind. A file of no kind
   * has no findings; it is read again when it changes on disk or the configuration may give it a
   * kind. Never set for a file an editor holds (whose text wins) or that a catalog glob names.
   */
  unrelated?: 'words' | 'parse';
  /**
   * Set when the file on disk was larger than the workspace's fileBytes when last read: its size
   * in bytes, and `diskText` is only its head (never checked as its text).
   */
  diskBytes?: number;
  /** The open editor's document (for its URI and version). */
  editor?: TextDocument;
  /**
   * The editor's text as of the last change applied here; it wins over the disk. Kept apart from
   * `editor` because the document object is updated in place before we hear of the change.
   */
  editorText?: string;
  /** Bumped on every change of the effective text. */
  stamp: number;
  /** One of the workspace's files (found under the folder with a checked extension). */
  onDisk: boolean;
  /** Matched by a catalog glob (`.toollens.yaml` `catalogs`, the `toolLens.catalogs` setting). */
  catalogGlobbed: boolean;
  /**
   * The parse of the entry's text (syntax only: what was derived from the catalog is memoised
   * apart, per workspace revision, core/context.ts), kept while the text, the workspace and its
   * configuration (forced kinds, limits) are the same; a catalog change keeps it.
   */
  parsed?: {
    file: ParsedFile;
    stamp: number;
    workspace: Workspace;
    config: LensConfig;
    /** Not parsed: the pre-filter found nothing of ours in an editor's text (core/parse/prefilter.ts). */
    plain?: true;
  };
}

/** The text that counts: the editor's, else the disk's. */
export function textOf(entry: Entry): string | undefined {
  return entry.editorText !== undefined ? entry.editorText : entry.diskText;
}

/**
 * Records what was read from disk for an entry (undefined: nothing); true when the entry's
 * effective text (the editor's wins) or how it is read changed.
 */
export function setDisk(entry: Entry, read: DiskText | undefined): boolean {
  const before = textOf(entry);
  const bytesBefore = entry.editorText === undefined ? entry.diskBytes : undefined;
  entry.diskText = read?.text;
  entry.diskBytes = read?.bytes;
  entry.unrelated = undefined;
  return before !== textOf(entry) || bytesBefore !== (entry.editorText === undefined ? entry.diskBytes : undefined);
}

/**
 * Records that the file on disk holds nothing of ours (see `Entry.unrelated`): its text and parse
 * are let go. True when the entry's effective text changed (an open editor's text still wins).
 */
export function setUnrelated(entry: Entry, why: 'words' | 'parse'): boolean {
  const before = textOf(entry);
  const bytesBefore = entry.editorText === undefined ? entry.diskBytes : undefined;
  entry.diskText = undefined;
  entry.diskBytes = undefined;
  entry.unrelated = why;
  if (entry.editorText === undefined) entry.parsed = undefined;
  return before !== textOf(entry) || bytesBefore !== undefined;
}

/** A session's entries by core path. */
export class Entries extends Map<string, Entry> {
  /** The entry of a path, made (with the URI `uriOf` gives) when there is none. */
  ensure(path: string, uriOf: () => string): Entry {
    let entry = this.get(path);
    if (!entry) {
      entry = { path, uri: uriOf(), stamp: 0, onDisk: false, catalogGlobbed: false };
      this.set(path, entry);
    }
    return entry;
  }

  /**
   * Files whose diagnostics the workspace has: the folder's files and the open editors (an
   * `unrelated` file among them, which has none).
   */
  checked(): Entry[] {
    return [...this.values()].filter(
      (e) => (e.onDisk || e.editor !== undefined) && (textOf(e) !== undefined || e.unrelated !== undefined),
    );
  }

  /** How many entries keep a text, and how many a parse (what the session holds in memory). */
  held(): { texts: number; parses: number; unrelated: number } {
    let texts = 0;
    let parses = 0;
    let unrelated = 0;
    for (const entry of this.values()) {
      if (entry.diskText !== undefined || entry.editorText !== undefined) texts++;
      if (entry.parsed) parses++;
      if (entry.unrelated) unrelated++;
    }
    return { texts, parses, unrelated };
  }
}

/**
 * After the workspace's fileBytes changed to `limit`: files declined by their size on disk that it
 * now admits are read whole, and files read whole that it no longer admits keep only their head.
 */
export function rereadForFileBytes(
  entries: Entries,
  limit: number,
  absolute: (path: string) => string,
  log: (message: string) => void,
): void {
  for (const entry of entries.values()) {
    if (entry.diskText === undefined) continue;
    const over =
      entry.diskBytes !== undefined ? entry.diskBytes > limit : Buffer.byteLength(entry.diskText, 'utf8') > limit;
    if (over === (entry.diskBytes !== undefined)) continue;
    try {
      if (setDisk(entry, readWithin(absolute(entry.path), limit))) entry.stamp++;
    } catch (error) {
      log(`cannot read ${entry.path}: ${errorText(error)}`);
    }
  }
}
