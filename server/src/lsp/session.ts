// One workspace folder as the server keeps it: a core Workspace kept up to date from disk (read
// once at start, then through file-watch events) and from open editors, whose text always wins
// over the disk. The session decides what a change affects and says so; the pieces it is made of
// each do one job:
//   entries.ts      the files it knows and their texts
//   folderRead.ts   a read of the folder from disk (which files are read and which may be
//                   catalogs, and the order catalogs join in, are node/discovery.ts's, the CLI's)
//   catalogGlobs.ts the globs whose files join the catalog whatever their content
//   baseline.ts     the baseline catalog that aggregation/advertised-rename compares with
//   liveState.ts    the live fetches under way and their failures
//   catalogState.ts the catalog as the language status and the log tell it
//   listeners.ts    the listeners of its change events
//   watchEvents.ts  what a file-watch event means to the folder
//   pathQueue.ts    file-watch events of one path applied in turn
// Each text change bumps the entry's stamp; a change to what other files depend on (a catalog,
// the configuration, a composite tool definition that a server in another file may reference, a
// client config's server that another client's file of its project also names) bumps the session's generation, which changes every result id so that
// dependants are re-checked against the new catalog. A parse is kept while its text and the
// configuration are the same: a catalog change re-runs the analyses (memoised per workspace
// revision, core/context.ts) over the parses it has.
import { randomBytes } from 'node:crypto';
import { dirname, relative } from 'node:path';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { clientServersOf, mayHoldClientServers } from '../core/catalog/clientServers.js';
import { definitionsOf, mayHoldDefinitions } from '../core/catalog/definitions.js';
import { parseConfig } from '../core/config/config.js';
import type { ParsedFile } from '../core/parse/file.js';
import { mayBeOurs, unparsedFile } from '../core/parse/prefilter.js';
import { RULE_IDS } from '../core/rules/registry.js';
import type { Finding } from '../core/types.js';
import { Workspace, type BaselineFile } from '../core/workspace.js';
import { filesOfCatalogGlobs, joinCatalog, mayBeCatalog, type CatalogGlob } from '../node/discovery.js';
import { readWithin, readWithinAsync, rebaseConfig, type DiskText } from '../node/loader.js';
import { toPosix } from '../node/paths.js';
import { linksOutNote, type LinkOut } from '../node/walk.js';
import { BaselineCatalog } from './baseline.js';
import { catalogGlobsOf } from './catalogGlobs.js';
import { CatalogLog, catalogStateOf, loadWords } from './catalogState.js';
import { Entries, rereadForFileBytes, setDisk, setUnrelated, textOf, type Entry } from './entries.js';
import { readFolder } from './folderRead.js';
import { errorText, Listeners } from './listeners.js';
import { LiveFetchState } from './liveState.js';
import { absoluteOf, fileUriOf, folderOfUri, isUnderRoot, pathOfAbsolute, pathOfUri } from './paths.js';
import { PathQueue } from './pathQueue.js';
import type { CatalogState, ToolLensSettings } from './protocol.js';
import { watchVerdict, type WatchKind } from './watchEvents.js';

export type Log = (message: string) => void;

/**
 * How much text (UTF-16 units) the parses a session keeps for files no editor holds may add up
 * to, catalogs and the configuration aside: a parse weighs about twenty times its text, so a
 * repository of large files of ours must not be held whole (issue 24). Past it, a file's parse is
 * let go once it is checked, and made again when it is needed (a catalog change re-parses it). A
 * bound on a cache, not on work: nothing is declined.
 */
export const KEPT_PARSE_CHARS = 4 * 1024 * 1024;

export interface ChangeEvent {
  /** Entries whose own text changed. */
  paths: string[];
  /** True when something other files depend on changed (catalog, configuration, composite tool definitions, client configs' servers): every file may change. */
  dependencies: boolean;
}

