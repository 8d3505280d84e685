// "Move these faces to an overlay file": the `toolFaces` of a server entry in an MCP client config
// (`.vscode/mcp.json` and the others of docs/faces.md) moved into `<server>.faces.yaml` beside the
// config. VS Code's own schema for `.vscode/mcp.json` does not know `toolFaces` and warns on the
// key; an overlay holds the same faces, checked the same way (docs/faces.md). One WorkspaceEdit:
// create the overlay, write it, and remove the block from the config, leaving every other
// character of it as it was. Offered only to a client that creates files in a workspace edit.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { visit, Document } from 'yaml';
import { CodeActionKind, type CodeAction, type CodeActionParams, type Diagnostic, type TextEdit as LspTextEdit } from 'vscode-languageserver';
import { documentContext } from '../core/context.js';
import { facesOf, type FaceServer } from '../core/model/faces.js';
import type { ParsedFile } from '../core/parse/file.js';
import { toValue } from '../core/parse/nodes.js';
import type { Span, TextEdit } from '../core/types.js';
import { rangesIntersect, toLspEdit, toRange } from './convert.js';
import type { Session } from './session.js';

export const MOVE_FACES_TITLE = 'Move these faces to an overlay file';

export interface MoveFacesOptions {
  /** The client applies `documentChanges` with a `create` resource operation. */
  createFiles: boolean;
}

/** The action for each server entry whose `toolFaces` the requested range touches. */
export function moveFacesActions(session: Session, file: ParsedFile, uri: string, version: number | null, params: CodeActionParams, options: MoveFacesOptions): CodeAction[] {
  if (!options.createFiles || file.language === 'jsonl' || file.language === 'yaml') return [];
  const actions: CodeAction[] = [];
  for (const doc of file.documents) {
    if (doc.kind !== 'mcp-servers') continue;
    for (const server of facesOf(documentContext(file, doc, session.workspace)).servers) {
      const pair = server.toolFacesPair;
      if (!pair || !server.toolFaces || server.name === undefined || !server.entry) continue;
      const range = toRange(file.source, pair.span);
      if (!rangesIntersect(range, params.range)) continue;
      const action = moveAction(session, file, server, uri, version, params.context.diagnostics.filter((d) => rangesIntersect(d.range, range)));
      if (action) actions.push(action);
    }
  }
  return actions;
}

function moveAction(session: Session, file: ParsedFile, server: FaceServer, uri: string, version: number | null, diagnostics: Diagnostic[]): CodeAction | undefined {
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
        { textDocument: { uri: overlayUri, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: overlayText(server, uri, file.source.eol) }] },
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

/** The overlay: the server's name and its faces, as YAML, lists of plain values on one line. */
function overlayText(server: FaceServer, configUri: string, eol: string): string {
  const config = decodeURIComponent(configUri.slice(configUri.lastIndexOf('/') + 1));
  const yaml = new Document({ server: server.name, toolFaces: toValue(server.toolFaces) });
  visit(yaml, {
    Seq(_, node) {
      if (node.items.every((item) => !(item && typeof item === 'object' && 'items' in item))) node.flow = true;
    },
  });
  const body = yaml.toString({ indent: 2, lineWidth: 0, flowCollectionPadding: false });
  const header = `# Tool faces of the "${server.name}" server, moved here from its entry in ${config}, whose schema has no toolFaces key.\n`;
  return (header + body).replace(/\n/g, eol);
}

/**
 * Edits removing the `toolFaces` pair from its server entry, and nothing else: the pair with its
 * line when it has one of its own, and the one comma that separated it from its neighbours.
 * Undefined when the text around it is not as a JSON object holds it.
 */
function removalEdits(file: ParsedFile, server: FaceServer): TextEdit[] | undefined {
  const text = file.source.text;
  const entry = server.entry!;
  const pair = server.toolFacesPair!;
  const index = entry.pairs.indexOf(pair);
  if (index < 0) return undefined;
  const comments = file.comments.filter((c) => c.span.start >= entry.span.start && c.span.end <= entry.span.end).map((c) => c.span);
  const inComment = (offset: number) => comments.some((c) => offset >= c.start && offset < c.end);
  /** The offset of the first comma in [from, to) outside comments, or -1. */
  const commaIn = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (text[i] === ',' && !inComment(i)) return i;
    return -1;
  };
  const next = entry.pairs[index + 1];
  const previous = entry.pairs[index - 1];
  const lineStart = text.lastIndexOf('\n', pair.span.start - 1) + 1;
  const ownLine = /^[ \t]*$/.test(text.slice(lineStart, pair.span.start));
  let start = ownLine ? lineStart : pair.span.start;
  let end = pair.span.end;
  const edits: TextEdit[] = [];
  if (next) {
    const comma = commaIn(pair.span.end, next.span.start);
    if (comma < 0) return undefined;
    end = comma + 1;
  } else if (previous) {
    const comma = commaIn(previous.span.end, pair.span.start);
    if (comma < 0) return undefined;
    edits.push({ span: { start: comma, end: comma + 1 }, newText: '' });
    if (!ownLine) start = Math.max(comma + 1, pair.span.start);
  } else if (commaIn(pair.span.end, entry.span.end) >= 0) {
    // A lone pair followed by a trailing comma (JSONC allows one): it goes with the pair.
    end = commaIn(pair.span.end, entry.span.end) + 1;
  }
  // The rest of the line when nothing but blanks is left on it, or a line comment (about the block).
  if (ownLine) {
    const rest = /^([ \t]*)(\/\/[^\r\n]*)?(\r\n|\n|\r)/.exec(text.slice(end));
    if (rest && (rest[2] === undefined || inComment(end + rest[1]!.length))) end += rest[0].length;
    else start = pair.span.start; // something follows on the line: keep the line and its indentation
  }
  edits.push({ span: { start, end } satisfies Span, newText: '' });
  if (edits.some((e) => e.span.start < entry.span.start || e.span.end > entry.span.end)) return undefined;
  return edits.sort((a, b) => a.span.start - b.span.start);
}
