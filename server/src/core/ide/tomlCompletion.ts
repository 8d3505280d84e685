// Completion in Codex's `.codex/config.toml`: the keys of a server entry, on a line of a
// `[mcp_servers.<name>]` table where a key is being typed. TOML has no recovery, so a half-typed
// key (`comm`) makes the file unparsable: the table is found from the header above the line, and
// the keys the entry has already are read from the file with the word being typed taken out.
// Only keys: Codex has no `type` key, and its values are free text.
import { ENTRY_FACTS } from '../model/clients.js';
import { clientOfPath } from '../parse/clients.js';
import { getMap, keyText, type MapNode } from '../parse/nodes.js';
import { MAX_NESTING } from '../parse/problems.js';
import type { ParsedFile } from '../parse/file.js';
import type { Workspace } from '../workspace.js';
import type { Span } from '../types.js';

/** A table header naming one server: `[mcp_servers.name]`, the name bare or quoted. */
const SERVER_HEADER = /^\s*\[\s*mcp_servers\s*\.\s*(?:([A-Za-z0-9_-]+)|"([^"\\]*)"|'([^']*)')\s*\]\s*(?:#.*)?$/;
/** Any table header (`[a.b]` or `[[a]]`), not a line of a multi-line array. */
const ANY_HEADER = /^\s*\[\[?\s*[A-Za-z0-9_."' -]+\s*\]\]?\s*(?:#.*)?$/;

/** A key offered (a `CompletionEntry` of completion.ts, which calls this). */
export interface TomlKeyItem {
  label: string;
  kind: 'property';
  detail: string;
  sortText: string;
  filterText: string;
  span: Span;
  newText: string;
}

/** The server entry keys Codex reads, where a key is being typed in one of its server tables. */
export function tomlKeyCompletions(file: ParsedFile, workspace: Workspace, offset: number): TomlKeyItem[] {
  const facts = ENTRY_FACTS.codex;
  if (!facts || clientOfPath(file.path)?.id !== 'codex') return [];
  const text = file.source.text;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const typed = /^(\s*)([A-Za-z0-9_-]*)$/.exec(text.slice(lineStart, offset));
  if (!typed) return [];
  const lineEnd = text.indexOf('\n', offset) < 0 ? text.length : text.indexOf('\n', offset);
  const after = /^[A-Za-z0-9_-]*/.exec(text.slice(offset, lineEnd))?.[0] ?? '';
  // Only a key alone on its line (a comment may follow): renaming a key before its `=` is not completion.
  const rest = text.slice(offset + after.length, lineEnd).trim();
  if (rest !== '' && !rest.startsWith('#')) return [];
  const name = serverOfLine(text, lineStart);
  if (name === undefined) return [];
  const span = { start: lineStart + (typed[1] ?? '').length, end: offset + after.length };
  // Without the word the file parses, or where the line is cannot be told (TOML has no recovery).
  const without = workspace.parse(file.path, text.slice(0, span.start) + text.slice(span.end));
  const root = without.documents[0]?.root;
  if (!root) return [];
  const entry = getMap(getMap(root, 'mcp_servers'), name);
  // A line inside a value written over several lines (an array, a multi-line string) takes no key.
  if (entry && insideValue(entry, span.start)) return [];
  const existing = new Set(entry?.pairs.map(keyText) ?? []);
  return facts.keys
    .filter((key) => !existing.has(key))
    .map((key) => ({
      label: key,
      kind: 'property' as const,
      detail: 'read by Codex',
      sortText: `${key === 'command' || key === 'url' ? 0 : 1}${key}`,
      filterText: key,
      span,
      newText: `${key} = `,
    }));
}

/** Whether an offset lies inside a value of the mapping (or of a mapping in it), not between its pairs. */
function insideValue(map: MapNode, at: number, depth = 0): boolean {
  if (depth > MAX_NESTING) return false;
  return map.pairs.some((pair) => {
    const value = pair.value;
    if (!value) return false;
    if (value.type === 'map' && !value.flow) return insideValue(value, at, depth + 1);
    return value.span.start < at && at < value.span.end;
  });
}

/** The server whose table the line starting at `lineStart` is in, from the last table header above it. */
function serverOfLine(text: string, lineStart: number): string | undefined {
  const lines = text.slice(0, lineStart).split(/\r?\n/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (!ANY_HEADER.test(line)) continue;
    const m = SERVER_HEADER.exec(line);
    return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
  }
  return undefined;
}
