// Completion over the core's data: tool references from the catalog in a step's `tool` value, step
// ids in `dependsOn`, template roots and fields inside `{{ }}`, argument names from the resolved
// tool's input schema inside `arguments`, tool names under `toolFaces` and the closed-set values of
// face fields. Each entry says what it replaces (a span of the file) and with what;
// lsp/completion.ts makes LSP items of them.
import { dotForm, gatewayOf } from '../gateway/gateway.js';
import {
  RESERVED_APPROVAL_CARDS,
  TOOL_APPROVAL_CARD_NAMES,
  TOOL_FAMILIES,
  TOOL_PATH_ABSENCES,
  TOOL_PATH_ACCESSES,
  TOOL_PATH_BASES,
} from '../faceVocabulary/constants.js';
import { topLevelProperties } from '../jsonschema/properties.js';
import { clientViewOf, entryFactsOf } from '../model/clients.js';
import { catalogServerOf, facesOf, type FaceServer } from '../model/faces.js';
import { upstreamOf, type StepModel, type WorkflowModel } from '../model/workflow.js';
import type { ParsedFile } from '../parse/file.js';
import { getMap, getNode, isMap, isScalar, nodeAtPath, type ScalarNode } from '../parse/nodes.js';
import { valueSpanMapper } from '../parse/scalarOffsets.js';
import { WORKFLOW_FIELDS } from '../templates/index.js';
import type { DocumentContext } from '../context.js';
import { WORKFLOW_KINDS } from '../types.js';
import type { Span } from '../types.js';
import type { Workspace } from '../workspace.js';
import {
  contentSpan,
  contextOf,
  locate,
  relativePath,
  samePath,
  startsWith,
  valueIndexAt,
  workflowAt,
  type Located,
} from './cursor.js';
import { tomlKeyCompletions } from './tomlCompletion.js';
import { catalogToolOf, resolveStepTool, toolDetailsMarkdown } from './tools.js';

/** What a completion entry is, as the editor's icons tell them apart. */
export type CompletionKind =
  'function' | 'reference' | 'property' | 'module' | 'variable' | 'field' | 'enum-member' | 'enum' | 'value';

export interface CompletionEntry {
  label: string;
  kind: CompletionKind;
  detail?: string;
  /** Markdown. */
  documentation?: string;
  sortText?: string;
  filterText?: string;
  /** What the entry replaces (a span of the file asked about), and with what. */
  span: Span;
  newText: string;
  /** Accepting it leaves the cursor where a value goes next: the editor opens the next list (a rule's severities). */
  suggestNext?: boolean;
}

/** Stands in for the word being typed on an otherwise blank YAML line, so the parser places it by indentation. */
const PLACEHOLDER = 'tool_lens_completion_placeholder';

/** A key being typed: where the key goes and what to replace. */
export interface KeySlot {
  kind: 'key';
  /** Path of the mapping the key belongs to. */
  mapPath: (string | number)[];
  span: Span;
  /** Keys already in the mapping (the one being typed excluded). */
  existing: Set<string>;
  /** Whether a `:` must be written after the key. */
  needsColon: boolean;
  /** A JSON key: written in double quotes. */
  quoted: boolean;
}

/** A scalar value being typed (or an empty place for one). */
export interface ValueSlot {
  kind: 'value';
  /** Path of the value; for a new sequence item, the sequence's path plus -1. */
  path: (string | number)[];
  node?: ScalarNode;
  span: Span;
}

type Slot = KeySlot | ValueSlot;

export interface CompletionContext {
  ctx: DocumentContext;
  /** The original file (the entries' spans are of its text). */
  file: ParsedFile;
  located: Located;
  slot: Slot;
  offset: number;
  json: boolean;
}

/** The completions at `offset` of a file of one of our kinds. */
export function completionsAt(file: ParsedFile, workspace: Workspace, offset: number): CompletionEntry[] {
  // The rest writes YAML or JSON; in TOML (Codex's config) only a server entry's keys, as TOML.
  if (file.language === 'toml') return tomlKeyCompletions(file, workspace, offset);
  const built = buildContext(file, workspace, offset);
  if (!built || !built.located.doc.kind) return [];
  const kind = built.located.doc.kind;
  if (WORKFLOW_KINDS.includes(kind)) return workflowCompletions(built);
  if (kind === 'face-overlay') return faceCompletions(built);
  if (kind === 'mcp-servers') {
    const faces = faceCompletions(built);
    return faces.length > 0 ? faces : clientCompletions(built);
  }
  return [];
}

