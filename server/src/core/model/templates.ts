// Every templated string of every workflow of a document, parsed once and shared by the
// template rules (and the hover): where it sits, who owns it, its parse errors and the root
// references it makes, with their spans already mapped back into the source text.
import { memoKey } from '../memo.js';
import { getMap, getNode, getScalar, isMap, isScalar, isSeq, type Node, type ScalarNode } from '../parse/nodes.js';
import { valueSpanMapper, type ValueSpanMapper } from '../parse/scalarOffsets.js';
import type { DocumentContext } from '../context.js';
import {
  extractReferences,
  isTemplate,
  parseTemplate,
  type FieldReference,
  type ParsedTemplate,
  type TemplateProblem,
} from '../templates/index.js';
import type { Span, TextEdit } from '../types.js';
import { allSteps, workflowsOf, type StepModel, type WorkflowModel } from './workflow.js';

/** The workflow field a string sits under. */
type TemplateField = 'arguments' | 'condition' | 'message' | 'collection' | 'output';

export interface SourceSegment {
  name: string;
  /** Offsets inside the decoded string value. */
  start: number;
  end: number;
  /** Where the segment is in the source text. */
  span: Span;
}

export interface SourceReference {
  /** The reference as the template API gives it (value offsets). */
  ref: FieldReference;
  /** `params`, `steps`, `forEach`, `vars`, `workflow`..., '' for a bare `.`. */
  root: string;
  segments: SourceSegment[];
  /** The whole chain in the source. */
  span: Span;
  /** Read with `index` and string keys rather than with dots. */
  viaIndex: boolean;
  /** Written from `$` rather than from `.`. */
  viaDollar: boolean;
}

export interface TemplateString {
  workflow: WorkflowModel;
  /** The step whose field this is (a forEach inner step for `step.arguments`); absent for output. */
  step?: StepModel;
  owner: 'step' | 'output';
  field: TemplateField;
  /**
   * Keys and indexes below the field: `['labels', 1]` for `arguments.labels[1]`; for output, the
   * property names down to the one holding `value` (`['meta', 'version']`). Empty for
   * condition, message and collection.
   */
  path: (string | number)[];
  /**
   * ToolHive parses this string when it loads the configuration (condition, message, collection,
   * top-level string arguments). Nested argument strings are only parsed when the step runs, and
   * output values only get a `{{`/`}}` balance check before the workflow renders them.
   */
  checkedAtLoad: boolean;
  /** Scanned by ToolHive's defaultResults check (condition, message, top-level arguments of top-level steps, output values). */
  scannedForDefaults: boolean;
  scalar: ScalarNode;
  text: string;
  parsed: ParsedTemplate;
  references: SourceReference[];
  /** The parse errors: what is wrong (a code with data; its offsets are the value's) and where in the source. */
  errors: { problem: TemplateProblem; span: Span }[];
  /** Maps value offsets to source spans; falls back to the whole scalar when it cannot be exact. */
  map: ValueSpanMapper;
  /** True when `map` gives exact characters, so a fix may edit inside the string. */
  exact: boolean;
}

export interface TemplateIndex {
  strings: TemplateString[];
  /** The strings owned by one step (its inner step's are listed under the inner step). */
  byStep: Map<StepModel, TemplateString[]>;
}

const KEY = memoKey<TemplateIndex>('templates');

export function templatesOf(ctx: DocumentContext): TemplateIndex {
  return ctx.memo.get(KEY, () => buildTemplateIndex(ctx.file.source.text, workflowsOf(ctx).workflows));
}

// ToolHive expands nested argument strings to a depth of 100; deeper data is not templated.
const MAX_ARGUMENT_DEPTH = 100;
const MAX_OUTPUT_DEPTH = 10;

