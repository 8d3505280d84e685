// The annotation audit of a catalog: what the hints a server declares say, set against what its
// tools' own words say (docs/behaviour.md#catalog-audits). Two levels, both plain data:
//
// - over values (`auditTool`, `stampOf`): a tool as `CatalogTool` has it, for whoever holds tools
//   rather than documents (a catalog diff, a gateway's tool list);
// - over one `tool-catalog` document (`hintAuditOf`): the same, with the places to report at,
//   tagged with the id of the hints/* rule that words each problem.
//
// One root cause, one finding: a tool that declares no hints gets only that; the tools of a server
// that stamps one set of hints on all of them get only the stamp.
import { annotationsFrom } from '../catalog/load.js';
import type { DocumentContext } from '../context.js';
import { memoKey } from '../memo.js';
import {
  ANNOTATION_FIELDS,
  catalogDeclarationsOf,
  suggestAnnotationField,
  type ToolDecl,
} from '../model/catalogDeclarations.js';
import {
  getMap,
  getNode,
  getPair,
  getString,
  isMap,
  isScalar,
  keyText,
  toValue,
  type MapNode,
  type ScalarNode,
} from '../parse/nodes.js';
import { valueSpanMapper } from '../parse/scalarOffsets.js';
import { HINT_NAMES, type HintName, type Span, type ToolAnnotations } from '../types.js';
import { toolWords, type ChangeEvidence, type ToolText, type ToolWords } from './words.js';

/** The four hints a tool declares, without its title; a hint left out is absent, never false. */
export type DeclaredHints = Partial<Record<HintName, boolean>>;

export function declaredHints(annotations: ToolAnnotations | undefined): DeclaredHints {
  const out: DeclaredHints = {};
  for (const hint of HINT_NAMES) {
    const value = annotations?.[hint];
    if (value !== undefined) out[hint] = value;
  }
  return out;
}

export function hintCount(hints: DeclaredHints): number {
  return HINT_NAMES.filter((hint) => hints[hint] !== undefined).length;
}

/** Equal exactly when two tools declare the same hints with the same values. */
export function hintsKey(hints: DeclaredHints): string {
  return HINT_NAMES.map((hint) => (hints[hint] === undefined ? '-' : hints[hint] ? 't' : 'f')).join('');
}

/** A tool as the audit sees it: its words and its annotations. */
export interface AuditedTool extends ToolText {
  annotations?: ToolAnnotations;
}

/** What the audit finds in one tool, by itself. */
export type ToolAudit =
  /** No hint at all: no `annotations`, or one holding at most a title. */
  | { kind: 'none-declared'; titleOnly: boolean }
  /** `readOnlyHint: true`, and the tool's words say it changes something. */
  | { kind: 'read-only-writes'; evidence: ChangeEvidence[] }
  /** Not read-only, and no `destructiveHint`: it counts as destructive. */
  | { kind: 'destructive-unstated'; readOnlyDeclared: boolean };

/** The audit of one tool; `words` when the caller has them already. */
export function auditTool(tool: AuditedTool, words: ToolWords = toolWords(tool)): ToolAudit[] {
  const hints = declaredHints(tool.annotations);
  if (hintCount(hints) === 0) return [{ kind: 'none-declared', titleOnly: tool.annotations?.title !== undefined }];
  const out: ToolAudit[] = [];
  if (hints.readOnlyHint === true && words.changes.length > 0)
    out.push({ kind: 'read-only-writes', evidence: words.changes });
  if (hints.readOnlyHint !== true && hints.destructiveHint === undefined) {
    out.push({ kind: 'destructive-unstated', readOnlyDeclared: hints.readOnlyHint === false });
  }
  return out;
}

/** The fewest tools one identical set of hints must cover to be taken for a stamp. */
export const STAMP_MIN_TOOLS = 3;

/** One set of hints on every tool of a server (or of one dynamic namespace), though their words differ. */
export interface Stamp {
  hints: DeclaredHints;
  /** Indexes into the tools given: those whose words say they read, and those whose words say they change something. */
  reading: number[];
  changing: number[];
}

