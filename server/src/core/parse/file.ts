// A whole file: its text, its language, its documents (YAML `---` streams and JSONL lines
// hold several), each with its kind and the problems met while parsing it, and its comments.
// The file's own documents come first; the resources found inside those that are none of ours
// (a `kind: List`'s items, a Chainsaw test's resources: embedded.ts) follow, one document each.
import { DEFAULT_LIMITS, type ParseLimits } from '../limits.js';
import type { DocumentKind, Span } from '../types.js';
import { SourceText, wholeCharacters } from '../text/source.js';
import { jsonComments, parseJson, type ParsedJsonDocument } from './json.js';
import { embeddedDocuments, type Embedding } from './embedded.js';
import { detectKind, kindFromText } from './kinds.js';
import { getNode, type Comment, type Node, type References } from './nodes.js';
import { fileTooLarge, fileTooManyValues, type ParseProblem } from './problems.js';
import { tooLarge, tooManyValues } from './size.js';
import { parseToml, tomlComments, type ParsedTomlDocument } from './toml.js';
import { parseYaml, yamlComments, type ParsedYamlDocument } from './yaml.js';

export type Language = 'yaml' | 'json' | 'jsonl' | 'toml';

export interface ParsedDocument {
  index: number;
  root: Node | null;
  span: Span;
  kind: DocumentKind | null;
  problems: ParseProblem[];
  /** YAML without anchors, aliases or tags, whose parts can be re-parsed alone (incremental.ts). */
  selfContained: boolean;
  /** Its anchors and alias tokens as written (YAML with any); an embedded document has none of its own. */
  references?: References;
  /**
   * Set on a resource found inside one of the file's own documents (embedded.ts): its root is the
   * embedded node, its span that node's, its problems the parse problems inside it.
   */
  embedded?: Embedding;
  /**
   * Only part of an object, checked for what it says and never for what it leaves out: an embedded
   * assertion or patch (`embedded.partial`), or a resource file that states a `status` and no
   * `spec`, which only an assertion does (a Chainsaw `assert: {file: ...}` file: an object to
   * apply has a spec, and one read back from the cluster has both).
   */
  partial?: boolean;
}

export interface ParsedFile {
  path: string;
  source: SourceText;
  language: Language;
  documents: ParsedDocument[];
  /** The kind of the first recognised document, or null when none is ours. */
  kind: DocumentKind | null;
  /** Every comment of the file, in order (inline suppressions are read from these); read on first use. */
  readonly comments: readonly Comment[];
}

/**
 * A parsed file whose comments are read from its text the first time someone asks (never, for a
 * file declined whole: `read` false).
 */
export function fileWithComments(file: Omit<ParsedFile, 'comments'>, read = true): ParsedFile {
  let comments: readonly Comment[] | undefined = read ? undefined : [];
  return {
    ...file,
    get comments() {
      return (comments ??= commentsOf(file.source.text, file.language));
    },
  };
}

function commentsOf(text: string, language: Language): Comment[] {
  if (language === 'yaml') return text.includes('#') ? yamlComments(text) : [];
  if (language === 'json') return jsonComments(text, 0);
  if (language === 'toml') return tomlComments(text);
  // JSONL: each line is a document of its own.
  const out: Comment[] = [];
  for (const line of jsonLines(text)) out.push(...jsonComments(text.slice(line.start, line.end), line.start));
  return out;
}

/**
 * The lines of a JSONL text, each without its line break: `\r\n`, `\n` and a lone `\r` each end
 * one, as they end a line in an editor (SourceText), so that "line N" is the line the user sees.
 */
function jsonLines(text: string): { start: number; end: number }[] {
  const lines: { start: number; end: number }[] = [];
  const breaks = /\r\n?|\n/g;
  let start = 0;
  for (let found = breaks.exec(text); found; found = breaks.exec(text)) {
    lines.push({ start, end: found.index });
    start = breaks.lastIndex;
  }
  lines.push({ start, end: text.length });
  return lines;
}

/** The language of a file, by its extension: JSONL, JSON (and JSONC), TOML, else YAML. */
export function languageOf(path: string): Language {
  const lower = path.toLowerCase();
  if (lower.endsWith('.toml')) return 'toml';
  if (lower.endsWith('.jsonl')) return 'jsonl';
  if (lower.endsWith('.json') || lower.endsWith('.jsonc')) return 'json';
  return 'yaml';
}

export interface ParseOptions {
  forcedKind?: DocumentKind | null;
  language?: Language;
  /** The workspace's limits (`.toollens.yaml` `limits:`); LIMITS by default. */
  limits?: ParseLimits;
}

