// What every check of a document may consult beyond the document itself: the catalog and the
// project configuration. The CLI builds one per run; the language server keeps one and updates it.
import { CatalogIndex } from './catalog/index.js';
import { DEFAULT_CONFIG, forcedKind, type LensConfig } from './config/config.js';
import { parseFile, type ParsedFile } from './parse/file.js';
import { reparseFile, type ReparseOptions } from './parse/incremental.js';
import type { DocumentKind } from './types.js';

export type Logger = (message: string) => void;

export class Workspace {
  readonly catalog = new CatalogIndex();
  private configValue: LensConfig = DEFAULT_CONFIG;

  constructor(
    /** Folder that relative paths and globs are taken from (posix separators). */
    readonly root: string,
    readonly log: Logger = () => { /* no log unless one is given */ },
  ) {}

  get config(): LensConfig {
    return this.configValue;
  }

  set config(config: LensConfig) {
    this.configValue = config;
    this.catalog.setWorkloads(config.workloads);
  }

  /** Path relative to the root, posix style, for globs and output. */
  relative(path: string): string {
    const normalized = path.replace(/\\/g, '/');
    const root = this.root.replace(/\\/g, '/').replace(/\/$/, '');
    if (root && normalized.startsWith(root + '/')) return normalized.slice(root.length + 1);
    return normalized.replace(/^\.\//, '');
  }

  forcedKind(path: string): DocumentKind | null {
    return forcedKind(this.configValue, this.relative(path));
  }

  /**
   * The parsed file. With `previous` (the same file before an edit), only the part of it that the
   * edit touched is parsed again where that gives the same result as a full parse. With
   * `consume`, `previous` must not be used afterwards (its nodes may move into the new tree).
   */
  parse(path: string, text: string, previous?: ParsedFile, options?: ReparseOptions): ParsedFile {
    const forcedKind = this.forcedKind(path);
    const reparsed = previous && previous.path === path ? reparseFile(previous, text, forcedKind, options) : undefined;
    return reparsed ?? parseFile(path, text, { forcedKind });
  }
}
