// Extension-host checks of the rule documentation (issue 12), called from codeserver.host.ts: the
// diagnostic's link is the extension's command, its quick fixes hold "Disable RULE for the entire file"
// and "Show documentation for RULE", and both the action and the link open the page bundled in the
// extension in a Markdown preview tab, offline.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

type Check = (name: string, body: () => string | Promise<string>) => Promise<void>;

const RULE = 'annotations/contradiction';
const COMMAND = 'toolLens.openRuleDocs';
const WAIT_MS = 20000;

function fail(message: string): never {
  throw new Error(message);
}

async function waitFor<T>(what: string, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) fail(`timed out after ${WAIT_MS} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function previewTabs(page: string): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter(
      (tab) =>
        tab.input instanceof vscode.TabInputWebview &&
        /markdown\.preview/.test(tab.input.viewType) &&
        tab.label.includes(page),
    );
}

function tabsSeen(): string {
  return JSON.stringify(
    vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .map(
        (t) =>
          `${t.label} (${t.input instanceof vscode.TabInputWebview ? t.input.viewType : t.input?.constructor.name})`,
      ),
  );
}

/** Runs `open`, waits for a Markdown preview tab of the rule's page, closes it again. */
async function opensPreview(open: () => Thenable<unknown>): Promise<string> {
  const page = `${RULE.split('/')[1]}.md`;
  await vscode.window.tabGroups.close(previewTabs(page));
  await open();
  const [tab] = await waitFor(`a Markdown preview tab of ${page}`, () => {
    const tabs = previewTabs(page);
    return tabs.length ? tabs : undefined;
  }).catch((error: unknown) => fail(`${error instanceof Error ? error.message : String(error)}; tabs: ${tabsSeen()}`));
  const label = tab!.label;
  await vscode.window.tabGroups.close(tab!);
  return label;
}

export async function ruleDocsChecks(
  check: Check,
  gatewayUri: vscode.Uri,
  extension: vscode.Extension<unknown> | undefined,
): Promise<void> {
  const document = await vscode.workspace.openTextDocument(gatewayUri);
  await vscode.window.showTextDocument(document);
  let diagnostic: vscode.Diagnostic | undefined;

  await check(
    'the rule pages ship in the extension, and a diagnostic links to the command that opens them',
    async () => {
      if (!extension) fail('the extension is not installed');
      const page = join(extension.extensionPath, 'docs', 'rules', `${RULE}.md`);
      if (!existsSync(page)) fail(`${page} is not in the installed extension`);
      diagnostic = await waitFor(`a ${RULE} diagnostic`, () =>
        vscode.languages
          .getDiagnostics(gatewayUri)
          .find((d) => typeof d.code === 'object' && String(d.code.value) === RULE),
      );
      const target = (diagnostic.code as { target: vscode.Uri }).target;
      if (target.scheme !== 'command' || target.path !== COMMAND)
        fail(`the link is ${target.toString(true)}, not the ${COMMAND} command`);
      const args = JSON.parse(decodeURIComponent(target.query)) as unknown;
      if (JSON.stringify(args) !== JSON.stringify([RULE])) fail(`the link's arguments are ${target.query}`);
      return target.toString(true);
    },
  );

  let docs: vscode.CodeAction | undefined;
  await check(
    'the quick fixes of a diagnostic hold "Disable RULE for the entire file" and "Show documentation for RULE"',
    async () => {
      if (!diagnostic) fail('no diagnostic');
      const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
        'vscode.executeCodeActionProvider',
        gatewayUri,
        diagnostic.range,
        vscode.CodeActionKind.QuickFix.value,
      );
      const titles = actions.map((a) => a.title);
      for (const title of [
        `Disable ${RULE} for this line`,
        `Disable ${RULE} for the entire file`,
        `Show documentation for ${RULE}`,
      ]) {
        if (!titles.includes(title)) fail(`no "${title}"; offered: ${JSON.stringify(titles)}`);
      }
      const disable = actions.find(
        (a): a is vscode.CodeAction => a.title === `Disable ${RULE} for the entire file` && 'edit' in a,
      );
      const inserted = disable?.edit?.get(gatewayUri)?.[0];
      if (
        !inserted ||
        inserted.range.start.line !== 0 ||
        !inserted.newText.startsWith(`# tool-lens-disable-file ${RULE} -- `)
      )
        fail(`the file suppression inserts ${JSON.stringify(inserted)}`);
      docs = actions.find(
        (a): a is vscode.CodeAction => a.title === `Show documentation for ${RULE}` && 'command' in a,
      );
      if (docs?.command?.command !== COMMAND) fail(`"Show documentation" runs ${JSON.stringify(docs?.command)}`);
      return JSON.stringify(titles);
    },
  );

  await check('"Show documentation for RULE" opens the bundled page in a Markdown preview tab', async () => {
    if (!docs?.command) fail('no documentation action');
    const command = docs.command;
    const args: unknown[] = command.arguments ?? [];
    return opensPreview(() => vscode.commands.executeCommand(command.command, ...args));
  });

  await check("the diagnostic's link opens the same preview", async () => {
    if (!diagnostic) fail('no diagnostic');
    const target = (diagnostic.code as { target: vscode.Uri }).target;
    const args = JSON.parse(decodeURIComponent(target.query)) as unknown[];
    return opensPreview(() => vscode.commands.executeCommand(target.path, ...args));
  });
}