export class Session {
  /** Distinguishes result ids of this server run from those of an earlier one. */
  readonly id = randomBytes(4).toString('hex');
  /** Absolute folder (native separators); undefined when the client opened no folder. */
  root: string | undefined;
  workspace: Workspace;
  generation = 0;
  readonly entries = new Entries();
  /** The active configuration file (absolute, native separators). */
  configPath: string | undefined;
  configProblems: Finding[] = [];
  /**
   * What the user must be told of the folder's configuration when it cannot be read (a folder
   * named `.toollens.yaml`, say): the folder is then checked with the built-in defaults.
   */
  configNotice: string | undefined;
  settings: ToolLensSettings = {};
  /** Whether the client said the workspace is trusted; nothing is ever started until it has. */
  trusted = false;
  private readonly live = new LiveFetchState();
  loaded = false;
  /** Resolves once the workspace has been read from disk. */
  readonly ready: Promise<void>;
  private resolveReady!: () => void;
  private readonly changeListeners: Listeners<ChangeEvent>;
  private readonly catalogListeners: Listeners<CatalogState>;
  private readonly noticeListeners: Listeners<string>;
  private readonly catalogLog: CatalogLog;
  /** The globs whose files join the catalog whatever their content. */
  private catalogGlobs: CatalogGlob[] = [];
  private readonly diskQueue = new PathQueue();
  /** Catalogs found by a lazy parse, waiting for their catalog change (see lateCatalog). */
  private readonly lateCatalogs = new Set<string>();
  private readonly baseline = new BaselineCatalog();
  /** KEPT_PARSE_CHARS; tests lower it. */
  keptParseChars = KEPT_PARSE_CHARS;
  /** The parses kept under keptParseChars, by path, with their text's length. */
  private readonly keptParses = new Map<string, number>();
  private keptChars = 0;
  private keptPrunedAt = 0;

  /** Set once the folder left the client's workspace: nothing is emitted any more. */
  closed = false;

  /**
   * `owns` says whether a file (absolute, native separators) is this folder's: false for the
   * files of another workspace folder nested inside this one (lsp/folders.ts), which that folder
   * reads and checks.
   */
  constructor(
    readonly log: Log,
    private readonly owns: (absolute: string) => boolean = () => true,
  ) {
    this.workspace = new Workspace('', log);
    this.ready = new Promise((resolve) => (this.resolveReady = resolve));
    this.changeListeners = new Listeners(log, 'change');
    this.catalogListeners = new Listeners(log, 'catalog');
    this.noticeListeners = new Listeners(log, 'notice');
    this.catalogLog = new CatalogLog(log);
  }

  // -------------------------------------------------------------------------------------------
  // Paths and URIs (converted by lsp/paths.ts)

  setRoot(folderUri: string | undefined): void {
    this.setRootFolder(folderOfUri(folderUri));
  }

  /** The folder (absolute, native separators), before the first load. */
  setRootFolder(root: string | undefined): void {
    this.root = root;
    if (this.root !== undefined) this.workspace = new Workspace(toPosix(this.root), this.log);
  }

  /** The folder left the workspace: its state is dropped and it emits nothing more. */
  close(): void {
    this.closed = true;
    this.resolveReady();
    this.entries.clear();
    this.changeListeners.clear();
    this.catalogListeners.clear();
    this.noticeListeners.clear();
  }

  /** The core path of a URI. */
  pathOf(uri: string): string {
    return pathOfUri(uri, this.workspace, this.log);
  }

  uriOf(path: string): string {
    const entry = this.entries.get(path);
    if (entry) return entry.uri;
    return fileUriOf(path, this.root);
  }

  absolute(path: string): string {
    return absoluteOf(path, this.root);
  }

  /** Whether a core path lies inside the workspace folder. */
  private underRoot(path: string): boolean {
    return isUnderRoot(path, this.root);
  }

  entryOf(uri: string): Entry | undefined {
    return this.entries.get(this.pathOf(uri));
  }

  textOf(entry: Entry): string | undefined {
    return textOf(entry);
  }

  private ensureEntry(path: string, uri?: string): Entry {
    return this.entries.ensure(path, () => uri ?? fileUriOf(path, this.root));
  }

