// A small LSP client for the protocol tests: the server in-process over a stream pair, or the
// built `dist/server.js` over stdio. It records what the server sends on its own (refresh
// requests, published diagnostics, catalog states, log lines) and helps wait for them.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticRequest,
  InitializedNotification,
  InitializeRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type Diagnostic,
  type DocumentDiagnosticReport,
  type InitializeResult,
  type ProtocolConnection,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';
import { createConnection } from 'vscode-languageserver/node';
import { registerHandlers, type HandlerOptions, type ServerHandle } from '../../server/src/lsp/handlers.js';
import type { CatalogState } from '../../server/src/lsp/protocol.js';

export const PULL_CAPABILITIES: ClientCapabilities = {
  textDocument: {
    synchronization: { dynamicRegistration: false },
    diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
    publishDiagnostics: { relatedInformation: true },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    completion: { completionItem: { snippetSupport: false } },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source', 'source.fixAll'] } } },
  },
  workspace: {
    diagnostics: { refreshSupport: true },
    didChangeWatchedFiles: { dynamicRegistration: true },
    workspaceEdit: { documentChanges: false },
    configuration: true,
  },
};

export const PUSH_CAPABILITIES: ClientCapabilities = {
  textDocument: { publishDiagnostics: { relatedInformation: true }, hover: { contentFormat: ['markdown'] } },
  workspace: {},
};

export class TestClient {
  refreshes = 0;
  readonly published = new Map<string, Diagnostic[]>();
  /** Every `textDocument/publishDiagnostics`, in the order received. */
  readonly publishes: { uri: string; version?: number; diagnostics: Diagnostic[] }[] = [];
  readonly catalogStates: CatalogState[] = [];
  readonly logs: string[] = [];
  readonly registrations: unknown[] = [];
  private readonly versions = new Map<string, number>();
  private listeners: (() => void)[] = [];

  constructor(readonly connection: ProtocolConnection) {
    connection.onRequest('workspace/diagnostic/refresh', () => {
      this.refreshes++;
      this.changed();
      return null;
    });
    connection.onRequest('client/registerCapability', (params: { registrations: unknown[] }) => {
      this.registrations.push(...params.registrations);
      return null;
    });
    connection.onRequest('workspace/configuration', () => []);
    connection.onNotification(
      'textDocument/publishDiagnostics',
      (params: { uri: string; version?: number; diagnostics: Diagnostic[] }) => {
        this.published.set(params.uri, params.diagnostics);
        this.publishes.push({ uri: params.uri, version: params.version, diagnostics: params.diagnostics });
        this.changed();
      },
    );
    connection.onNotification('toolLens/catalogState', (state: CatalogState) => {
      this.catalogStates.push(state);
      this.changed();
    });
    connection.onNotification('window/logMessage', (params: { message: string }) => {
      this.logs.push(params.message);
      if (process.env.LSP_TEST_VERBOSE) console.error('[server]', params.message);
      this.changed();
    });
    connection.listen();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Resolves once `predicate` holds (checked now and after every server-initiated message). */
  waitFor(predicate: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners = this.listeners.filter((l) => l !== check);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const check = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        this.listeners = this.listeners.filter((l) => l !== check);
        resolve();
      };
      this.listeners.push(check);
    });
  }

  async initialize(
    root: string | undefined,
    capabilities: ClientCapabilities = PULL_CAPABILITIES,
    initializationOptions: unknown = {},
  ): Promise<InitializeResult> {
    const rootUri = root ? pathToFileURL(root).href : null;
    const result = await this.connection.sendRequest(InitializeRequest.type, {
      processId: null,
      rootUri,
      workspaceFolders: rootUri ? [{ uri: rootUri, name: 'ws' }] : null,
      capabilities,
      initializationOptions,
    });
    await this.connection.sendNotification(InitializedNotification.type, {});
    // The server reads the folder after `initialized`; its first catalog state says it is done.
    // Generous: the first load reads every rule module, which is slow on a busy machine.
    await this.waitFor(() => this.catalogStates.some((s) => s.loaded), 'the workspace to load', 20_000);
    return result;
  }

  /** Initializes with several workspace folders (the first is the primary), and waits until every one is read. */
  async initializeFolders(
    roots: readonly string[],
    capabilities: ClientCapabilities = PULL_CAPABILITIES,
    initializationOptions: unknown = {},
  ): Promise<InitializeResult> {
    const folders = roots.map((root, i) => ({ uri: pathToFileURL(root).href, name: `folder${i}` }));
    const result = await this.connection.sendRequest(InitializeRequest.type, {
      processId: null,
      rootUri: folders[0]?.uri ?? null,
      workspaceFolders: folders,
      capabilities: { ...capabilities, workspace: { ...capabilities.workspace, workspaceFolders: true } },
      initializationOptions,
    });
    await this.connection.sendNotification(InitializedNotification.type, {});
    await this.waitFor(() => this.catalogStates.some((s) => s.loaded), 'the workspace folders to load', 20_000);
    return result;
  }

  /** `workspace/didChangeWorkspaceFolders` with the folders added and removed. */
  async changeFolders(added: readonly string[], removed: readonly string[]): Promise<void> {
    const folder = (root: string) => ({ uri: pathToFileURL(root).href, name: root });
    await this.connection.sendNotification('workspace/didChangeWorkspaceFolders', {
      event: { added: added.map(folder), removed: removed.map(folder) },
    });
  }

  async open(uri: string, text: string, languageId = uri.endsWith('.json') ? 'json' : 'yaml'): Promise<void> {
    this.versions.set(uri, 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: 1, text },
    });
  }

  async change(uri: string, changes: TextDocumentContentChangeEvent[]): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: changes,
    });
    return version;
  }

  async replaceAll(uri: string, text: string): Promise<number> {
    return this.change(uri, [{ text }]);
  }

  async close(uri: string): Promise<void> {
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  pull(uri: string, previousResultId?: string): Promise<DocumentDiagnosticReport> {
    return this.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri }, previousResultId });
  }

  async pullItems(uri: string): Promise<Diagnostic[]> {
    const report = await this.pull(uri);
    if (report.kind !== 'full') throw new Error('expected a full report');
    return report.items;
  }

  async shutdown(): Promise<void> {
    await this.connection.sendRequest('shutdown');
  }
}

