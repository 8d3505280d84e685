// Runs INSIDE code-server's extension host (codeserver.test.ts, "typing in examples/"): a user's
// first minutes in examples/ (issue 26), typed into the editor as a user types, each state's
// findings compared with exactly what is expected, one finding per mistake:
//   - a one-character typo in a step's tool, under a composite that claims readOnlyHint: true;
//   - a missing colon in an argument (`state closed`);
//   - a step typed halfway (`- id: notes`, `tool: memory_sea`), one character at a time;
//   - and after each, undo, which restores exactly the findings before it.
// A finding is named `line:column severity rule` (1-based, as the CLI prints it). The workspace
// is a copy of examples/, whose own three findings in this file are the README's planted mistakes
// 1 to 3 (examples/README.md).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { HostCheck } from './codeserver.host.js';

/** What the outer test tells this module, in `plan.json` beside the bundle. */
export interface TypingPlan {
  extensionId: string;
  /** Where to write the results. */
  results: string;
}

const plan = JSON.parse(readFileSync(join(__dirname, 'plan.json'), 'utf8')) as TypingPlan;

const GATEWAY = 'gateways/docs-bot.vmcp.yaml';
/** How long a state may take to show its findings, and how long they must then hold. */
const SETTLE_MS = 15000;
const HOLD_MS = 1500;
/** Between two typed characters. */
const KEY_MS = 25;

/** The findings of examples/ in the gateway (README mistakes 1 to 3), with the lines after `after` moved by `shift`. */
function planted(shift = 0, after = 0): string[] {
  const at = (line: number) => (line > after ? line + shift : line);
  return [
    `${at(95)}:7 error annotations/contradiction`,
    `${at(116)}:60 warning template/not-upstream`,
    `${at(140)}:11 warning args/unknown`,
  ];
}

function codeOf(diagnostic: vscode.Diagnostic): string {
  const code = diagnostic.code;
  return code === undefined ? '' : typeof code === 'object' ? String(code.value) : String(code);
}

const SEVERITY: Record<vscode.DiagnosticSeverity, string> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** Tool Lens's findings in `uri`, in the order of the text. */
function findingsOf(uri: vscode.Uri): string[] {
  return vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.source === 'tool-lens')
    .map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${SEVERITY[d.severity]} ${codeOf(d)}`)
    .sort(byPlace);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the file's findings are `expected` and stay so for HOLD_MS (a finding that comes
 * late counts); fails with what was last seen.
 */
async function settlesTo(uri: vscode.Uri, expected: readonly string[]): Promise<string> {
  const want = JSON.stringify(expected);
  const deadline = Date.now() + SETTLE_MS;
  let seen: string;
  for (;;) {
    seen = JSON.stringify(findingsOf(uri));
    if (seen === want) {
      await sleep(HOLD_MS);
      seen = JSON.stringify(findingsOf(uri));
      if (seen === want) return seen;
    }
    if (Date.now() > deadline) throw new Error(`expected ${want}, got ${seen}`);
    await sleep(100);
  }
}

/** Undoes until the text is `text` again (typing may have made several undo stops). */
async function undoTo(editor: vscode.TextEditor, text: string): Promise<number> {
  for (let undos = 1; undos <= 100; undos++) {
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    if (editor.document.getText() === text) return undos;
  }
  throw new Error('100 undos did not bring the text back');
}

/** Where `needle` first occurs in the document (after `from`), as a position. */
function positionOf(document: vscode.TextDocument, needle: string, from = 0): vscode.Position {
  const index = document.getText().indexOf(needle, from);
  if (index < 0) throw new Error(`the file has no ${JSON.stringify(needle)}`);
  return document.positionAt(index);
}

export async function run(): Promise<void> {
  const checks: HostCheck[] = [];
  const check = async (name: string, body: () => Promise<string>): Promise<void> => {
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
    // After each check: a run that ends early still says how far it got.
    writeFileSync(plan.results, JSON.stringify(checks, null, 2));
  };

  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) throw new Error('code-server opened no workspace folder');
  const uri = vscode.Uri.joinPath(folder, GATEWAY);
  const document = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(document);
  const original = document.getText();
  const extension = vscode.extensions.getExtension(plan.extensionId);

  await check('opened: the three planted mistakes of the file, each once', async () => {
    if (!extension) throw new Error(`${plan.extensionId} is not installed`);
    return settlesTo(uri, planted());
  });

  // The `tool` of the first step of draft_release_notes, which claims readOnlyHint: true.
  await check("a typo in a step's tool: one tool/unknown on it, and nothing on the hint", async () => {
    const end = positionOf(document, 'tool: filesystem_read_text_file\n').translate(
      0,
      'tool: filesystem_read_text_file'.length,
    );
    await editor.edit((edit) => edit.delete(new vscode.Range(end.translate(0, -1), end)));
    const at = positionOf(document, 'filesystem_read_text_fil\n');
    return settlesTo(uri, [`${at.line + 1}:${at.character + 1} warning tool/unknown`, ...planted()].sort(byPlace));
  });

  await check('undo after the typo: the findings before it', async () => {
    const undos = await undoTo(editor, original);
    return `${undos} undo(s): ${await settlesTo(uri, planted())}`;
  });

  await check('a missing colon: one yaml/syntax, and nothing on the words the parser had to guess', async () => {
    const colon = positionOf(document, 'state: closed').translate(0, 'state'.length);
    await editor.edit((edit) => edit.delete(new vscode.Range(colon, colon.translate(0, 1))));
    const at = positionOf(document, 'state closed');
    return settlesTo(uri, [`${at.line + 1}:${at.character + 1} error yaml/syntax`, ...planted()].sort(byPlace));
  });

  await check('undo after the missing colon: the findings before it', async () => {
    const undos = await undoTo(editor, original);
    return `${undos} undo(s): ${await settlesTo(uri, planted())}`;
  });

  await check('a step typed halfway, a key at a time: one tool/unknown on its tool', async () => {
    // A new step after `prs` in draft_release_notes, typed as a user types it.
    const lineAfter = positionOf(document, '          per_page: 50\n').line + 1;
    const typed = '      - id: notes\n        tool: memory_sea\n';
    let at = new vscode.Position(lineAfter, 0);
    for (const ch of typed) {
      const where = at;
      await editor.edit((edit) => edit.insert(where, ch));
      at = ch === '\n' ? new vscode.Position(at.line + 1, 0) : at.translate(0, 1);
      await sleep(KEY_MS);
    }
    const tool = positionOf(document, 'memory_sea\n');
    return settlesTo(
      uri,
      [`${tool.line + 1}:${tool.character + 1} warning tool/unknown`, ...planted(2, lineAfter)].sort(byPlace),
    );
  });

  await check('undo after the half-typed step: the findings before it', async () => {
    const undos = await undoTo(editor, original);
    return `${undos} undo(s): ${await settlesTo(uri, planted())}`;
  });

  await vscode.commands.executeCommand('workbench.action.files.revert');
  writeFileSync(plan.results, JSON.stringify(checks, null, 2));
  const failed = checks.filter((c) => !c.ok);
  if (failed.length) throw new Error(`${failed.length} check(s) failed: ${failed.map((c) => c.name).join('; ')}`);
}

/** Orders `line:column ...` names by place in the text. */
function byPlace(a: string, b: string): number {
  const [la, ca] = a.split(' ')[0]!.split(':').map(Number) as [number, number];
  const [lb, cb] = b.split(' ')[0]!.split(':').map(Number) as [number, number];
  return la - lb || ca - cb || a.localeCompare(b);
}
