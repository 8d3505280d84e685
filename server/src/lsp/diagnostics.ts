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
import { errorText, type ChangeEvent, type Entry, type Session } from './session.js';

export interface Report {
  resultId: string;
  file: ParsedFile;
  findings: Finding[];
  diagnostics: Diagnostic[];
}

export interface DiagnosticsOptions {
  /** The client pulls (LSP 3.17); otherwise the server pushes. */
  pull: boolean;
  /** The client accepts `workspace/diagnostic/refresh`. */
  refresh: boolean;
  /** Milliseconds to wait after a change before pushing (push mode). */
  pushDelay?: number;
}

/** Yields to the event loop so cancellations and newer edits that already arrived are seen. */
function yieldTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function requestCancelled(): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, 'The request was cancelled.');
}

const GONE = 'gone';

/** Open documents first: they are what the user looks at. */
function openFirst(entries: Entry[]): Entry[] {
  return entries.sort((a, b) => Number(b.editor !== undefined) - Number(a.editor !== undefined));
}

/** How often a workspace pull sends what it has so far, when the client takes partial results. */
const PARTIAL_RESULT_MS = 50;

/** Sends part of a workspace diagnostic answer (`$/progress` with the client's token). */
export interface PartialReporter {
  report(partial: WorkspaceDiagnosticReportPartialResult): void;
}

export class Diagnostics {
  private readonly cache = new Map<string, Report>();
  private readonly pushTimers = new Map<string, NodeJS.Timeout>();
  /** URIs we pushed non-empty diagnostics for, by path, so they can be cleared. */
  private readonly pushed = new Map<string, string>();
  private refreshTimer: NodeJS.Timeout | undefined;
  private background = 0;
  private waiters: (() => void)[] = [];
  private disposed = false;

  constructor(
    private readonly connection: Connection,
    private readonly session: Session,
    private readonly options: DiagnosticsOptions,
  ) {
    session.onDidChange((event) => this.onChange(event));
  }

  get pull(): boolean {
    return this.options.pull;
  }

  private get workspaceWide(): boolean {
    return this.session.settings.workspaceDiagnostics !== false;
  }

  /** The findings of an entry's current text, computed once per result id. Never throws. */
  report(entry: Entry): Report | undefined {
    const resultId = this.session.resultIdOf(entry);
    const cached = this.cache.get(entry.path);
    if (cached && cached.resultId === resultId) return cached;
    const file = this.session.fileOf(entry);
    if (!file) return undefined;
    let findings: Finding[] = [];
    if (this.session.isConfig(entry)) findings = this.session.configProblems;
    else if (file.kind) {
      try {
        // A bound on each file's rule work, so one file never holds every other request for long.
        findings = checkFile(file, this.session.workspace, ALL_RULES, { budgetMs: this.session.workspace.limits.editorCheckMs }).findings;
      } catch (error) {
        this.session.log(`checking ${entry.path} failed: ${errorText(error)}`);
      }
    }
    const diagnostics = findings.map((finding) =>
      toDiagnostic(finding, file.source, entry.uri, resultId, (path) => {
        const target = this.session.entries.get(path);
        const targetFile = target ? this.session.fileOf(target) : undefined;
        return target && targetFile ? { uri: target.uri, source: targetFile.source } : undefined;
      }),
    );
    const pending = this.session.pendingServers();
    if (pending.length > 0) {
      findings.forEach((finding, i) => {
        const note = pendingNote(finding, pending);
        if (note) diagnostics[i]!.message += note;
      });
    }
    const report: Report = { resultId, file, findings, diagnostics };
    this.cache.set(entry.path, report);
    return report;
  }

