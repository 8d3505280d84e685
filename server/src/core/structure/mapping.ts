// One ajv error → one typed problem (problems.ts) on the exact node it is about: the span, the
// rule, and what the rule's words need. Which suggestion a key gets (synonyms, the mistakes of
// ToolHive's own docs: docs/toolhive.md#mistakes-in-toolhives-own-docs), which value an enum probably meant, whether a quoted `"3"` is a number: these are
// facts about keys and values, decided here. How they are said is the rules' (rules/schema/*).
import type { ErrorObject } from 'ajv';
import { getPair, isMap, isScalar, isSeq, nodeAtPath, type Node, type Pair, type ScalarNode } from '../parse/nodes.js';
import { editContextOf, replaceScalarText, type EditContext } from '../edit/mappingEdits.js';
import type { SourceText } from '../text/source.js';
import { closest } from '../text/suggest.js';
import type { DocumentKind, Span } from '../types.js';
import { suggestToolField, TOOL_FIELDS } from '../model/catalogDeclarations.js';
import type { DocumentContext } from '../context.js';
import type {
  InvalidValueProblem,
  LimitKeyword,
  MissingFieldProblem,
  Retype,
  SchemaProblem,
  UnknownKeyProblem,
  WrongTypeProblem,
} from './problems.js';

/** A problem plus, for a missing field, which object lacks which field (validate.ts drops those a rename explains). */
export interface Mapped {
  problem: SchemaProblem;
  missing?: { object: string; field: string };
}

/**
 * Known doc mistakes (docs/toolhive.md#mistakes-in-toolhives-own-docs) and spellings from other formats, for "did you mean". A
 * synonym only counts where its target is a field of the mapping, so one table serves every place.
 */
const KEY_SYNONYMS: Record<string, string> = {
  maxRetries: 'retryCount',
  max_retries: 'retryCount',
  retries: 'retryCount',
  maxRetry: 'retryCount',
  retry: 'retryCount',
  delay: 'retryDelay',
  backoff: 'retryDelay',
  dependencies: 'dependsOn',
  needs: 'dependsOn',
  after: 'dependsOn',
  args: 'arguments',
  input: 'arguments',
  with: 'arguments',
  if: 'condition',
  when: 'condition',
  items: 'collection',
  over: 'collection',
  as: 'itemVar',
  concurrency: 'maxParallel',
  parallelism: 'maxParallel',
  prompt: 'message',
};

/** Keys that ToolHive's own docs use by mistake (docs/toolhive.md#mistakes-in-toolhives-own-docs). */
const DOC_MISTAKES = new Set(['maxRetries', 'max_retries']);

/** Where one wrong word means different fields: a composite's `params` are its `parameters`. */
const CONTEXT_SYNONYMS: Record<string, Record<string, string>> = {
  CompositeTool: {
    params: 'parameters',
    inputs: 'parameters',
    inputSchema: 'parameters',
    input_schema: 'parameters',
    outputs: 'output',
  },
  WorkflowStep: { params: 'arguments' },
  ForEachInnerStep: { params: 'arguments' },
};

/**
 * Keys that are not misspellings but features ToolHive does not have (some of its docs show a
 * workflow-level `failureMode`): no suggestion for them; the rule says what to do instead.
 */
const NO_SUCH_FEATURE = new Set(['failureMode', 'failure_mode']);

/**
 * Keys that contain a field name without being a spelling of it: `namespace` in a reference
 * (`groupRef`, `oidcConfigRef`, a secret ref) is a field Kubernetes references often have and
 * ToolHive's do not (they name objects of the resource's own namespace), not a second `name`.
 */
const NOT_A_SPELLING = new Set(['namespace']);

/** VirtualMCPServer keys written directly under `spec` that belong under `spec.config`. */
const SPEC_CONFIG_KEYS = new Set(['compositeTools', 'compositeToolRefs', 'aggregation']);

const LIMIT_KEYWORDS = new Set<string>([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
] satisfies LimitKeyword[]);

type Segment = string;

export class ErrorMapper {
  /** Object path → required fields an unknown key there will be renamed to. */
  readonly renamedTo = new Map<string, Set<string>>();
  /** The keys of each mapping that has an unknown key, read once: a mapping of thousands of unknown keys is one pass, not one per key. */
  private readonly keysOf = new Map<Node | undefined, Set<string>>();
  private readonly text: string;
  private readonly source: SourceText;
  private readonly edit: EditContext;

