// Resources inside other YAML: the items of a Kubernetes `kind: List`, and the resources a Chainsaw
// test (kyverno's e2e tests for operators, as ToolHive's own test/e2e/chainsaw) applies or asserts.
// Each VirtualMCPServer or VirtualMCPCompositeToolDefinition found there becomes a document of its
// own whose root is the embedded node, so it is checked as its kind and every finding points into
// the embedding file at the right place (docs/behaviour.md#resources-inside-other-yaml).
//
// Only a document that is none of ours is looked into (a List, a Chainsaw Test): the embedding
// document itself is never checked, so nothing is said twice; its parse problems go to the
// embedded document that holds them and nowhere else.
import type { DocumentKind, Span } from '../types.js';
import { kindFromContent } from './kinds.js';
import { getMap, getNode, getSeq, getString, isMap, isScalar, isSeq, type MapNode, type Node } from './nodes.js';
import type { ParseProblem } from './problems.js';

/** How a document found inside another one was found, and how much of an object it states. */
export interface Embedding {
  /** The index of the file's own (top-level) document that holds it. */
  host: number;
  /** A `kind: List` item, or a resource of a Chainsaw operation (`apply`, `create`, `update`, `patch`, `assert`, `error`). */
  via: 'list' | ChainsawOperation;
  /**
   * Only part of an object: a Chainsaw `assert` or `error` states the fields it expects and a
   * `patch` the fields it changes. Checked for what it says, never for what it leaves out.
   */
  partial: boolean;
  /**
   * Keys and values Chainsaw evaluates rather than takes as written (`(expression)` keys and
   * values, `~` iteration keys): not literal, so no finding starts inside them.
   */
  expressions: Span[];
}

export type ChainsawOperation = 'apply' | 'create' | 'update' | 'patch' | 'assert' | 'error';

/** The Chainsaw operations that carry a `resource`, and whether it is only part of an object. */
const OPERATIONS: Record<ChainsawOperation, boolean> = {
  apply: false,
  create: false,
  update: false,
  patch: true,
  assert: true,
  error: true,
};
const OPERATION_NAMES = Object.keys(OPERATIONS) as ChainsawOperation[];

/** The blocks of a Chainsaw step that hold operations. */
const STEP_BLOCKS = ['try', 'catch', 'finally', 'cleanup'];

/** The kinds an embedded resource may be: the Kubernetes ones. */
const EMBEDDED_KINDS: readonly DocumentKind[] = ['vmcp-server', 'vmcp-composite'];

/** What is read of the file's own documents (file.ts's ParsedDocument, which this module may not import). */
interface OwnDocument {
  index: number;
  root: Node | null;
  kind: DocumentKind | null;
  problems: ParseProblem[];
  embedded?: Embedding;
}

/** An embedded document: a ParsedDocument of file.ts. */
export interface EmbeddedDocument extends OwnDocument {
  root: MapNode;
  span: Span;
  kind: DocumentKind;
  selfContained: false;
  embedded: Embedding;
}

interface Found {
  root: MapNode;
  kind: DocumentKind;
  via: Embedding['via'];
  partial: boolean;
}

/**
 * The documents embedded in the file's own documents, numbered after them. Documents that are of
 * a kind already, and documents without a root, are not looked into.
 */
export function embeddedDocuments(documents: readonly OwnDocument[]): EmbeddedDocument[] {
  const out: EmbeddedDocument[] = [];
  for (const host of documents) {
    if (host.kind || host.embedded || !isMap(host.root)) continue;
    const chainsaw = isChainsaw(host.root);
    const found = chainsaw
      ? chainsawResources(host.root)
      : isList(host.root)
        ? listItems(host.root, 'list', false)
        : [];
    for (const { root, kind, via, partial } of found) {
      const span = { start: root.span.start, end: root.span.end };
      out.push({
        index: documents.length + out.length,
        root,
        span,
        kind,
        problems: host.problems.filter((p) => p.span.start >= span.start && p.span.start < span.end),
        selfContained: false,
        embedded: { host: host.index, via, partial, expressions: chainsaw ? expressionsOf(root) : [] },
      });
    }
  }
  return out;
}

/** `apiVersion: v1`, `kind: List` with its `items`. */
function isList(node: MapNode): boolean {
  return getString(node, 'apiVersion') === 'v1' && getString(node, 'kind') === 'List' && isSeq(getNode(node, 'items'));
}

/** A Chainsaw `Test` (or `StepTemplate`) of `chainsaw.kyverno.io`. */
function isChainsaw(node: MapNode): boolean {
  const kind = getString(node, 'kind');
  return (
    (getString(node, 'apiVersion')?.startsWith('chainsaw.kyverno.io/') ?? false) &&
    (kind === 'Test' || kind === 'StepTemplate')
  );
}

/**
 * A resource of ours, or the resources of ours a List holds (Lists inside Lists as deep as the
 * parser reads: LIMITS.nesting bounds them, and each node is visited once).
 */
function resourcesIn(node: Node | undefined, via: Embedding['via'], partial: boolean): Found[] {
  if (!isMap(node)) return [];
  const kind = kindFromContent(node);
  if (kind && EMBEDDED_KINDS.includes(kind)) return [{ root: node, kind, via, partial }];
  return isList(node) ? listItems(node, via, partial) : [];
}

function listItems(list: MapNode, via: Embedding['via'], partial: boolean): Found[] {
  return (getSeq(list, 'items')?.items ?? []).flatMap((item) => resourcesIn(item, via, partial));
}

/**
 * The resources of a Chainsaw test's operations: `spec.steps[].try[]` (and `catch`, `finally`,
 * `cleanup`; a StepTemplate has them under `spec`). An operation with `expect` is left alone: it
 * states what the API server should answer, which may be a refusal the test wants (ToolHive's
 * CEL validation tests apply invalid resources on purpose). `file:` references are not followed:
 * the file is checked on its own where it is in the workspace.
 */
function chainsawResources(root: MapNode): Found[] {
  const spec = getMap(root, 'spec');
  const steps = getString(root, 'kind') === 'StepTemplate' ? [spec] : (getSeq(spec, 'steps')?.items ?? []);
  const out: Found[] = [];
  for (const step of steps) {
    for (const block of STEP_BLOCKS) {
      for (const operation of getSeq(step, block)?.items ?? []) {
        for (const name of OPERATION_NAMES) {
          const body = getMap(operation, name);
          if (!body || getNode(body, 'expect') !== undefined) continue;
          out.push(...resourcesIn(getNode(body, 'resource'), name, OPERATIONS[name]));
        }
      }
    }
  }
  return out;
}

const EXPRESSION = /^\(.*\)$/s;

/** The keys and values Chainsaw evaluates, with everything under such a key. */
function expressionsOf(root: Node): Span[] {
  const out: Span[] = [];
  const visit = (node: Node | null): void => {
    if (!node) return;
    if (isScalar(node)) {
      if (typeof node.value === 'string' && EXPRESSION.test(node.value.trim())) out.push(node.span);
    } else if (isSeq(node)) for (const item of node.items) visit(item);
    else {
      for (const pair of node.pairs) {
        const key = String(pair.key.value);
        if (EXPRESSION.test(key.trim()) || key.startsWith('~')) out.push(pair.span);
        else visit(pair.value);
      }
    }
  };
  visit(root);
  return out;
}
