// What changed between two catalogs, server by server and tool by tool: tools added, removed and
// renamed, required arguments added, arguments removed or given another type, each safety hint
// that loosened or tightened, every text the model reads that changed (descriptions, titles,
// parameter descriptions), and which fields differ, by path. Hints are compared as the safety
// floor reads them (docs/toolhive.md#derivation): only `readOnlyHint: true`, `destructiveHint:
// false` and `openWorldHint: false` count as safe, so a hint a tool stops declaring loosens. A
// hint that tightens is a tool claiming more safety than before; `idempotentHint` (which the floor
// never derives) counts only that way: a tool that is not read-only and newly declares it true.
// Typed data only.
import type { CatalogServer, CatalogTool } from './model.js';

export type SafetyHint = 'readOnlyHint' | 'destructiveHint' | 'openWorldHint';
const SAFETY_HINTS: readonly SafetyHint[] = ['readOnlyHint', 'destructiveHint', 'openWorldHint'];
const SAFE: Record<SafetyHint, boolean> = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

export interface HintChange {
  hint: SafetyHint | 'idempotentHint';
  /** The declared values; undefined when the tool does not declare the hint. */
  before: boolean | undefined;
  after: boolean | undefined;
  /**
   * loosened: it was safe and no longer is (composites built on it lose what they claimed);
   * tightened: the tool now claims to be safer than before (clients may ask less before calling it).
   */
  direction: 'loosened' | 'tightened';
}

/** A text the model reads that differs: a tool's `title` or `description`, or one inside a schema. */
export interface TextChange {
  /** Where, from the tool: `description`, `title`, `annotations.title`, `inputSchema.properties.path.description`. */
  field: string;
  /** The text; undefined on the side that does not have it. */
  before: string | undefined;
  after: string | undefined;
}

export interface TypeChange {
  argument: string;
  /** The `type` the input schema gives the argument (`JSON.stringify`d when not a string), or undefined. */
  before: string | undefined;
  after: string | undefined;
}

export interface ToolChange {
  /** The tool's name in the old catalog (for an added tool: in the new one). */
  name: string;
  change: 'added' | 'removed' | 'renamed' | 'changed';
  /** renamed: the new name (the tool's input schema and description stayed the same). */
  renamedTo?: string;
  requiredAdded: string[];
  argumentsRemoved: string[];
  typeChanged: TypeChange[];
  hints: HintChange[];
  /** What else differs, by field: `title`, `description`, `inputSchema` (beyond the arguments above), `outputSchema`, `annotations` (beyond the safety hints). */
  otherChanges: string[];
  /** Every text the model reads that changed, with both versions (a tool present on both sides only). */
  descriptions: TextChange[];
  /** Every place that differs, as a path from the tool (`inputSchema.properties.path.description`); at most 50. */
  changedFields: string[];
  before?: CatalogTool;
  after?: CatalogTool;
}

export interface ServerChange {
  name: string;
  change: 'added' | 'removed' | 'changed';
  tools: ToolChange[];
}

export interface CatalogDiff {
  servers: ServerChange[];
  /** Some hint of some tool loosened. */
  loosened: boolean;
}

export function diffCatalogs(before: readonly CatalogServer[], after: readonly CatalogServer[]): CatalogDiff {
  const old = new Map(before.map((s) => [s.name, s]));
  const now = new Map(after.map((s) => [s.name, s]));
  const names = [...new Set([...old.keys(), ...now.keys()])].sort();
  const servers: ServerChange[] = [];
  for (const name of names) {
    const a = old.get(name);
    const b = now.get(name);
    if (!a) servers.push({ name, change: 'added', tools: b!.tools.map((t) => added(t)) });
    else if (!b) servers.push({ name, change: 'removed', tools: a.tools.map((t) => removed(t)) });
    else {
      const tools = diffTools(a.tools, b.tools);
      if (tools.length) servers.push({ name, change: 'changed', tools });
    }
  }
  return {
    servers,
    loosened: servers.some((s) => s.tools.some((t) => t.hints.some((h) => h.direction === 'loosened'))),
  };
}

