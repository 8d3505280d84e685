// The server's state: one core Workspace kept up to date from disk (read once at start, then
// through file-watch events) and from open editors, whose text always wins over the disk.
//
// Every file the server knows is an Entry keyed by the path the core uses (relative to the
// workspace folder, posix separators; absolute outside it; the URI itself for non-file URIs; the
// conversions are lsp/paths.ts's). Which files are read and which may be catalogs, and the order
// catalogs join in, are node/discovery.ts's, the CLI's rules.
// Each text change bumps the entry's stamp; a change to what other files depend on (a catalog,
// the configuration) bumps the session's generation, which changes every result id so that
// dependants are re-checked against the new catalog. A parse is kept while its text and the
// configuration are the same: a catalog change re-runs the analyses (memoised per workspace
// revision, core/context.ts) over the parses it has.
// A file larger on disk than the workspace's fileBytes is never read whole: the entry keeps its
// head and its size (node/loader.ts readWithin), which is all its decline needs.
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CONFIG_FILE_NAME, parseConfig, type LensConfig } from '../core/config/config.js';
import { compileGlob, leavesFolder } from '../core/config/glob.js';
import type { ParsedFile } from '../core/parse/file.js';
import { RULE_IDS } from '../core/rules/registry.js';
import type { Finding } from '../core/types.js';
import { advertisableNames } from '../core/listing/renames.js';
import { catalogBaseline, Workspace, type BaselineFile, type CatalogBaseline } from '../core/workspace.js';
import { catalogGlobsName, filesOfCatalogGlobs, isCheckedPath, isIgnoredPath, isWalkedPath, joinCatalog, mayBeCatalog, type CatalogGlob } from '../node/discovery.js';
import { discoverWorkspace, readWithin, readWithinAsync, rebaseConfig, type DiskText } from '../node/loader.js';
import { toPosix } from '../node/paths.js';
import { linksOutNote, type LinkOut } from '../node/walk.js';
import { absoluteOf, fileUriOf, folderOfUri, isUnderRoot, isWithin, pathOfAbsolute, pathOfUri } from './paths.js';
import { STALE_AFTER_DAYS, type CatalogState, type ToolLensSettings } from './protocol.js';

export type Log = (message: string) => void;

export interface Entry {
  path: string;
  uri: string;
  /** Text on disk when last read; undefined when the file is not on disk (or not read). */
  diskText?: string;
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
  parsed?: { file: ParsedFile; stamp: number; workspace: Workspace; config: LensConfig };
}

export interface ChangeEvent {
  /** Entries whose own text changed. */
  paths: string[];
  /** True when something other files depend on changed (catalog, configuration): every file may change. */
  dependencies: boolean;
}