  reportOfUri(uri: string): Report | undefined {
    const entry = this.session.entryOf(uri);
    return entry ? this.report(entry) : undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Pull

  async pullDocument(params: DocumentDiagnosticParams, token: CancellationToken): Promise<DocumentDiagnosticReport> {
    await this.session.ready;
    await yieldTurn();
    if (token.isCancellationRequested) throw requestCancelled();
    const entry = this.session.entryOf(params.textDocument.uri);
    if (!entry) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    const resultId = this.session.resultIdOf(entry);
    if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    const stamp = entry.stamp;
    const generation = this.session.generation;
    const report = this.report(entry);
    if (token.isCancellationRequested) throw requestCancelled();
    if (entry.stamp !== stamp || this.session.generation !== generation) {
      // A newer text arrived while this one was checked: the client should ask again.
      throw new ResponseError(LSPErrorCodes.ServerCancelled, 'The document changed; pull again.', { retriggerRequest: true });
    }
    return { kind: DocumentDiagnosticReportKind.Full, resultId, items: report?.diagnostics ?? [] };
  }

  /**
   * Every workspace file that is ours. Reports whose result id the client already has come back
   * as `unchanged`; when nothing at all changed, the request is held until something does (a long
   * poll: the client asks again as soon as it gets an answer). Open files come first. With
   * `partial` (the client sent a partial result token, as VS Code does), new reports are sent as
   * they are made, a batch at a time, so that the first diagnostics of a large workspace show
   * long before the last file is checked; the final answer is then empty, as LSP asks.
   */
  async pullWorkspace(params: WorkspaceDiagnosticParams, token: CancellationToken, partial?: PartialReporter): Promise<WorkspaceDiagnosticReport> {
    await this.session.ready;
    const previous = new Map(params.previousResultIds.map((p) => [p.uri, p.value]));
    for (;;) {
      let batch: WorkspaceDocumentDiagnosticReport[] = [];
      let changed = false;
      let lastYield = Date.now();
      let lastFlush = Date.now();
      const current = new Set<string>();
      const flush = () => {
        if (partial && batch.length > 0) partial.report({ items: batch });
        batch = [];
        lastFlush = Date.now();
      };
      const entries = openFirst(this.session.checkedEntries());
      for (const entry of entries) {
        if (!this.workspaceWide && !entry.editor) continue;
        if (Date.now() - lastYield > 8) {
          await yieldTurn();
          lastYield = Date.now();
        }
        if (token.isCancellationRequested || this.disposed) throw requestCancelled();
        const uri = entry.uri;
        const version = entry.editor?.version ?? null;
        const resultId = this.session.resultIdOf(entry);
        if (previous.get(uri) === resultId) {
          current.add(uri);
          batch.push({ kind: DocumentDiagnosticReportKind.Unchanged, uri, resultId, version });
          continue;
        }
        const report = this.report(entry);
        if (!report) continue;
        if (!report.file.kind && !this.session.isConfig(entry) && !previous.has(uri)) continue; // not ours, never reported
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
        flush();
        return { items: [] };
      }
      await this.waitForChange(token);
      if (token.isCancellationRequested || this.disposed) throw requestCancelled();
    }
  }

  private goneId(): string {
    return `${this.session.id}.${GONE}`;
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

  private onChange(event: ChangeEvent): void {
    if (this.disposed) return;
    for (const path of event.paths) if (!this.session.entries.has(path)) this.cache.delete(path);
    if (this.options.pull) {
      if (event.dependencies) this.scheduleRefresh();
      this.wake();
      if (event.dependencies) this.startBackgroundCheck();
      return;
    }
    // Push: a dependency change re-publishes everything (open files first); otherwise only what changed.
    if (event.dependencies) this.startBackgroundCheck();
    else for (const path of event.paths) this.schedulePush(path);
  }

  private scheduleRefresh(): void {
    if (!this.options.refresh || this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.connection.languages.diagnostics.refresh().catch((error: unknown) => {
        this.session.log(`the client refused to refresh diagnostics: ${errorText(error)}`);
      });
    }, 50);
  }

  private schedulePush(path: string): void {
    const existing = this.pushTimers.get(path);
    if (existing) clearTimeout(existing);
    this.pushTimers.set(
      path,
      setTimeout(() => {
        this.pushTimers.delete(path);
        this.push(path);
      }, this.options.pushDelay ?? 150),
    );
  }

  /** Publishes one file's diagnostics now (or clears them when the file is gone or not checked). */
  private push(path: string): void {
    if (this.disposed) return;
    const entry = this.session.entries.get(path);
    const publish = entry && (entry.editor || (this.workspaceWide && entry.onDisk)) ? this.report(entry) : undefined;
    if (entry && publish && (publish.diagnostics.length > 0 || this.pushed.has(path) || entry.editor)) {
      this.pushed.set(path, entry.uri);
      void this.connection.sendDiagnostics({ uri: entry.uri, version: entry.editor?.version, diagnostics: publish.diagnostics });
      if (publish.diagnostics.length === 0) this.pushed.delete(path);
      return;
    }
    const uri = this.pushed.get(path);
    if (uri) {
      this.pushed.delete(path);
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
      await this.session.ready;
      await yieldTurn();
      const entries = openFirst(this.session.checkedEntries());
      let lastYield = Date.now();
      for (const entry of entries) {
        if (run !== this.background || this.disposed) return;
        // push() decides itself whether a closed file is published (or cleared).
        if (!this.options.pull) this.push(entry.path);
        else if (this.workspaceWide || entry.editor) this.report(entry);
        if (Date.now() - lastYield > 8) {
          await yieldTurn();
          lastYield = Date.now();
        }
      }
      // Files that vanished since they were pushed.
      if (!this.options.pull) for (const path of [...this.pushed.keys()]) if (!this.session.entries.has(path)) this.push(path);
    })().catch((error: unknown) => this.session.log(`the background check failed: ${errorText(error)}`));
  }

  /** Closing a document in push mode: its disk diagnostics apply again, or none. */
  documentClosed(path: string): void {
    if (!this.options.pull) this.schedulePush(path);
  }

  dispose(): void {
    this.disposed = true;
    for (const timer of this.pushTimers.values()) clearTimeout(timer);
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
  const named = pending.filter((name) => finding.message.includes(`"${name}"`) || finding.message.includes(`"${name}.`));
  if (named.length === 0) return undefined;
  const list = named.map((name) => `"${name}"`).join(', ');
  return ` Catalog pending: Tool Lens is fetching the live catalog of ${list}; this diagnostic is checked again when it arrives.`;
}
