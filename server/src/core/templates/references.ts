// Finds the field chains a template reads from the root context (`.params.x`, `.steps.a.output`),
// which is what the workflow rules check against parameters, steps and forEach variables.

import type { Command, ExprNode, ParsedTemplate, Pipeline, Segment, StringNode, TemplateNode } from './ast.js';

export interface FieldReference {
  /** First segment after the dot (`params`, `steps`, `forEach`, `vars`, `workflow`...); '' for a bare `.` or `$`. */
  root: string;
  /** Every segment of the chain with its own range (the name, without the dot; for index keys, the text inside the quotes). */
  segments: Segment[];
  /** The whole chain, from its leading `.` (or `$`) to its last segment. */
  start: number;
  end: number;
  /** Built from `index <chain> "key" ...` with string-literal keys. */
  viaIndex?: boolean;
}

/** What `.` and `$` mean at a point of the template. */
interface Scope {
  dotIsRoot: boolean;
  dollarIsRoot: boolean;
}

interface Chain {
  segments: Segment[];
  start: number;
  end: number;
  viaIndex: boolean;
}

const ROOT: Scope = { dotIsRoot: true, dollarIsRoot: true };

export function extractReferences(parsed: ParsedTemplate): FieldReference[] {
  const out: FieldReference[] = [];
  // An explicit work list: block nesting depth is unbounded, expressions are bounded by the parser.
  const work: { nodes: TemplateNode[]; scope: Scope }[] = [{ nodes: parsed.nodes, scope: ROOT }];
  for (let item = work.pop(); item; item = work.pop()) {
    const { scope } = item;
    for (const node of item.nodes) {
      switch (node.kind) {
        case 'action':
        case 'template':
          if (node.pipeline) visitPipeline(node.pipeline, scope, out);
          break;
        case 'if':
          if (node.pipeline) visitPipeline(node.pipeline, scope, out);
          work.push({ nodes: node.body, scope });
          if (node.elseBody) work.push({ nodes: node.elseBody, scope });
          break;
        case 'with':
        case 'range': {
          if (node.pipeline) visitPipeline(node.pipeline, scope, out);
          // The body sees the pipeline's value as dot (each element for range); else keeps the outer dot.
          const dotIsRoot = node.kind === 'with' && keepsRoot(node.pipeline, scope);
          work.push({ nodes: node.body, scope: { dotIsRoot, dollarIsRoot: scope.dollarIsRoot } });
          if (node.elseBody) work.push({ nodes: node.elseBody, scope });
          break;
        }
        case 'define':
          // A defined template runs with whatever data its caller passes: neither . nor $ is the root.
          work.push({ nodes: node.body, scope: { dotIsRoot: false, dollarIsRoot: false } });
          break;
        case 'block': {
          if (node.pipeline) visitPipeline(node.pipeline, scope, out);
          const root = keepsRoot(node.pipeline, scope);
          work.push({ nodes: node.body, scope: { dotIsRoot: root, dollarIsRoot: root } });
          break;
        }
        default:
          break;
      }
    }
  }
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** True when the pipeline's value is the root itself (`with .` / `with $`). */
function keepsRoot(pipeline: Pipeline | null, scope: Scope): boolean {
  if (!pipeline || pipeline.commands.length !== 1) return false;
  const args = (pipeline.commands[0] as Command).args;
  if (args.length !== 1) return false;
  const only = args[0] as ExprNode;
  if (only.kind === 'dot') return scope.dotIsRoot;
  if (only.kind === 'variable' && only.name === '$' && only.segments.length === 0) return scope.dollarIsRoot;
  return false;
}

function toReference(chain: Chain): FieldReference {
  const ref: FieldReference = {
    root: chain.segments[0]?.name ?? '',
    segments: chain.segments,
    start: chain.start,
    end: chain.end,
  };
  if (chain.viaIndex) ref.viaIndex = true;
  return ref;
}

function keySegment(key: StringNode): Segment {
  return { name: key.value, start: key.start + 1, end: key.end - 1 };
}

/**
 * The root chain an expression denotes, or null: `.a.b`, `.`, `$.a`, and `(index <root chain> "k" ...)`
 * (possibly followed by more fields) when every key is a string literal.
 */
function rootChain(expr: ExprNode, scope: Scope): Chain | null {
  switch (expr.kind) {
    case 'field':
      return scope.dotIsRoot
        ? { segments: [...expr.segments], start: expr.start, end: expr.end, viaIndex: false }
        : null;
    case 'dot':
      return scope.dotIsRoot ? { segments: [], start: expr.start, end: expr.end, viaIndex: false } : null;
    case 'variable':
      return expr.name === '$' && scope.dollarIsRoot
        ? { segments: [...expr.segments], start: expr.start, end: expr.end, viaIndex: false }
        : null;
    case 'paren': {
      const p = expr.pipeline;
      if (p.decl.length > 0 || p.commands.length !== 1) return null;
      const indexed = indexChain(p.commands[0] as Command, scope);
      return indexed && indexed.consumed === (p.commands[0] as Command).args.length ? indexed.chain : null;
    }
    case 'chain': {
      const base = rootChain(expr.node, scope);
      if (!base) return null;
      return {
        segments: [...base.segments, ...expr.segments],
        start: base.start,
        end: expr.end,
        viaIndex: base.viaIndex,
      };
    }
    default:
      return null;
  }
}

/** `index <root chain> "k1" "k2" ...`: the chain extended by the leading string keys. */
function indexChain(cmd: Command, scope: Scope): { chain: Chain; consumed: number } | null {
  const [head, target] = cmd.args;
  if (head?.kind !== 'identifier' || head.name !== 'index' || !target) return null;
  const base = rootChain(target, scope);
  if (!base) return null;
  const chain: Chain = { ...base, segments: [...base.segments] };
  let k = 2;
  for (let key = cmd.args[k]; key?.kind === 'string'; key = cmd.args[++k]) {
    chain.segments.push(keySegment(key));
    chain.end = key.end;
    chain.viaIndex = true;
  }
  return { chain, consumed: k };
}

function visitPipeline(pipeline: Pipeline, scope: Scope, out: FieldReference[]): void {
  for (const cmd of pipeline.commands) {
    const indexed = indexChain(cmd, scope);
    if (indexed) {
      out.push(toReference(indexed.chain));
      for (let k = indexed.consumed; k < cmd.args.length; k++) visitExpr(cmd.args[k] as ExprNode, scope, out);
      continue;
    }
    for (const arg of cmd.args) visitExpr(arg, scope, out);
  }
}

function visitExpr(expr: ExprNode, scope: Scope, out: FieldReference[]): void {
  const chain = rootChain(expr, scope);
  if (chain) {
    out.push(toReference(chain));
    return;
  }
  if (expr.kind === 'paren') visitPipeline(expr.pipeline, scope, out);
  else if (expr.kind === 'chain') visitExpr(expr.node, scope, out);
}