  constructor(
    ctx: DocumentContext,
    private readonly kind: DocumentKind,
    private readonly root: Node,
    /** Every subschema object of our files → a readable name (`WorkflowStep`, `CallEntry/then/then`). */
    private readonly names: Map<object, string>,
  ) {
    this.text = ctx.file.source.text;
    this.source = ctx.file.source;
    this.edit = editContextOf(ctx.file);
  }

  map(error: ErrorObject): Mapped | undefined {
    const path = decodePointer(error.instancePath);
    const wrap = (problem: SchemaProblem | undefined): Mapped | undefined => (problem ? { problem } : undefined);
    switch (error.keyword) {
      case 'additionalProperties':
        return wrap(this.unknownKey(error, path));
      case 'required':
        return this.missingField(error, path);
      case 'type':
        return wrap(this.wrongType(error, path));
      default:
        return wrap(this.invalidValue(error, path));
    }
  }

  /** The node an error is about (for an unknown key, its pair), to tell echoes of syntax errors. */
  nodeSpanOf(error: ErrorObject): Span | undefined {
    const path = decodePointer(error.instancePath);
    if (error.keyword === 'additionalProperties')
      return getPair(nodeAtPath(this.root, path), String(error.params['additionalProperty']))?.span;
    return nodeAtPath(this.root, path)?.span;
  }

  private schemaName(schema: unknown): string | undefined {
    return typeof schema === 'object' && schema !== null ? this.names.get(schema) : undefined;
  }

  // -- schema/unknown-key -------------------------------------------------------------------------

  private unknownKey(error: ErrorObject, path: Segment[]): UnknownKeyProblem | undefined {
    const key = String(error.params['additionalProperty']);
    const pair = getPair(nodeAtPath(this.root, path), key);
    if (!pair) return undefined;
    // A plain `<<` is YAML's merge key: yaml.v3 (ToolHive's loader) and the YAML reader of kubectl
    // merge the mapping it names into this one before any field is matched, so it is no field.
    if (key === '<<' && pair.key.type === 'scalar' && pair.key.style === 'plain') return undefined;
    const parentSchema = asRecord(error.parentSchema);
    const known = Object.keys(asRecord(parentSchema?.['properties']) ?? {}).filter((k) => k !== '$schema');
    const base = {
      rule: 'schema/unknown-key',
      span: pair.key.span,
      ...this.where(path),
      key,
      path,
      preserved: this.preservedByCrd(path),
    } as const;

    if (this.kind === 'vmcp-server' && path.length === 1 && path[0] === 'spec' && SPEC_CONFIG_KEYS.has(key)) {
      return { ...base, reason: 'misplaced', belongsUnder: 'spec.config' };
    }
    if (NO_SUCH_FEATURE.has(key)) return { ...base, reason: 'no-such-feature' };

    const object = nodeAtPath(this.root, path);
    let present = this.keysOf.get(object);
    if (!present)
      this.keysOf.set(object, (present = new Set(isMap(object) ? object.pairs.map((p) => String(p.key.value)) : [])));
    const synonyms = { ...KEY_SYNONYMS, ...CONTEXT_SYNONYMS[this.schemaName(error.parentSchema) ?? ''] };
    const suggestion = NOT_A_SPELLING.has(key) ? undefined : closest(key, known, { synonyms });
    if (suggestion && !present.has(suggestion)) {
      const pointer = path.join('/');
      const set = this.renamedTo.get(pointer) ?? new Set<string>();
      set.add(suggestion);
      this.renamedTo.set(pointer, set);
      const required =
        Array.isArray(parentSchema?.['required']) && (parentSchema['required'] as unknown[]).includes(suggestion);
      return {
        ...base,
        reason: 'misspelt',
        suggestion,
        docMistake: DOC_MISTAKES.has(key),
        required,
        rename: replaceScalarText(this.edit, pair.key, suggestion),
      };
    }
    if (suggestion && present.has(suggestion)) return { ...base, reason: 'second-spelling', suggestion };
    return { ...base, reason: 'unknown', known };
  }