export interface InProcess {
  client: TestClient;
  server: ServerHandle;
  dispose(): void;
}

/** The server's handlers on a connection over two in-memory streams. */
export function startInProcess(options: HandlerOptions = {}): InProcess {
  const up = new PassThrough();
  const down = new PassThrough();
  const serverConnection = createConnection(new StreamMessageReader(up), new StreamMessageWriter(down));
  const server = registerHandlers(serverConnection, options);
  serverConnection.listen();
  const client = new TestClient(createProtocolConnection(new StreamMessageReader(down), new StreamMessageWriter(up)));
  return {
    client,
    server,
    dispose() {
      server.diagnostics()?.dispose();
      client.connection.dispose();
      serverConnection.dispose();
      up.destroy();
      down.destroy();
    },
  };
}

export interface Spawned {
  client: TestClient;
  process: ChildProcess;
  stderr: () => string;
}

/** The bundled server as any editor runs it: `node dist/server.js --stdio` (`nodeArgs` before the script). */
export function startStdio(serverPath: string, nodeArgs: readonly string[] = []): Spawned {
  const child = spawn(process.execPath, [...nodeArgs, serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new TestClient(
    createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin)),
  );
  return { client, process: child, stderr: () => stderr };
}

/** A temporary workspace folder holding `files` (relative path → text). */
export function makeWorkspace(files: Record<string, string>): {
  root: string;
  uri(path: string): string;
  write(path: string, text: string): void;
  dispose(): void;
} {
  const root = mkdtempSync(join(tmpdir(), 'tool-lens-lsp-'));
  const write = (path: string, text: string) => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  };
  for (const [path, text] of Object.entries(files)) write(path, text);
  return {
    root,
    uri: (path: string) => pathToFileURL(join(root, path)).href,
    write,
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Applies LSP text edits (all against `text`) the way a client does. */
export function applyLspEdits(
  text: string,
  edits: {
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    newText: string;
  }[],
): string {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const offset = (p: { line: number; character: number }) => (lineStarts[p.line] ?? text.length) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const edit of sorted)
    out = out.slice(0, offset(edit.range.start)) + edit.newText + out.slice(offset(edit.range.end));
  return out;
}

/** Removes a cursor marker (`‸` or `<|>`) and returns the text and the marker's 0-based position. */
export function cursor(textWithMarker: string): {
  text: string;
  position: { line: number; character: number };
  offset: number;
} {
  const marker = textWithMarker.includes('‸') ? '‸' : '<|>';
  const offset = textWithMarker.indexOf(marker);
  if (offset < 0) throw new Error('no cursor marker in the fixture');
  const text = textWithMarker.slice(0, offset) + textWithMarker.slice(offset + marker.length);
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  const character = offset - (before.lastIndexOf('\n') + 1);
  return { text, position: { line, character }, offset };
}
