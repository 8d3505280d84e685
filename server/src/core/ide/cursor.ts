// Where a cursor is in the node tree: which document, the keys and indexes down to it, and
// whether it sits on a key, on a scalar value, or in a gap of a mapping or a sequence. Hover,
// completion and navigation all start here. Spans are half-open; a cursor right after the last
// character of a token still counts as on it (that is where the user's caret is while typing).
import type { DocumentContext } from '../context.js';
import { workflowsOf, type StepModel, type WorkflowModel } from '../model/workflow.js';
import { documentContext } from '../context.js';
import type { ParsedDocument, ParsedFile } from '../parse/file.js';
import type { MapNode, Node, Pair, ScalarNode, SeqNode } from '../parse/nodes.js';
import { valueSpanMapper } from '../parse/scalarOffsets.js';
import type { Workspace } from '../workspace.js';

type Target =
  | { kind: 'key'; pair: Pair; map: MapNode }
  | { kind: 'value'; node: ScalarNode; pair?: Pair; seq?: SeqNode }
  /** Inside a mapping's span but on none of its pairs (JSON `{ "a": 1, | }`, a flow map). */
  | { kind: 'map-gap'; map: MapNode }
  | { kind: 'seq-gap'; seq: SeqNode }
  | { kind: 'none' };

export interface Located {
  doc: ParsedDocument;
  /** Keys and indexes from the document root down to the target (a key's own name included). */
  path: (string | number)[];
  /** The mappings and sequences passed on the way, outermost first. */
  containers: (MapNode | SeqNode)[];
  target: Target;
}

const within = (offset: number, span: { start: number; end: number }) => offset >= span.start && offset <= span.end;

function documentAt(file: ParsedFile, offset: number): ParsedDocument | undefined {
  let best: ParsedDocument | undefined;
  for (const doc of file.documents) {
    if (offset >= doc.span.start && offset <= doc.span.end) best = doc;
  }
  return best ?? file.documents[file.documents.length - 1];
}

export function locate(file: ParsedFile, offset: number): Located | undefined {
  const doc = documentAt(file, offset);
  if (!doc) return undefined;
  const path: (string | number)[] = [];
  const containers: (MapNode | SeqNode)[] = [];
  let node: Node | null = doc.root;
  let viaPair: Pair | undefined;
  let viaSeq: SeqNode | undefined;
  // Iterative descent; depth is bounded by the parser.
  while (node) {
    if (node.type === 'scalar') {
      if (!within(offset, node.span)) break;
      return { doc, path, containers, target: { kind: 'value', node, pair: viaPair, seq: viaSeq } };
    }
    if (!within(offset, node.span)) break;
    containers.push(node);
    if (node.type === 'map') {
      const map: MapNode = node;
      let next: Node | null = null;
      for (const pair of map.pairs) {
        if (within(offset, pair.key.span)) {
          path.push(String(pair.key.value));
          return { doc, path, containers, target: { kind: 'key', pair, map } };
        }
        if (pair.value && within(offset, pair.value.span) && offset >= pair.key.span.end) {
          path.push(String(pair.key.value));
          next = pair.value;
          viaPair = pair;
          viaSeq = undefined;
          break;
        }
      }
      if (!next) return { doc, path, containers, target: { kind: 'map-gap', map } };
      node = next;
    } else {
      const seq: SeqNode = node;
      const index = seq.items.findIndex((item) => within(offset, item.span));
      if (index < 0) return { doc, path, containers, target: { kind: 'seq-gap', seq } };
      path.push(index);
      viaPair = undefined;
      viaSeq = seq;
      node = seq.items[index]!;
    }
  }
  return { doc, path, containers, target: { kind: 'none' } };
}

/** The located document's analysis context (shares its memo with the rules). */
export function contextOf(file: ParsedFile, doc: ParsedDocument, workspace: Workspace): DocumentContext {
  return documentContext(file, doc, workspace);
}

/** Whether `prefix` is a prefix of `path`. */
export function startsWith(path: readonly (string | number)[], prefix: readonly (string | number)[]): boolean {
  if (prefix.length > path.length) return false;
  return prefix.every((segment, i) => String(segment) === String(path[i]));
}

export function samePath(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return a.length === b.length && startsWith(a, b);
}

/**
 * The index inside a string scalar's decoded value that a source offset falls on (the caret sits
 * before that character), or undefined when the value cannot be mapped exactly.
 */
export function valueIndexAt(text: string, node: ScalarNode, offset: number): number | undefined {
  if (typeof node.value !== 'string') return undefined;
  const map = valueSpanMapper(text, node);
  const value = node.value;
  const probe = map(0, 0);
  if (probe.start !== probe.end) return undefined; // not exact
  let best: number | undefined;
  for (let i = 0; i <= value.length; i++) {
    const at = map(i, i).start;
    if (at <= offset) best = i;
    else break;
  }
  return best;
}

/** The source span of a scalar's content (inside its quotes, if any). */
export function contentSpan(node: ScalarNode): { start: number; end: number } {
  if (node.style === 'single' || node.style === 'double' || node.style === 'json') {
    return { start: node.span.start + 1, end: Math.max(node.span.start + 1, node.span.end - 1) };
  }
  return node.span;
}

/** The workflow and (innermost) step whose subtree holds `path`. */
export function workflowAt(
  ctx: DocumentContext,
  path: readonly (string | number)[],
): { workflow?: WorkflowModel; step?: StepModel } {
  for (const workflow of workflowsOf(ctx).workflows) {
    if (!startsWith(path, workflow.path)) continue;
    for (const step of workflow.steps) {
      if (step.inner && startsWith(path, step.inner.path)) return { workflow, step: step.inner };
      if (startsWith(path, step.path)) return { workflow, step };
    }
    return { workflow };
  }
  return {};
}

/** Where a step's key sits relative to the step: `['tool']`, `['arguments', 'owner']`... */
export function relativePath(
  path: readonly (string | number)[],
  base: readonly (string | number)[],
): (string | number)[] {
  return path.slice(base.length);
}
