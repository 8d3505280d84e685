// The workspace folders of the client, each its own workspace: one Session per folder, with its
// own `.toollens.yaml`, catalogs and files, as the CLI would treat that folder. A file belongs to
// the innermost folder that contains it; a file outside every folder (an editor's loose file)
// belongs to the first folder, as it did when the server knew only one. With no folder at all
// there is one Session without a root. Folders come and go with
// `workspace/didChangeWorkspaceFolders`; handlers.ts moves the open editors of a folder that
// changed to their new owner.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { folderOfUri, isWithin } from './paths.js';
import type { CatalogState, ToolLensSettings } from './protocol.js';
import { Session, type Log } from './session.js';

export class Folders {
  /** Distinguishes the ids of this server run that belong to no folder (a report of a file gone). */
  readonly id = randomBytes(4).toString('hex');
  private sessions: Session[] = [];
  private readonly addedListeners: ((session: Session) => void)[] = [];
  private readonly removedListeners: ((session: Session) => void)[] = [];
  settings: ToolLensSettings = {};
  trusted = false;

  constructor(private readonly log: Log) {
    this.sessions = [this.create(undefined)];
  }

  /** The first folder's session (or the one without a folder): loose files and live fetches are its. */
  get primary(): Session {
    return this.sessions[0]!;
  }

  all(): readonly Session[] {
    return this.sessions;
  }

  /** Resolves once every current folder has been read. */
  async ready(): Promise<void> {
    await Promise.all(this.sessions.map((session) => session.ready));
  }

  onAdded(listener: (session: Session) => void): void {
    this.addedListeners.push(listener);
    for (const session of this.sessions) listener(session);
  }

  onRemoved(listener: (session: Session) => void): void {
    this.removedListeners.push(listener);
  }

  /** The session a file (absolute, native separators) belongs to: the innermost folder holding it. */
  ofAbsolute(absolute: string): Session {
    let best: Session | undefined;
    for (const session of this.sessions) {
      if (session.root === undefined || !isWithin(session.root, absolute)) continue;
      if (!best || session.root.length > best.root!.length) best = session;
    }
    return best ?? this.primary;
  }

  /** The session a URI belongs to (non-file URIs: the first folder's). */
  ofUri(uri: string): Session {
    if (!uri.startsWith('file:')) return this.primary;
    let absolute: string;
    try {
      absolute = fileURLToPath(uri);
    } catch {
      return this.primary;
    }
    return this.ofAbsolute(absolute);
  }

  /** The session whose entries hold this very entry. */
  ownerOf(entry: { path: string }): Session | undefined {
    return this.sessions.find((session) => session.entries.get(entry.path) === entry);
  }

  /** The folders given at initialize (their order is the client's; the first is the primary). */
  initialize(folderUris: readonly string[]): void {
    const roots = folderUris.map((uri) => folderOfUri(uri)).filter((root): root is string => root !== undefined);
    if (roots.length === 0) return;
    this.sessions = [];
    for (const root of roots) if (!this.sessions.some((s) => s.root === root)) this.sessions.push(this.create(root));
  }

  /**
   * Applies a `workspace/didChangeWorkspaceFolders` event. Returns the sessions added (not read
   * yet: the caller loads them) and removed (already closed), or undefined when nothing changed.
   */
  change(added: readonly string[], removed: readonly string[]): { added: Session[]; removed: Session[] } | undefined {
    const out = { added: [] as Session[], removed: [] as Session[] };
    for (const uri of removed) {
      const root = folderOfUri(uri);
      const index = this.sessions.findIndex((s) => s.root !== undefined && s.root === root);
      if (index < 0) continue;
      out.removed.push(...this.sessions.splice(index, 1));
    }
    for (const uri of added) {
      const root = folderOfUri(uri);
      if (root === undefined || this.sessions.some((s) => s.root === root)) continue;
      const session = this.create(root);
      this.sessions.push(session);
      out.added.push(session);
    }
    if (out.added.length === 0 && out.removed.length === 0) return undefined;
    // The session without a folder stands in only while there is none.
    const rootless = this.sessions.filter((s) => s.root === undefined);
    if (this.sessions.length > rootless.length) {
      this.sessions = this.sessions.filter((s) => s.root !== undefined);
      out.removed.push(...rootless);
    } else if (this.sessions.length === 0) {
      const session = this.create(undefined);
      this.sessions.push(session);
      out.added.push(session);
    }
    for (const session of out.removed) session.close();
    for (const session of out.added) for (const listener of this.addedListeners) listener(session);
    for (const session of out.removed) for (const listener of this.removedListeners) listener(session);
    return out;
  }

  private create(root: string | undefined): Session {
    const session: Session = new Session(
      this.log,
      (absolute: string): boolean => this.ofAbsolute(absolute) === session,
    );
    session.setRootFolder(root);
    session.settings = { ...this.settings };
    session.trusted = this.trusted;
    return session;
  }

  updateSettings(settings: ToolLensSettings): void {
    this.settings = { ...settings };
    for (const session of this.sessions) session.updateSettings(settings);
  }

  setTrusted(trusted: boolean): void {
    this.trusted = trusted;
    for (const session of this.sessions) session.setTrusted(trusted);
  }

  /** The catalog state of every folder as one: what the language status items show. */
  catalogState(): CatalogState {
    return mergeCatalogStates(this.sessions.map((session) => session.catalogState()));
  }
}

export function mergeCatalogStates(states: readonly CatalogState[]): CatalogState {
  const union = (pick: (state: CatalogState) => readonly string[]) => [...new Set(states.flatMap(pick))].sort();
  const failures: Record<string, string> = {};
  for (const state of states) Object.assign(failures, state.failures ?? {});
  return {
    servers: union((s) => s.servers),
    files: states.reduce((sum, s) => sum + s.files, 0),
    stale: union((s) => s.stale),
    pending: union((s) => s.pending),
    failed: union((s) => s.failed),
    failures,
    trusted: states.every((s) => s.trusted),
    loaded: states.every((s) => s.loaded),
    configs: union((s) => s.configs ?? []),
  };
}
