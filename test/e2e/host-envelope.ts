// Extension-host checks of issue 12 (codeserver.host.ts calls `envelopeChecks` with one line):
//   - "Insert Call Envelope" in the real workbench, run as a key binding would (server, namespace and
//     tool given, so no quick pick): at the end of a YAML calls file, inside an unfinished entry, in
//     JSON and in JSONL, the snippet lands where the file's structure says, and the file re-checks
//     with no diagnostic;
//   - the language status items: shown for a workflow, not for an unrelated YAML file.
// It adds a catalog with a dynamic namespace for the envelope and takes it away again at the end.
import * as vscode from 'vscode';

type Check = (name: string, body: () => string | Promise<string>) => Promise<void>;

/** What the extension exports (client/src/extension.ts's ToolLensApi). */
interface ToolLensApi {
  languageStatusShownFor(document: vscode.TextDocument): boolean;
  active(): boolean;
  languageStatus(): { id: string; text: string; detail?: string; command?: string }[];
}

const WAIT_MS = 20000;

const CATALOG = {
  catalog: 1,
  servers: [
    {
      name: 'applets-host',
      tools: [],
      namespaces: [
        {
          name: 'applets',
          external: true,
          status: 'ready',
          tools: [
            {
              name: 'applet_create',
              description: 'Create an applet.',
              inputSchema: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] },
            },
          ],
        },
      ],
    },
  ],
};

const ENTRY = [
  '  - tool: call_dynamic_tool',
  '    input:',
  '      namespace: applets',
  '      toolName: applet_create',
  '      arguments:',
  '        value: ""',
  '      mcpDetails:',
  '        description: "<one sentence saying why you are calling this>"',
].join('\n');

async function waitFor<T>(what: string, probe: () => T | undefined, ms = WAIT_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'tool-lens');
}

function describe(diagnostics: readonly vscode.Diagnostic[]): string {
  return JSON.stringify(
    diagnostics.map(
      (d) =>
        `${d.range.start.line + 1}:${d.range.start.character + 1} ${typeof d.code === 'object' ? String(d.code.value) : String(d.code)} ${d.message}`,
    ),
  );
}

/** Resolves at the next diagnostics change of `uri` (a pull answered), whatever it holds. */
function nextDiagnostics(uri: vscode.Uri): Promise<void> {
  return new Promise((resolve) => {
    const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (!event.uris.some((u) => u.toString() === uri.toString())) return;
      subscription.dispose();
      resolve();
    });
  });
}