function buildTemplateIndex(text: string, workflows: readonly WorkflowModel[]): TemplateIndex {
  const strings: TemplateString[] = [];
  const byStep = new Map<StepModel, TemplateString[]>();
  for (const workflow of workflows) {
    const add = (
      scalar: ScalarNode,
      field: TemplateField,
      path: (string | number)[],
      step: StepModel | undefined,
      checkedAtLoad: boolean,
      scannedForDefaults: boolean,
    ) => {
      if (typeof scalar.value !== 'string') return;
      // A condition is always rendered and compared, so plain text there matters too.
      if (field !== 'condition' && !isTemplate(scalar.value)) return;
      const entry = makeString(text, workflow, scalar, field, path, step, checkedAtLoad, scannedForDefaults);
      strings.push(entry);
      if (step) {
        let list = byStep.get(step);
        if (!list) byStep.set(step, (list = []));
        list.push(entry);
      }
    };
    const stepStrings = (step: StepModel) => {
      const inner = step.parent !== undefined;
      if (step.condition && !inner) add(step.condition, 'condition', [], step, true, true);
      if (step.message && !inner) add(step.message, 'message', [], step, true, true);
      if (step.collection && step.type === 'forEach') add(step.collection, 'collection', [], step, true, false);
      if (step.arguments) {
        for (const pair of step.arguments.pairs) {
          const key = String(pair.key.value);
          if (isScalar(pair.value)) add(pair.value, 'arguments', [key], step, true, !inner);
          else nested(pair.value, [key], 1, (scalar, path) => add(scalar, 'arguments', path, step, false, false));
        }
      }
    };
    for (const step of allSteps(workflow)) stepStrings(step);
    const properties = getMap(workflow.output, 'properties');
    if (properties)
      outputStrings(properties, [], 1, (scalar, path) => add(scalar, 'output', path, undefined, false, true));
  }
  return { strings, byStep };
}

/** Every string scalar inside a nested argument value (iteratively: depth is only bounded by the parser). */
function nested(
  node: Node | null,
  path: (string | number)[],
  depth: number,
  visit: (scalar: ScalarNode, path: (string | number)[]) => void,
): void {
  const stack: { node: Node | null; path: (string | number)[]; depth: number }[] = [{ node, path, depth }];
  while (stack.length) {
    const item = stack.pop()!;
    if (!item.node || item.depth > MAX_ARGUMENT_DEPTH) continue;
    if (isScalar(item.node)) visit(item.node, item.path);
    else if (isMap(item.node)) {
      for (let i = item.node.pairs.length - 1; i >= 0; i--) {
        const pair = item.node.pairs[i]!;
        stack.push({ node: pair.value, path: [...item.path, String(pair.key.value)], depth: item.depth + 1 });
      }
    } else if (isSeq(item.node)) {
      for (let i = item.node.items.length - 1; i >= 0; i--)
        stack.push({ node: item.node.items[i]!, path: [...item.path, i], depth: item.depth + 1 });
    }
  }
}

function outputStrings(
  properties: Node,
  path: string[],
  depth: number,
  visit: (scalar: ScalarNode, path: string[]) => void,
): void {
  if (!isMap(properties) || depth > MAX_OUTPUT_DEPTH) return;
  for (const pair of properties.pairs) {
    const name = String(pair.key.value);
    const value = getScalar(pair.value, 'value');
    if (value) visit(value, [...path, name]);
    const inner = getNode(pair.value, 'properties');
    if (inner) outputStrings(inner, [...path, name], depth + 1, visit);
  }
}

/**
 * A template's parse and references depend on its text alone, and an edit changes few of a
 * document's strings: share them across re-checks. Bounded, and simply emptied when full.
 */
const PARSE_CACHE_LIMIT = 20_000;
const parseCache = new Map<string, { parsed: ParsedTemplate; fieldReferences: FieldReference[] }>();

function parsedTemplate(value: string): { parsed: ParsedTemplate; fieldReferences: FieldReference[] } {
  let entry = parseCache.get(value);
  if (!entry) {
    if (parseCache.size >= PARSE_CACHE_LIMIT) parseCache.clear();
    const parsed = parseTemplate(value);
    entry = { parsed, fieldReferences: extractReferences(parsed) };
    parseCache.set(value, entry);
  }
  return entry;
}

