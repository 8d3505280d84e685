// Runs INSIDE code-server's extension host, with the real `vscode` API: the module that
// test/e2e/codeserver.test.ts bundles and hands to the workbench as `extensionTestsPath` (the
// contract of @vscode/test-electron: the host calls `run()`, a rejection means failure).
//
// Tool Lens itself is NOT loaded from here: it is the extension installed from the .vsix. This
// module only drives it through the API a user's editor would use, records one result per check
// in `results.json` beside itself (the outer test reads it), and rejects if any check failed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ruleDocsChecks } from './host-ruledocs.js';
import { hostViews } from './host-views.js';
import { envelopeChecks } from './host-envelope.js';
import { moveFacesChecks } from './host-move-faces.js';

/** What the outer test tells this module, in `plan.json` beside the bundle. */
export interface HostPlan {
  extensionId: string;
  /** The --extensions-dir the .vsix was installed into: the extension must run from there. */
  extensionsDir: string;
  /** The gateway file, relative to the workspace folder. */
  gateway: string;
  /** Its text on disk, to compare the quick fix's result with. */
  gatewayText: string;
  /** The composite tool whose name the hover is asked about. */
  composite: string;
  /** Where to write the results. */
  results: string;
}

export interface HostCheck {
  name: string;
  ok: boolean;
  /** What was seen (on success) or why it failed. */
  detail: string;
  ms: number;
}

const RULE = 'annotations/contradiction';
const WAIT_MS = 20000;

const plan = JSON.parse(readFileSync(join(__dirname, 'plan.json'), 'utf8')) as HostPlan;

function fail(message: string): never {
  throw new Error(message);
}

/** Polls `probe` every 100 ms until it returns a value other than undefined, or fails after `ms`. */
async function waitFor<T>(what: string, probe: () => T | undefined, ms = WAIT_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) fail(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function codeOf(diagnostic: vscode.Diagnostic): string | undefined {
  const code = diagnostic.code;
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => codeOf(d) === RULE);
}

function describe(diagnostics: readonly vscode.Diagnostic[]): string {
  return JSON.stringify(
    diagnostics.map((d) => ({
      source: d.source,
      code: codeOf(d),
      severity: vscode.DiagnosticSeverity[d.severity],
      line: d.range.start.line + 1,
      character: d.range.start.character + 1,
      message: d.message,
    })),
  );
}

