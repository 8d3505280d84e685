// Whether this window has Tool Lens files, as the context key `toolLens.active` that the command
// palette's `when` clauses read (package.json menus.commandPalette): a YAML workspace with no
// gateway, overlay, catalog or calls file sees no Tool Lens command. The key turns on, and stays on
// for the window, at the first sign of one: a catalog or `.toollens.yaml` the server read, a
// document it says it checks, or a diagnostic of ours (the background check of the workspace
// reports every file with a finding).
import * as vscode from 'vscode';
import type { CatalogState } from '../../server/src/lsp/protocol.js';

export const ACTIVE_CONTEXT = 'toolLens.active';

/** The `source` of the server's diagnostics (lsp/convert.ts SOURCE). */
const SOURCE = 'tool-lens';

export class Presence implements vscode.Disposable {
  private active = false;
  private readonly subscription: vscode.Disposable;

  constructor() {
    this.subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (this.active) return;
      if (event.uris.some((uri) => vscode.languages.getDiagnostics(uri).some((d) => d.source === SOURCE))) this.seen();
    });
  }

  /** The server's catalog state: a catalog or a configuration is a Tool Lens file. */
  catalogState(state: CatalogState): void {
    if (state.servers.length > 0 || state.files > 0 || (state.configs ?? []).length > 0) this.seen();
  }

  /** The server said it checks a document. */
  seen(): void {
    if (this.active) return;
    this.active = true;
    void vscode.commands.executeCommand('setContext', ACTIVE_CONTEXT, true);
  }

  get isActive(): boolean {
    return this.active;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