function diffTools(before: readonly CatalogTool[], after: readonly CatalogTool[]): ToolChange[] {
  const old = new Map(before.map((t) => [t.name, t]));
  const now = new Map(after.map((t) => [t.name, t]));
  const changes: ToolChange[] = [];
  for (const [name, tool] of old) {
    const next = now.get(name);
    if (!next) continue;
    const change = compareTools(tool, next, 'changed');
    if (change) changes.push(change);
  }
  // A tool gone and another come with the same input schema and description: the same tool, renamed.
  const gone = [...old.values()].filter((t) => !now.has(t.name));
  const come = [...now.values()].filter((t) => !old.has(t.name));
  const paired = new Set<CatalogTool>();
  for (const tool of gone) {
    const twin = come.find((c) => !paired.has(c) && sameShape(tool, c));
    if (twin) {
      paired.add(twin);
      changes.push({ ...compareTools(tool, twin, 'renamed')!, renamedTo: twin.name });
    } else {
      changes.push(removed(tool));
    }
  }
  for (const tool of come) if (!paired.has(tool)) changes.push(added(tool));
  return changes;
}

function empty(name: string, change: ToolChange['change']): ToolChange {
  return {
    name,
    change,
    requiredAdded: [],
    argumentsRemoved: [],
    typeChanged: [],
    hints: [],
    otherChanges: [],
    descriptions: [],
    changedFields: [],
  };
}

function added(tool: CatalogTool): ToolChange {
  return { ...empty(tool.name, 'added'), after: tool };
}

function removed(tool: CatalogTool): ToolChange {
  return { ...empty(tool.name, 'removed'), before: tool };
}

/** The differences between two versions of one tool; undefined for 'changed' when there are none. */
function compareTools(before: CatalogTool, after: CatalogTool, change: 'changed' | 'renamed'): ToolChange | undefined {
  const a = argumentsOf(before.inputSchema);
  const b = argumentsOf(after.inputSchema);
  const result: ToolChange = {
    ...empty(before.name, change),
    before,
    after,
    requiredAdded: [...b.required].filter((name) => !a.required.has(name)),
    argumentsRemoved: [...a.types.keys()].filter((name) => !b.types.has(name)),
    typeChanged: [...a.types]
      .filter(([name, type]) => b.types.has(name) && b.types.get(name) !== type)
      .map(([argument, type]) => ({ argument, before: type, after: b.types.get(argument) })),
    hints: hintChanges(before, after),
    otherChanges: [],
    descriptions: textChanges(before, after),
    changedFields: changedPaths(comparable(before), comparable(after)),
  };
  const classified = result.requiredAdded.length + result.argumentsRemoved.length + result.typeChanged.length > 0;
  if ((before.title ?? '') !== (after.title ?? '')) result.otherChanges.push('title');
  if ((before.description ?? '') !== (after.description ?? '')) result.otherChanges.push('description');
  if (!classified && canonical(before.inputSchema) !== canonical(after.inputSchema))
    result.otherChanges.push('inputSchema');
  if (canonical(before.outputSchema) !== canonical(after.outputSchema)) result.otherChanges.push('outputSchema');
  if (result.hints.length === 0 && canonical(before.annotations) !== canonical(after.annotations))
    result.otherChanges.push('annotations');
  const changed = classified || result.hints.length + result.otherChanges.length > 0;
  return changed || change === 'renamed' ? result : undefined;
}

function hintChanges(before: CatalogTool, after: CatalogTool): HintChange[] {
  const changes: HintChange[] = [];
  for (const hint of SAFETY_HINTS) {
    const was = before.annotations?.[hint];
    const now = after.annotations?.[hint];
    const wasSafe = was === SAFE[hint];
    const nowSafe = now === SAFE[hint];
    if (wasSafe !== nowSafe)
      changes.push({ hint, before: was, after: now, direction: wasSafe ? 'loosened' : 'tightened' });
  }
  // A client may retry an idempotent tool on its own; the hint means something only on a tool that
  // is not read-only. Dropping it costs no composite anything (the floor never derives it).
  const was = before.annotations?.idempotentHint;
  const now = after.annotations?.idempotentHint;
  if (was !== true && now === true && after.annotations?.readOnlyHint !== true)
    changes.push({ hint: 'idempotentHint', before: was, after: now, direction: 'tightened' });
  return changes;
}

