// Moving the `toolFaces` of a server entry in an MCP client config into `<server>.faces.yaml`
// beside it, or into the overlay the server already has: the new overlay's text, the faces added
// to an existing one, and the edits that take the block out of the config leaving every other
// character as it was. lsp/moveFaces.ts offers the move as a workspace edit.
import { visit, Document } from 'yaml';
import type { FaceServer } from '../model/faces.js';
import type { ParsedFile } from '../parse/file.js';
import { toValue } from '../parse/nodes.js';
import type { Span, TextEdit } from '../types.js';

/**
 * The overlay: the server's name and its faces, as YAML, lists of plain values on one line;
 * `config`: the name of the configuration file they come from, `eol` its line break.
 */
export function overlayText(server: FaceServer, config: string, eol: string): string {
  const body = yamlText({ server: server.name, toolFaces: toValue(server.toolFaces) });
  const header = `# Tool faces of the "${server.name}" server, moved here from its entry in ${config}, whose schema has no toolFaces key.\n`;
  return (header + body).replace(/\n/g, eol);
}

/** A value as block YAML of two-space indents, lists of plain values on one line. */
function yamlText(value: unknown): string {
  const yaml = new Document(value);
  visit(yaml, {
    Seq(_, node) {
      if (node.items.every((item) => !(item && typeof item === 'object' && 'items' in item))) node.flow = true;
    },
  });
  return yaml.toString({ indent: 2, lineWidth: 0, flowCollectionPadding: false });
}

/**
 * The faces of `server` (a client config's entry) added to the overlay `overlay` already has for
 * the same server: the insertion after its last face, at its faces' indentation. A face of a tool
 * the overlay has too must be the same face (it is then left out); `conflict` names the tools whose
 * faces differ, which the user has to choose between, and `unmergeable` is an overlay whose
 * `toolFaces` is not a block mapping of faces (written in flow style, or absent).
 */
export function mergeIntoOverlay(
  overlayFile: ParsedFile,
  overlay: FaceServer,
  server: FaceServer,
): { kind: 'merge'; edit: TextEdit | undefined } | { kind: 'conflict'; tools: string[] } | { kind: 'unmergeable' } {
  const faces = overlay.toolFaces;
  const last = faces?.pairs[faces.pairs.length - 1];
  if (!faces || faces.flow || !last) return { kind: 'unmergeable' };
  const existing = new Map(overlay.faces.map((f) => [f.toolName, JSON.stringify(toValue(f.pair.value))]));
  const added: Record<string, unknown> = {};
  const conflicts: string[] = [];
  for (const face of server.faces) {
    const value = toValue(face.pair.value);
    const there = existing.get(face.toolName);
    if (there === undefined) added[face.toolName] = value;
    else if (there !== JSON.stringify(value)) conflicts.push(face.toolName);
  }
  if (conflicts.length) return { kind: 'conflict', tools: conflicts };
  if (Object.keys(added).length === 0) return { kind: 'merge', edit: undefined };
  const text = overlayFile.source.text;
  const eol = overlayFile.source.eol;
  const indent = last.key.span.start - (text.lastIndexOf('\n', last.key.span.start - 1) + 1);
  const lines = yamlText(added)
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => (line === '' ? line : ' '.repeat(indent) + line));
  // After the line the last face ends on (a comment after it stays with it).
  const lineEnd = text.indexOf('\n', last.span.end);
  const at = lineEnd < 0 ? text.length : lineEnd + 1;
  const newText = (lineEnd < 0 ? eol : '') + lines.join(eol) + eol;
  return { kind: 'merge', edit: { span: { start: at, end: at }, newText } };
}

/**
 * Edits removing the `toolFaces` pair from its server entry, and nothing else: the pair with its
 * line when it has one of its own, and the one comma that separated it from its neighbours.
 * Undefined when the text around it is not as a JSON object holds it.
 */
export function removalEdits(file: ParsedFile, server: FaceServer): TextEdit[] | undefined {
  const text = file.source.text;
  const entry = server.entry!;
  const pair = server.toolFacesPair!;
  const index = entry.pairs.indexOf(pair);
  if (index < 0) return undefined;
  const comments = file.comments
    .filter((c) => c.span.start >= entry.span.start && c.span.end <= entry.span.end)
    .map((c) => c.span);
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