/**
 * A server entry's keys and `type` values, as the file's client reads them (model/clients.ts):
 * only for a client whose entries Tool Lens knows, so nothing is offered that the client ignores.
 */
function clientCompletions(c: CompletionContext): CompletionEntry[] {
  const view = clientViewOf(c.ctx);
  const facts = entryFactsOf(view);
  if (!view.client || !facts) return [];
  const serversKey = view.client.serversKey;
  const client = view.client.label;
  if (c.slot.kind === 'key' && c.slot.mapPath.length === 2 && c.slot.mapPath[0] === serversKey) {
    return keyItems(
      c.slot,
      facts.keys.map((name) => ({ name, detail: `read by ${client}`, first: name === 'type' || name === 'command' })),
    );
  }
  if (
    c.slot.kind === 'value' &&
    c.slot.path.length === 3 &&
    c.slot.path[0] === serversKey &&
    c.slot.path[2] === 'type'
  ) {
    const quote = c.json && !c.slot.node;
    const span = c.slot.span;
    return (facts.transport?.values ?? []).map((value) => ({
      label: value,
      kind: 'enum-member' as const,
      detail: `a transport ${client} accepts`,
      span,
      newText: quote ? JSON.stringify(value) : value,
    }));
  }
  return [];
}

/** Where the cursor is and what is being typed there; `anyKind` also in a document of none of our kinds (`.toollens.yaml`). */
export function buildContext(
  file: ParsedFile,
  workspace: Workspace,
  offset: number,
  anyKind = false,
): CompletionContext | undefined {
  const json = file.language !== 'yaml';
  let located = locate(file, offset);
  let analysed = file;
  let shift = 0;
  const lineStart = file.source.lineStarts[file.source.positionAt(offset).line] ?? 0;
  const before = file.source.text.slice(lineStart, offset);
  const placed = located?.target.kind === 'key' || located?.target.kind === 'value';
  if (!json && !placed && /^\s*(-\s*)?$/.test(before)) {
    const text = file.source.text;
    analysed = workspace.parse(file.path, text.slice(0, offset) + PLACEHOLDER + text.slice(offset), file);
    located = locate(analysed, offset);
    shift = PLACEHOLDER.length;
  }
  if (!located || (!located.doc.kind && !anyKind)) return undefined;
  const unpatch = (span: Span): Span => {
    const at = (p: number) => (p <= offset ? p : Math.max(offset, p - shift));
    return { start: at(span.start), end: at(span.end) };
  };
  const text = analysed.source.text;
  const target = located.target;
  let slot: Slot | undefined;
  if (target.kind === 'key') {
    const after = text.slice(target.pair.key.span.end, target.pair.key.span.end + 40);
    const existing = new Set(target.map.pairs.filter((p) => p !== target.pair).map((p) => String(p.key.value)));
    existing.delete(PLACEHOLDER);
    slot = {
      kind: 'key',
      mapPath: located.path.slice(0, -1),
      span: unpatch(target.pair.key.span),
      existing,
      needsColon: !/^[ \t]*:/.test(after),
      quoted: target.pair.key.style === 'json' || target.pair.key.style === 'double',
    };
  } else if (target.kind === 'value') {
    const node = target.node;
    const keyLine = target.pair ? analysed.source.positionAt(target.pair.key.span.start).line : -1;
    const nodeLine = analysed.source.positionAt(node.span.start).line;
    if (!json && target.pair && node.style === 'plain' && node.value !== null && nodeLine > keyLine) {
      // `key:` then a word on the next line: YAML reads the word as the value, the user is typing a key.
      slot = {
        kind: 'key',
        mapPath: located.path,
        span: unpatch(node.span),
        existing: new Set(),
        needsColon: true,
        quoted: false,
      };
    } else if (node.value === PLACEHOLDER) {
      slot = { kind: 'value', path: located.path, node: undefined, span: { start: offset, end: offset } };
    } else {
      slot = {
        kind: 'value',
        path: located.path,
        node,
        span: unpatch(node.value === null ? node.span : contentSpan(node)),
      };
    }
  } else if (target.kind === 'map-gap') {
    slot = {
      kind: 'key',
      mapPath: located.path,
      span: { start: offset, end: offset },
      existing: new Set(target.map.pairs.map((p) => String(p.key.value))),
      needsColon: true,
      quoted: json,
    };
  } else if (target.kind === 'seq-gap') {
    slot = { kind: 'value', path: [...located.path, -1], span: { start: offset, end: offset } };
  }
  if (!slot) return undefined;
  const ctx = contextOf(analysed, located.doc, workspace);
  return { ctx, file, located, slot, offset, json };
}

