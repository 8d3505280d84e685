// "Tool Lens: Fetch Catalog from an MCP Server" (docs/behaviour.md#live-catalogs): only in a trusted workspace; the
// server lists what the workspace's MCP configs declare; the user picks one and agrees, in a modal
// that shows the exact command line (secrets masked), to run it; the answer is remembered for that
// exact launch. The server does the fetch and reports progress; the snapshot then reaches every
// dependant through the server's ordinary catalog-change path.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from 'vscode-languageclient/node';
import type {
  FetchCatalogParams,
  FetchCatalogResult,
  LiveServerItem,
  LiveServerList,
} from '../../server/src/lsp/protocol.js';
import { CONSENT_CLOSE, consentPrompt, hasConsent, pickRow, recordConsent } from './fetchConsent.js';

export interface FetchDeps {
  listServers(): Promise<LiveServerList>;
  /** Cancelling `token` cancels the request; the server then stops the fetch and the MCP server. */
  fetch(params: FetchCatalogParams, token?: vscode.CancellationToken): Promise<FetchCatalogResult>;
  onProgress(
    token: string,
    handler: (value: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd) => void,
  ): vscode.Disposable;
  showOutput(): void;
  log(line: string): void;
}

const CONFIG_FILES =
  '.vscode/mcp.json, .cursor/mcp.json, .mcp.json, claude_desktop_config.json, .gemini/settings.json, .roo/mcp.json, .amazonq/mcp.json, .codex/config.toml, .zed/settings.json or .continue/mcpServers/*.yaml';

export async function fetchCatalog(
  context: vscode.ExtensionContext,
  deps: FetchDeps,
  preselect?: string,
): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    const manage = 'Manage Workspace Trust';
    const answer = await vscode.window.showWarningMessage(
      'Tool Lens fetches live catalogs only in a trusted workspace: fetching starts a command, or reaches an address, that this workspace names.',
      manage,
    );
    if (answer === manage) await vscode.commands.executeCommand('workbench.trust.manage');
    return;
  }
  const list = await deps.listServers();
  for (const problem of list.problems) deps.log(`MCP config problem: ${problem}`);
  if (!list.trusted) {
    // The trust notification has not reached the server yet (it refuses too): say so rather than fail later.
    void vscode.window.showWarningMessage(
      'Tool Lens: the language server does not know yet that this workspace is trusted. Try again in a moment, or reload the window.',
    );
    return;
  }
  if (list.servers.length === 0) {
    const where = list.configFiles.length
      ? `${list.configFiles.join(', ')} declare${list.configFiles.length === 1 ? 's' : ''} no MCP server`
      : `no ${CONFIG_FILES} in this workspace`;
    void vscode.window.showInformationMessage(
      `Tool Lens: nothing to fetch: ${where}.${list.problems.length ? ' See the Tool Lens output for problems in the configs.' : ''}`,
    );
    return;
  }

  const item = preselect !== undefined ? list.servers.find((s) => s.name === preselect) : await pick(list.servers);
  if (!item) {
    if (preselect !== undefined)
      void vscode.window.showWarningMessage(
        `Tool Lens: no MCP server named "${preselect}" in this workspace's MCP configs.`,
      );
    return;
  }
  if (item.blocked || !item.fingerprint) {
    void vscode.window.showWarningMessage(
      `Tool Lens cannot fetch "${item.name}": ${item.blocked?.message ?? 'it cannot be fetched'}.`,
    );
    return;
  }
  if (item.pending) {
    void vscode.window.showInformationMessage(`Tool Lens: the catalog of "${item.name}" is already being fetched.`);
    return;
  }
  if (!hasConsent(context.workspaceState, item)) {
    const prompt = consentPrompt(item);
    // VS Code's modal makes its first button the default: Cancel, so Enter starts nothing; the close
    // affordance (Escape) declines too.
    const answer = await vscode.window.showWarningMessage<vscode.MessageItem>(
      prompt.message,
      { modal: true, detail: prompt.detail },
      ...prompt.buttons.map((title): vscode.MessageItem => ({ title })),
      { title: CONSENT_CLOSE, isCloseAffordance: true },
    );
    if (answer?.title !== prompt.action) return;
    await recordConsent(context.workspaceState, item);
  }

  const result = await run(deps, item);
  await report(context, deps, item, result);
}

async function pick(servers: LiveServerItem[]): Promise<LiveServerItem | undefined> {
  const rows = servers.map((item) => ({ ...pickRow(item), item }));
  const picked = await vscode.window.showQuickPick(rows, {
    title: 'Fetch Catalog from an MCP Server',
    placeHolder: 'The server to fetch the tools of (you are asked before anything starts)',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.item;
}

function run(deps: FetchDeps, item: LiveServerItem): Thenable<FetchCatalogResult> {
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Tool Lens: fetching the tools of "${item.name}"`,
      cancellable: true,
    },
    async (progress, cancellation) => {
      const token = `toolLens.fetch.${randomUUID()}`;
      const subscription = deps.onProgress(token, (value) => {
        if (value.kind !== 'end' && value.message) progress.report({ message: value.message });
      });
      const cancelled: FetchCatalogResult = {
        ok: false,
        server: item.name,
        reason: 'cancelled',
        message: `the fetch of "${item.name}" was cancelled.`,
      };
      try {
        return await deps.fetch(
          { server: item.name, fingerprint: item.fingerprint!, workDoneToken: token },
          cancellation,
        );
      } catch (error) {
        // A cancelled request may end as an error rather than as the server's answer.
        if (cancellation.isCancellationRequested) return cancelled;
        throw error;
      } finally {
        subscription.dispose();
      }
    },
  );
}

async function report(
  context: vscode.ExtensionContext,
  deps: FetchDeps,
  item: LiveServerItem,
  result: FetchCatalogResult,
): Promise<void> {
  if (result.ok) {
    const open = 'Open Snapshot';
    const answer = await vscode.window.showInformationMessage(
      `Tool Lens: saved ${result.tools} tool${result.tools === 1 ? '' : 's'} of "${result.server}" to ${result.file}; the workspace is checked against it now.`,
      open,
    );
    if (answer === open) await vscode.window.showTextDocument(vscode.Uri.parse(result.uri));
    return;
  }
  // The user cancelled it and knows: nothing to say.
  if (result.reason === 'cancelled') return;
  if (result.reason === 'changed') {
    const again = 'Fetch Again';
    const answer = await vscode.window.showWarningMessage(`Tool Lens: ${result.message}`, again);
    if (answer === again) await fetchCatalog(context, deps, item.name);
    return;
  }
  // The message is already redacted by the server; its full text (with the server's last stderr
  // lines) is in the Tool Lens output, where the server logged it.
  const firstLine = result.message.split(/\r?\n/, 1)[0] ?? result.message;
  const show = 'Show Output';
  const answer = await (result.reason === 'failed' || result.reason === 'write-failed'
    ? vscode.window.showErrorMessage(`Tool Lens: ${firstLine}`, show)
    : vscode.window.showWarningMessage(`Tool Lens: ${firstLine}`, show));
  if (answer === show) deps.showOutput();
}