  /**
   * The parsed file for an entry's current text, shared until the text or the configuration
   * changes. A file on disk (no editor holds it, no catalog glob names it) found to hold nothing
   * of ours, by the CLI's pre-filter or by its parse, is handed back once and then let go with its
   * text (`Entry.unrelated`): a file of no kind has no findings, and nothing is kept for it.
   */
  fileOf(entry: Entry): ParsedFile | undefined {
    const text = textOf(entry);
    if (text === undefined) {
      entry.parsed = undefined; // an editor's parse, say, once it closed a file that is not ours
      return undefined;
    }
    const cached = entry.parsed;
    if (
      cached &&
      cached.stamp === entry.stamp &&
      cached.workspace === this.workspace &&
      cached.config === this.workspace.config
    )
      return cached.file;
    const fromDisk = entry.editorText === undefined;
    const mayLetGo = fromDisk && !entry.catalogGlobbed && !this.isConfig(entry);
    if (
      !entry.catalogGlobbed &&
      !this.isConfig(entry) &&
      (!fromDisk || entry.diskBytes === undefined) &&
      !mayBeOurs(entry.path, text, this.workspace.forcedKind(entry.path))
    ) {
      // What the CLI does with such a file (node/loader.ts): no parse, no kind, no findings.
      const file = unparsedFile(entry.path, text);
      if (mayLetGo) setUnrelated(entry, 'words');
      else
        entry.parsed = {
          file,
          stamp: entry.stamp,
          workspace: this.workspace,
          config: this.workspace.config,
          plain: true,
        };
      return file;
    }
    // The previous parse, even of an older text, lets an edit re-parse only what it touched. It is
    // replaced here and nothing else keeps it, so its nodes may move into the new parse.
    const previous = cached?.plain ? undefined : cached?.file;
    const file =
      fromDisk && entry.diskBytes !== undefined
        ? this.workspace.parseTooLarge(entry.path, entry.diskBytes, text)
        : this.workspace.parse(entry.path, text, previous, { consume: true });
    if (mayLetGo && file.kind === null && entry.diskBytes === undefined) {
      setUnrelated(entry, 'parse');
      return file;
    }
    entry.parsed = { file, stamp: entry.stamp, workspace: this.workspace, config: this.workspace.config };
    if (
      file.kind === 'tool-catalog' &&
      this.loaded &&
      !this.workspace.catalog.hasFile(entry.path) &&
      this.joinsCatalog(entry)
    )
      this.lateCatalog(entry);
    return file;
  }

  /**
   * After a check of an entry: whether its parse is kept. Always for an open editor, a catalog and
   * the configuration; for another file, while the parses kept for such files stay within
   * KEPT_PARSE_CHARS, and otherwise it is let go here.
   */
  settleParse(entry: Entry): boolean {
    const parsed = entry.parsed;
    const counted = this.keptParses.get(entry.path);
    if (counted !== undefined) {
      this.keptChars -= counted;
      this.keptParses.delete(entry.path);
    }
    if (!parsed) return false;
    const background =
      entry.editor === undefined &&
      !entry.catalogGlobbed &&
      !this.isConfig(entry) &&
      !this.workspace.catalog.hasFile(entry.path);
    if (!background) return true;
    const size = parsed.file.source.text.length;
    if (this.keptChars + size > this.keptParseChars) this.pruneKeptParses();
    if (this.keptChars + size > this.keptParseChars) {
      entry.parsed = undefined;
      return false;
    }
    this.keptParses.set(entry.path, size);
    this.keptChars += size;
    return true;
  }

  /** Forgets the counted parses that are gone (a file deleted, changed, opened): at most once a second. */
  private pruneKeptParses(): void {
    const now = Date.now();
    if (now - this.keptPrunedAt < 1000) return;
    this.keptPrunedAt = now;
    for (const [path, size] of this.keptParses) {
      const entry = this.entries.get(path);
      if (entry?.parsed && entry.editor === undefined && entry.parsed.file.source.text.length === size) continue;
      this.keptParses.delete(path);
      this.keptChars -= size;
    }
  }

  fileOfUri(uri: string): ParsedFile | undefined {
    const entry = this.entryOf(uri);
    return entry ? this.fileOf(entry) : undefined;
  }

  /** Changes whenever the diagnostics of this entry may change. */
  resultIdOf(entry: Entry): string {
    return `${this.id}.${this.generation}.${this.liveEpoch}.${entry.stamp}`;
  }

  isConfig(entry: Entry): boolean {
    return this.configPath !== undefined && this.entryPathOfAbsolute(this.configPath) === entry.path;
  }

  private entryPathOfAbsolute(absolute: string): string {
    return pathOfAbsolute(absolute, this.workspace);
  }

  /** Files whose diagnostics the workspace has: the folder's files and the open editors. */
  checkedEntries(): Entry[] {
    return this.entries.checked();
  }

  onDidChange(listener: (event: ChangeEvent) => void): void {
    this.changeListeners.add(listener);
  }

  onCatalogState(listener: (state: CatalogState) => void): void {
    this.catalogListeners.add(listener);
  }

  /** Something the user must see, not only the log (lsp/lifecycle.ts shows it as a warning). */
  onNotice(listener: (message: string) => void): void {
    this.noticeListeners.add(listener);
  }

