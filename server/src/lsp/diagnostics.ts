// Diagnostics: pull (`textDocument/diagnostic`, `workspace/diagnostic`) with result ids, push
// (`textDocument/publishDiagnostics`) for clients without pull support, a background check of
// the whole workspace, and re-checks of every dependant when a catalog or the configuration
// changes (the client is asked to pull again through `workspace/diagnostic/refresh`).
import {
  DocumentDiagnosticReportKind,
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type Connection,
  type Diagnostic,
  type DocumentDiagnosticParams,
  type DocumentDiagnosticReport,
  type WorkspaceDiagnosticParams,
  type WorkspaceDiagnosticReport,
  type WorkspaceDiagnosticReportPartialResult,
  type WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver';
import { checkFile } from '../core/engine.js';
import { ALL_RULES } from '../core/rules/registry.js';
import type { ParsedFile } from '../core/parse/file.js';
import type { Finding } from '../core/types.js';
import { toDiagnostic } from './convert.js';
import { ruleDocsHref } from './ruleActions.js';
import type { Folders } from './folders.js';
import type { Entry } from './entries.js';
import { errorText } from './listeners.js';
import type { ChangeEvent, Session } from './session.js';

export interface Report {
  resultId: string;
  /** The file's kind (null: not ours). */
  kind: ParsedFile['kind'];
  /**
   * The parse the findings were made from; left out of a kept report when the session let the
   * parse go (`Session.settleParse`: past its budget for files no editor holds).
   */
  file?: ParsedFile;
  findings: Finding[];
  diagnostics: Diagnostic[];
}

export interface DiagnosticsOptions {
  /** The client pulls (LSP 3.17); otherwise the server pushes. */
  pull: boolean;
  /** The client accepts `workspace/diagnostic/refresh`. */
  refresh: boolean;
  /** The client's command that shows a rule's page: the diagnostics link to it (InitializationOptions.ruleDocsCommand). */
  ruleDocsCommand?: string;
}

/**
 * Push mode: a change is checked once the messages that had already arrived are handled, so a
 * burst of keystrokes is checked once, at its last version, and a lone change at once. A burst that
 * never pauses is still checked this often.
 */
const PUSH_COALESCE_MAX_MS = 100;

/** A push waiting for its file's burst of changes to end (push mode). */
interface PendingPush {
  session: Session;
  path: string;
  /** A change arrived since the last turn of the event loop. */
  changed: boolean;
  since: number;
  handle: NodeJS.Immediate;
}

/** Yields to the event loop so cancellations and newer edits that already arrived are seen. */
function yieldTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function requestCancelled(): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, 'The request was cancelled.');
}

const GONE = 'gone';

/** An entry and the folder's session that holds it. */
interface Held {
  session: Session;
  entry: Entry;
}

/** Every checked entry of every folder, open documents first: they are what the user looks at. */
function openFirst(folders: Folders): Held[] {
  const held = folders.all().flatMap((session) => session.checkedEntries().map((entry) => ({ session, entry })));
  return held.sort((a, b) => Number(b.entry.editor !== undefined) - Number(a.entry.editor !== undefined));
}

/** A map per folder's session, dropped with the session. */
function perSession<T>(maps: WeakMap<Session, Map<string, T>>, session: Session): Map<string, T> {
  let map = maps.get(session);
  if (!map) maps.set(session, (map = new Map<string, T>()));
  return map;
}

/** How often a workspace pull sends what it has so far, when the client takes partial results. */
const PARTIAL_RESULT_MS = 50;

/** Sends part of a workspace diagnostic answer (`$/progress` with the client's token). */
export interface PartialReporter {
  report(partial: WorkspaceDiagnosticReportPartialResult): void;
}

export class Diagnostics {
  /** By folder, then path. */
  private readonly caches = new WeakMap<Session, Map<string, Report>>();
  private readonly pushTimers = new Map<string, PendingPush>();
  /** URIs we pushed non-empty diagnostics for, by folder and path, so they can be cleared. */
  private readonly pushedBySession = new WeakMap<Session, Map<string, string>>();
  private refreshTimer: NodeJS.Timeout | undefined;
  private background = 0;
  /** The folders whose first check has been logged (its time is the output channel's "first check" line). */
  private readonly firstChecked = new WeakSet<Session>();
  private waiters: (() => void)[] = [];
  private disposed = false;

  constructor(
    private readonly connection: Connection,
    private readonly folders: Folders,
    private readonly options: DiagnosticsOptions,
  ) {
    folders.onAdded((session) => session.onDidChange((event) => this.onChange(session, event)));
    folders.onRemoved((session) => this.folderRemoved(session));
  }

  get pull(): boolean {
    return this.options.pull;
  }

  private workspaceWide(session: Session): boolean {
    return session.settings.workspaceDiagnostics !== false;
  }