/** The fields of a tool that the comparison reads, as one value. */
function comparable(tool: CatalogTool): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (tool.title !== undefined) out.title = tool.title;
  if (tool.description !== undefined) out.description = tool.description;
  if (tool.inputSchema !== undefined) out.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) out.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) out.annotations = tool.annotations;
  return out;
}

const MAX_PATHS = 50;

/** The paths at which two values differ (keys in any order are the same), at most 50. */
export function differingPaths(before: unknown, after: unknown, at = ''): string[] {
  return changedPaths(before, after, at);
}

function changedPaths(before: unknown, after: unknown, at = '', out: string[] = []): string[] {
  if (out.length >= MAX_PATHS) return out;
  if (isRecord(before) && isRecord(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)]))
      changedPaths(before[key], after[key], pathOf(at, key), out);
    return out;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    before.forEach((item, i) => changedPaths(item, after[i], `${at}[${i}]`, out));
    return out;
  }
  if (canonical(before) !== canonical(after)) out.push(at === '' ? '(the tool)' : at);
  return out;
}

function pathOf(at: string, key: string): string {
  const part = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : JSON.stringify(key);
  return at === '' ? part : /^[A-Za-z_$]/.test(part) ? `${at}.${part}` : `${at}[${part}]`;
}

/**
 * The texts the model reads: the tool's title and description, the annotations' title, and every
 * `title` or `description` string inside its schemas (the parameters' descriptions), by path.
 */
function textsOf(tool: CatalogTool): Map<string, string> {
  const texts = new Map<string, string>();
  if (tool.title !== undefined) texts.set('title', tool.title);
  if (tool.description !== undefined) texts.set('description', tool.description);
  if (tool.annotations?.title !== undefined) texts.set('annotations.title', tool.annotations.title);
  const walk = (value: unknown, at: string, keyword: boolean): void => {
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${at}[${i}]`, true));
    if (!isRecord(value)) return;
    for (const [key, item] of Object.entries(value)) {
      const path = pathOf(at, key);
      // In a schema, `description` and `title` are text only where keywords stand, not as
      // property names under `properties`.
      if (keyword && (key === 'description' || key === 'title') && typeof item === 'string') texts.set(path, item);
      else
        walk(
          item,
          path,
          !(
            keyword &&
            (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions')
          ),
        );
    }
  };
  walk(tool.inputSchema, 'inputSchema', true);
  walk(tool.outputSchema, 'outputSchema', true);
  return texts;
}

function textChanges(before: CatalogTool, after: CatalogTool): TextChange[] {
  const a = textsOf(before);
  const b = textsOf(after);
  const out: TextChange[] = [];
  for (const field of new Set([...a.keys(), ...b.keys()]))
    if (a.get(field) !== b.get(field)) out.push({ field, before: a.get(field), after: b.get(field) });
  return out;
}

interface ArgumentShape {
  required: Set<string>;
  /** Each top-level property and its declared `type` (undefined when it declares none). */
  types: Map<string, string | undefined>;
}

function argumentsOf(schema: unknown): ArgumentShape {
  const shape: ArgumentShape = { required: new Set(), types: new Map() };
  if (!isRecord(schema)) return shape;
  if (Array.isArray(schema.required))
    for (const name of schema.required) if (typeof name === 'string') shape.required.add(name);
  if (isRecord(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      const type = isRecord(property) ? property.type : undefined;
      shape.types.set(name, type === undefined ? undefined : typeof type === 'string' ? type : JSON.stringify(type));
    }
  }
  return shape;
}

function sameShape(a: CatalogTool, b: CatalogTool): boolean {
  return (a.description ?? '') === (b.description ?? '') && canonical(a.inputSchema) === canonical(b.inputSchema);
}

/** JSON with keys sorted, so two schemas that differ only in key order compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
