// Runs INSIDE code-server's extension host (bundled by codeserver.test.ts as a runner of its own):
// the MCP client configurations of one project as a user edits them, in a workspace that holds only
// them (no .toollens.yaml, no other YAML or JSON): VS Code's `.vscode/mcp.json`, Claude Code's
// `.mcp.json` and Codex's `.codex/config.toml`, written by the outer test before the workbench opens.
//
// Checked through the API a user's editor uses: the extension activates for the Codex file alone
// (`workspaceContains:**/.codex/config.toml`); each finding at its exact range and once (VS Code's
// own schema for mcp.json applies too, and says nothing where we do); the secret quick fix applied
// and the finding gone; the hover's start line naming the input, never the value; completion of
// Codex's keys in a TOML server table; and the cross-file note between the two JSON files going
// away in the file not edited when an edit makes the definitions agree.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { HostCheck } from './codeserver.host.js';

/** What the outer test tells this module, in `plan.json` beside the bundle. */
export interface ClientsPlan {
  extensionId: string;
  /** The files the outer test wrote into the workspace, by path from its root. */
  texts: { vscode: string; claude: string; codex: string };
  /** The credential written into `.vscode/mcp.json` and into Codex's `bearer_token`: never shown. */
  secrets: string[];
  /** `.vscode/mcp.json` after the secret's quick fix, exactly. */
  fixedVscode: string;
  results: string;
}

const plan = JSON.parse(readFileSync(join(__dirname, 'plan.json'), 'utf8')) as ClientsPlan;
const WAIT_MS = 20000;
const PACKAGE = '"@modelcontextprotocol/server-github"';
const PINNED = '"@modelcontextprotocol/server-github@2025.4.8"';
const FIX_TITLE = 'Ask for GITHUB_PERSONAL_ACCESS_TOKEN with a password input';

function fail(message: string): never {
  throw new Error(message);
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = WAIT_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) fail(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function codeOf(d: vscode.Diagnostic): string | undefined {
  const code = d.code;
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}

/** A diagnostic as `line:col-line:col severity code` (1-based), our findings' own words. */
function line(d: vscode.Diagnostic): string {
  const { start, end } = d.range;
  const where = `${start.line + 1}:${start.character + 1}-${end.line + 1}:${end.character + 1}`;
  return `${where} ${vscode.DiagnosticSeverity[d.severity]} ${d.source === 'tool-lens' ? codeOf(d) : `[${d.source ?? 'json'}] ${d.message}`}`;
}

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'tool-lens');
}

/** Ours, as lines sorted by place, once they equal `wanted` (or the last seen, on timeout). */
async function settlesTo(uri: vscode.Uri, wanted: string[]): Promise<string> {
  const expected = [...wanted].sort().join('\n');
  let seen = '';
  try {
    await until(`${uri.path} to show ${JSON.stringify(wanted)}`, () => {
      seen = ours(uri).map(line).sort().join('\n');
      return seen === expected ? true : undefined;
    });
  } catch {
    fail(
      `${vscode.workspace.asRelativePath(uri)}: expected ${JSON.stringify(wanted)}, saw ${JSON.stringify(seen.split('\n'))}`,
    );
  }
  return seen.split('\n').join('; ');
}

/** `line:col-line:col` (1-based) of the first `needle` in `text` (or of `length` chars of it). */
function rangeOf(text: string, needle: string, length = needle.length): string {
  const at = text.indexOf(needle);
  if (at < 0) fail(`${JSON.stringify(needle)} is not in the text`);
  const pos = (offset: number): string => {
    const before = text.slice(0, offset).split('\n');
    return `${before.length}:${before[before.length - 1]!.length + 1}`;
  };
  return `${pos(at)}-${pos(at + length)}`;
}

function hoverText(hovers: readonly vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n');
}

/** Overlap of two ranges (a touching end does not count). */
function overlaps(a: vscode.Range, b: vscode.Range): boolean {
  return a.start.isBefore(b.end) && b.start.isBefore(a.end);
}