/**
 * The stamp on these tools (one server's list, or one namespace), if there is one: at least
 * `STAMP_MIN_TOOLS` tools, every one declaring hints and all the same ones, while the words of one
 * say it reads and of another that it changes something. Identical hints alone are no evidence: a
 * server of three honest read tools declares the same three times.
 */
export function stampOf(
  tools: readonly AuditedTool[],
  words: readonly ToolWords[] = tools.map((t) => toolWords(t)),
): Stamp | undefined {
  if (tools.length < STAMP_MIN_TOOLS) return undefined;
  const hints = declaredHints(tools[0]!.annotations);
  if (hintCount(hints) === 0) return undefined;
  const key = hintsKey(hints);
  if (tools.some((tool) => hintsKey(declaredHints(tool.annotations)) !== key)) return undefined;
  const reading: number[] = [];
  const changing: number[] = [];
  words.forEach((w, index) => {
    if (w.sense === 'reads') reading.push(index);
    else if (w.sense === 'changes') changing.push(index);
  });
  if (reading.length === 0 || changing.length === 0) return undefined;
  return { hints, reading, changing };
}

// ---- over a tool-catalog document -----------------------------------------------------------------

/** Evidence of a change with the place it is written at. */
export type LocatedEvidence = ChangeEvidence & { span: Span };

export type HintProblem =
  /**
   * One tool without hints, or (`whole`) every tool of a server, listed and dynamic, two or more,
   * none of which declares any: one finding for the server, not one per tool.
   */
  | {
      rule: 'hints/none-declared';
      tool: ToolDecl;
      span: Span;
      titleOnly: boolean;
      whole?: { server: string; tools: ToolDecl[] };
    }
  | { rule: 'hints/read-only-writes'; tool: ToolDecl; span: Span; evidence: LocatedEvidence[] }
  /**
   * One tool, or (`whole`) two or more tools of one server that all say the same (each is not
   * read-only, declares readOnlyHint alike, and no destructiveHint): one finding for the server.
   */
  | {
      rule: 'hints/destructive-unstated';
      tool: ToolDecl;
      span: Span;
      readOnlyDeclared: boolean;
      whole?: { server: string; tools: ToolDecl[] };
    }
  | {
      rule: 'hints/stamped';
      server: string;
      namespace?: string;
      span: Span;
      hints: DeclaredHints;
      tools: ToolDecl[];
      reading: ToolDecl[];
      changing: ToolDecl[];
    };

const auditKey = memoKey<HintProblem[]>('audit/hints');

/** The hints/* problems of one tool-catalog document, in document order per rule. */
export function hintAuditOf(ctx: DocumentContext): HintProblem[] {
  return ctx.memo.get(auditKey, () => auditDocument(ctx));
}

interface ReadTool {
  decl: ToolDecl;
  tool: AuditedTool;
  words: ToolWords;
  annotations?: MapNode;
  /** `annotations` that is no mapping, or a hint that is no boolean: unreadable, and schema/* says so. */
  unreadable: boolean;
}