  private emit(event: ChangeEvent): void {
    if (this.closed) return;
    this.changeListeners.emit(event);
  }

  /** Something every file may depend on changed: the catalog is built again and everyone hears of it. */
  private dependenciesChanged(paths: string[]): void {
    this.generation++;
    this.rebuildCatalog();
    this.emit({ paths, dependencies: true });
    this.publishCatalogState();
  }

  // -------------------------------------------------------------------------------------------
  // Loading from disk

  /** Reads the workspace folder (files, configuration, catalogs). Safe to call again (refresh). */
  load(): void {
    if (this.closed) return;
    const started = performance.now();
    try {
      this.loadFromDisk();
    } catch (error) {
      this.log(`could not read the workspace folder: ${errorText(error)}`);
    }
    if (!this.baseline.taken) {
      const files = this.catalogFiles(true);
      this.baseline.take(
        files,
        files.every((file) => file.text === textOf(this.entries.get(file.path)!)),
      );
    }
    this.attachBaseline();
    this.log(
      loadWords(this.root, this.configPath, this.configProblems.length, this.entries.size, performance.now() - started),
    );
    this.loaded = true;
    this.resolveReady();
    this.emit({ paths: [...this.entries.keys()], dependencies: true });
    this.publishCatalogState();
  }

  /** Says once (until it changes) that the configuration found cannot be read, in the log and to the user. */
  private sayConfigUnreadable(unreadable: { path: string; reason: string } | undefined): void {
    const notice = unreadable
      ? `Tool Lens cannot read the configuration ${toPosix(relative(this.root ?? dirname(unreadable.path), unreadable.path))} ` +
        `(${unreadable.reason}): ${this.root ?? 'the folder'} is checked with the built-in defaults. ` +
        `Make it a readable .toollens.yaml file, or remove it.`
      : undefined;
    if (notice === this.configNotice) return;
    this.configNotice = notice;
    if (notice === undefined) return;
    this.log(notice);
    if (!this.closed) this.noticeListeners.emit(notice);
  }

  private loadFromDisk(): void {
    this.generation++;
    const seen = new Set<string>();
    let linksOut: LinkOut[] = [];
    // Files are read now but parsed when first needed (a check, a hover...): only those that may
    // be catalogs are parsed at once, by rebuildCatalog below, since every check depends on them.
    const read = this.root !== undefined ? readFolder(this.root, this.owns, this.log) : undefined;
    this.sayConfigUnreadable(read?.configUnreadable);
    if (read) {
      this.workspace = read.workspace;
      this.configPath = read.configPath;
      this.configProblems = read.configProblems;
      linksOut = read.linksOut;
      if (read.configPath && read.configText !== undefined) {
        // The configuration is not a checked file for the core, but its problems are diagnostics.
        const entry = this.ensureEntry(this.entryPathOfAbsolute(read.configPath));
        if (entry.diskText !== read.configText) entry.stamp++;
        entry.diskText = read.configText;
        entry.onDisk = true;
        seen.add(entry.path);
      }
      for (const file of read.files) {
        const path = this.entryPathOfAbsolute(file.absolute);
        seen.add(path);
        const entry = this.ensureEntry(path);
        entry.onDisk = true;
        if (file.read === 'unrelated' ? setUnrelated(entry, 'words') : setDisk(entry, file.read)) entry.stamp++;
      }
    } else {
      this.workspace = new Workspace(this.root ? toPosix(this.root) : '', this.log);
      this.configPath = undefined;
      this.configProblems = [];
    }
    // Files that left the disk: forget them unless an editor still holds them.
    for (const entry of [...this.entries.values()]) {
      if (seen.has(entry.path) || !entry.onDisk) continue;
      entry.onDisk = false;
      setDisk(entry, undefined);
      entry.stamp++;
      if (!entry.editor) this.entries.delete(entry.path);
    }
    // An open, edited configuration wins over the one on disk.
    const configEntry = this.configPath ? this.entries.get(this.entryPathOfAbsolute(this.configPath)) : undefined;
    if (configEntry?.editorText !== undefined && configEntry.editorText !== configEntry.diskText) {
      linksOut = [...linksOut, ...this.applyConfigText(configEntry.editorText, false)];
      this.generation++; // forced kinds may differ from the ones the loader parsed with
    } else linksOut = [...linksOut, ...this.refreshCatalogGlobs(false)];
    this.logLinksOut(linksOut);
    this.rebuildCatalog();
  }