export class Session {
  /** Distinguishes result ids of this server run from those of an earlier one. */
  readonly id = randomBytes(4).toString('hex');
  /** Absolute folder (native separators); undefined when the client opened no folder. */
  root: string | undefined;
  workspace: Workspace;
  generation = 0;
  readonly entries = new Map<string, Entry>();
  /** The active configuration file (absolute, native separators). */
  configPath: string | undefined;
  configProblems: Finding[] = [];
  settings: ToolLensSettings = {};
  /** Whether the client said the workspace is trusted; nothing is ever started until it has. */
  trusted = false;
  /**
   * Bumped whenever the set of servers being fetched changes: diagnostics that mention such a
   * server say "catalog pending", so their result ids must change with it.
   */
  liveEpoch = 0;
  private readonly livePending = new Set<string>();
  private readonly liveFailures = new Map<string, string>();
  loaded = false;
  /** Resolves once the workspace has been read from disk. */
  readonly ready: Promise<void>;
  private resolveReady!: () => void;
  private readonly listeners: ((event: ChangeEvent) => void)[] = [];
  private readonly catalogListeners: ((state: CatalogState) => void)[] = [];
  /** The globs whose files join the catalog whatever their content. */
  private catalogGlobs: CatalogGlob[] = [];
  private readonly diskQueue = new Map<string, Promise<void>>();
  /** Catalogs found by a lazy parse, waiting for their catalog change (see lateCatalog). */
  private readonly lateCatalogs = new Set<string>();
  /**
   * The catalog files as the session first read them from disk (at the first load), or as they
   * were when the user last accepted the catalog (`acceptBaseline`): what
   * `aggregation/advertised-rename` compares the current catalog with. In memory only: a session
   * never asks git (a repository's git configuration can run commands).
   */
  private baselineFiles: BaselineFile[] | undefined;
  /** The baseline built for the current workspace and configuration. */
  private baselineBuilt: { workspace: Workspace; config: LensConfig; baseline: CatalogBaseline } | undefined;
  /** The baseline files were taken from the catalog as it then was (see attachBaseline). */
  private baselineIsCurrent = false;

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
    this.listeners.length = 0;
    this.catalogListeners.length = 0;
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
    return entry.editorText !== undefined ? entry.editorText : entry.diskText;
  }

  /** The parsed file for an entry's current text, shared until the text or the configuration changes. */
  fileOf(entry: Entry): ParsedFile | undefined {
    const text = this.textOf(entry);
    if (text === undefined) return undefined;
    const cached = entry.parsed;
    if (cached && cached.stamp === entry.stamp && cached.workspace === this.workspace && cached.config === this.workspace.config) return cached.file;
    // The previous parse, even of an older text, lets an edit re-parse only what it touched. It is
    // replaced here and nothing else keeps it, so its nodes may move into the new parse.
    const file =
      entry.editorText === undefined && entry.diskBytes !== undefined
        ? this.workspace.parseTooLarge(entry.path, entry.diskBytes, text)
        : this.workspace.parse(entry.path, text, cached?.file, { consume: true });
    entry.parsed = { file, stamp: entry.stamp, workspace: this.workspace, config: this.workspace.config };
    if (file.kind === 'tool-catalog' && this.loaded && !this.workspace.catalog.hasFile(entry.path) && this.joinsCatalog(entry)) this.lateCatalog(entry);
    return file;
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
    return [...this.entries.values()].filter((e) => (e.onDisk || e.editor !== undefined) && this.textOf(e) !== undefined);
  }

  onDidChange(listener: (event: ChangeEvent) => void): void {
    this.listeners.push(listener);
  }

  onCatalogState(listener: (state: CatalogState) => void): void {
    this.catalogListeners.push(listener);
  }

  private emit(event: ChangeEvent): void {
    if (this.closed) return;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.log(`a change listener failed: ${errorText(error)}`);
      }
    }
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
    if (!this.baselineFiles) {
      this.baselineFiles = this.catalogFiles(true);
      this.baselineIsCurrent = this.baselineFiles.every((file) => file.text === this.textOf(this.entries.get(file.path)!));
    }
    this.attachBaseline();
    this.log(this.loadWords(performance.now() - started));
    this.loaded = true;
    this.resolveReady();
    this.emit({ paths: [...this.entries.keys()], dependencies: true });
    this.publishCatalogState();
  }

  private loadFromDisk(): void {
    this.generation++;
    const seen = new Set<string>();
    let linksOut: LinkOut[] = [];
    if (this.root && existsSync(this.root) && statSync(this.root).isDirectory()) {
      // Files are read now but parsed when first needed (a check, a hover...): only those that may
      // be catalogs are parsed at once, by rebuildCatalog below, since every check depends on them.
      const loaded = discoverWorkspace({ paths: ['.'], cwd: this.root, log: this.log });
      this.workspace = loaded.workspace;
      this.configPath = loaded.configPath;
      this.configProblems = loaded.configProblems;
      linksOut = loaded.linksOut;
      if (loaded.configPath && loaded.configText !== undefined) {
        // The configuration is not a checked file for the core, but its problems are diagnostics.
        const entry = this.ensureEntry(this.entryPathOfAbsolute(loaded.configPath));
        if (entry.diskText !== loaded.configText) entry.stamp++;
        entry.diskText = loaded.configText;
        entry.onDisk = true;
        seen.add(entry.path);
      }
      for (const absolute of loaded.targets) {
        if (!this.owns(absolute)) continue; // a nested workspace folder's file: that folder reads it
        let read: DiskText;
        try {
          read = readWithin(absolute, this.workspace.limits.fileBytes);
        } catch (error) {
          this.log(`cannot read ${absolute}: ${errorText(error)}`);
          continue;
        }
        const path = this.entryPathOfAbsolute(absolute);
        seen.add(path);
        const entry = this.ensureEntry(path);
        entry.onDisk = true;
        if (this.setDisk(entry, read)) entry.stamp++;
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
      this.setDisk(entry, undefined);
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
   * Records what was read from disk for an entry (undefined: nothing); true when the entry's
   * effective text (the editor's wins) or how it is read changed.
   */
  private setDisk(entry: Entry, read: DiskText | undefined): boolean {
    const before = this.textOf(entry);
    const bytesBefore = entry.editorText === undefined ? entry.diskBytes : undefined;
    entry.diskText = read?.text;
    entry.diskBytes = read?.bytes;
    return before !== this.textOf(entry) || bytesBefore !== (entry.editorText === undefined ? entry.diskBytes : undefined);
  }

  /**
   * After the workspace's fileBytes changed: files declined by their size on disk that it now
   * admits are read whole, and files read whole that it no longer admits keep only their head.
   */
  private rereadForFileBytes(): void {
    const limit = this.workspace.limits.fileBytes;
    for (const entry of this.entries.values()) {
      if (entry.diskText === undefined) continue;
      const over = entry.diskBytes !== undefined ? entry.diskBytes > limit : Buffer.byteLength(entry.diskText, 'utf8') > limit;
      if (over === (entry.diskBytes !== undefined)) continue;
      try {
        if (this.setDisk(entry, readWithin(this.absolute(entry.path), limit))) entry.stamp++;
      } catch (error) {
        this.log(`cannot read ${entry.path}: ${errorText(error)}`);
      }
    }
  }

  private ensureEntry(path: string, uri?: string): Entry {
    let entry = this.entries.get(path);
    if (!entry) {
      entry = { path, uri: uri ?? fileUriOf(path, this.root), stamp: 0, onDisk: false, catalogGlobbed: false };
      this.entries.set(path, entry);
    }
    return entry;
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
    const fileBytes = this.workspace.limits.fileBytes;
    this.workspace.config = config;
    if (config.limits.fileBytes !== fileBytes) this.rereadForFileBytes();
    return this.refreshCatalogGlobs(log);
  }

  /**
   * Recomputes which files the catalog globs name, reading those not read yet. Returns the links
   * out that the globs met, logged here unless `log` is false.
   */
  private refreshCatalogGlobs(log = true): LinkOut[] {
    const config = this.workspace.config;
    const configRoot = this.configPath ? dirname(this.configPath) : this.root;
    const globs: CatalogGlob[] = [];
    // The configuration's globs were checked when it was read (its problems are diagnostics).
    if (configRoot) for (const glob of config.catalogs) globs.push({ glob, base: configRoot, confined: true });
    if (this.root) {
      // The setting may come from the workspace's own settings: it stays inside the folder too.
      for (const glob of this.settings.catalogs ?? []) {
        const why = compileGlob(glob).problem ?? leavesFolder(glob, 'the workspace folder');
        if (why === undefined) globs.push({ glob, base: this.root, confined: true });
        else this.log(`The toolLens.catalogs glob "${glob}" is not read: ${why}`);
      }
    }
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
          this.setDisk(entry, readWithin(this.absolute(path), this.workspace.limits.fileBytes));
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
      if (entry.catalogGlobbed || this.joinsCatalog(entry)) candidates.push({ absolute: this.absolute(entry.path), named: entry.catalogGlobbed, entry });
    }
    joinCatalog(
      catalog,
      candidates,
      (candidate) => this.fileOf(candidate.entry),
      (candidate) => this.mayBeCatalogEntry(candidate.entry),
    );
    this.attachBaseline();
  }

  // -------------------------------------------------------------------------------------------
  // The baseline catalog

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
      const text = fromDisk && disk !== undefined ? disk : entry.editorText ?? disk;
      if (text !== undefined) out.push({ path, text, named: entry.catalogGlobbed });
    }
    return out;
  }

  /** Puts the baseline on the workspace, made again when the workspace or its configuration is another. */
  private attachBaseline(): void {
    if (!this.baselineFiles) return;
    const built = this.baselineBuilt;
    if (!built || built.workspace !== this.workspace || built.config !== this.workspace.config) {
      // Taken from the catalog as it is (at start-up without unsaved editors, or when accepted), the
      // baseline's names are the current ones: it is parsed only once a change makes them differ.
      const known = !built && this.baselineIsCurrent ? advertisableNames(this.workspace.catalog) : undefined;
      const baseline = catalogBaseline(this.workspace, this.baselineFiles, () => this.checkedFiles(), advertisableNames, known);
      this.baselineBuilt = { workspace: this.workspace, config: this.workspace.config, baseline };
    }
    this.workspace.baseline = this.baselineBuilt!.baseline;
  }

  /** The parsed files whose diagnostics the workspace has. */
  private *checkedFiles(): Iterable<ParsedFile> {
    for (const entry of this.checkedEntries()) {
      const file = this.fileOf(entry);
      if (file) yield file;
    }
  }

  /** The catalog as the session reads it now becomes the baseline: the renames since the old one are accepted. */
  acceptBaseline(): void {
    if (this.closed || !this.loaded) return;
    this.baselineFiles = this.catalogFiles(false);
    this.baselineIsCurrent = true;
    this.baselineBuilt = undefined;
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
    const text = this.textOf(entry);
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
      this.generation++;
      this.rebuildCatalog();
      this.emit({ paths: [current.path], dependencies: true });
      this.publishCatalogState();
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
      const text = this.textOf(entry);
      if (text !== undefined) this.applyConfigText(text);
      this.rebuildCatalog();
      this.emit({ paths: [entry.path], dependencies: true });
      this.publishCatalogState();
      return;
    }
    const file = this.fileOf(entry);
    if (wasCatalog || this.isCatalogEntry(entry, file)) {
      this.generation++;
      this.rebuildCatalog();
      this.emit({ paths: [entry.path], dependencies: true });
      this.publishCatalogState();
      return;
    }
    this.emit({ paths: [entry.path], dependencies: false });
  }

  /** An editor opened a document or changed it. */
  editorChanged(document: TextDocument): void {
    const path = this.pathOf(document.uri);
    const entry = this.ensureEntry(path, document.uri);
    if (!entry.editor) entry.uri = document.uri; // the client's spelling of the URI, for its own documents
    const before = this.textOf(entry);
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
    const before = this.textOf(entry);
    const wasCatalog = this.workspace.catalog.hasFile(entry.path);
    entry.editor = undefined;
    entry.editorText = undefined;
    if (!entry.onDisk && !entry.catalogGlobbed) {
      this.entries.delete(entry.path);
      if (wasCatalog) {
        this.generation++;
        this.rebuildCatalog();
        this.emit({ paths: [entry.path], dependencies: true });
        this.publishCatalogState();
      } else this.emit({ paths: [entry.path], dependencies: false });
      return;
    }
    if (before === entry.diskText && entry.diskBytes === undefined) return;
    entry.stamp++;
    this.changed(entry, wasCatalog);
  }

  /** A watched file changed on disk. Serialised per path so that the last event wins. */
  diskChanged(uri: string, kind: 'created' | 'changed' | 'deleted'): Promise<void> {
    const path = this.pathOf(uri);
    const previous = this.diskQueue.get(path) ?? Promise.resolve();
    const next = previous.then(() => this.applyDiskChange(uri, path, kind)).catch((error: unknown) => {
      this.log(`could not apply the change of ${path}: ${errorText(error)}`);
    });
    this.diskQueue.set(path, next);
    void next.then(() => {
      if (this.diskQueue.get(path) === next) this.diskQueue.delete(path);
    });
    return next;
  }

  private async applyDiskChange(uri: string, path: string, kind: 'created' | 'changed' | 'deleted'): Promise<void> {
    await this.ready;
    if (this.closed || !uri.startsWith('file:')) return;
    const name = path.split('/').pop() ?? path;
    // The configuration is found upward from the folder (node/loader.ts): one in a folder above,
    // such as that of a workspace folder this one is nested in, applies here too.
    if (name === CONFIG_FILE_NAME && this.root !== undefined && !this.underRoot(path) && isWithin(dirname(this.absolute(path)), this.root)) {
      this.load();
      return;
    }
    if (!this.underRoot(path) || isIgnoredPath(path)) return;
    const owned = this.owns(this.absolute(path));
    if (name === CONFIG_FILE_NAME) {
      // A nested workspace folder's configuration is that folder's alone.
      if (!owned) return;
      // A configuration appeared, changed or went away: read everything again (rare, and globs may move).
      this.load();
      return;
    }
    // A nested workspace folder's file is checked there; here it can only be a catalog a glob names.
    const checked = owned && isCheckedPath(path);
    // A file gone is no longer where a glob can find it: what it was is what its entry says.
    const globbed = kind === 'deleted' ? this.entries.get(path)?.catalogGlobbed === true : catalogGlobsName(this.catalogGlobs, this.absolute(path));
    if (!checked && !globbed) return;
    // The walk follows no symbolic link (node/walk.ts): nor does a watch event.
    if (kind !== 'deleted' && this.root !== undefined && !isWalkedPath(this.root, path)) return;
    const entry = this.entries.get(path);
    if (kind === 'deleted') {
      if (!entry) return;
      const wasCatalog = this.workspace.catalog.hasFile(path);
      const before = this.textOf(entry);
      entry.onDisk = false;
      this.setDisk(entry, undefined);
      entry.catalogGlobbed = false;
      if (!entry.editor) this.entries.delete(path);
      if (before !== this.textOf(entry)) entry.stamp++;
      if (wasCatalog) {
        this.generation++;
        this.rebuildCatalog();
        this.emit({ paths: [path], dependencies: true });
        this.publishCatalogState();
      } else this.emit({ paths: [path], dependencies: false });
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
    const textChanged = this.setDisk(target, read);
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
      if (wasWide !== (settings.workspaceDiagnostics !== false)) this.emit({ paths: [...this.entries.keys()], dependencies: true });
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
  // Live fetches (lsp/liveFetch.ts runs them; the session only keeps their state)

  /** Servers whose live catalog is being fetched, sorted. */
  pendingServers(): string[] {
    return [...this.livePending].sort();
  }

  isPending(server: string): boolean {
    return this.livePending.has(server);
  }

  /** A fetch started: the language status and the diagnostics that name the server say "catalog pending". */
  fetchStarted(server: string): void {
    this.livePending.add(server);
    this.liveFailures.delete(server);
    this.liveChanged();
  }

  /**
   * A fetch ended. On success the snapshot has already gone through `diskChanged`, so dependants
   * are re-checked against it; `failure` is a redacted message.
   */
  fetchEnded(server: string, failure?: string): void {
    this.livePending.delete(server);
    if (failure !== undefined) this.liveFailures.set(server, failure);
    else this.liveFailures.delete(server);
    this.liveChanged();
  }

  private liveChanged(): void {
    this.liveEpoch++;
    // No text and no catalog changed: only the "catalog pending" notes of diagnostics may differ.
    if (this.loaded) this.emit({ paths: [], dependencies: true });
    this.publishCatalogState();
  }

  // -------------------------------------------------------------------------------------------
  // Catalog state

  catalogState(now = Date.now()): CatalogState {
    const catalog = this.workspace.catalog;
    const servers = catalog.serverNames;
    const stale: string[] = [];
    for (const name of servers) {
      const fetchedAt = catalog.server(name)?.fetchedAt;
      if (!fetchedAt) continue;
      const time = Date.parse(fetchedAt);
      if (!Number.isNaN(time) && now - time > STALE_AFTER_DAYS * 24 * 3600 * 1000) stale.push(name);
    }
    const failed = [...this.liveFailures.keys()].sort();
    return {
      servers,
      files: catalog.files.length,
      stale,
      pending: this.pendingServers(),
      failed,
      failures: Object.fromEntries(failed.map((name) => [name, this.liveFailures.get(name)!])),
      trusted: this.trusted,
      loaded: this.loaded,
      configs: this.configPath ? [pathToFileURL(this.configPath).href] : [],
    };
  }

  /** One log line for a read of the folder: what was read, how long it took, the configuration in use. */
  private loadWords(ms: number): string {
    const where = this.root ?? '(no folder)';
    const config = this.configPath
      ? `configuration ${toPosix(relative(this.root ?? dirname(this.configPath), this.configPath))}${this.configProblems.length ? ` (${this.configProblems.length} problem${this.configProblems.length === 1 ? '' : 's'}, shown in it)` : ''}`
      : 'no .toollens.yaml: the built-in defaults';
    return `read ${where}: ${this.entries.size} file${this.entries.size === 1 ? '' : 's'} in ${Math.round(ms)} ms; ${config}`;
  }

  /** The catalog as the log says it: one line per server (tools, namespaces, file, when fetched); logged when it changes. */
  private catalogWords(): string[] {
    const catalog = this.workspace.catalog;
    const lines = [`catalog of ${this.root ?? '(no folder)'}: ${catalog.serverNames.length} server${catalog.serverNames.length === 1 ? '' : 's'} from ${catalog.files.length} file${catalog.files.length === 1 ? '' : 's'}`];
    for (const name of catalog.serverNames) {
      const server = catalog.server(name);
      if (!server) continue;
      const dynamic = server.namespaces.reduce((sum, ns) => sum + ns.tools.length, 0);
      const namespaces = server.namespaces.length ? `, ${server.namespaces.length} namespace${server.namespaces.length === 1 ? '' : 's'} (${dynamic} dynamic tool${dynamic === 1 ? '' : 's'})` : '';
      const file = this.root && isAbsolute(server.origin.file) ? toPosix(relative(this.root, server.origin.file)) : server.origin.file;
      lines.push(`  catalog "${name}": ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}${namespaces}, from ${file}${server.fetchedAt ? `, fetched ${server.fetchedAt}` : ''}`);
    }
    return lines;
  }

  private loggedCatalog: string | undefined;

  private publishCatalogState(): void {
    if (this.loaded) {
      const words = this.catalogWords().join('\n');
      if (words !== this.loggedCatalog) {
        this.loggedCatalog = words;
        this.log(words);
      }
    }
    const state = this.catalogState();
    for (const listener of this.catalogListeners) {
      try {
        listener(state);
      } catch (error) {
        this.log(`a catalog listener failed: ${errorText(error)}`);
      }
    }
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
