// The closed sets and bounds a tool face must keep to (docs/faces.md#the-values-tool-lens-checks-against).
//
// These are Tool Lens's own values, not the upstream runtime's: the runtime that reads faces has
// not published its constants, so we chose these, named them once, here, and documented them in
// docs/faces.md. Every face rule, the hover and completion read them from this module only.

/** What kind of tool a face says the tool is (`family`). */
export const TOOL_FAMILIES = [
  'read',
  'search',
  'edit',
  'write',
  'delete',
  'move',
  'execute',
  'fetch',
  'think',
  'plan',
  'question',
  'other',
] as const;

/** What the tool does with the file its path target names (`pathTarget.access`). */
export const TOOL_PATH_ACCESSES = ['read', 'write'] as const;

/** What a relative path is resolved against (`pathTarget.base`). */
export const TOOL_PATH_BASES = ['cwd', 'root'] as const;

/** What an empty path slot means (`pathTarget.absent`): search from the base, or refuse the call. */
export const TOOL_PATH_ABSENCES = ['base', 'refuse'] as const;

/**
 * Approval cards (`renderHints.approvalCard`) and the top-level input properties each card reads:
 * a card whose property the tool lacks cannot be drawn, so the runtime refuses the face.
 */
export const TOOL_APPROVAL_CARDS = {
  'file-edit': ['file_path'],
  'file-write': ['file_path'],
  'notebook-edit': ['notebook_path'],
  shell: ['command'],
  fetch: ['url'],
  plan: [],
  question: [],
  generic: [],
} as const satisfies Record<string, readonly string[]>;
export type ToolApprovalCard = keyof typeof TOOL_APPROVAL_CARDS;
export const TOOL_APPROVAL_CARD_NAMES = Object.keys(TOOL_APPROVAL_CARDS) as ToolApprovalCard[];

/** Cards that belong to the runtime's own tools; a face on an MCP tool may not use them. */
export const RESERVED_APPROVAL_CARDS: readonly ToolApprovalCard[] = ['plan', 'question'];

/** Longest parameter name a face may list (param, patternParam, aliases, summaryParams, ruleFace). */
export const TOOL_KEY_MAX_CHARS = 64;

/** Longest `renderHints.userFacingName`. */
export const RENDER_HINT_MAX_CHARS = 48;

/** Longest `renderHints.activity`. */
export const RENDER_HINT_ACTIVITY_MAX_CHARS = 120;

/** Most entries in `renderHints.summaryParams` and `renderHints.resultCards`. */
export const RENDER_HINT_MAX_LIST = 8;

export function isApprovalCard(value: string): value is ToolApprovalCard {
  return Object.prototype.hasOwnProperty.call(TOOL_APPROVAL_CARDS, value);
}

/** Length as people count characters: code points, so an emoji is one, not two. */
export function charCount(text: string): number {
  return [...text].length;
}