  /** Symbolic links the walks did not follow: one log line (the CLI's note, node/walk.ts). */
  private logLinksOut(linksOut: readonly LinkOut[]): void {
    const note = linksOutNote(linksOut, this.root ?? '');
    if (note !== undefined) this.log(`Tool Lens ${note}`);
  }

  /**
   * Applies configuration text (from the disk or an editor) without re-reading the folder. Returns
   * the links out that the catalog globs met, logged here unless `log` is false.
   */
  private applyConfigText(text: string, log = true): LinkOut[] {
    if (!this.configPath) return [];
    const configRoot = dirname(this.configPath);
    const base = this.root ?? configRoot;
    const rel = toPosix(relative(base, this.configPath));
    const result = parseConfig(rel, text, RULE_IDS);
    this.configProblems = result.problems;
    const config = rebaseConfig(result.config, configRoot, base);
    const before = this.workspace.limits;
    this.workspace.config = config;
    if (config.limits.fileBytes !== before.fileBytes)
      rereadForFileBytes(this.entries, config.limits.fileBytes, (path) => this.absolute(path), this.log);
    const parseLimits = (['fileBytes', 'fileValues', 'aliasNodes'] as const).some(
      (key) => config.limits[key] !== before[key],
    );
    this.rereadUnrelated(parseLimits);
    return this.refreshCatalogGlobs(log);
  }

  /**
   * After the configuration changed: files let go as holding nothing of ours that it may now give a
   * kind are read again: those it forces a kind on, and, when `parseLimits` changed, those whose
   * parse (under the old limits) found none.
   */
  private rereadUnrelated(parseLimits: boolean): void {
    for (const entry of this.entries.values()) {
      if (entry.unrelated === undefined) continue;
      if (this.workspace.forcedKind(entry.path) === null && !(parseLimits && entry.unrelated === 'parse')) continue;
      try {
        if (setDisk(entry, readWithin(this.absolute(entry.path), this.workspace.limits.fileBytes))) entry.stamp++;
      } catch (error) {
        this.log(`cannot read ${entry.path}: ${errorText(error)}`);
      }
    }
  }

  /**
   * Records a read of a file from disk: a file no catalog glob names whose text cannot hold a
   * document of ours keeps nothing (`Entry.unrelated`). True when the entry's effective text changed.
   */
  private setDiskRead(entry: Entry, read: DiskText): boolean {
    if (
      read.bytes === undefined &&
      !entry.catalogGlobbed &&
      !this.isConfig(entry) &&
      !mayBeOurs(entry.path, read.text, this.workspace.forcedKind(entry.path))
    )
      return setUnrelated(entry, 'words');
    return setDisk(entry, read);
  }

  /**
   * Recomputes which files the catalog globs name, reading those not read yet. Returns the links
   * out that the globs met, logged here unless `log` is false.
   */
  private refreshCatalogGlobs(log = true): LinkOut[] {
    const configRoot = this.configPath ? dirname(this.configPath) : this.root;
    const globs = catalogGlobsOf(this.workspace.config, configRoot, this.root, this.settings.catalogs ?? [], this.log);
    const matched = new Set<string>();
    const found = filesOfCatalogGlobs(globs, (glob, problem) => this.log(`bad catalog glob ${glob}: ${problem}`));
    this.catalogGlobs = globs;
    for (const { folder, error } of found.unreadable) this.log(`cannot read the folder ${folder}: ${error}`);
    if (log) this.logLinksOut(found.linksOut);
    for (const file of found.files) matched.add(this.entryPathOfAbsolute(file));
    for (const entry of this.entries.values()) entry.catalogGlobbed = matched.has(entry.path);
    for (const path of matched) {
      const entry = this.ensureEntry(path);
      entry.catalogGlobbed = true;
      if (entry.diskText === undefined && !entry.editor) {
        try {
          setDisk(entry, readWithin(this.absolute(path), this.workspace.limits.fileBytes));
          entry.stamp++;
        } catch (error) {
          this.log(`cannot read the catalog ${path}: ${errorText(error)}`);
        }
      }
    }
    // Catalog-only entries that no glob names any more and no editor holds are dropped.
    for (const entry of [...this.entries.values()]) {
      if (!entry.catalogGlobbed && !entry.onDisk && !entry.editor) this.entries.delete(entry.path);
    }
    return found.linksOut;
  }