function auditDocument(ctx: DocumentContext): HintProblem[] {
  const text = ctx.file.source.text;
  const out: HintProblem[] = [];
  const stamped = new Set<ToolDecl>();
  const { servers, tools } = catalogDeclarationsOf(ctx);
  const read = new Map<ToolDecl, ReadTool>();
  const readOf = (decl: ToolDecl): ReadTool => {
    let entry = read.get(decl);
    if (!entry) {
      entry = readTool(decl);
      read.set(decl, entry);
    }
    return entry;
  };

  // A server none of whose tools (listed and dynamic, two or more) declares any hint: one finding.
  const wholesale = new Set<ToolDecl>();
  for (const server of servers) {
    const all = [...server.tools, ...server.namespaces.flatMap((n) => n.tools)];
    const named = all.filter((t) => t.nameNode && t.name !== undefined);
    if (
      named.length < 2 ||
      all.some((t) => readOf(t).unreadable || hintCount(declaredHints(readOf(t).tool.annotations)) > 0)
    )
      continue;
    const first = named[0]!;
    for (const decl of all) wholesale.add(decl);
    out.push({
      rule: 'hints/none-declared',
      tool: first,
      span: (server.nameNode ?? first.nameNode!).span,
      titleOnly: false,
      whole: { server: server.name, tools: named },
    });
  }
  // One set of hints on every tool of a server's list, or of one namespace: a stamp.
  const groups: { server: ServerOf; namespace?: NamespaceOf; tools: ToolDecl[] }[] = [];
  for (const server of servers) {
    groups.push({ server, tools: server.tools });
    for (const namespace of server.namespaces) groups.push({ server, namespace, tools: namespace.tools });
  }
  for (const group of groups) {
    const entries = group.tools.map(readOf);
    if (entries.some((e) => e.unreadable)) continue;
    const stamp = stampOf(
      entries.map((e) => e.tool),
      entries.map((e) => e.words),
    );
    if (!stamp) continue;
    const place = group.namespace ? group.namespace.nameNode : group.server.nameNode;
    const span = place?.span ?? annotationsKeySpan(group.tools[0]!) ?? group.tools[0]!.node.span;
    for (const decl of group.tools) stamped.add(decl);
    out.push({
      rule: 'hints/stamped',
      server: group.server.name,
      ...(group.namespace?.name !== undefined ? { namespace: group.namespace.name } : {}),
      span,
      hints: stamp.hints,
      tools: group.tools,
      reading: stamp.reading.map((i) => group.tools[i]!),
      changing: stamp.changing.map((i) => group.tools[i]!),
    });
  }

  for (const decl of tools) {
    if (!decl.nameNode || decl.name === undefined) continue; // a tool without a name is catalog/*'s
    const entry = readOf(decl);
    if (entry.unreadable) continue;
    for (const audit of auditTool(entry.tool, entry.words)) {
      if (audit.kind === 'none-declared') {
        if (wholesale.has(decl)) continue;
        out.push({
          rule: 'hints/none-declared',
          tool: decl,
          span: annotationsKeySpan(decl) ?? decl.nameNode.span,
          titleOnly: audit.titleOnly,
        });
        continue;
      }
      if (stamped.has(decl)) continue; // the stamp is the cause
      if (audit.kind === 'read-only-writes') {
        const readOnly = getPair(entry.annotations, 'readOnlyHint');
        out.push({
          rule: 'hints/read-only-writes',
          tool: decl,
          span: (readOnly?.value ?? readOnly?.key ?? decl.nameNode).span,
          evidence: audit.evidence.map((evidence) => locate(text, decl, evidence)),
        });
      } else {
        out.push({
          rule: 'hints/destructive-unstated',
          tool: decl,
          span: annotationsKeySpan(decl) ?? decl.nameNode.span,
          readOnlyDeclared: audit.readOnlyDeclared,
        });
      }
    }
  }
  return collapseUnstated(out);
}

type Unstated = Extract<HintProblem, { rule: 'hints/destructive-unstated' }>;

/**
 * The destructive-unstated problems of one server that all say the same thing (two or more, with
 * readOnlyHint declared alike) become one, at the server's name (or the first tool's place when
 * the server has no name written), in the place of the first.
 */
function collapseUnstated(problems: HintProblem[]): HintProblem[] {
  const groups = new Map<string, Unstated[]>();
  for (const problem of problems) {
    if (problem.rule !== 'hints/destructive-unstated') continue;
    const key = `${problem.readOnlyDeclared}`;
    const byServer = groups.get(key) ?? [];
    byServer.push(problem);
    groups.set(key, byServer);
  }
  const replaced = new Map<HintProblem, HintProblem | undefined>();
  for (const group of groups.values()) {
    const byServer = new Map<ServerOf, Unstated[]>();
    for (const problem of group)
      byServer.set(problem.tool.server, [...(byServer.get(problem.tool.server) ?? []), problem]);
    for (const [server, list] of byServer) {
      if (list.length < 2) continue;
      const first = list[0]!;
      replaced.set(first, {
        ...first,
        span: server.nameNode?.span ?? first.span,
        whole: { server: server.name, tools: list.map((p) => p.tool) },
      });
      for (const other of list.slice(1)) replaced.set(other, undefined);
    }
  }
  if (replaced.size === 0) return problems;
  const out: HintProblem[] = [];
  for (const problem of problems) {
    if (!replaced.has(problem)) out.push(problem);
    else {
      const instead = replaced.get(problem);
      if (instead) out.push(instead);
    }
  }
  return out;
}

