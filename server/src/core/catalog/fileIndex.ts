// What the workspace's files declare under a name, kept per file so that one file's change replaces
// only its own entries, and looked up by name across files: the base of the composite-definitions
// index (definitions.ts) and the client-servers index (clientServers.ts). Each index decides what
// a change makes visible; this keeps the files, the look-up by name and the revision token.

/** Entries of one file, each under a name. */
export abstract class FileIndex<T extends { name: string }> {
  private readonly byFile = new Map<string, T[]>();
  /** Made on first look-up after a change. */
  private byName: Map<string, T[]> | undefined;
  /** The same object until a look-up could give something else (Workspace.revision). */
  private token: object = {};

  /** Forgets every file (a rebuild). True when there was any. */
  clear(): boolean {
    if (this.byFile.size === 0) return false;
    this.byFile.clear();
    this.byName = undefined;
    this.bump();
    return true;
  }

  hasFile(path: string): boolean {
    return this.byFile.has(path);
  }

  get files(): string[] {
    return [...this.byFile.keys()];
  }

  /** A token for the index as it is: a new object after each change a look-up can see. */
  get revision(): object {
    return this.token;
  }

  /** One file's entries as they were set (none: an empty list). */
  protected entriesOf(path: string): readonly T[] {
    return this.byFile.get(path) ?? [];
  }

  /** Replaces one file's entries (none: the file is forgotten); the caller says whether to bump. */
  protected store(path: string, entries: readonly T[]): void {
    if (entries.length === 0) this.byFile.delete(path);
    else this.byFile.set(path, [...entries]);
    this.byName = undefined;
  }

  /** Every entry under `name`, in path order, then file order. */
  protected named(name: string): readonly T[] {
    if (!this.byName) {
      const byName = new Map<string, T[]>();
      for (const path of [...this.byFile.keys()].sort())
        for (const entry of this.byFile.get(path)!) {
          const list = byName.get(entry.name);
          if (list) list.push(entry);
          else byName.set(entry.name, [entry]);
        }
      this.byName = byName;
    }
    return this.byName.get(name) ?? [];
  }

  /** A change a look-up can see: the revision becomes a new token. */
  protected bump(): void {
    this.token = {};
  }
}