  /**
   * Whether the object at `path` of a Kubernetes resource lies where the CRD keeps unknown fields
   * (x-kubernetes-preserve-unknown-fields in deploy/charts/operator-crds): a VirtualMCPServer's
   * `spec.config` itself (the Config type's +kubebuilder:pruning:PreserveUnknownFields), anything
   * under a forEach inner `step` (WorkflowStepConfig.InnerStep), and anything under a nested output
   * property (OutputProperty.Properties). Typed objects below `spec.config` prune as usual.
   */
  private preservedByCrd(path: Segment[]): boolean {
    if (this.kind !== 'vmcp-server' && this.kind !== 'vmcp-composite') return false;
    if (this.kind === 'vmcp-server' && path.length === 2 && path[0] === 'spec' && path[1] === 'config') return true;
    for (let i = 2; i < path.length; i++) {
      if (path[i] === 'step' && path[i - 2] === 'steps' && /^\d+$/.test(path[i - 1]!)) return true;
    }
    const output = path.indexOf('output');
    if (output >= 0) {
      // output.properties.<name>.properties.<name>...: the second `properties` level is schemaless.
      let level = 0;
      for (let i = output + 1; i < path.length; i += 2) {
        if (path[i] !== 'properties') break;
        level++;
        if (level >= 2 && i + 1 < path.length) return true;
      }
    }
    return false;
  }

  // -- schema/missing-field -----------------------------------------------------------------------

  private missingField(error: ErrorObject, path: Segment[]): Mapped | undefined {
    const field = String(error.params['missingProperty']);
    const span = this.objectAnchor(path);
    if (!span) return undefined;
    const schemaName = this.schemaName(error.parentSchema);
    const problem: MissingFieldProblem = {
      rule: 'schema/missing-field',
      span,
      ...this.where(path),
      field,
      schemaName,
      branchDescription: branchDescription(error.parentSchema, schemaName),
      misspeltAs: this.misspeltToolField(schemaName, path, field),
      byCrd: crdOnlySchema(this.kind, schemaName),
    };
    return { problem, missing: { object: path.join('/'), field } };
  }

  /** A tool written with another format's spelling (`input_schema`): the key to rename. */
  private misspeltToolField(schemaName: string | undefined, path: Segment[], field: string): string | undefined {
    if (schemaName !== 'Tool') return undefined;
    const object = nodeAtPath(this.root, path);
    if (!isMap(object)) return undefined;
    return object.pairs
      .map((p) => String(p.key.value))
      .find((key) => !(TOOL_FIELDS as readonly string[]).includes(key) && suggestToolField(key) === field);
  }

  // -- schema/wrong-type --------------------------------------------------------------------------

  private wrongType(error: ErrorObject, path: Segment[]): WrongTypeProblem | undefined {
    const node = nodeAtPath(this.root, path);
    const pair = this.pairOf(path);
    if (pair && pair.value === null) return undefined; // a broken JSON property: yaml/syntax has it
    if (!node) return undefined;
    const type: unknown = error.params['type'];
    const expected = Array.isArray(type) ? type.map(String) : String(type).split(',');
    const base = { rule: 'schema/wrong-type', kind: this.kind, inFace: this.inFace(path), expected, node } as const;
    if (path.length === 0) {
      // Point at the document's first line, not the whole document (before its line break, CR included).
      const firstLine = this.source.lineEnd(this.source.positionAt(node.span.start).line);
      const end = Math.min(firstLine, node.span.end);
      return { ...base, at: 'document', span: { start: node.span.start, end: Math.max(end, node.span.start + 1) } };
    }
    const empty = isScalar(node) && node.value === null && node.span.end === node.span.start;
    const span = empty || node.span.end === node.span.start ? (pair?.key.span ?? node.span) : node.span;
    return {
      ...base,
      at: empty ? 'empty' : 'value',
      span,
      field: this.fieldName(path),
      retype: isScalar(node) ? retypeOf(this.text, node, type, asRecord(error.parentSchema)) : undefined,
    };
  }

  // -- schema/invalid-value -----------------------------------------------------------------------