  // -------------------------------------------------------------------------------------------
  // The catalog

  /** Whether an entry's catalog documents join the workspace catalog. */
  private joinsCatalog(entry: Entry): boolean {
    if (entry.onDisk) return true;
    if (!entry.editor) return false;
    return this.root === undefined || this.underRoot(entry.path);
  }

  /**
   * Rebuilds the catalog from the current texts, with the CLI's rules and order (`joinCatalog`:
   * the files catalog globs name first, then the other catalog files, each group by absolute
   * path), so that the first server of a name wins the same way in the editor and in CI.
   */
  private rebuildCatalog(): void {
    const catalog = this.workspace.catalog;
    for (const path of catalog.files) catalog.removeFile(path);
    const candidates: { absolute: string; named: boolean; entry: Entry }[] = [];
    for (const entry of this.entries.values()) {
      if (entry.catalogGlobbed || this.joinsCatalog(entry))
        candidates.push({ absolute: this.absolute(entry.path), named: entry.catalogGlobbed, entry });
    }
    joinCatalog(
      catalog,
      candidates,
      (candidate) => this.fileOf(candidate.entry),
      (candidate) => this.mayBeCatalogEntry(candidate.entry),
    );
    this.workspace.definitions.clear();
    this.workspace.clientServers.clear();
    for (const entry of this.entries.values()) {
      this.updateDefinitions(entry);
      this.updateClientServers(entry);
    }
    this.attachBaseline();
  }

  /**
   * Puts what an entry defines (VirtualMCPCompositeToolDefinitions, for the references of servers
   * in other files) in the workspace's index, with the catalog's reach (`joinsCatalog`); only an
   * entry whose text names the kind is parsed for it. True when the index changed.
   */
  private updateDefinitions(entry: Entry): boolean {
    const text = textOf(entry);
    const file =
      text !== undefined && this.joinsCatalog(entry) && mayHoldDefinitions(text) ? this.fileOf(entry) : undefined;
    return this.workspace.definitions.setFile(entry.path, file ? definitionsOf(file) : []);
  }

  /**
   * Puts the servers a client config declares in the workspace's index (for a server another
   * client of its project starts differently), with the catalog's reach (`joinsCatalog`); only an
   * entry whose path names a client is parsed for it. True when the change is one another file sees.
   */
  private updateClientServers(entry: Entry): boolean {
    const file =
      textOf(entry) !== undefined && this.joinsCatalog(entry) && mayHoldClientServers(entry.path)
        ? this.fileOf(entry)
        : undefined;
    return this.workspace.clientServers.setFile(entry.path, file ? clientServersOf(file) : []);
  }

  /**
   * The catalog's files in the order they joined it, with their texts: from disk where `fromDisk`
   * and the file is on disk (an unsaved editor's text is a change from it), else as the session
   * reads them now. A file too large to be read joins with nothing, and is left out.
   */
  private catalogFiles(fromDisk: boolean): BaselineFile[] {
    const out: BaselineFile[] = [];
    for (const path of this.workspace.catalog.files) {
      const entry = this.entries.get(path);
      if (!entry) continue;
      const disk = entry.diskBytes === undefined ? entry.diskText : undefined;
      const text = fromDisk && disk !== undefined ? disk : (entry.editorText ?? disk);
      if (text !== undefined) out.push({ path, text, named: entry.catalogGlobbed });
    }
    return out;
  }

  /** Puts the baseline on the workspace (baseline.ts). */
  private attachBaseline(): void {
    this.baseline.attach(this.workspace, () => this.checkedFiles());
  }

  /** The parsed files whose diagnostics the workspace has (each parse kept or let go after, as settleParse says). */
  private *checkedFiles(): Iterable<ParsedFile> {
    for (const entry of this.checkedEntries()) {
      const file = this.fileOf(entry);
      if (!file) continue;
      yield file;
      this.settleParse(entry);
    }
  }

  /** The catalog as the session reads it now becomes the baseline: the renames since the old one are accepted. */
  acceptBaseline(): void {
    if (this.closed || !this.loaded) return;
    this.baseline.accept(this.catalogFiles(false));
    this.generation++;
    this.attachBaseline();
    this.emit({ paths: [], dependencies: true });
  }