// ---------------------------------------------------------------------------------------------
// Workflows

function workflowCompletions(c: CompletionContext): CompletionEntry[] {
  const path = c.slot.kind === 'key' ? [...c.slot.mapPath, '?'] : c.slot.path;
  const { workflow, step } = workflowAt(c.ctx, path);
  if (!workflow) return [];
  // Templates first: any string of the workflow may hold one.
  if (c.slot.kind === 'value' && c.slot.node && typeof c.slot.node.value === 'string') {
    const items = templateCompletions(c, c.slot.node, workflow, step);
    if (items) return items;
  }
  if (!step) return [];
  if (c.slot.kind === 'value') {
    const rel = relativePath(c.slot.path, step.path);
    if (samePath(rel, ['tool'])) return toolCompletions(c, c.slot);
    if (rel[0] === 'dependsOn' && (rel.length === 2 || (rel.length === 1 && c.slot.node?.value === null))) {
      return stepIdCompletions(c, c.slot, workflow, step, rel.length === 1);
    }
    return [];
  }
  const relMap = relativePath(c.slot.mapPath, step.path);
  if (samePath(relMap, ['arguments'])) return argumentCompletions(c, c.slot, step);
  return [];
}

function toolCompletions(c: CompletionContext, slot: ValueSlot): CompletionEntry[] {
  const gateway = gatewayOf(c.ctx);
  const quote = (s: string) => (c.json && !slot.node ? JSON.stringify(s) : s);
  const items: CompletionEntry[] = [];
  const seen = new Set<string>();
  for (const tool of gateway.tools) {
    const names = [dotForm(tool)];
    if (!tool.conflicted && tool.resolvedName !== names[0]) names.push(tool.resolvedName);
    for (const name of names) {
      if (seen.has(name)) continue;
      seen.add(name);
      items.push({
        label: name,
        kind: 'function',
        detail: `${tool.tool.title ?? tool.originalName} (${tool.workload}${tool.advertised ? '' : ', hidden'})`,
        documentation: toolDetailsMarkdown(tool.tool).join('\n'),
        sortText: `${tool.advertised ? 0 : 1}${name === dotForm(tool) ? 0 : 1}${name}`,
        span: slot.span,
        newText: quote(name),
      });
    }
  }
  return items;
}

const GO_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function stepIdCompletions(
  c: CompletionContext,
  slot: ValueSlot,
  workflow: WorkflowModel,
  step: StepModel,
  asList: boolean,
): CompletionEntry[] {
  const outer = step.parent ?? step;
  const listed = new Set(outer.dependsOn.map((d) => String(d.value)));
  const items: CompletionEntry[] = [];
  for (const other of workflow.steps) {
    const id = other.idText;
    if (id === undefined || id === '' || other === outer || listed.has(id)) continue;
    const quoted = c.json ? JSON.stringify(id) : id;
    items.push({
      label: id,
      kind: 'reference',
      detail: other.toolText ?? other.type,
      span: slot.span,
      // Inside an existing scalar only the text is replaced; a new item needs its quotes in JSON.
      newText: asList ? `[${quoted}]` : slot.node ? id : quoted,
    });
  }
  return items;
}

