// Moving the `toolFaces` of a server entry in an MCP client config into `<server>.faces.yaml`
// beside it: the overlay's text, and the edits that take the block out of the config leaving every
// other character as it was. lsp/moveFaces.ts offers the move as a workspace edit.
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