function hoverText(hovers: readonly vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n');
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
      // Recorded as the check's failure and reported by the outer test; the next checks still run.
      const detail = error instanceof Error ? error.message : String(error);
      checks.push({ name, ok: false, detail, ms: Date.now() - started });
      console.log(`not ok - ${name}: ${detail}`);
    }
  };

  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? fail('code-server opened no workspace folder');
  const gatewayUri = vscode.Uri.joinPath(folder, plan.gateway);
  const extension = vscode.extensions.getExtension(plan.extensionId);

  await check('the extension installed from the .vsix activates for a workspace with .toollens.yaml', async () => {
    if (!extension)
      fail(
        `${plan.extensionId} is not installed; installed: ${vscode.extensions.all
          .map((e) => e.id)
          .filter((id) => !id.startsWith('vscode.'))
          .join(', ')}`,
      );
    if (!extension.extensionPath.startsWith(plan.extensionsDir))
      fail(
        `${plan.extensionId} runs from ${extension.extensionPath}, not from the extensions dir ${plan.extensionsDir}`,
      );
    // Before any file is opened: only `workspaceContains:.toollens.yaml` can activate it.
    const started = Date.now();
    await waitFor('the extension to activate', () => (extension.isActive ? true : undefined));
    return `active ${Date.now() - started} ms after the test started, from ${extension.extensionPath}`;
  });

  await check('every contributed command is registered', async () => {
    const contributed = (
      (extension?.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands ?? []
    ).map((c) => c.command);
    if (contributed.length === 0) fail('the manifest contributes no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    if (missing.length) fail(`contributed but not registered: ${missing.join(', ')}`);
    return contributed.join(', ');
  });

  const document = await vscode.workspace.openTextDocument(gatewayUri);
  await vscode.window.showTextDocument(document);

  let contradiction: vscode.Diagnostic | undefined;
  await check(`vscode.languages.getDiagnostics reports ${RULE} on the gateway`, async () => {
    contradiction = (
      await waitFor(`a ${RULE} diagnostic`, () => {
        const found = ours(gatewayUri);
        return found.length ? found : undefined;
      })
    )[0]!;
    const all = vscode.languages.getDiagnostics(gatewayUri);
    const at = plan.gatewayText.indexOf('readOnlyHint: true');
    const expected = document.positionAt(at);
    if (!contradiction.range.start.isEqual(expected))
      fail(
        `range starts at ${contradiction.range.start.line + 1}:${contradiction.range.start.character + 1}, expected ${expected.line + 1}:${expected.character + 1}`,
      );
    if (contradiction.severity !== vscode.DiagnosticSeverity.Error)
      fail(`severity ${contradiction.severity}, expected Error`);
    if (contradiction.source !== 'tool-lens') fail(`source ${contradiction.source}, expected tool-lens`);
    if (all.length !== 1) fail(`expected only this diagnostic on the gateway, got ${describe(all)}`);
    return describe(all);
  });

  await check('hover on the composite tool name shows the floor table', async () => {
    const position = document.positionAt(plan.gatewayText.indexOf(`name: ${plan.composite}`) + 'name: '.length + 2);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      gatewayUri,
      position,
    );
    const text = hoverText(hovers);
    if (!text.includes('| hint | floor | explicit | advertised | decided by |'))
      fail(`no floor table in the hover: ${JSON.stringify(text)}`);
    const row = text.split('\n').find((line) => line.startsWith('| readOnlyHint |'));
    if (!row || !/^\| readOnlyHint \| `false` \| `true` \|/.test(row))
      fail(`readOnlyHint row ${JSON.stringify(row)}, expected floor false and explicit true`);
    return row;
  });

  await check('the quick fix from vscode.executeCodeActionProvider sets the hint to the floor', async () => {
    if (!contradiction) fail('no diagnostic to fix');
    const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
      'vscode.executeCodeActionProvider',
      gatewayUri,
      contradiction.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const titles = actions.map((a) => a.title);
    const wanted = 'Set readOnlyHint to false (the floor)';
    const action = actions.find((a): a is vscode.CodeAction => a.title === wanted && 'edit' in a);
    if (!action?.edit) fail(`no code action "${wanted}" with an edit; offered: ${JSON.stringify(titles)}`);
    if (!(await vscode.workspace.applyEdit(action.edit))) fail('workspace.applyEdit refused the edit');
    const expected = plan.gatewayText.replace('readOnlyHint: true', 'readOnlyHint: false');
    if (document.getText() !== expected) fail(`text after the fix:\n${document.getText()}`);
    // The server sees the change (pull diagnostics on change) and the finding goes away.
    await waitFor(`the ${RULE} diagnostic to go away after the fix`, () =>
      ours(gatewayUri).length === 0 ? true : undefined,
    );
    await vscode.commands.executeCommand('workbench.action.files.revert');
    if (document.getText() !== plan.gatewayText) fail('reverting the fixed document did not restore the file text');
    return `offered ${JSON.stringify(titles)}; applied "${wanted}"; the diagnostic went away`;
  });

  await ruleDocsChecks(check, gatewayUri, extension);

  await check('the schemas named by jsonValidation and yamlValidation are in the package', () => {
    const contributes =
      (extension?.packageJSON as { contributes?: Record<string, { url: string }[] | undefined> }).contributes ?? {};
    const urls = [...(contributes['jsonValidation'] ?? []), ...(contributes['yamlValidation'] ?? [])].map((v) => v.url);
    if (urls.length === 0) fail('no schema contributions');
    const missing = urls.filter((url) => !existsSync(join(extension!.extensionPath, url)));
    if (missing.length) fail(`missing from the installed extension: ${missing.join(', ')}`);
    return `${urls.length} contributions, every file present`;
  });

  await check('VS Code validates a *.faces.json file with the contributed schema', async () => {
    // The built-in JSON language features load the schema from the installed extension: a value of the
    // wrong type must be reported, and nothing may say the schema (or a $ref in it) failed to load.
    const probe = vscode.Uri.joinPath(folder, 'probe.faces.json');
    // `toolFaces` is checked through a `$ref` of the schema: its error proves the reference resolved.
    const text = '{\n  "server": 42,\n  "toolFaces": []\n}\n';
    await vscode.workspace.fs.writeFile(probe, new TextEncoder().encode(text));
    const json = await vscode.workspace.openTextDocument(probe);
    await vscode.window.showTextDocument(json);
    // The JSON language features set no `source` on their diagnostics: anything not ours is theirs.
    const fromJson = await waitFor('two diagnostics from the JSON language features', () => {
      const found = vscode.languages.getDiagnostics(probe).filter((d) => d.source !== 'tool-lens');
      return found.length >= 2 ? found : undefined;
    }).catch((error: unknown) => {
      const json = vscode.extensions.getExtension('vscode.json-language-features');
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}; json-language-features active: ${json?.isActive}; every diagnostic of the file: ${describe(vscode.languages.getDiagnostics(probe))}; language ${vscode.window.activeTextEditor?.document.languageId}`,
      );
    });
    const loading = fromJson.filter((d) => /schema|reference/i.test(d.message) && !/incorrect type/i.test(d.message));
    if (loading.length) fail(`the schema did not load cleanly: ${describe(loading)}`);
    const wanted = [
      { line: 1, type: 'string' },
      { line: 2, type: 'object' },
    ];
    for (const { line, type } of wanted) {
      if (!fromJson.some((d) => d.range.start.line === line && d.message.includes(`"${type}"`))) {
        fail(
          `no "expected ${type}" error on line ${line + 1}; diagnostics of the file: ${describe(vscode.languages.getDiagnostics(probe))}`,
        );
      }
    }
    return describe(fromJson);
  });

  await check('our schema applies to .vscode/mcp.json beside the one VS Code brings', async () => {
    // VS Code validates .vscode/mcp.json with its own schema too, and both apply. A valid file with
    // one mistake only our schema knows about (`toolFaces` must be an object) must get that error,
    // and neither schema may complain about anything else. VS Code 1.100's schema does not know
    // the `toolFaces` key docs/faces.md allows on a server entry: what it says about that key is
    // reported in the detail, not failed on.
    const probe = vscode.Uri.joinPath(folder, '.vscode', 'mcp.json');
    const text = [
      '{',
      '  "inputs": [{ "type": "promptString", "id": "token", "description": "API token", "password": true }],',
      '  "servers": {',
      '    "files": { "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "${workspaceFolder}"], "env": { "TOKEN": "${input:token}" } },',
      '    "remote": { "type": "http", "url": "http://127.0.0.1:9/mcp", "headers": { "Authorization": "Bearer ${input:token}" }, "toolFaces": 5 }',
      '  }',
      '}',
      '',
    ].join('\n');
    await vscode.workspace.fs.writeFile(probe, new TextEncoder().encode(text));
    const json = await vscode.workspace.openTextDocument(probe);
    await vscode.window.showTextDocument(json);
    const key = json.positionAt(text.indexOf('"toolFaces"'));
    const value = json.positionAt(text.indexOf('5 }'));
    const fromJson = await waitFor("our schema's error on the toolFaces value", () => {
      const found = vscode.languages.getDiagnostics(probe).filter((d) => d.source !== 'tool-lens');
      return found.some((d) => d.range.start.isEqual(value) && d.message.includes('"object"')) ? found : undefined;
    });
    const elsewhere = fromJson.filter((d) => !d.range.start.isEqual(value) && !d.range.start.isEqual(key));
    if (elsewhere.length) fail(`unexpected JSON diagnostics: ${describe(elsewhere)}`);
    const onKey = fromJson.filter((d) => d.range.start.isEqual(key));
    return `ours: ${describe(fromJson.filter((d) => d.range.start.isEqual(value)))}; VS Code's own schema on the toolFaces key: ${onKey.length ? describe(onKey) : 'nothing'}`;
  });

  await hostViews(check, folder, plan, extension);
  await envelopeChecks(check, folder, extension);
  await moveFacesChecks(check, folder);

  writeFileSync(plan.results, JSON.stringify(checks, null, 2));
  const failed = checks.filter((c) => !c.ok);
  console.log(`extension-host checks: ${checks.length - failed.length} ok, ${failed.length} not ok`);
  if (failed.length)
    throw new Error(`${failed.length} extension-host checks failed: ${failed.map((c) => c.name).join('; ')}`);
}