type ServerOf = ToolDecl['server'];
type NamespaceOf = NonNullable<ToolDecl['namespace']>;

function readTool(decl: ToolDecl): ReadTool {
  const annotationsPair = getPair(decl.node, 'annotations');
  const annotations = isMap(annotationsPair?.value) ? annotationsPair.value : undefined;
  // `annotations` written as something other than a mapping (null included) is schema/*'s to report.
  const oddAnnotations = annotationsPair !== undefined && !annotations;
  const unreadable =
    oddAnnotations ||
    (annotations !== undefined &&
      (HINT_NAMES.some((hint) => {
        const pair = getPair(annotations, hint);
        return pair !== undefined && !(isScalar(pair.value) && typeof pair.value.value === 'boolean');
      }) ||
        // A misspelt hint (`readonlyHint`) is catalog/unknown-field's: what the tool meant to
        // declare is unknown until it is spelt right, so no audit speaks of its hints.
        annotations.pairs.some((pair) => misspeltHint(annotations, keyText(pair)))));
  const tool: AuditedTool = {};
  if (decl.name !== undefined) tool.name = decl.name;
  const description = getString(decl.node, 'description');
  if (description !== undefined) tool.description = description;
  const properties = getMap(getNode(decl.node, 'inputSchema'), 'properties');
  if (properties) {
    // Only what changeParameters and fileParameters read: each property's name, type and description.
    const shallow: Record<string, unknown> = {};
    for (const pair of properties.pairs) {
      const key = keyText(pair);
      // A key written twice (yaml/duplicate-key's) counts once, as its first writing; defined, not
      // assigned, so `__proto__` is a property like any other.
      if (Object.prototype.hasOwnProperty.call(shallow, key)) continue;
      const description = isMap(pair.value) ? getString(pair.value, 'description') : undefined;
      const value = {
        type: toValue(getNode(pair.value, 'type')),
        ...(description !== undefined ? { description } : {}),
      };
      Object.defineProperty(shallow, key, { value, enumerable: true });
    }
    tool.inputSchema = { properties: shallow };
  }
  const declared = annotationsFrom(annotations);
  if (declared) tool.annotations = declared;
  return { decl, tool, words: toolWords(tool), unreadable, ...(annotations ? { annotations } : {}) };
}

/** A key of `annotations` that is no ToolAnnotations key but the misspelling of a hint not written there. */
function misspeltHint(annotations: MapNode, key: string): boolean {
  if ((ANNOTATION_FIELDS as readonly string[]).includes(key)) return false;
  const meant = suggestAnnotationField(key);
  return meant !== undefined && (HINT_NAMES as readonly string[]).includes(meant) && !getPair(annotations, meant);
}

function annotationsKeySpan(decl: ToolDecl): Span | undefined {
  return getPair(decl.node, 'annotations')?.key.span;
}

function locate(text: string, decl: ToolDecl, evidence: ChangeEvidence): LocatedEvidence {
  if (evidence.where === 'name') return { ...evidence, span: within(text, decl.nameNode!, evidence.verb) };
  if (evidence.where === 'description') {
    const node = getPair(decl.node, 'description')!.value as ScalarNode;
    return { ...evidence, span: within(text, node, evidence.verb) };
  }
  const properties = getMap(getNode(decl.node, 'inputSchema'), 'properties');
  // A file parameter is reported at its key; its description says what it writes.
  const pair = properties?.pairs.find((p) => keyText(p) === evidence.parameter.name);
  return { ...evidence, span: (pair?.key ?? decl.nameNode!).span };
}

function within(text: string, node: ScalarNode, word: { start: number; end: number }): Span {
  return valueSpanMapper(text, node)(word.start, word.end);
}
