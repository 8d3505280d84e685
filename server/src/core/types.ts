// Plain data shared by every layer of the core. Nothing here knows about LSP or the CLI:
// positions are character offsets into the source text, converted only at the edges.

export type Severity = 'error' | 'warning' | 'info' | 'hint';
export type SeverityOrOff = Severity | 'off';

export const SEVERITY_ORDER: Record<Severity, number> = { error: 3, warning: 2, info: 1, hint: 0 };

/** A half-open range of UTF-16 offsets into one source text. */
export interface Span {
  start: number;
  end: number;
}

export interface TextEdit {
  span: Span;
  newText: string;
}

/**
 * A fix as data. `safe` fixes can only be what the user meant and are applied by `--fix`
 * and "fix all"; suggestions are offered in the editor only.
 */
export interface Fix {
  title: string;
  safe: boolean;
  edits: TextEdit[];
}

/** Extra places a finding points at (the other member of a cycle, the deciding step...). */
export interface RelatedInfo {
  span: Span;
  message: string;
  /** Path of another file; absent when the place is in the same file. */
  file?: string;
}

export interface Finding {
  rule: string;
  /** Which message of its rule's table this is (`duplicate`, `unknownNamespace`): stable, for programs. */
  messageId: string;
  severity: Severity;
  /** One sentence: what is wrong and what to do (core/wording/headlines.ts). */
  message: string;
  /** Why it matters (what ToolHive, the runtime or a client does), shown under the message; absent when the message says all. */
  why?: string;
  span: Span;
  fixes?: Fix[];
  related?: RelatedInfo[];
}

export type DocumentKind =
  'vmcp-config' | 'vmcp-server' | 'vmcp-composite' | 'mcp-servers' | 'face-overlay' | 'tool-catalog' | 'tool-calls';

export const DOCUMENT_KINDS: readonly DocumentKind[] = [
  'vmcp-config',
  'vmcp-server',
  'vmcp-composite',
  'mcp-servers',
  'face-overlay',
  'tool-catalog',
  'tool-calls',
];

/** The three ToolHive dialects that hold composite-tool workflows. */
export const WORKFLOW_KINDS: readonly DocumentKind[] = ['vmcp-config', 'vmcp-server', 'vmcp-composite'];

/** The documents that hold tool faces. */
export const FACE_KINDS: readonly DocumentKind[] = ['mcp-servers', 'face-overlay'];

/** MCP tool annotations as declared (absent = not declared). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export const HINT_NAMES = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
export type HintName = (typeof HINT_NAMES)[number];