  private invalidValue(error: ErrorObject, path: Segment[]): InvalidValueProblem | undefined {
    const node = nodeAtPath(this.root, path);
    if (!node) return undefined;
    const pair = this.pairOf(path);
    if (pair && pair.value === null) return undefined;
    const schemaName = this.schemaName(error.parentSchema);
    // The empty inner-step id is workflow/foreach-inner-id's finding.
    if (schemaName === 'ForEachInnerStep/properties/id') return undefined;
    const parent = asRecord(error.parentSchema);
    const description = typeof parent?.['description'] === 'string' ? parent['description'] : undefined;
    const scalarSpan = node.span.end > node.span.start ? node.span : (pair?.key.span ?? node.span);
    // A shape error (anyOf, not) is about the whole object: anchor it like a missing field. A count
    // (minItems) on a one-line `[]` or `{}` goes on that value.
    const shape = error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'not';
    const onValue =
      isScalar(node) || (!shape && node.flow && !this.text.slice(node.span.start, node.span.end).includes('\n'));
    const base = {
      rule: 'schema/invalid-value',
      span: onValue ? scalarSpan : (this.objectAnchor(path) ?? node.span),
      ...this.where(path),
      field: path.length === 0 ? undefined : this.fieldName(path),
      node,
      byCrd: crdOnlySchema(this.kind, schemaName),
    } as const;

    switch (error.keyword) {
      case 'enum': {
        const allowed = (error.params['allowedValues'] as unknown[]).map((v) => String(v));
        const suggestion = isScalar(node) ? closest(String(node.value), allowed) : undefined;
        const edit = suggestion && isScalar(node) ? replaceScalarText(this.edit, node, suggestion) : undefined;
        return { ...base, keyword: 'enum', allowed, suggestion, edit };
      }
      case 'const': {
        const allowed = String(error.params['allowedValue']);
        const edit =
          isScalar(node) && typeof node.value === 'string' ? replaceScalarText(this.edit, node, allowed) : undefined;
        return { ...base, keyword: 'const', allowed, edit };
      }
      case 'pattern':
        return { ...base, keyword: 'pattern', schemaName, description };
      case 'format':
        return { ...base, keyword: 'format', format: String(error.params['format']) };
      case 'not':
      case 'anyOf':
      case 'oneOf':
        return { ...base, keyword: error.keyword, description };
      default:
        if (LIMIT_KEYWORDS.has(error.keyword))
          return { ...base, keyword: error.keyword as LimitKeyword, limit: Number(error.params['limit']) };
        return { ...base, keyword: 'other', schemaKeyword: error.keyword, detail: error.message };
    }
  }

  // -- places and spans ---------------------------------------------------------------------------

  /** The document kind, the face and the place an object-level problem's words name. */
  private where(path: Segment[]): {
    kind: DocumentKind;
    inFace: boolean;
    place: string | undefined;
    callLine: boolean;
  } {
    return {
      kind: this.kind,
      inFace: this.inFace(path),
      place: path.length === 0 ? undefined : this.placeOf(path),
      callLine: this.isCallLine(),
    };
  }

  private pairOf(path: Segment[]): Pair | undefined {
    if (path.length === 0) return undefined;
    const parent = nodeAtPath(this.root, path.slice(0, -1));
    return isMap(parent) ? getPair(parent, path[path.length - 1]!) : undefined;
  }

  /**
   * Where an object-level finding goes: the key that holds the object, or, for a list item or
   * the root, the object's first key; never a whole block.
   */
  private objectAnchor(path: Segment[]): Span | undefined {
    const pair = this.pairOf(path);
    if (pair) return pair.key.span;
    const node = nodeAtPath(this.root, path);
    if (!node) return undefined;
    if (isMap(node) && node.pairs.length > 0) return node.pairs[0]!.key.span;
    return node.span;
  }

  /** The field a value sits under: `retryCount`, or `steps[2]` for a list item (`item[2]` at the root). */
  private fieldName(path: Segment[]): string {
    const last = path[path.length - 1]!;
    const parent = nodeAtPath(this.root, path.slice(0, -1));
    if (isSeq(parent)) return `${path.length > 1 ? path[path.length - 2] : 'item'}[${last}]`;
    return last;
  }

  private isCallLine(): boolean {
    return this.kind === 'tool-calls' && isMap(this.root) && !getPair(this.root, 'calls');
  }

