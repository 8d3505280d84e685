// In code-server's extension host (called from codeserver.host.ts): "Move these faces to an overlay
// file" on the `toolFaces` of a `.vscode/mcp.json` server entry, as a user runs it from the quick
// fix menu. After the edit, the config is its text without the block, VS Code's own schema has
// nothing left to say about the key, and the overlay beside it holds the faces and is checked.
import * as vscode from 'vscode';

type Check = (name: string, body: () => string | Promise<string>) => Promise<void>;

const TITLE = 'Move these faces to an overlay file';

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 20000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function moveFacesChecks(check: Check, folder: vscode.Uri): Promise<void> {
  await check('"Move these faces to an overlay file" moves a server\'s toolFaces out of .vscode/mcp.json', async () => {
    const config = vscode.Uri.joinPath(folder, '.vscode', 'mcp.json');
    const overlay = vscode.Uri.joinPath(folder, '.vscode', 'files.faces.yaml');
    const head = [
      '{',
      '  // MCP servers of this workspace',
      '  "servers": {',
      '    "files": {',
      '      "type": "stdio",',
      '      "command": "npx",',
      '      "args": ["-y", "@modelcontextprotocol/server-filesystem", "${workspaceFolder}"]',
    ].join('\n');
    const block =
      ',\n      "toolFaces": {"read_text_file": {"family": "read", "pathTarget": {"param": "path", "access": "read", "base": "cwd", "absent": "refuse"}}}';
    const tail = '\n    }\n  }\n}\n';
    await vscode.workspace.fs.delete(overlay).then(undefined, () => undefined);
    await vscode.workspace.fs.writeFile(config, new TextEncoder().encode(head + block + tail));
    const document = await vscode.workspace.openTextDocument(config);
    await vscode.window.showTextDocument(document);
    if (document.getText() !== head + block + tail)
      await until('the editor to show the new text', () =>
        document.getText() === head + block + tail ? true : undefined,
      );
    const key = document.positionAt((head + block).indexOf('"toolFaces"'));
    const action = await until('the move action', async () => {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        config,
        new vscode.Range(key, key),
      );
      return actions.find((a) => a.title === TITLE);
    });
    if (!action.edit) throw new Error('the action carries no edit');
    if (!(await vscode.workspace.applyEdit(action.edit))) throw new Error('VS Code refused the edit');
    if (document.getText() !== head + tail)
      throw new Error(`the config after the move: ${JSON.stringify(document.getText())}`);
    await document.save();
    const written = await until('the overlay', () => {
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === overlay.toString());
      return open && open.getText().length > 0 ? open : undefined;
    });
    if (!/^server: files$/m.test(written.getText()) || !written.getText().includes('read_text_file:'))
      throw new Error(`the overlay: ${written.getText()}`);
    await written.save();
    const onKey = vscode.languages.getDiagnostics(config).filter((d) => d.message.includes('toolFaces'));
    if (onKey.length)
      throw new Error(`still said of toolFaces in the config: ${onKey.map((d) => d.message).join('; ')}`);
    const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.path);
    if (dirty.length) throw new Error(`unsaved documents left: ${dirty.join(', ')}`);
    return `the config lost exactly the block; the overlay reads ${JSON.stringify(written.getText().split('\n').slice(0, 3).join(' / '))}`;
  });
}
