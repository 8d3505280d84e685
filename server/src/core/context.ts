// The context every analysis of one document runs in: the rules, the hovers and the other editor
// features all get the same object, so what one computes (memoised per document) the others reuse.
import { Memo, memoKey } from './memo.js';
import type { ParsedDocument, ParsedFile } from './parse/file.js';
import { SuggestionBudget } from './text/suggest.js';
import type { Workspace } from './workspace.js';

/** Everything an analysis of one document may read. */
export interface DocumentContext {
  file: ParsedFile;
  doc: ParsedDocument;
  workspace: Workspace;
  memo: Memo;
}

/**
 * The context of one document; every caller over the same parse and the same workspace revision
 * (its catalog, configuration and baseline as they are now) gets the same memo.
 */
export function documentContext(file: ParsedFile, doc: ParsedDocument, workspace: Workspace): DocumentContext {
  return { file, doc, workspace, memo: memoFor(doc, workspace) };
}

// Syntax and analysis apart: the parse of a text lives as long as its text (and the configuration
// it was parsed under); the analyses of a document live as long as the parse and the workspace's
// revision. One memo per document object, so rules and hovers over the same parse share their
// analyses; a catalog change gives the same parse a fresh memo.
const memos = new WeakMap<ParsedDocument, { workspace: Workspace; revision: object; memo: Memo }>();
function memoFor(doc: ParsedDocument, workspace: Workspace): Memo {
  const revision = workspace.revision();
  const held = memos.get(doc);
  if (held && held.workspace === workspace && held.revision === revision) return held.memo;
  const memo = new Memo();
  memos.set(doc, { workspace, revision, memo });
  return memo;
}

const SUGGESTIONS = memoKey<SuggestionBudget>('suggestion-budget');

/** What the "did you mean" searches over this document may still compare (text/suggest.ts), from the workspace's suggestionCandidates. */
export function suggestionBudgetOf(ctx: DocumentContext): SuggestionBudget {
  return ctx.memo.get(SUGGESTIONS, () => new SuggestionBudget(ctx.workspace.limits.suggestionCandidates));
}