  /**
   * Whether an entry may hold a catalog, without parsing it (files that cannot are parsed only when
   * first needed). An entry parsed as a catalog counts whatever the text test says, so a catalog
   * found late (see fileOf) joins the catalog at the next rebuild.
   */
  private mayBeCatalogEntry(entry: Entry): boolean {
    if (entry.parsed?.file.kind === 'tool-catalog' && entry.parsed.stamp === entry.stamp) return true;
    const text = textOf(entry);
    return text !== undefined && mayBeCatalog(this.workspace, entry.path, text);
  }

  /**
   * A file parsed lazily turned out to be a catalog that the catalog lacks (the text test in
   * `mayBeCatalog` is meant to make this impossible): take the normal catalog-change path.
   */
  private lateCatalog(entry: Entry): void {
    if (this.lateCatalogs.has(entry.path)) return;
    this.lateCatalogs.add(entry.path);
    setImmediate(() => {
      this.lateCatalogs.delete(entry.path);
      const current = this.entries.get(entry.path);
      if (!current || this.workspace.catalog.hasFile(current.path) || !this.joinsCatalog(current)) return;
      if (this.fileOf(current)?.kind !== 'tool-catalog') return;
      this.log(`${current.path} turned out to be a catalog when first parsed; checking again with it`);
      this.dependenciesChanged([current.path]);
    });
  }

  private isCatalogEntry(entry: Entry, file: ParsedFile | undefined): boolean {
    return entry.catalogGlobbed || (file?.kind === 'tool-catalog' && this.joinsCatalog(entry));
  }

  // -------------------------------------------------------------------------------------------
  // Changes

  /**
   * Records a new effective text for an entry and works out what it affects: only itself, or,
   * for a catalog or the configuration, every other file too.
   */
  private changed(entry: Entry, wasCatalog: boolean): void {
    if (this.isConfig(entry)) {
      this.generation++;
      const text = textOf(entry);
      if (text !== undefined) this.applyConfigText(text);
      this.rebuildCatalog();
      this.emit({ paths: [entry.path], dependencies: true });
      this.publishCatalogState();
      return;
    }
    const file = this.fileOf(entry);
    const definitions = this.updateDefinitions(entry);
    const clientServers = this.updateClientServers(entry);
    if (wasCatalog || this.isCatalogEntry(entry, file) || definitions || clientServers) {
      this.dependenciesChanged([entry.path]);
      return;
    }
    this.emit({ paths: [entry.path], dependencies: false });
  }

  /** An entry left the session (or the disk): a catalog's, a definition's or another client's server's going changes every file, another's only itself. */
  private gone(path: string, wasCatalog: boolean): void {
    const definitions = this.workspace.definitions.setFile(path, []);
    const clientServers = this.workspace.clientServers.setFile(path, []);
    if (wasCatalog || definitions || clientServers) this.dependenciesChanged([path]);
    else this.emit({ paths: [path], dependencies: false });
  }

  /** An editor opened a document or changed it. */
  editorChanged(document: TextDocument): void {
    const path = this.pathOf(document.uri);
    const entry = this.ensureEntry(path, document.uri);
    if (!entry.editor) entry.uri = document.uri; // the client's spelling of the URI, for its own documents
    const before = textOf(entry);
    const wasCatalog = this.workspace.catalog.hasFile(path);
    entry.editor = document;
    entry.editorText = document.getText();
    if (before === entry.editorText) return;
    entry.stamp++;
    this.changed(entry, wasCatalog);
  }

  /** An editor closed a document: the disk's text applies again (or the file is forgotten). */
  editorClosed(uri: string): void {
    const entry = this.entryOf(uri);
    if (!entry?.editor) return;
    const before = textOf(entry);
    const wasCatalog = this.workspace.catalog.hasFile(entry.path);
    entry.editor = undefined;
    entry.editorText = undefined;
    if (!entry.onDisk && !entry.catalogGlobbed) {
      this.entries.delete(entry.path);
      this.gone(entry.path, wasCatalog);
      return;
    }
    if (before === entry.diskText && entry.diskBytes === undefined) return;
    entry.stamp++;
    this.changed(entry, wasCatalog);
  }

  /** A watched file changed on disk. Serialised per path so that the last event wins. */
  diskChanged(uri: string, kind: WatchKind): Promise<void> {
    const path = this.pathOf(uri);
    return this.diskQueue.run(
      path,
      () => this.applyDiskChange(uri, path, kind),
      (error: unknown) => this.log(`could not apply the change of ${path}: ${errorText(error)}`),
    );
  }

