// The status bar item: how many catalog servers the workspace has, whether any are stale, and the
// live fetches: "catalog pending" while one runs, "failed" when the last one of a server failed.
import * as vscode from 'vscode';
import { STALE_AFTER_DAYS, type CatalogState } from '../../server/src/lsp/protocol.js';

export class CatalogStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('toolLens.catalogState', vscode.StatusBarAlignment.Right, 100);

  constructor() {
    this.item.name = 'Tool Lens catalogs';
    this.item.command = 'toolLens.refreshCatalogs';
    this.item.text = '$(sync~spin) Tool Lens';
    this.item.tooltip = 'Tool Lens is reading the workspace';
    this.item.show();
  }

  update(state: CatalogState): void {
    const count = state.servers.length;
    const parts = [`${count} server${count === 1 ? '' : 's'}`];
    if (state.stale.length) parts.push(`${state.stale.length} stale`);
    if (state.pending.length) parts.push(`catalog pending: ${state.pending.join(', ')}`);
    if (state.failed.length) parts.push(`${state.failed.length} failed`);
    const icon = state.pending.length ? '$(sync~spin)' : state.failed.length ? '$(error)' : state.stale.length ? '$(warning)' : '$(tools)';
    this.item.text = `${icon} ${parts.join(', ')}`;
    this.item.backgroundColor = state.failed.length && !state.pending.length ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**Tool Lens catalogs** (${state.files} snapshot file${state.files === 1 ? '' : 's'})\n\n`);
    if (count === 0) tooltip.appendMarkdown('No catalog yet: add a `catalog: 1` snapshot or a saved `tools/list` result (`<server>.tools.json`).\n\n');
    for (const server of state.servers) {
      tooltip.appendMarkdown(`- \`${server}\`${state.stale.includes(server) ? ` (fetched more than ${STALE_AFTER_DAYS} days ago)` : ''}\n`);
    }
    for (const server of state.pending) tooltip.appendMarkdown(`\n$(sync~spin) \`${server}\`: catalog pending (its live catalog is being fetched)\n`);
    for (const server of state.failed) {
      // Redacted by the server; shown as code so nothing in it is read as markdown.
      const why = (state.failures?.[server] ?? 'see the Tool Lens output').split(/\r?\n/, 1)[0]!.replace(/`/g, "'");
      tooltip.appendMarkdown(`\n$(error) \`${server}\`: the last fetch failed: \`${why}\`\n`);
    }
    if (!state.trusted) tooltip.appendMarkdown('\nRestricted mode: live catalog fetching is off in an untrusted workspace.\n');
    tooltip.appendMarkdown('\nClick to reload the catalogs from disk.');
    this.item.tooltip = tooltip;
  }

  dispose(): void {
    this.item.dispose();
  }
}
