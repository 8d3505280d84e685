// The documents the extension hands to the language server: every YAML and JSON file on disk (the
// server decides from the content which ones are Tool Lens's), and Codex's `.codex/config.toml`,
// the one TOML file Tool Lens checks (server/src/node/discovery.ts CHECKED_TOML_GLOB), whatever
// language the editor gives it (`toml` with a TOML extension installed, plain text without). No
// other `.toml`: Cargo.toml or pyproject.toml are never ours. The language client's document
// selector and the language status items read this one list. No `vscode` import: plain data.

/** The languages whose files on disk go to the server. */
export const SERVED_LANGUAGES: readonly string[] = [
  'yaml',
  'json',
  'jsonc',
  // VS Code's own JSON Lines language (`.jsonl`, `.ndjson`): calls files, one call per line.
  'jsonl',
];

/** Codex's configuration, at any depth (the folder walk's CHECKED_TOML_GLOB). */
export const CODEX_CONFIG_GLOB = '**/.codex/config.toml';

/** The language client's document selector (`DocumentFilter`s). */
export const DOCUMENT_SELECTOR: readonly (
  { scheme: 'file'; language: string } | { scheme: 'file'; pattern: string }
)[] = [
  ...SERVED_LANGUAGES.map((language) => ({ scheme: 'file' as const, language })),
  { scheme: 'file', pattern: CODEX_CONFIG_GLOB },
];

/** Whether the client hands this document to the server: the selector's test, for what asks the server about a document. */
export function servedToServer(document: { uri: { scheme: string; path: string }; languageId: string }): boolean {
  if (document.uri.scheme !== 'file') return false;
  return SERVED_LANGUAGES.includes(document.languageId) || /(^|\/)\.codex\/config\.toml$/.test(document.uri.path);
}