export async function envelopeChecks(
  check: Check,
  folder: vscode.Uri,
  extension: vscode.Extension<unknown> | undefined,
): Promise<void> {
  const api = extension?.exports as ToolLensApi | undefined;
  const written: vscode.Uri[] = [];
  const write = async (path: string, text: string): Promise<vscode.Uri> => {
    const uri = vscode.Uri.joinPath(folder, path);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    written.push(uri);
    return uri;
  };

  await check('the language status items show for a workflow, and not for an unrelated YAML file', async () => {
    if (!api?.languageStatusShownFor) throw new Error('the extension exports no languageStatusShownFor');
    const gateway = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, 'gateways', 'docs.vmcp.yaml'));
    await vscode.window.showTextDocument(gateway);
    await waitFor('the language status for the gateway', () =>
      api.languageStatusShownFor(gateway) ? true : undefined,
    );
    const items = api.languageStatus();
    const catalogs = items.find((i) => i.id === 'toolLens.catalogs');
    if (
      !catalogs ||
      !/^\$\(tools\) Tool Lens: \d+ catalog servers?$/.test(catalogs.text) ||
      catalogs.command !== 'toolLens.refreshCatalogs'
    )
      throw new Error(`catalogs item ${JSON.stringify(catalogs)}`);
    const config = items.find((i) => i.id === 'toolLens.config');
    if (
      !config?.text.startsWith('$(settings-gear) Tool Lens: ') ||
      !config.text.includes('.toollens.yaml') ||
      config.text.includes('no ')
    )
      throw new Error(`config item ${JSON.stringify(config)}`);
    const unrelated = await vscode.workspace.openTextDocument(
      await write('compose.yaml', 'services:\n  web:\n    image: nginx:1.27\n    ports: ["8080:80"]\n'),
    );
    await vscode.window.showTextDocument(unrelated);
    if (api.languageStatusShownFor(unrelated))
      throw new Error('the items show for compose.yaml, which Tool Lens does not check');
    // Back on the gateway they show again (the unrelated file changed nothing).
    await vscode.window.showTextDocument(gateway);
    if (!api.languageStatusShownFor(gateway)) throw new Error('the items no longer show for the gateway');
    // The palette's commands show in a workspace with Tool Lens files (package.json `when`: toolLens.active).
    if (!api.active()) throw new Error('toolLens.active is not set in a workspace with a gateway');
    return JSON.stringify(items);
  });

  // A catalog with a dynamic namespace, read before any calls file is opened.
  await write('catalogs/applets.json', `${JSON.stringify(CATALOG, null, 2)}\n`);
  await vscode.commands.executeCommand('toolLens.refreshCatalogs');

  const insertion = async (
    name: string,
    path: string,
    text: string,
    at: (document: vscode.TextDocument) => vscode.Position,
    expected: string,
    before?: string,
  ): Promise<void> => {
    await check(
      `Insert Call Envelope ${name}: placed by the file's structure, and the file re-checks clean`,
      async () => {
        const uri = await write(path, text);
        const opened = nextDiagnostics(uri);
        const document = await vscode.workspace.openTextDocument(uri);
        const editor = await vscode.window.showTextDocument(document);
        // The diagnostics of the text as opened come first, so that the ones awaited below are the new text's.
        if (before)
          await waitFor(`the ${before} diagnostic of the unfinished entry`, () =>
            ours(uri).some((d) => d.code !== undefined && JSON.stringify(d.code).includes(before)) ? true : undefined,
          );
        else await Promise.race([opened, new Promise((resolve) => setTimeout(resolve, 3000))]);
        const position = at(document);
        editor.selection = new vscode.Selection(position, position);
        const checked = nextDiagnostics(uri);
        await vscode.commands.executeCommand('toolLens.insertCallEnvelope', 'applets-host', 'applets', 'applet_create');
        if (document.getText() !== expected)
          throw new Error(`text after the insertion:\n${document.getText()}\nexpected:\n${expected}`);
        await Promise.race([
          checked,
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error('no diagnostics came for the new text')), WAIT_MS),
          ),
        ]);
        await waitFor('no diagnostic on the new text', () => (ours(uri).length === 0 ? true : undefined)).catch(() => {
          throw new Error(`diagnostics after the insertion: ${describe(ours(uri))}\n${document.getText()}`);
        });
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
        return `${document.lineCount} lines, no diagnostic`;
      },
    );
  };

  const list = 'calls:\n  - tool: read_file\n    input:\n      path: README.md';
  await insertion(
    'at the end of a YAML file',
    'calls/end.calls.yaml',
    list,
    (d) => d.positionAt(list.length),
    `${list}\n${ENTRY}`,
  );
  await insertion(
    'inside an unfinished YAML entry',
    'calls/partial.calls.yaml',
    'calls:\n  - tool: call_dynamic_tool\n    input:\n      namespace: applets\n',
    () => new vscode.Position(3, 8),
    `calls:\n${ENTRY}\n`,
    'envelope/',
  );
  const json = '{\n  "calls": [\n    {"tool": "read_file", "input": {"path": "README.md"}}\n  ]\n}\n';
  const element = [
    '{',
    '  "tool": "call_dynamic_tool",',
    '  "input": {',
    '    "namespace": "applets",',
    '    "toolName": "applet_create",',
    '    "arguments": {',
    '      "value": ""',
    '    },',
    '    "mcpDetails": {',
    '      "description": "<one sentence saying why you are calling this>"',
    '    }',
    '  }',
    '}',
  ].join('\n    ');
  await insertion(
    'after the last element of a JSON array',
    'calls/end.calls.json',
    json,
    (d) => d.positionAt(json.length),
    json.replace('"README.md"}}\n', `"README.md"}},\n    ${element}\n`),
  );
  const line = '{"tool":"read_file","input":{"path":"README.md"}}';
  await insertion(
    'in a JSONL file',
    'calls/trace.calls.jsonl',
    `${line}\n`,
    () => new vscode.Position(0, line.length),
    `${line}\n{"tool":"call_dynamic_tool","input":{"namespace":"applets","toolName":"applet_create","arguments":{"value":""},"mcpDetails":{"description":"<one sentence saying why you are calling this>"}}}\n`,
  );

  for (const uri of written.reverse()) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
  await vscode.commands.executeCommand('toolLens.refreshCatalogs');
}