function argumentCompletions(c: CompletionContext, slot: KeySlot, step: StepModel): CompletionEntry[] {
  const tool = catalogToolOf(resolveStepTool(c.ctx, step));
  if (!tool) return [];
  const { properties } = topLevelProperties(tool.inputSchema);
  return keyItems(
    slot,
    [...properties.values()].map((p) => ({
      name: p.name,
      detail: `${p.typeText}${p.required ? ', required' : ''}`,
      documentation: p.description,
      first: p.required,
    })),
  );
}

export function keyItems(
  slot: KeySlot,
  keys: { name: string; detail?: string; documentation?: string; first?: boolean }[],
): CompletionEntry[] {
  const items: CompletionEntry[] = [];
  for (const key of keys) {
    if (slot.existing.has(key.name)) continue;
    const written = slot.quoted ? JSON.stringify(key.name) : key.name;
    items.push({
      label: key.name,
      kind: 'property',
      ...(key.detail !== undefined ? { detail: key.detail } : {}),
      ...(key.documentation ? { documentation: key.documentation } : {}),
      sortText: `${key.first ? 0 : 1}${key.name}`,
      filterText: slot.quoted ? written : key.name,
      span: slot.span,
      newText: slot.needsColon ? `${written}: ` : written,
    });
  }
  return items;
}

// ---------------------------------------------------------------------------------------------
// Templates

const STEP_FIELDS: [string, string][] = [
  ['output', "the step's result"],
  ['status', 'pending, running, completed, failed or skipped'],
  ['error', 'the error text, when the step failed'],
];

/** Completions inside `{{ }}`, or undefined when the caret is not in a template. */
function templateCompletions(
  c: CompletionContext,
  node: ScalarNode,
  workflow: WorkflowModel,
  step: StepModel | undefined,
): CompletionEntry[] | undefined {
  const text = c.ctx.file.source.text;
  const index = valueIndexAt(text, node, Math.min(c.offset, node.span.end));
  if (index === undefined) return undefined;
  const value = node.value as string;
  const before = value.slice(0, index);
  const open = before.lastIndexOf('{{');
  if (open < 0 || before.lastIndexOf('}}') > open) return undefined;
  const expression = before.slice(open + 2);
  const match = /(^|[^A-Za-z0-9_$)\]])((?:\.[A-Za-z0-9_]*)+)$/.exec(expression);
  if (!match) return [];
  const segments = match[2]!.slice(1).split('.');
  const partial = segments.pop() ?? '';
  const map = valueSpanMapper(text, node);
  const span = map(index - partial.length, index);
  const item = (label: string, detail: string, kind: CompletionKind, sort = '1'): CompletionEntry => ({
    label,
    kind,
    detail,
    sortText: `${sort}${label}`,
    span,
    newText: label,
  });
  const [root, second, third, fourth] = segments;
  const outer = step ? (step.parent ?? step) : undefined;
  if (segments.length === 0) {
    const roots = [
      item('params', "the workflow's call arguments", 'module'),
      item('steps', 'results of other steps', 'module'),
    ];
    roots.push(item('workflow', 'id, status, timing of this run', 'module'));
    if (step?.parent) roots.push(item('forEach', 'the current item and index', 'module'));
    return roots;
  }
  if (root === 'params' && segments.length === 1) {
    const properties = getMap(workflow.parameters, 'properties');
    return (properties?.pairs ?? []).map((pair) => {
      const type =
        isMap(pair.value) && isScalar(getNode(pair.value, 'type'))
          ? String((getNode(pair.value, 'type') as ScalarNode).value)
          : 'parameter';
      return item(String(pair.key.value), type, 'variable');
    });
  }
  if (root === 'workflow' && segments.length === 1)
    return WORKFLOW_FIELDS.map((f) => item(f, 'run information', 'field'));
  if (root === 'forEach' && segments.length === 1 && step?.parent) {
    return [item(step.parent.itemVar, 'the current item', 'variable'), item('index', 'the current index', 'variable')];
  }
  if (root !== 'steps') return [];
  if (segments.length === 1) {
    const upstream = outer ? upstreamOf(workflow, outer) : new Set(workflow.steps.map((s) => s.idText ?? ''));
    return workflow.steps
      .filter((s) => s !== outer && s.idText !== undefined && GO_IDENTIFIER.test(s.idText))
      .map((s) => {
        const up = upstream.has(s.idText!);
        return item(
          s.idText!,
          up || !outer ? (s.toolText ?? s.type) : 'not upstream: add it to dependsOn first',
          'reference',
          up ? '0' : '1',
        );
      });
  }
  const target = second !== undefined ? workflow.byId.get(second) : undefined;
  if (!target) return [];
  if (segments.length === 2) return STEP_FIELDS.map(([f, d]) => item(f, d, 'field'));
  if (third !== 'output') return [];
  if (segments.length === 3) {
    const fields = new Map<string, string>();
    if (target.type === 'elicitation') {
      fields.set('action', 'accept, decline, cancel or timeout');
      fields.set('content', "the user's answers");
    } else if (target.type === 'forEach') {
      for (const f of ['iterations', 'count', 'completed', 'failed']) fields.set(f, 'forEach result');
    } else {
      const tool = catalogToolOf(resolveStepTool(c.ctx, target));
      for (const p of topLevelProperties(tool?.outputSchema).properties.values()) fields.set(p.name, p.typeText);
      if (tool && !tool.outputSchema) fields.set('text', 'the first text content (no outputSchema)');
    }
    for (const pair of target.defaultResults?.pairs ?? [])
      if (!fields.has(String(pair.key.value))) fields.set(String(pair.key.value), 'from defaultResults');
    return [...fields].map(([f, d]) => item(f, d, 'field'));
  }
  if (segments.length === 4 && target.type === 'elicitation' && fourth === 'content') {
    const properties = nodeAtPath(target.node, ['schema', 'properties']);
    return (isMap(properties) ? properties.pairs : []).map((pair) =>
      item(String(pair.key.value), 'elicited field', 'field'),
    );
  }
  return [];
}