export async function run(): Promise<void> {
  const checks: HostCheck[] = [];
  const check = async (name: string, body: () => string | Promise<string>): Promise<void> => {
    const started = Date.now();
    try {
      const detail = await body();
      checks.push({ name, ok: true, detail, ms: Date.now() - started });
      console.log(`ok - ${name}: ${detail}`);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      checks.push({ name, ok: false, detail, ms: Date.now() - started });
      console.log(`not ok - ${name}: ${detail}`);
    }
  };
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? fail('code-server opened no workspace folder');
  const vscodeUri = vscode.Uri.joinPath(folder, '.vscode', 'mcp.json');
  const claudeUri = vscode.Uri.joinPath(folder, '.mcp.json');
  const codexUri = vscode.Uri.joinPath(folder, '.codex', 'config.toml');
  const extension = vscode.extensions.getExtension(plan.extensionId);
  const { vscode: vscodeText, claude: claudeText, codex: codexText } = plan.texts;

  await check('the extension activates for a workspace whose only MCP file of ours is .codex/config.toml', async () => {
    if (!extension) fail(`${plan.extensionId} is not installed`);
    // No document is open yet, and the workspace has no .toollens.yaml: only the Codex file can activate it.
    const open = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file').map((d) => d.uri.path);
    if (open.length) fail(`documents open before the check: ${open.join(', ')}`);
    const started = Date.now();
    await until('the extension to activate', () => (extension.isActive ? true : undefined));
    return `active ${Date.now() - started} ms after the check started`;
  });

  await check('Codex: an inline bearer_token is a client/unknown-key error at the key, and only that', async () => {
    const document = await vscode.workspace.openTextDocument(codexUri);
    await vscode.window.showTextDocument(document);
    return `language ${document.languageId}: ${await settlesTo(codexUri, [
      `${rangeOf(codexText, 'bearer_token =', 'bearer_token'.length)} Error client/unknown-key`,
    ])}`;
  });

  await check('Codex: completion on a new line of [mcp_servers.docs] offers its server keys', async () => {
    // The last line of the file is empty and inside the table.
    const document = await vscode.workspace.openTextDocument(codexUri);
    const position = document.positionAt(codexText.length);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      codexUri,
      position,
    );
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    const missing = ['bearer_token_env_var', 'env_http_headers', 'startup_timeout_sec', 'enabled_tools'].filter(
      (k) => !labels.includes(k),
    );
    if (missing.length) fail(`not offered: ${missing.join(', ')}; offered: ${labels.join(', ')}`);
    // `url` is there already; `type` is no Codex key.
    const wrong = labels.filter((l) => l === 'url' || l === 'type');
    if (wrong.length) fail(`offered ${wrong.join(', ')}; all: ${labels.join(', ')}`);
    return `${labels.length} keys: ${labels.join(', ')}`;
  });

  const document = await vscode.workspace.openTextDocument(vscodeUri);
  await vscode.window.showTextDocument(document);
  const secretRange = rangeOf(vscodeText, `"${plan.secrets[0]!}"`);
  const differs = (text: string, name: string): string =>
    `${rangeOf(text, `"${name}": {`, name.length + 2)} Information client/differs-across-clients`;

  await check('.vscode/mcp.json (JSONC): the secret and the unpinned package at their exact ranges', async () => {
    return settlesTo(vscodeUri, [
      `${secretRange} Warning client/secret-in-file`,
      `${rangeOf(vscodeText, PACKAGE)} Information client/unpinned-package`,
      differs(vscodeText, 'github'),
    ]);
  });

  await check("VS Code's own schema says nothing where Tool Lens does", () => {
    const all = vscode.languages.getDiagnostics(vscodeUri);
    const theirs = all.filter((d) => d.source !== 'tool-lens');
    const twice = theirs.filter((t) => ours(vscodeUri).some((o) => overlaps(o.range, t.range)));
    if (twice.length)
      fail(`reported by both: ${twice.map(line).join('; ')}; ours: ${ours(vscodeUri).map(line).join('; ')}`);
    return theirs.length ? `VS Code's own, elsewhere: ${theirs.map(line).join('; ')}` : "VS Code's own: nothing";
  });

  await check('the hover on the server name shows how VS Code starts it, the credential masked', async () => {
    const position = document.positionAt(vscodeText.indexOf('"github": {') + 3);
    const text = hoverText(
      await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', vscodeUri, position),
    );
    if (!text.includes('npx -y @modelcontextprotocol/server-github')) fail(`no start line in the hover: ${text}`);
    const leaked = plan.secrets.filter((s) => text.includes(s));
    if (leaked.length) fail(`the hover shows the credential: ${text}`);
    if (!text.includes('***')) fail(`the credential is not shown masked: ${text}`);
    return text.replace(/\s+/g, ' ').slice(0, 400);
  });

  await check('the secret quick fix moves the token to a password input, and the finding goes', async () => {
    const secret = ours(vscodeUri).find((d) => codeOf(d) === 'client/secret-in-file') ?? fail('no secret finding');
    const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
      'vscode.executeCodeActionProvider',
      vscodeUri,
      secret.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const titles = actions.map((a) => a.title);
    const action = actions.find((a): a is vscode.CodeAction => a.title === FIX_TITLE && 'edit' in a);
    if (!action?.edit) fail(`no code action "${FIX_TITLE}" with an edit; offered: ${JSON.stringify(titles)}`);
    if (!(await vscode.workspace.applyEdit(action.edit))) fail('workspace.applyEdit refused the edit');
    if (document.getText() !== plan.fixedVscode) fail(`text after the fix:\n${document.getText()}`);
    const fixed = plan.fixedVscode;
    const seen = await settlesTo(vscodeUri, [
      `${rangeOf(fixed, PACKAGE)} Information client/unpinned-package`,
      differs(fixed, 'github'),
    ]);
    return `offered ${JSON.stringify(titles)}; after: ${seen}`;
  });

  await check('after the fix, the hover names the input and shows no value', async () => {
    const text = hoverText(
      await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        vscodeUri,
        document.positionAt(plan.fixedVscode.indexOf('"github": {') + 3),
      ),
    );
    if (!text.includes('input github-personal-access-token')) fail(`the input is not named: ${text}`);
    if (!/password/.test(text)) fail(`the input is not said to be a password: ${text}`);
    if (plan.secrets.some((s) => text.includes(s))) fail(`the hover shows the credential: ${text}`);
    return text.replace(/\s+/g, ' ').slice(0, 400);
  });

  await check('Claude Code and VS Code name "github" differently: a note at the name in .mcp.json', () =>
    settlesTo(claudeUri, [differs(claudeText, 'github')]),
  );

  await check('pinning the package in .vscode/mcp.json clears the note in .mcp.json (not opened) too', async () => {
    const edit = new vscode.WorkspaceEdit();
    const at = document.getText().indexOf(PACKAGE);
    edit.replace(
      vscodeUri,
      new vscode.Range(document.positionAt(at), document.positionAt(at + PACKAGE.length)),
      PINNED,
    );
    if (!(await vscode.workspace.applyEdit(edit))) fail('workspace.applyEdit refused the edit');
    const open = vscode.workspace.textDocuments.some((d) => d.uri.toString() === claudeUri.toString());
    const claude = await settlesTo(claudeUri, []);
    const own = await settlesTo(vscodeUri, []);
    return `.mcp.json ${open ? '(open)' : '(not open)'}: ${claude || 'nothing'}; .vscode/mcp.json: ${own || 'nothing'}`;
  });

  await check(
    "a remote type on a command entry: one finding of ours, and its fix quiets VS Code's schema too",
    async () => {
      // VS Code's own schema and Tool Lens both know a `type` VS Code does not accept. Ours is one
      // finding (not a second one for the url such an entry lacks), and its fix (stdio: the entry runs
      // a command) leaves nothing for either to say.
      const before = document.getText();
      const typeAt = before.indexOf('"type": "stdio"');
      const edit = new vscode.WorkspaceEdit();
      edit.replace(
        vscodeUri,
        new vscode.Range(document.positionAt(typeAt), document.positionAt(typeAt + '"type": "stdio"'.length)),
        '"type": "streamable-http"',
      );
      if (!(await vscode.workspace.applyEdit(edit))) fail('workspace.applyEdit refused the edit');
      const edited = document.getText();
      const seen = await settlesTo(vscodeUri, [
        `${rangeOf(edited, '"streamable-http"')} Warning client/invalid-transport`,
      ]);
      const theirs = (): vscode.Diagnostic[] =>
        vscode.languages.getDiagnostics(vscodeUri).filter((d) => d.source !== 'tool-lens');
      const vscodeSaid = await until("VS Code's schema to flag the type", () =>
        theirs().length ? theirs() : undefined,
      );
      const finding = ours(vscodeUri)[0]!;
      const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
        'vscode.executeCodeActionProvider',
        vscodeUri,
        finding.range,
        vscode.CodeActionKind.QuickFix.value,
      );
      const action = actions.find((a): a is vscode.CodeAction => 'edit' in a && a.title.includes('"stdio"'));
      if (!action?.edit) fail(`no fix to "stdio"; offered: ${JSON.stringify(actions.map((a) => a.title))}`);
      if (!(await vscode.workspace.applyEdit(action.edit))) fail('workspace.applyEdit refused the fix');
      if (document.getText() !== before) fail(`text after the fix:\n${document.getText()}`);
      await settlesTo(vscodeUri, []);
      await until("VS Code's schema to have nothing left to say", () => (theirs().length === 0 ? true : undefined));
      return `ours: ${seen}; VS Code's own before the fix: ${vscodeSaid.map(line).join('; ')}; applied "${action.title}"`;
    },
  );

  await vscode.commands.executeCommand('workbench.action.files.revertAll').then(undefined, () => undefined);
  writeFileSync(plan.results, JSON.stringify(checks, null, 2));
  const failed = checks.filter((c) => !c.ok);
  console.log(`extension-host checks: ${checks.length - failed.length} ok, ${failed.length} not ok`);
  if (failed.length)
    throw new Error(`${failed.length} extension-host checks failed: ${failed.map((c) => c.name).join('; ')}`);
}
