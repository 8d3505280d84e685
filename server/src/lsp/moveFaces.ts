// "Move these faces to an overlay file": the `toolFaces` of a server entry in an MCP client config
// (`.vscode/mcp.json` and the others of docs/faces.md) moved into `<server>.faces.yaml` beside the
// config, or into the overlay the workspace already has for that server (a `*.faces.yaml`,
// `*.faces.yml` or `*.faces.json` whose `server` is it), rather than a second one beside it.
// VS Code's own schema for `.vscode/mcp.json` does not know `toolFaces` and warns on the key; an
// overlay holds the same faces, checked the same way (docs/faces.md). One WorkspaceEdit: create the
// overlay and write it (or add the faces it lacks to the existing one), and remove the block from
// the config, leaving every other character of it as it was; then, for a client that shows
// documents, the action's command opens the overlay. Offered only to a client that creates files in
// a workspace edit; not when the existing overlay gives one of the tools another face.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  CodeActionKind,
  type CodeAction,
  type CodeActionParams,
  type CreateFile,
  type Diagnostic,
  type TextDocumentEdit,
  type TextEdit as LspTextEdit,
} from 'vscode-languageserver';
import { documentContext } from '../core/context.js';
import { facesOf, type FaceServer } from '../core/model/faces.js';
import type { ParsedFile } from '../core/parse/file.js';
import { mergeIntoOverlay, overlayText, removalEdits } from '../core/ide/moveFaces.js';
import { rangesIntersect, toLspEdit, toRange } from './convert.js';
import { SERVER_COMMANDS } from './protocol.js';
import type { Session } from './session.js';

export const MOVE_FACES_TITLE = 'Move these faces to an overlay file';

export interface MoveFacesOptions {
  /** The client applies `documentChanges` with a `create` resource operation. */
  createFiles: boolean;
  /** The client shows a document when the server asks (`window/showDocument`). */
  showDocument?: boolean;
}

/** The action for each server entry whose `toolFaces` the requested range touches. */
export function moveFacesActions(
  session: Session,
  file: ParsedFile,
  uri: string,
  version: number | null,
  params: CodeActionParams,
  options: MoveFacesOptions,
): CodeAction[] {
  if (!options.createFiles || file.language === 'jsonl' || file.language === 'yaml') return [];
  const actions: CodeAction[] = [];
  for (const doc of file.documents) {
    if (doc.kind !== 'mcp-servers') continue;
    for (const server of facesOf(documentContext(file, doc, session.workspace)).servers) {
      const pair = server.toolFacesPair;
      if (!pair || !server.toolFaces || server.name === undefined || !server.entry) continue;
      const range = toRange(file.source, pair.span);
      if (!rangesIntersect(range, params.range)) continue;
      const action = moveAction(
        session,
        file,
        server,
        uri,
        version,
        params.context.diagnostics.filter((d) => rangesIntersect(d.range, range)),
        options.showDocument === true,
      );
      if (action) actions.push(action);
    }
  }
  return actions;
}

function moveAction(
  session: Session,
  file: ParsedFile,
  server: FaceServer,
  uri: string,
  version: number | null,
  diagnostics: Diagnostic[],
  showDocument: boolean,
): CodeAction | undefined {
  const beside = overlayUriOf(uri, server.name!);
  if (!beside) return undefined;
  const removal = removalEdits(file, server);
  if (!removal) return undefined;
  const edits: LspTextEdit[] = removal.map((e) => toLspEdit(file.source, e));
  const existing = existingOverlay(session, server.name!, beside);
  let overlayUri: string;
  let overlayChanges: (CreateFile | TextDocumentEdit)[];
  if (existing) {
    const merged = mergeIntoOverlay(existing.file, existing.server, server);
    if (merged.kind !== 'merge') return undefined;
    overlayUri = existing.uri;
    overlayChanges = merged.edit
      ? [
          {
            textDocument: { uri: existing.uri, version: existing.version },
            edits: [toLspEdit(existing.file.source, merged.edit)],
          },
        ]
      : [];
  } else {
    if (exists(session, beside)) return undefined;
    overlayUri = beside;
    overlayChanges = [
      { kind: 'create', uri: beside, options: { overwrite: false, ignoreIfExists: false } },
      {
        textDocument: { uri: beside, version: null },
        edits: [
          {
            range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
            newText: overlayText(server, decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1)), file.source.eol),
          },
        ],
      },
    ];
  }
  return {
    title: MOVE_FACES_TITLE,
    kind: CodeActionKind.QuickFix,
    ...(diagnostics.length ? { diagnostics } : {}),
    edit: { documentChanges: [...overlayChanges, { textDocument: { uri, version }, edits }] },
    // Run after the edit: the user sees where the faces went.
    ...(showDocument
      ? {
          command: {
            title: 'Open the overlay',
            command: SERVER_COMMANDS.showDocument,
            arguments: [{ uri: overlayUri }],
          },
        }
      : {}),
  };
}

/** A file name an overlay of faces goes by. */
const OVERLAY_NAME = /\.faces\.(?:ya?ml|json)$/;

/**
 * The overlay the workspace has for server `name`: the one beside the config (`beside`) when it is
 * one, else the first by path among the files named as overlays.
 */
function existingOverlay(
  session: Session,
  name: string,
  beside: string,
): { uri: string; version: number | null; file: ParsedFile; server: FaceServer } | undefined {
  const found: { uri: string; path: string; version: number | null; file: ParsedFile; server: FaceServer }[] = [];
  for (const entry of session.entries.values()) {
    if (!OVERLAY_NAME.test(entry.path)) continue;
    const file = session.fileOf(entry);
    if (!file) continue;
    for (const doc of file.documents) {
      if (doc.kind !== 'face-overlay') continue;
      const server = facesOf(documentContext(file, doc, session.workspace)).servers.find((s) => s.name === name);
      if (server)
        found.push({ uri: entry.uri, path: entry.path, version: entry.editor?.version ?? null, file, server });
    }
  }
  found.sort((a, b) => (a.uri === beside ? -1 : b.uri === beside ? 1 : a.path.localeCompare(b.path)));
  return found[0];
}

/** `<server>.faces.yaml` in the config's folder; a name that cannot be a file name is spelt with `-` for what it cannot hold. */
function overlayUriOf(uri: string, name: string): string | undefined {
  const slash = uri.lastIndexOf('/');
  if (slash < 0) return undefined;
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^\.+/, '');
  if (safe === '') return undefined;
  return `${uri.slice(0, slash + 1)}${encodeURIComponent(safe)}.faces.yaml`;
}

function exists(session: Session, uri: string): boolean {
  if (session.entryOf(uri)) return true;
  if (!uri.startsWith('file:')) return false;
  try {
    return existsSync(fileURLToPath(uri));
  } catch {
    return true; // a path we cannot read is not one to write
  }
}
