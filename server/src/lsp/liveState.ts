// What a session knows of its live fetches (lsp/liveFetch.ts runs them): the servers being fetched
// and the last failure of each, and an epoch bumped whenever the set being fetched changes, since
// diagnostics that mention such a server say "catalog pending" and their result ids must change.

export class LiveFetchState {
  epoch = 0;
  private readonly pending = new Set<string>();
  private readonly failures = new Map<string, string>();

  /** Servers whose live catalog is being fetched, sorted. */
  pendingServers(): string[] {
    return [...this.pending].sort();
  }

  isPending(server: string): boolean {
    return this.pending.has(server);
  }

  started(server: string): void {
    this.pending.add(server);
    this.failures.delete(server);
    this.epoch++;
  }

  /** `failure`: the fetch's redacted message, when it failed. */
  ended(server: string, failure?: string): void {
    this.pending.delete(server);
    if (failure !== undefined) this.failures.set(server, failure);
    else this.failures.delete(server);
    this.epoch++;
  }

  /** The servers whose last fetch failed, sorted, and each one's message. */
  failed(): { failed: string[]; failures: Record<string, string> } {
    const failed = [...this.failures.keys()].sort();
    return { failed, failures: Object.fromEntries(failed.map((name) => [name, this.failures.get(name)!])) };
  }
}