  private async applyDiskChange(uri: string, path: string, kind: WatchKind): Promise<void> {
    await this.ready;
    if (this.closed || !uri.startsWith('file:')) return;
    const verdict = watchVerdict(path, kind, {
      root: this.root,
      absolute: (p) => this.absolute(p),
      owns: this.owns,
      catalogGlobs: this.catalogGlobs,
      wasGlobbed: (p) => this.entries.get(p)?.catalogGlobbed === true,
    });
    if (verdict.action === 'reload') this.load();
    if (verdict.action !== 'apply') return;
    const { checked, globbed } = verdict;
    const entry = this.entries.get(path);
    if (kind === 'deleted') {
      if (!entry) return;
      const wasCatalog = this.workspace.catalog.hasFile(path);
      const before = textOf(entry);
      entry.onDisk = false;
      setDisk(entry, undefined);
      entry.catalogGlobbed = false;
      if (!entry.editor) this.entries.delete(path);
      if (before !== textOf(entry)) entry.stamp++;
      this.gone(path, wasCatalog);
      return;
    }
    let read: DiskText;
    try {
      read = await readWithinAsync(this.absolute(path), this.workspace.limits.fileBytes);
    } catch (error) {
      this.log(`cannot read ${path}: ${errorText(error)}`);
      return;
    }
    const target = this.ensureEntry(path, uri);
    const wasCatalog = this.workspace.catalog.hasFile(path);
    const membershipChanged = target.onDisk !== checked || target.catalogGlobbed !== globbed;
    target.onDisk = checked;
    target.catalogGlobbed = globbed;
    const textChanged = this.setDiskRead(target, read);
    if (!textChanged && !membershipChanged) return;
    if (textChanged) target.stamp++;
    this.changed(target, wasCatalog);
  }

  updateSettings(settings: ToolLensSettings): void {
    const before = JSON.stringify(this.settings.catalogs ?? []);
    const wasWide = this.settings.workspaceDiagnostics !== false;
    this.settings = { ...settings };
    if (!this.loaded) return;
    if (JSON.stringify(settings.catalogs ?? []) === before) {
      // Only the reach of the diagnostics changed: re-publish, nothing to re-check.
      if (wasWide !== (settings.workspaceDiagnostics !== false))
        this.emit({ paths: [...this.entries.keys()], dependencies: true });
      return;
    }
    this.generation++;
    this.refreshCatalogGlobs();
    this.rebuildCatalog();
    this.emit({ paths: [], dependencies: true });
    this.publishCatalogState();
  }

  setTrusted(trusted: boolean): void {
    if (this.trusted === trusted) return;
    this.trusted = trusted;
    this.publishCatalogState();
  }

  // -------------------------------------------------------------------------------------------
  // Live fetches (lsp/liveFetch.ts runs them; liveState.ts keeps their state)

  /**
   * Bumped whenever the set of servers being fetched changes: diagnostics that mention such a
   * server say "catalog pending", so their result ids must change with it.
   */
  get liveEpoch(): number {
    return this.live.epoch;
  }

  /** Servers whose live catalog is being fetched, sorted. */
  pendingServers(): string[] {
    return this.live.pendingServers();
  }

  isPending(server: string): boolean {
    return this.live.isPending(server);
  }

  /** A fetch started: the language status and the diagnostics that name the server say "catalog pending". */
  fetchStarted(server: string): void {
    this.live.started(server);
    this.liveChanged();
  }

  /**
   * A fetch ended. On success the snapshot has already gone through `diskChanged`, so dependants
   * are re-checked against it; `failure` is a redacted message.
   */
  fetchEnded(server: string, failure?: string): void {
    this.live.ended(server, failure);
    this.liveChanged();
  }

  private liveChanged(): void {
    // No text and no catalog changed: only the "catalog pending" notes of diagnostics may differ.
    if (this.loaded) this.emit({ paths: [], dependencies: true });
    this.publishCatalogState();
  }

  // -------------------------------------------------------------------------------------------
  // Catalog state (catalogState.ts)

  catalogState(now = Date.now()): CatalogState {
    return catalogStateOf(
      {
        catalog: this.workspace.catalog,
        live: this.live,
        trusted: this.trusted,
        loaded: this.loaded,
        configPath: this.configPath,
      },
      now,
    );
  }

  private publishCatalogState(): void {
    if (this.loaded) this.catalogLog.say(this.workspace.catalog, this.root);
    this.catalogListeners.emit(this.catalogState());
  }
}