function makeString(
  text: string,
  workflow: WorkflowModel,
  scalar: ScalarNode,
  field: TemplateField,
  path: (string | number)[],
  step: StepModel | undefined,
  checkedAtLoad: boolean,
  scannedForDefaults: boolean,
): TemplateString {
  const value = scalar.value as string;
  const { parsed, fieldReferences } = parsedTemplate(value);
  const map = plainMapper(text, scalar, value) ?? valueSpanMapper(text, scalar);
  const probe = map(0, 0);
  const exact = probe.start === probe.end;
  const references = fieldReferences.map((ref): SourceReference => ({
    ref,
    root: ref.root,
    segments: ref.segments.map((s) => ({ name: s.name, start: s.start, end: s.end, span: map(s.start, s.end) })),
    span: map(ref.start, ref.end),
    viaIndex: ref.viaIndex === true,
    viaDollar: value[ref.start] === '$',
  }));
  const errors = parsed.errors.map((e) => ({
    problem: e,
    // A zero-width error (end of text) still gets one character to sit on.
    span: map(e.start, e.end > e.start ? e.end : Math.min(e.start + 1, value.length)),
  }));
  return {
    workflow,
    step,
    owner: step ? 'step' : 'output',
    field,
    path,
    checkedAtLoad,
    scannedForDefaults,
    scalar,
    text: value,
    parsed,
    references,
    errors,
    map,
    exact,
  };
}

/**
 * What valueSpanMapper gives a scalar written exactly as its value (most template strings): plain,
 * or between quotes with no escape and no line break, so value[i] is source[start + i] past the
 * opening quote. Told without building its offset tables; undefined otherwise.
 */
function plainMapper(text: string, scalar: ScalarNode, value: string): ValueSpanMapper | undefined {
  const quoted = scalar.style === 'double' || scalar.style === 'json' || scalar.style === 'single';
  if (scalar.style !== 'plain' && !quoted) return undefined;
  const inset = quoted ? 1 : 0;
  const start = scalar.span.start + inset;
  if (
    scalar.span.end - scalar.span.start !== value.length + 2 * inset ||
    (quoted && text[scalar.span.start] !== (scalar.style === 'single' ? "'" : '"')) ||
    value.includes('\r') ||
    !text.startsWith(value, start)
  )
    return undefined;
  // Between quotes, the value is the text as written only when nothing in it is decoded: a line
  // break folds, `\` starts an escape in double quotes and `''` is one quote in single ones.
  if (quoted && (value.includes('\n') || value.includes(scalar.style === 'single' ? "'" : '\\'))) return undefined;
  const length = value.length;
  return (from, to) => {
    const s = Math.max(0, Math.min(from, length));
    const e = Math.max(s, Math.min(to, length));
    return { start: start + s, end: start + e };
  };
}

/**
 * The source span of value characters [start, end) when it holds exactly `expected` as typed,
 * so an edit there replaces what the user sees; undefined otherwise (escapes, fallbacks).
 */
export function exactSpan(
  source: string,
  template: TemplateString,
  start: number,
  end: number,
  expected: string,
): Span | undefined {
  if (!template.exact) return undefined;
  const span = template.map(start, end);
  if (end === start) return span.start === span.end ? span : undefined;
  return source.slice(span.start, span.end) === expected ? span : undefined;
}

/** The step the `.steps` view of a string is relative to: a forEach inner step counts as its forEach. */
export function outerStep(template: TemplateString): StepModel | undefined {
  return template.step?.parent ?? template.step;
}

const GO_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The edit that renames one segment of a reference (a did-you-mean fix), or undefined when the
 * new name cannot be written there as is: a dotted segment must stay a Go identifier, an `index`
 * key must need no escaping, and the characters must map exactly to the source.
 */
export function renameSegmentEdit(
  source: string,
  template: TemplateString,
  reference: SourceReference,
  index: number,
  newName: string,
): TextEdit | undefined {
  const segment = reference.segments[index];
  if (!segment) return undefined;
  // Dotted segments follow a `.`; `index` keys follow their opening quote.
  const fromIndexKey = template.text[segment.start - 1] !== '.';
  if (fromIndexKey ? !/^[A-Za-z0-9_.-]+$/.test(newName) : !GO_IDENTIFIER.test(newName)) return undefined;
  const span = exactSpan(source, template, segment.start, segment.end, segment.name);
  return span ? { span, newText: newName } : undefined;
}