  /** The findings of an entry's current text (`session` is its folder's), computed once per result id. Never throws. */
  report(entry: Entry, session: Session): Report | undefined {
    const resultId = session.resultIdOf(entry);
    const cache = perSession(this.caches, session);
    const cached = cache.get(entry.path);
    if (cached && cached.resultId === resultId) return cached;
    const file = session.fileOf(entry);
    if (!file) return undefined;
    let findings: Finding[] = [];
    if (session.isConfig(entry)) findings = session.configProblems;
    else if (file.kind) {
      try {
        const started = performance.now();
        // A bound on each file's rule work, so one file never holds every other request for long.
        findings = checkFile(file, session.workspace, ALL_RULES, {
          budgetMs: session.workspace.limits.editorCheckMs,
        }).findings;
        if (!this.firstChecked.has(session)) {
          this.firstChecked.add(session);
          session.log(
            `first check: ${entry.path} in ${(performance.now() - started).toFixed(1)} ms, ${findings.length} finding${findings.length === 1 ? '' : 's'}`,
          );
        }
      } catch (error) {
        session.log(`checking ${entry.path} failed: ${errorText(error)}`);
      }
    }
    const docs = { command: this.options.ruleDocsCommand, url: session.workspace.config.ruleDocsUrl };
    const diagnostics = findings.map((finding) =>
      toDiagnostic(
        finding,
        file.source,
        entry.uri,
        resultId,
        (path) => {
          const target = session.entries.get(path);
          const targetFile = target ? session.fileOf(target) : undefined;
          return target && targetFile ? { uri: target.uri, source: targetFile.source } : undefined;
        },
        ruleDocsHref(finding.rule, docs),
      ),
    );
    const pending = session.pendingServers();
    if (pending.length > 0) {
      findings.forEach((finding, i) => {
        const note = pendingNote(finding, pending);
        if (note) diagnostics[i]!.message += note;
      });
    }
    const report: Report = { resultId, kind: file.kind, file, findings, diagnostics };
    // A file found to hold nothing of ours was let go by fileOf: its report (no findings) is not
    // kept either, or it would keep the parse.
    if (entry.unrelated !== undefined) {
      cache.delete(entry.path);
      return report;
    }
    // The kept report holds the parse only while the session keeps it.
    cache.set(entry.path, session.settleParse(entry) ? report : { ...report, file: undefined });
    return report;
  }