  /** `compositeTools[deploy].steps[fetch].onError`: list items by their id or name where they have one. */
  private placeOf(path: Segment[]): string {
    let node: Node | undefined = this.root;
    let out = '';
    for (const segment of path) {
      const parent: Node | undefined = node;
      node = nodeAtPath(parent, [segment]);
      if (isSeq(parent)) {
        const label = isMap(node)
          ? (scalarText(getPair(node, 'id')?.value) ?? scalarText(getPair(node, 'name')?.value))
          : undefined;
        out += `[${label ?? segment}]`;
      } else out += out ? `.${segment}` : segment;
    }
    return out;
  }

  private inFace(path: Segment[]): boolean {
    return this.kind === 'face-overlay' || path.includes('toolFaces');
  }
}

/** The description of a conditional branch, which explains why it requires a field. */
/**
 * Whether a subschema of a resource's schema holds a check only the CRD's OpenAPI schema makes, which
 * the API server applies when the resource is applied: the `Crd*` definitions (vmcp-common's overlay
 * on spec.config and composite tools, vmcp-server's own) and vmcp-server's spec outside spec.config's
 * CLI format. The operator's own checks there (VirtualMCPServer.Validate) have their words in the
 * rules' per-field tables.
 */
function crdOnlySchema(kind: DocumentKind, name: string | undefined): boolean {
  if (name === undefined || (kind !== 'vmcp-server' && kind !== 'vmcp-composite')) return false;
  return (
    name.startsWith('Crd') ||
    name.startsWith('vmcp-server/properties/spec/') ||
    name.startsWith('KeysVirtualMCPServerSpec/') ||
    name.startsWith('KeysCompositeToolDefinitionSpec/')
  );
}

function branchDescription(schema: unknown, name: string | undefined): string | undefined {
  // Only conditional branches explain a requirement; a definition's description says what it is.
  if (!name || !/\/(then|else|anyOf\/\d+|oneOf\/\d+)$/.test(name)) return undefined;
  const description = asRecord(schema)?.['description'];
  return typeof description === 'string' ? description : undefined;
}

/**
 * A quoted number or boolean where one is expected, or a bare one where a string is expected, when
 * changing the quotes is all it takes: a string whose schema has a pattern the quoted text would
 * not match gets no retype (a bare number as a duration needs a unit, not quotes).
 */
function retypeOf(
  text: string,
  node: ScalarNode,
  expected: unknown,
  schema: Record<string, unknown> | undefined,
): Retype | undefined {
  const types = Array.isArray(expected) ? expected.map(String) : [String(expected)];
  const raw = text.slice(node.span.start, node.span.end);
  if (typeof node.value === 'string' && (node.style === 'double' || node.style === 'single' || node.style === 'json')) {
    const inner = node.value.trim();
    const wantsNumber = types.includes('number') || types.includes('integer');
    const isNumber = /^-?\d+(\.\d+)?$/.test(inner) && (types.includes('number') || !inner.includes('.'));
    if (wantsNumber && isNumber) return { as: 'number', written: inner, edit: { span: node.span, newText: inner } };
    if (types.includes('boolean') && (inner === 'true' || inner === 'false'))
      return { as: 'boolean', written: inner, edit: { span: node.span, newText: inner } };
    return undefined;
  }
  if (
    types.includes('string') &&
    (typeof node.value === 'number' || typeof node.value === 'boolean') &&
    (node.style === 'plain' || node.style === 'json')
  ) {
    const pattern = typeof schema?.['pattern'] === 'string' ? schema['pattern'] : undefined;
    // Our own schemas' patterns: ECMA-262, short, and run once over one scalar's text.
    if (pattern !== undefined && !new RegExp(pattern, 'u').test(raw)) {
      return typeof node.value === 'number' && schemaIsDuration(schema) ? { as: 'duration', written: raw } : undefined;
    }
    return { as: 'string', written: raw, edit: { span: node.span, newText: JSON.stringify(raw) } };
  }
  return undefined;
}

// ---- small helpers ---------------------------------------------------------------------------------

/** The Duration definition of vmcp-common (and the CRD's stricter one): a Go duration's text. */
function schemaIsDuration(schema: Record<string, unknown> | undefined): boolean {
  const description = schema?.['description'];
  return typeof description === 'string' && /\bGo duration\b/.test(description);
}

function decodePointer(pointer: string): Segment[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function scalarText(node: Node | null | undefined): string | undefined {
  return isScalar(node) && typeof node.value === 'string' && node.value ? node.value : undefined;
}