// ---------------------------------------------------------------------------------------------
// Faces

const CLOSED_SETS: { path: string[]; values: readonly string[]; what: string }[] = [
  { path: ['family'], values: TOOL_FAMILIES, what: 'tool family' },
  { path: ['pathTarget', 'access'], values: TOOL_PATH_ACCESSES, what: 'path access' },
  { path: ['pathTarget', 'base'], values: TOOL_PATH_BASES, what: 'path base' },
  { path: ['pathTarget', 'absent'], values: TOOL_PATH_ABSENCES, what: 'when the path is absent' },
  {
    path: ['renderHints', 'approvalCard'],
    values: TOOL_APPROVAL_CARD_NAMES.filter((card) => !RESERVED_APPROVAL_CARDS.includes(card)),
    what: 'approval card',
  },
];

function toolFacesPath(server: FaceServer): (string | number)[] | undefined {
  if (server.source === 'overlay') return ['toolFaces'];
  return server.name === undefined ? undefined : [server.source, server.name, 'toolFaces'];
}

function faceCompletions(c: CompletionContext): CompletionEntry[] {
  for (const server of facesOf(c.ctx).servers) {
    const base = toolFacesPath(server);
    if (!base) continue;
    if (c.slot.kind === 'key' && samePath(c.slot.mapPath, base)) {
      // A new face: the tools the server lists that have no face yet.
      const catalogServer = catalogServerOf(c.ctx, server);
      const faced = new Set(server.faces.map((f) => f.toolName));
      return keyItems(
        { ...c.slot, existing: new Set([...c.slot.existing, ...[...faced].filter((n) => n !== PLACEHOLDER)]) },
        (catalogServer?.tools ?? []).map((t) => ({
          name: t.name,
          detail: t.title ?? 'tool',
          documentation: t.description,
        })),
      );
    }
    if (c.slot.kind !== 'value' || !startsWith(c.slot.path, base)) continue;
    const rel = relativePath(c.slot.path, base).slice(1).map(String);
    const set = CLOSED_SETS.find((s) => samePath(rel, s.path));
    if (!set) return [];
    const span = c.slot.span;
    const quote = c.json && !c.slot.node;
    return set.values.map((value) => ({
      label: value,
      kind: 'enum-member' as const,
      detail: set.what,
      span,
      newText: quote ? JSON.stringify(value) : value,
    }));
  }
  return [];
}