  reportOfUri(uri: string): Report | undefined {
    const session = this.folders.ofUri(uri);
    const entry = session.entryOf(uri);
    return entry ? this.report(entry, session) : undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Pull

  async pullDocument(params: DocumentDiagnosticParams, token: CancellationToken): Promise<DocumentDiagnosticReport> {
    await this.folders.ready();
    await yieldTurn();
    if (token.isCancellationRequested) throw requestCancelled();
    const session = this.folders.ofUri(params.textDocument.uri);
    const entry = session.entryOf(params.textDocument.uri);
    if (!entry) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    const resultId = session.resultIdOf(entry);
    if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    const stamp = entry.stamp;
    const generation = session.generation;
    const report = this.report(entry, session);
    if (token.isCancellationRequested) throw requestCancelled();
    if (entry.stamp !== stamp || session.generation !== generation || session.closed) {
      // A newer text arrived while this one was checked: the client should ask again.
      throw new ResponseError(LSPErrorCodes.ServerCancelled, 'The document changed; pull again.', {
        retriggerRequest: true,
      });
    }
    return { kind: DocumentDiagnosticReportKind.Full, resultId, items: report?.diagnostics ?? [] };
  }

  /**
   * Every workspace file that is ours, in every workspace folder. Reports whose result id the
   * client already has come back as `unchanged`; when nothing at all changed, the request is held
   * until something does (a long poll: the client asks again as soon as it gets an answer). Open
   * files come first. Without `partial` the answer carries every report. With `partial` (the
   * client sent a partial result token, as VS Code does), the reports are sent as they are made, a
   * batch at a time, so that the first diagnostics of a large workspace show long before the last
   * file is checked; every report is streamed, each exactly once, and the answer itself is empty,
   * as LSP asks of partial results.
   */
  async pullWorkspace(
    params: WorkspaceDiagnosticParams,
    token: CancellationToken,
    partial?: PartialReporter,
  ): Promise<WorkspaceDiagnosticReport> {
    await this.folders.ready();
    const previous = new Map(params.previousResultIds.map((p) => [p.uri, p.value]));
    for (;;) {
      /** Reports not streamed yet: with `partial`, since the last part; without, all of them. */
      let batch: WorkspaceDocumentDiagnosticReport[] = [];
      let changed = false;
      let lastYield = Date.now();
      let lastFlush = Date.now();
      const current = new Set<string>();
      const flush = () => {
        if (!partial) return; // nowhere to stream to: every report stays for the answer
        if (batch.length > 0) partial.report({ items: batch });
        batch = [];
        lastFlush = Date.now();
      };
      for (const { session, entry } of openFirst(this.folders)) {
        if (!this.workspaceWide(session) && !entry.editor) continue;
        if (Date.now() - lastYield > 8) {
          await yieldTurn();
          lastYield = Date.now();
        }
        if (token.isCancellationRequested || this.disposed) throw requestCancelled();
        // A folder removed while this pull yielded has no reports any more.
        if (session.closed) continue;
        const uri = entry.uri;
        if (current.has(uri)) continue; // one report per file, whichever folder holds it
        const version = entry.editor?.version ?? null;
        const resultId = session.resultIdOf(entry);
        if (previous.get(uri) === resultId) {
          current.add(uri);
          batch.push({ kind: DocumentDiagnosticReportKind.Unchanged, uri, resultId, version });
          continue;
        }
        const report = this.report(entry, session);
        if (!report) continue;
        if (!report.kind && !session.isConfig(entry) && !previous.has(uri)) continue; // not ours, never reported
        current.add(uri);
        batch.push({ kind: DocumentDiagnosticReportKind.Full, uri, resultId, version, items: report.diagnostics });
        changed = true;
        // Streamed only once something changed: an answer that would be held sends nothing.
        if (Date.now() - lastFlush >= PARTIAL_RESULT_MS) flush();
      }
      for (const [uri, value] of previous) {
        if (current.has(uri) || value === this.goneId()) continue;
        batch.push({ kind: DocumentDiagnosticReportKind.Full, uri, resultId: this.goneId(), version: null, items: [] });
        changed = true;
      }
      if (changed || previous.size === 0 || this.disposed) {
        if (!partial) return { items: batch };
        // LSP: once results go through $/progress, all of them do, and the answer itself is empty.
        flush();
        return { items: [] };
      }
      await this.waitForChange(token);
      if (token.isCancellationRequested || this.disposed) throw requestCancelled();
    }
  }

  private goneId(): string {
    return `${this.folders.id}.${GONE}`;
  }

  private waitForChange(token: CancellationToken): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        subscription.dispose();
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve();
      };
      const subscription = token.onCancellationRequested(done);
      this.waiters.push(done);
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }

  // -------------------------------------------------------------------------------------------
  // Changes, refresh, push

  private onChange(session: Session, event: ChangeEvent): void {
    if (this.disposed) return;
    const cache = perSession(this.caches, session);
    for (const path of event.paths) if (!session.entries.has(path)) cache.delete(path);
    if (this.options.pull) {
      if (event.dependencies) this.scheduleRefresh();
      this.wake();
      if (event.dependencies) this.startBackgroundCheck();
      return;
    }
    // Push: a dependency change re-publishes everything (open files first); otherwise only what changed.
    if (event.dependencies) this.startBackgroundCheck();
    else for (const path of event.paths) this.schedulePush(session, path);
  }

  /**
   * A workspace folder was removed: its diagnostics are cleared (pushed empty; a pull reports its
   * files gone) and its reports dropped.
   */
  private folderRemoved(session: Session): void {
    if (this.disposed) return;
    this.caches.delete(session);
    for (const [key, pending] of this.pushTimers) {
      if (pending.session !== session) continue;
      clearImmediate(pending.handle);
      this.pushTimers.delete(key);
    }
    const pushed = this.pushedBySession.get(session);
    this.pushedBySession.delete(session);
    if (!this.options.pull) {
      for (const uri of pushed?.values() ?? []) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
      return;
    }
    this.scheduleRefresh();
    this.wake();
  }

  /** A folder was added (or read again): check it, and let a pulling client ask again. */
  folderAdded(): void {
    if (this.disposed) return;
    if (this.options.pull) {
      this.scheduleRefresh();
      this.wake();
    }
    this.startBackgroundCheck();
  }

  private scheduleRefresh(): void {
    if (!this.options.refresh || this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.connection.languages.diagnostics.refresh().catch((error: unknown) => {
        this.folders.primary.log(`the client refused to refresh diagnostics: ${errorText(error)}`);
      });
    }, 50);
  }

  /**
   * Publishes a file's diagnostics as soon as the changes that already arrived are applied. The
   * check itself is synchronous, so one runs at a time and always sees the latest text: what it
   * publishes carries the version it checked, never an older one. The connection hands the server
   * one message per turn of the event loop, so the push waits for a turn in which no further change
   * of the file came in: a lone edit is checked after two turns (microseconds), a burst of edits
   * that arrived together once, after its last one.
   */
  private schedulePush(session: Session, path: string): void {
    const key = `${session.id}\n${path}`;
    const existing = this.pushTimers.get(key);
    if (existing) {
      existing.changed = true;
      return;
    }
    const pending: PendingPush = {
      session,
      path,
      changed: true,
      since: Date.now(),
      handle: setImmediate(() => this.pushWhenQuiet(key, pending)),
    };
    this.pushTimers.set(key, pending);
  }

  private pushWhenQuiet(key: string, pending: PendingPush): void {
    if (this.pushTimers.get(key) !== pending) return;
    if (pending.changed && Date.now() - pending.since < PUSH_COALESCE_MAX_MS) {
      pending.changed = false;
      pending.handle = setImmediate(() => this.pushWhenQuiet(key, pending));
      return;
    }
    this.pushTimers.delete(key);
    // Before the folder is read, a check would miss its catalogs and configuration: the load
    // re-publishes every file itself (open ones first), so nothing is published from half a workspace.
    if (!pending.session.loaded) return;
    this.push(pending.session, pending.path);
  }

  /** Publishes one file's diagnostics now (or clears them when the file is gone or not checked). */
  private push(session: Session, path: string): void {
    if (this.disposed || session.closed) return;
    const pushed = perSession(this.pushedBySession, session);
    const entry = session.entries.get(path);
    const publish =
      entry && (entry.editor || (this.workspaceWide(session) && entry.onDisk))
        ? this.report(entry, session)
        : undefined;
    if (entry && publish && (publish.diagnostics.length > 0 || pushed.has(path) || entry.editor)) {
      pushed.set(path, entry.uri);
      void this.connection.sendDiagnostics({
        uri: entry.uri,
        version: entry.editor?.version,
        diagnostics: publish.diagnostics,
      });
      if (publish.diagnostics.length === 0) pushed.delete(path);
      return;
    }
    const uri = pushed.get(path);
    if (uri) {
      pushed.delete(path);
      // The file may have moved to another folder that published it since (a folder added inside).
      if (!this.folders.all().some((other) => other !== session && other.entryOf(uri) !== undefined))
        void this.connection.sendDiagnostics({ uri, diagnostics: [] });
    }
  }

  /**
   * Checks every workspace file in the background, a slice at a time, so that pulls find their
   * report ready (and, in push mode, so that closed files get their diagnostics). A newer start
   * abandons an older run.
   */
  startBackgroundCheck(): void {
    const run = ++this.background;
    void (async () => {
      await this.folders.ready();
      await yieldTurn();
      const started = performance.now();
      let checked = 0;
      let lastYield = Date.now();
      for (const { session, entry } of openFirst(this.folders)) {
        if (run !== this.background || this.disposed) return;
        if (session.closed) continue;
        // push() decides itself whether a closed file is published (or cleared).
        if (!this.options.pull) this.push(session, entry.path);
        else if (this.workspaceWide(session) || entry.editor) this.report(entry, session);
        checked++;
        if (Date.now() - lastYield > 8) {
          await yieldTurn();
          lastYield = Date.now();
        }
      }
      // Files that vanished since they were pushed.
      if (!this.options.pull) {
        for (const session of this.folders.all()) {
          const pushed = perSession(this.pushedBySession, session);
          for (const path of [...pushed.keys()]) if (!session.entries.has(path)) this.push(session, path);
        }
      }
      if (run === 1)
        this.folders.primary.log(
          `first check of the workspace: ${checked} file${checked === 1 ? '' : 's'} in ${Math.round(performance.now() - started)} ms`,
        );
    })().catch((error: unknown) => this.folders.primary.log(`the background check failed: ${errorText(error)}`));
  }

  /** Closing a document in push mode: its disk diagnostics apply again, or none. */
  documentClosed(session: Session, path: string): void {
    if (!this.options.pull) this.schedulePush(session, path);
  }

  dispose(): void {
    this.disposed = true;
    for (const pending of this.pushTimers.values()) clearImmediate(pending.handle);
    this.pushTimers.clear();
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.wake();
  }
}

/**
 * docs/behaviour.md#live-catalogs: while a server's live catalog is being fetched, a finding that says it has no catalog
 * says that one is on its way. Only `tool/unknown` at info (the no-catalog case) names the
 * server; it does so as `"name"` (workload or server) or as the prefix of the reference.
 */
function pendingNote(finding: Finding, pending: readonly string[]): string | undefined {
  if (finding.rule !== 'tool/unknown' || finding.severity !== 'info') return undefined;
  const named = pending.filter(
    (name) => finding.message.includes(`"${name}"`) || finding.message.includes(`"${name}.`),
  );
  if (named.length === 0) return undefined;
  const list = named.map((name) => `"${name}"`).join(', ');
  return ` Catalog pending: Tool Lens is fetching the live catalog of ${list}; this diagnostic is checked again when it arrives.`;
}
