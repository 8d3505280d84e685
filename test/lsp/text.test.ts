// The language server and the CLI agree on positions in files with a BOM and with lone-CR line
// breaks (docs/behaviour.md#text-as-editors-count-it): for a file read from disk (the BOM and the
// CRs in its text) and for the same file open in an editor, which sends its text without the BOM
// (VS Code strips it) and with its own line breaks, every diagnostic is at the CLI's line and
// column.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { CLI, ensureBuilt, SCENARIOS } from '../cli/harness.js';
import { makeWorkspace, startInProcess, type InProcess } from './harness.js';
import { CATALOG, CATALOG_PATH } from './workspace.js';

const GATEWAY = readFileSync(join(SCENARIOS, 'one-error', 'gateway.vmcp.yaml'), 'utf8').replace(/\r\n/g, '\n');
// A finding on line 1 (a BOM counted as a character would move it) and one further down.
const BOM_TEXT = `\uFEFFstray: 1\n${GATEWAY}`;
const CR_TEXT = `# Saved with classic Mac line breaks.\n${GATEWAY}`.replace(/\n/g, '\r');
const FILES = {
  [CATALOG_PATH]: CATALOG,
  'bom.vmcp.yaml': BOM_TEXT,
  'cr.vmcp.yaml': CR_TEXT,
  'crlf.vmcp.yaml': `stray: 1\r\n${GATEWAY.replace(/\n/g, '\r\n')}`,
  'notes.catalog.json': '\uFEFF{"catalog": 1, "servers": [{"name": "notes", "tools": [{"name": "x"}]}]}\n',
};

interface CliDiagnostic {
  rule: string;
  range: { start: { line: number; column: number }; end: { line: number; column: number } };
}

const cliPlace = (d: CliDiagnostic) =>
  `${d.rule} ${d.range.start.line}:${d.range.start.column}-${d.range.end.line}:${d.range.end.column}`;
const lspPlace = (d: Diagnostic) =>
  `${String(d.code)} ${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1}`;

describe('the language server and the CLI agree on positions with a BOM and lone CRs', () => {
  let server: InProcess;
  let ws: ReturnType<typeof makeWorkspace>;
  const cli = new Map<string, string[]>();

  before(async () => {
    ws = makeWorkspace(FILES);
    ensureBuilt();
    const run = spawnSync(process.execPath, [CLI, 'check', '.', '--format', 'json'], {
      cwd: ws.root,
      encoding: 'utf8',
    });
    const report = JSON.parse(run.stdout) as { files: { path: string; diagnostics: CliDiagnostic[] }[] };
    for (const file of report.files) cli.set(file.path, file.diagnostics.map(cliPlace).sort());
    server = startInProcess();
    await server.client.initialize(ws.root);
  });

  after(async () => {
    await server.client.shutdown();
    server.dispose();
    ws.dispose();
  });

  const pulled = async (path: string) => (await server.client.pullItems(ws.uri(path))).map(lspPlace).sort();

  test('the CLI sees what the fixture means: line 1 column 1 after a BOM, the CR file checked', () => {
    assert.ok(
      cli.get('bom.vmcp.yaml')?.some((p) => p.startsWith('schema/unknown-key 1:1-1:6')),
      String(cli.get('bom.vmcp.yaml')),
    );
    assert.ok(
      cli.get('cr.vmcp.yaml')?.some((p) => p.startsWith('yaml/duplicate-key 6:5-6:16')),
      String(cli.get('cr.vmcp.yaml')),
    );
    assert.ok(
      !cli.get('notes.catalog.json')?.some((p) => p.startsWith('yaml/syntax')),
      String(cli.get('notes.catalog.json')),
    );
  });

  test('files read from disk: the same places as the CLI', async () => {
    for (const path of Object.keys(FILES)) assert.deepEqual(await pulled(path), cli.get(path), path);
  });

  test('files open in an editor that strips the BOM, or keeps the CRs, or turns them into its own line breaks: the same places', async () => {
    const opened: [string, string][] = [
      ['bom.vmcp.yaml', BOM_TEXT.slice(1)],
      ['notes.catalog.json', FILES['notes.catalog.json'].slice(1)],
      ['cr.vmcp.yaml', CR_TEXT],
    ];
    for (const [path, text] of opened) {
      await server.client.open(ws.uri(path), text);
      assert.deepEqual(await pulled(path), cli.get(path), `${path} open`);
    }
    // VS Code's text model has only LF or CRLF lines: it sends a CR file's lines with LF.
    await server.client.replaceAll(ws.uri('cr.vmcp.yaml'), CR_TEXT.replace(/\r/g, '\n'));
    assert.deepEqual(await pulled('cr.vmcp.yaml'), cli.get('cr.vmcp.yaml'), 'cr.vmcp.yaml with LF');
    for (const [path] of opened) await server.client.close(ws.uri(path));
  });
});
