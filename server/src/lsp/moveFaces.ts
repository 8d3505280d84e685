// "Move these faces to an overlay file": the `toolFaces` of a server entry in an MCP client config
// (`.vscode/mcp.json` and the others of docs/faces.md) moved into `<server>.faces.yaml` beside the
// config. VS Code's own schema for `.vscode/mcp.json` does not know `toolFaces` and warns on the
// key; an overlay holds the same faces, checked the same way (docs/faces.md). One WorkspaceEdit:
// create the overlay, write it, and remove the block from the config, leaving every other
// character of it as it was. Offered only to a client that creates files in a workspace edit.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  CodeActionKind,
  type CodeAction,
  type CodeActionParams,
  type Diagnostic,
  type TextEdit as LspTextEdit,
} from 'vscode-languageserver';
import { documentContext } from '../core/context.js';
import { facesOf, type FaceServer } from '../core/model/faces.js';
import type { ParsedFile } from '../core/parse/file.js';
import { overlayText, removalEdits } from '../core/ide/moveFaces.js';
import { rangesIntersect, toLspEdit, toRange } from './convert.js';
import type { Session } from './session.js';

export const MOVE_FACES_TITLE = 'Move these faces to an overlay file';

export interface MoveFacesOptions {
  /** The client applies `documentChanges` with a `create` resource operation. */
  createFiles: boolean;
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
): CodeAction | undefined {
  const overlayUri = overlayUriOf(uri, server.name!);
  if (!overlayUri || exists(session, overlayUri)) return undefined;
  const removal = removalEdits(file, server);
  if (!removal) return undefined;
  const edits: LspTextEdit[] = removal.map((e) => toLspEdit(file.source, e));
  return {
    title: MOVE_FACES_TITLE,
    kind: CodeActionKind.QuickFix,
    ...(diagnostics.length ? { diagnostics } : {}),
    edit: {
      documentChanges: [
        { kind: 'create', uri: overlayUri, options: { overwrite: false, ignoreIfExists: false } },
        {
          textDocument: { uri: overlayUri, version: null },
          edits: [
            {
              range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
              newText: overlayText(server, decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1)), file.source.eol),
            },
          ],
        },
        { textDocument: { uri, version }, edits },
      ],
    },
  };
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