export function parseFile(path: string, text: string, options: ParseOptions = {}): ParsedFile {
  const language = options.language ?? languageOf(path);
  const limits = options.limits ?? DEFAULT_LIMITS;
  const declined = declineWhole(text, language, limits);
  if (declined) return declinedWhole(path, text, declined, options);
  const source = new SourceText(text);
  const raw: (ParsedYamlDocument | ParsedJsonDocument | ParsedTomlDocument)[] =
    language === 'yaml'
      ? parseYaml(text, 0, { aliasNodes: limits.aliasNodes })
      : language === 'json'
        ? [parseJson(text)]
        : language === 'toml'
          ? [parseToml(text)]
          : parseJsonLines(text);
  const documents: ParsedDocument[] = raw.map((doc, index) => ({
    index,
    root: doc.root,
    span: doc.span,
    problems: doc.problems,
    kind: null,
    selfContained: 'selfContained' in doc && doc.selfContained === true,
    ...('references' in doc && doc.references ? { references: doc.references } : {}),
  }));
  // A JSONL file is one document kind as a whole (a calls log); its lines have no kind of their own.
  const fileKind = language === 'jsonl' ? detectKind(path, null, options.forcedKind) : null;
  for (const doc of documents) {
    doc.kind = fileKind ?? detectKind(path, doc.root, options.forcedKind);
    // A document no parser could read has no content to tell its kind: its text may, so that what
    // declined it is said rather than the file passed over as someone else's.
    if (!doc.kind && !doc.root && doc.problems.some((p) => p.rule === 'lens/declined'))
      doc.kind = kindFromText(text.slice(doc.span.start, doc.span.end));
  }
  if (language === 'yaml' && documents.length === 0) {
    documents.push({
      index: 0,
      root: null,
      span: { start: 0, end: text.length },
      problems: [],
      kind: detectKind(path, null, options.forcedKind),
      selfContained: false,
    });
  }
  for (const doc of documents) onWholeCharacters(text, doc.problems);
  if (language !== 'jsonl') documents.push(...embeddedDocuments(documents));
  markPartial(documents);
  const kind = documents.find((d) => d.kind)?.kind ?? null;
  return fileWithComments({ path, source, language, documents, kind });
}

/**
 * Every problem's range, and its related places, on whole characters and line breaks
 * (`wholeCharacters`), in place: a parser's position, or "the first character" of a text that
 * starts with a CRLF, may fall between the CR and the LF or inside an astral character. The
 * engine guards every finding the same way; this keeps the parse's own data right for whoever
 * reads it first.
 */
function onWholeCharacters(text: string, problems: ParseProblem[]): void {
  for (const problem of problems) {
    problem.span = wholeCharacters(text, problem.span);
    if (problem.related) for (const related of problem.related) related.span = wholeCharacters(text, related.span);
  }
}

/** Sets `partial` on every document, once kinds and embedded documents are known. */
export function markPartial(documents: ParsedDocument[]): void {
  for (const doc of documents) doc.partial = doc.embedded?.partial === true || isStatusAssertion(doc);
}

/** A Kubernetes resource of ours that states its `status` and no `spec`: what an assertion file holds. */
function isStatusAssertion(doc: ParsedDocument): boolean {
  return (
    (doc.kind === 'vmcp-server' || doc.kind === 'vmcp-composite') &&
    getNode(doc.root, 'status') !== undefined &&
    getNode(doc.root, 'spec') === undefined
  );
}

/** Why a file is declined whole before any parser sees it (LIMITS.fileBytes, LIMITS.fileValues), if it is. */
function declineWhole(text: string, language: Language, limits: ParseLimits): ParseProblem | undefined {
  const start = { start: 0, end: Math.min(text.length, 1) };
  const bytes = tooLarge(text, limits.fileBytes);
  if (bytes !== undefined) return fileTooLarge(start, bytes, limits.fileBytes);
  return tooManyValues(text, language, limits.fileValues) ? fileTooManyValues(start, limits.fileValues) : undefined;
}

/** A file declined whole, before any parser saw it: one info at its start, and nothing else. */
function declinedWhole(path: string, text: string, declined: ParseProblem, options: ParseOptions): ParsedFile {
  const language = options.language ?? languageOf(path);
  const kind = detectKind(path, null, options.forcedKind) ?? kindFromText(text);
  const documents = [
    { index: 0, root: null, span: { start: 0, end: text.length }, problems: [declined], kind, selfContained: false },
  ];
  onWholeCharacters(text, documents[0]!.problems);
  return fileWithComments({ path, source: new SourceText(text), language, documents, kind }, false);
}

/**
 * How much of a file too large to read is read anyway, to tell its kind: enough for the root keys
 * a document of ours starts with (kindFromText).
 */
export const HEAD_BYTES = 64 * 1024;

/**
 * A file of `bytes` bytes on disk, more than the workspace's fileBytes, declined as `parseFile`
 * declines its text, from only its first HEAD_BYTES (`head`, decoded): so a file of gigabytes is
 * never read into memory. The file's text is its head, which no finding goes past.
 */
export function parseTooLarge(path: string, bytes: number, head: string, options: ParseOptions = {}): ParsedFile {
  const limit = (options.limits ?? DEFAULT_LIMITS).fileBytes;
  return declinedWhole(path, head, fileTooLarge({ start: 0, end: Math.min(head.length, 1) }, bytes, limit), options);
}

function parseJsonLines(text: string): ReturnType<typeof parseJson>[] {
  const out: ReturnType<typeof parseJson>[] = [];
  for (const { start, end } of jsonLines(text)) {
    const line = text.slice(start, end);
    // A line of nothing but blanks (trim takes a BOM for one) holds no document.
    if (line.trim()) out.push(parseJson(line, start, { comments: false }));
  }
  return out;
}
