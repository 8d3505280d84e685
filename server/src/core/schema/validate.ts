// Structural validation of a document against its kind's JSON Schema (schemas/*.schema.json),
// mapped onto exact nodes and split between the four schema/* rules. The schemas are bundled (JSON
// imports, so esbuild puts them in dist/) and compiled by ajv at build time, not here:
// generated/validators.js is ajv's standalone code for them, which scripts/generate-validators.mjs writes
// before every bundle, so no schema is compiled at start-up. Its errors are the ones ajv gives with
// that script's options (allErrors, verbose), and their `parentSchema` is the very object of the
// imported JSON, which `nameSubschemas` names. Each document is validated once, through the memo,
// whichever schema/* rule asks first.
import type { ErrorObject } from 'ajv';
import faceOverlaySchema from '../../../../schemas/face-overlay.schema.json';
import mcpServersSchema from '../../../../schemas/mcp-servers.schema.json';
import toolCallsSchema from '../../../../schemas/tool-calls.schema.json';
import toolCatalogSchema from '../../../../schemas/tool-catalog.schema.json';
import vmcpCommonSchema from '../../../../schemas/vmcp-common.schema.json';
import vmcpCompositeSchema from '../../../../schemas/vmcp-composite.schema.json';
import vmcpConfigSchema from '../../../../schemas/vmcp-config.schema.json';
import vmcpServerSchema from '../../../../schemas/vmcp-server.schema.json';
import { memoKey } from '../memo.js';
import { getPair, isMap, isScalar, isSeq, nodeAtPath, toValue, type Node, type Pair, type ScalarNode } from '../parse/nodes.js';
import { editContextOf, replaceScalarText, type EditContext } from '../edit/mappingEdits.js';
import { closest } from '../text/suggest.js';
import { capitalize, listOf } from '../text/words.js';
import type { DocumentKind, Fix, Span } from '../types.js';
import { suggestToolField, TOOL_FIELDS } from '../model/catalogDeclarations.js';
import type { DocumentContext } from '../context.js';
import { createValidators, type StandaloneValidator } from './generated/validators.js';

export type SchemaRuleId = 'schema/unknown-key' | 'schema/missing-field' | 'schema/wrong-type' | 'schema/invalid-value';

export interface SchemaProblem {
  rule: SchemaRuleId;
  message: string;
  span: Span;
  fixes?: Fix[];
}

/** The files generate-validators.mjs compiles (its SCHEMA_FILES), by name, as bundled objects. */
export const BUNDLED_SCHEMAS: Record<string, object> = {
  'vmcp-common.schema.json': vmcpCommonSchema,
  'face-overlay.schema.json': faceOverlaySchema,
  'vmcp-config.schema.json': vmcpConfigSchema,
  'vmcp-server.schema.json': vmcpServerSchema,
  'vmcp-composite.schema.json': vmcpCompositeSchema,
  'tool-catalog.schema.json': toolCatalogSchema,
  'mcp-servers.schema.json': mcpServersSchema,
  'tool-calls.schema.json': toolCallsSchema,
};

/** generate-validators.mjs builds a validator for each of these refs (its REFS; a test checks). */
export const SCHEMA_FOR_KIND: Record<DocumentKind, string> = {
  'vmcp-config': 'vmcp-config.schema.json',
  'vmcp-server': 'vmcp-server.schema.json',
  'vmcp-composite': 'vmcp-composite.schema.json',
  'tool-catalog': 'tool-catalog.schema.json',
  'mcp-servers': 'mcp-servers.schema.json',
  'face-overlay': 'face-overlay.schema.json',
  'tool-calls': 'tool-calls.schema.json',
};

/** A JSONL calls file holds one entry per line, each validated on its own. */
export const CALL_ENTRY = 'tool-calls.schema.json#/definitions/CallEntry';

interface Compiled {
  /** The validator of each ref, over the objects of BUNDLED_SCHEMAS. */
  validators: Record<string, StandaloneValidator>;
  /** Every subschema object of our files → a readable name (`WorkflowStep`, `CallEntry/then/then`). */
  names: Map<object, string>;
}

let compiled: Compiled | undefined;

function compiledSchemas(): Compiled {
  if (compiled) return compiled;
  const names = new Map<object, string>();
  for (const [file, schema] of Object.entries(BUNDLED_SCHEMAS)) nameSubschemas(schema, file.replace(/\.schema\.json$/, ''), '', names);
  compiled = { validators: createValidators(BUNDLED_SCHEMAS), names };
  return compiled;
}

function nameSubschemas(value: unknown, file: string, pointer: string, names: Map<object, string>): void {
  if (typeof value !== 'object' || value === null) return;
  if (!Array.isArray(value)) {
    const match = /^\/definitions\/([^/]+)(.*)$/.exec(pointer);
    names.set(value, match ? match[1]! + match[2]! : `${file}${pointer}`);
  }
  for (const [key, child] of Object.entries(value)) nameSubschemas(child, file, `${pointer}/${key}`, names);
}

function validatorFor(ref: string): StandaloneValidator {
  const { validators } = compiledSchemas();
  const validate = Object.hasOwn(validators, ref) ? validators[ref] : undefined;
  if (!validate) throw new Error(`schema ${ref} is not bundled: add it to REFS in generate-validators.mjs`);
  return validate;
}

const problemsKey = memoKey<SchemaProblem[]>('schema/validate');

/** The schema problems of the context's document, computed once per document. */
export function schemaProblemsOf(ctx: DocumentContext): SchemaProblem[] {
  return ctx.memo.get(problemsKey, () => computeProblems(ctx));
}

function computeProblems(ctx: DocumentContext): SchemaProblem[] {
  const { doc, file } = ctx;
  // An empty document has no node a finding could point at.
  if (!doc.kind || !doc.root) return [];
  const ref = file.language === 'jsonl' && doc.kind === 'tool-calls' ? CALL_ENTRY : SCHEMA_FOR_KIND[doc.kind];
  const validate = validatorFor(ref);
  validate(toValue(doc.root));
  const errors = selectErrors(validate.errors ?? []);
  const mapper = new ErrorMapper(ctx, doc.kind, doc.root);
  const broken = doc.problems.filter((p) => p.rule === 'yaml/syntax').map((p) => p.span.start);
  const mapped: Mapped[] = [];
  for (const error of errors) {
    // Whatever holds a syntax error was rebuilt by the parser's recovery: its schema errors
    // (an empty list, a missing field) are echoes of the syntax error, which yaml/syntax reports.
    const around = mapper.nodeSpanOf(error);
    if (around && broken.some((at) => at >= around.start && at <= around.end)) continue;
    const problem = mapper.map(error);
    if (problem) mapped.push(problem);
  }
  return dedupe(dropMissingExplainedByTypos(mapped, mapper.renamedTo));
}

/** A problem plus, for a missing field, which object lacks which field (see below). */
interface Mapped {
  problem: SchemaProblem;
  missing?: { object: string; field: string };
}

// ---- choosing the errors worth a finding --------------------------------------------------------

const IGNORED_KEYWORDS = new Set(['if', 'then', 'else', 'allOf', '$ref']);

/**
 * Keeps one error per problem: drops `if` bookkeeping, the branch errors an anyOf/oneOf failure
 * carries (the anyOf error itself, with its branch description, speaks for them), and value
 * errors at a place whose type is already wrong.
 */
function selectErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const alternatives = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const typed = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  return errors.filter((e) => {
    if (IGNORED_KEYWORDS.has(e.keyword)) return false;
    const insideAlternative = alternatives.some(
      (a) => a !== e && e.schemaPath.startsWith(a.schemaPath + '/') && isSameOrBelow(e.instancePath, a.instancePath),
    );
    if (insideAlternative) return false;
    if (e.keyword !== 'type' && e.keyword !== 'required' && e.keyword !== 'additionalProperties' && typed.has(e.instancePath)) return false;
    return true;
  });
}

function isSameOrBelow(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(ancestor + '/');
}

function dedupe(problems: SchemaProblem[]): SchemaProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.rule}\0${p.span.start}\0${p.span.end}\0${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * `desciption:` is one mistake, not two: when an unknown key's suggestion is exactly the required
 * field that is missing beside it, the unknown-key finding (with its rename) says it all.
 */
function dropMissingExplainedByTypos(mapped: Mapped[], renamedTo: Map<string, Set<string>>): SchemaProblem[] {
  return mapped.filter((m) => !m.missing || !renamedTo.get(m.missing.object)?.has(m.missing.field)).map((m) => m.problem);
}

// ---- mapping one error to a node and a message ---------------------------------------------------

/**
 * Known doc mistakes (toolhive.md §9) and spellings from other formats, for "did you mean". A
 * synonym only counts where its target is a field of the mapping, so one table serves every place.
 */
export const KEY_SYNONYMS: Record<string, string> = {
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

/** Keys that ToolHive's own docs use by mistake (toolhive.md §9). */
const DOC_MISTAKES = new Set(['maxRetries', 'max_retries']);

/** Where one wrong word means different fields: a composite's `params` are its `parameters`. */
const CONTEXT_SYNONYMS: Record<string, Record<string, string>> = {
  CompositeTool: { params: 'parameters', inputs: 'parameters', inputSchema: 'parameters', input_schema: 'parameters', outputs: 'output' },
  WorkflowStep: { params: 'arguments' },
  ForEachInnerStep: { params: 'arguments' },
};

/** Keys that are not misspellings but missing features: say what to do instead. */
const NO_SUCH_FIELD: Record<string, string> = {
  failureMode:
    'ToolHive has no `failureMode` field (some of its docs show one): a workflow stops at the first failing step. ' +
    'To go on or retry, set `onError` on each step that may fail (`action: continue` with `defaultResults`, or ' +
    '`action: retry` with `retryCount`).',
  failure_mode:
    'ToolHive has no `failureMode` field: a workflow stops at the first failing step. Set `onError` on each step ' +
    'that may fail (`action: continue` or `action: retry` with `retryCount`).',
};

/** VirtualMCPServer keys written directly under `spec` that belong under `spec.config`. */
const SPEC_CONFIG_KEYS = new Set(['compositeTools', 'compositeToolRefs', 'aggregation']);

type Segment = string;

class ErrorMapper {
  /** Object path → required fields an unknown key there will be renamed to. */
  readonly renamedTo = new Map<string, Set<string>>();
  private readonly text: string;
  private readonly edit: EditContext;
  private readonly names: Map<object, string>;

  constructor(
    ctx: DocumentContext,
    private readonly kind: DocumentKind,
    private readonly root: Node,
  ) {
    this.text = ctx.file.source.text;
    this.edit = editContextOf(ctx.file);
    this.names = compiledSchemas().names;
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
    if (error.keyword === 'additionalProperties') return getPair(nodeAtPath(this.root, path), String(error.params['additionalProperty']))?.span;
    return nodeAtPath(this.root, path)?.span;
  }

  private schemaName(schema: unknown): string | undefined {
    return typeof schema === 'object' && schema !== null ? this.names.get(schema) : undefined;
  }

  // -- schema/unknown-key -------------------------------------------------------------------------

  private unknownKey(error: ErrorObject, path: Segment[]): SchemaProblem | undefined {
    const key = String(error.params['additionalProperty']);
    const pair = getPair(nodeAtPath(this.root, path), key);
    if (!pair) return undefined;
    const parentSchema = asRecord(error.parentSchema);
    const known = Object.keys(asRecord(parentSchema?.['properties']) ?? {}).filter((k) => k !== '$schema');
    const where = path.length === 0 ? (this.isCallLine() ? 'a field of this call' : 'a top-level field') : `a field of ${this.placeOf(path)}`;
    const effect = unknownKeyEffect(this.kind, this.inFace(path));
    const base = `\`${key}\` is not ${where}: ${effect}.`;

    if (this.kind === 'vmcp-server' && path.length === 1 && path[0] === 'spec' && SPEC_CONFIG_KEYS.has(key)) {
      return {
        rule: 'schema/unknown-key',
        span: pair.key.span,
        message:
          `\`spec.${key}\` is not a VirtualMCPServer field (some ToolHive docs put it there): Kubernetes prunes it, so it has no ` +
          `effect. It belongs under \`spec.config\`: move it to \`spec.config.${key}\`.`,
      };
    }
    if (Object.hasOwn(NO_SUCH_FIELD, key)) {
      return { rule: 'schema/unknown-key', span: pair.key.span, message: `${base} ${NO_SUCH_FIELD[key]!}` };
    }

    const object = nodeAtPath(this.root, path);
    const present = new Set(isMap(object) ? object.pairs.map((p) => String(p.key.value)) : []);
    const synonyms = { ...KEY_SYNONYMS, ...CONTEXT_SYNONYMS[this.schemaName(error.parentSchema) ?? ''] };
    const suggestion = closest(key, known, { synonyms });
    if (suggestion && !present.has(suggestion)) {
      const pointer = path.join('/');
      const set = this.renamedTo.get(pointer) ?? new Set<string>();
      set.add(suggestion);
      this.renamedTo.set(pointer, set);
      const edit = replaceScalarText(this.edit, pair.key, suggestion);
      const required = Array.isArray(parentSchema?.['required']) && (parentSchema['required'] as unknown[]).includes(suggestion);
      const note = DOC_MISTAKES.has(key)
        ? ` Some ToolHive docs and examples write \`${key}\`, but the field is \`${suggestion}\`.`
        : required
          ? ` \`${suggestion}\` is required and missing here.`
          : '';
      return {
        rule: 'schema/unknown-key',
        span: pair.key.span,
        message: `${base} Did you mean \`${suggestion}\`?${note}`,
        ...(edit ? { fixes: [{ title: `Rename \`${key}\` to \`${suggestion}\``, safe: false, edits: [edit] }] } : {}),
      };
    }
    if (suggestion && present.has(suggestion)) {
      return {
        rule: 'schema/unknown-key',
        span: pair.key.span,
        message: `${base} It looks like a second spelling of \`${suggestion}\`, which is already set here: remove it.`,
      };
    }
    const list = known.length ? ` Fields here: ${listOf(known.map((k) => `\`${k}\``), 10)}.` : '';
    return { rule: 'schema/unknown-key', span: pair.key.span, message: `${base}${list}` };
  }

  // -- schema/missing-field -----------------------------------------------------------------------

  private missingField(error: ErrorObject, path: Segment[]): Mapped | undefined {
    const field = String(error.params['missingProperty']);
    const span = this.objectAnchor(path);
    if (!span) return undefined;
    const schemaName = this.schemaName(error.parentSchema);
    const branch = branchDescription(error.parentSchema, schemaName);
    const known = schemaName !== undefined && Object.hasOwn(MISSING_EFFECT, `${schemaName}.${field}`) ? MISSING_EFFECT[`${schemaName}.${field}`] : undefined;
    const why =
      (known !== undefined ? capitalize(known) : undefined) ??
      `${branch ? `${branch} ` : ''}${capitalize(missingEffect(this.kind, this.inFace(path)))}.`;
    return {
      problem: { rule: 'schema/missing-field', span, message: `${capitalize(this.subjectOf(path))} has no \`${field}\`. ${why}${this.misspeltToolField(schemaName, path, field)}` },
      missing: { object: path.join('/'), field },
    };
  }

  /** A tool written with another format's spelling (`input_schema`): say which key to rename. */
  private misspeltToolField(schemaName: string | undefined, path: Segment[], field: string): string {
    if (schemaName !== 'Tool') return '';
    const object = nodeAtPath(this.root, path);
    if (!isMap(object)) return '';
    const candidate = object.pairs
      .map((p) => String(p.key.value))
      .find((key) => !(TOOL_FIELDS as readonly string[]).includes(key) && suggestToolField(key) === field);
    return candidate ? ` \`${candidate}\` here is probably meant to be it: rename it.` : '';
  }

  // -- schema/wrong-type --------------------------------------------------------------------------

  private wrongType(error: ErrorObject, path: Segment[]): SchemaProblem | undefined {
    const node = nodeAtPath(this.root, path);
    const pair = this.pairOf(path);
    if (pair && pair.value === null) return undefined; // a broken JSON property: yaml/syntax has it
    if (!node) return undefined;
    const expected = typeList(error.params['type']);
    const field = this.fieldName(path);
    const empty = isScalar(node) && node.value === null && node.span.end === node.span.start;
    const span = empty || node.span.end === node.span.start ? (pair?.key.span ?? node.span) : node.span;
    const actual = describeValue(node);
    const effect = wrongTypeEffect(this.kind, this.inFace(path));
    if (path.length === 0) {
      // Point at the document's first line, not the whole document.
      const firstLine = this.text.indexOf('\n', node.span.start);
      const end = firstLine < 0 || firstLine > node.span.end ? node.span.end : firstLine;
      return {
        rule: 'schema/wrong-type',
        span: { start: node.span.start, end: Math.max(end, node.span.start + 1) },
        message: `The document must be ${expected}, not ${actual}. ${capitalize(effect)}.`,
      };
    }
    const message = empty
      ? `\`${field}\` is empty; it must be ${expected}. ${capitalize(effect)}.`
      : `\`${field}\` must be ${expected}, not ${actual}. ${capitalize(effect)}.`;
    const fix = isScalar(node) ? retypeFix(this.text, node, error.params['type']) : undefined;
    return { rule: 'schema/wrong-type', span, message: fix ? `${message} ${fix.hint}` : message, ...(fix ? { fixes: [fix.fix] } : {}) };
  }

  // -- schema/invalid-value -----------------------------------------------------------------------

  private invalidValue(error: ErrorObject, path: Segment[]): SchemaProblem | undefined {
    const node = nodeAtPath(this.root, path);
    if (!node) return undefined;
    const pair = this.pairOf(path);
    if (pair && pair.value === null) return undefined;
    const schemaName = this.schemaName(error.parentSchema);
    const field = this.fieldName(path);
    // The empty inner-step id is workflow/foreach-inner-id's finding.
    if (schemaName === 'ForEachInnerStep/properties/id') return undefined;
    const parent = asRecord(error.parentSchema);
    const description = typeof parent?.['description'] === 'string' ? parent['description'] : undefined;
    const shown = isScalar(node) ? JSON.stringify(node.value) : undefined;
    const effect = invalidValueEffect(this.kind, this.inFace(path));
    const scalarSpan = node.span.end > node.span.start ? node.span : (pair?.key.span ?? node.span);
    // A shape error (anyOf, not) is about the whole object: anchor it like a missing field. A count
    // (minItems) on a one-line `[]` or `{}` goes on that value.
    const shape = error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'not';
    const onValue = isScalar(node) || (!shape && node.flow && !this.text.slice(node.span.start, node.span.end).includes('\n'));
    const valueProblem = (message: string, fixes?: Fix[]): SchemaProblem => ({
      rule: 'schema/invalid-value',
      span: onValue ? scalarSpan : (this.objectAnchor(path) ?? node.span),
      message,
      ...(fixes?.length ? { fixes } : {}),
    });

    switch (error.keyword) {
      case 'enum': {
        const allowed = (error.params['allowedValues'] as unknown[]).map((v) => String(v));
        const got = isScalar(node) ? String(node.value) : '';
        const suggestion = isScalar(node) ? closest(got, allowed) : undefined;
        const edit = suggestion && isScalar(node) ? replaceScalarText(this.edit, node, suggestion) : undefined;
        const fixes = edit && suggestion ? [{ title: `Change to \`${suggestion}\``, safe: false, edits: [edit] }] : undefined;
        return valueProblem(
          `${shown ?? 'This value'} is not a valid \`${field}\`: ${effect}. Allowed: ${listOf(allowed.map((a) => `\`${a}\``), 10)}.` +
            (suggestion ? ` Did you mean \`${suggestion}\`?` : ''),
          fixes,
        );
      }
      case 'const': {
        const allowed = String(error.params['allowedValue']);
        const edit = isScalar(node) && typeof node.value === 'string' ? replaceScalarText(this.edit, node, allowed) : undefined;
        return valueProblem(
          `\`${field}\` must be \`${allowed}\`${shown ? `, not ${shown}` : ''}: ${effect}.`,
          edit ? [{ title: `Change to \`${allowed}\``, safe: false, edits: [edit] }] : undefined,
        );
      }
      case 'pattern': {
        const expected = (schemaName && PATTERN_EXPECTED[schemaName]) ?? (description ? ensurePeriod(lowerFirst(description)) : undefined);
        return valueProblem(`${shown ?? 'This value'} is not a valid \`${field}\`: ${effect}.${expected ? ` Expected: ${expected}` : ''}`);
      }
      case 'format':
        return valueProblem(`${shown ?? 'This value'} is not a valid ${String(error.params['format'])} for \`${field}\`: ${effect}.`);
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum': {
        const limit = String(error.params['limit']);
        const relation = { minimum: 'at least', maximum: 'at most', exclusiveMinimum: 'more than', exclusiveMaximum: 'less than' }[error.keyword];
        return valueProblem(`\`${field}\` must be ${relation} ${limit}, not ${shown ?? 'this'}: ${effect}.`);
      }
      case 'minLength':
        return valueProblem(
          Number(error.params['limit']) === 1
            ? `\`${field}\` must not be empty: ${effect}.`
            : `\`${field}\` must be at least ${String(error.params['limit'])} characters long: ${effect}.`,
        );
      case 'maxLength':
        return valueProblem(`\`${field}\` must be at most ${String(error.params['limit'])} characters long: ${effect}.`);
      case 'minItems':
        return valueProblem(`\`${field}\` must list at least ${String(error.params['limit'])} item${error.params['limit'] === 1 ? '' : 's'}: ${effect}.`);
      case 'maxItems':
        return valueProblem(`\`${field}\` may list at most ${String(error.params['limit'])} items: ${effect}.`);
      case 'minProperties':
        return valueProblem(`\`${field}\` must have at least ${String(error.params['limit'])} entr${error.params['limit'] === 1 ? 'y' : 'ies'}: ${effect}.`);
      case 'not':
      case 'anyOf':
      case 'oneOf': {
        const text = description ?? `${capitalize(this.subjectOf(path))} does not have any of the accepted shapes.`;
        return valueProblem(`${ensurePeriod(text)} ${capitalize(effect)}.`);
      }
      default:
        return valueProblem(`${capitalize(this.subjectOf(path))}: ${error.message ?? 'invalid value'}; ${effect}.`);
    }
  }

  // -- places and spans ---------------------------------------------------------------------------

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

  /** The field a value sits under, for messages: `retryCount`, or `steps[2]` for a list item. */
  private fieldName(path: Segment[]): string {
    if (path.length === 0) return 'the document';
    const last = path[path.length - 1]!;
    const parent = nodeAtPath(this.root, path.slice(0, -1));
    if (isSeq(parent)) return `${path.length > 1 ? path[path.length - 2] : 'item'}[${last}]`;
    return last;
  }

  private isCallLine(): boolean {
    return this.kind === 'tool-calls' && isMap(this.root) && !getPair(this.root, 'calls');
  }

  /** What an object-level sentence is about: `this call`, `the document`, or its place. */
  private subjectOf(path: Segment[]): string {
    if (path.length === 0) return this.isCallLine() ? 'this call' : 'the document';
    return this.placeOf(path);
  }

  /** `compositeTools[deploy].steps[fetch].onError`: list items by their id or name where they have one. */
  private placeOf(path: Segment[]): string {
    if (path.length === 0) return 'the document';
    let node: Node | undefined = this.root;
    let out = '';
    for (const segment of path) {
      const parent: Node | undefined = node;
      node = nodeAtPath(parent, [segment]);
      if (isSeq(parent)) {
        const label = isMap(node) ? (scalarText(getPair(node, 'id')?.value) ?? scalarText(getPair(node, 'name')?.value)) : undefined;
        out += `[${label ?? segment}]`;
      } else out += out ? `.${segment}` : segment;
    }
    return `\`${out}\``;
  }

  private inFace(path: Segment[]): boolean {
    return this.kind === 'face-overlay' || path.includes('toolFaces');
  }
}

// ---- what happens at run time, per kind -----------------------------------------------------------

function unknownKeyEffect(kind: DocumentKind, inFace: boolean): string {
  if (inFace) return 'the tool-face format has no such field, so the setting has no effect';
  switch (kind) {
    case 'vmcp-config':
      return "ToolHive's CLI loader refuses a file with a key it does not know, so the whole configuration fails to load";
    case 'vmcp-server':
    case 'vmcp-composite':
      return 'Kubernetes prunes fields the CRD does not declare (or rejects the object under strict field validation), so the setting has no effect';
    case 'tool-catalog':
      return 'the catalog snapshot format has no such field, so Tool Lens ignores it';
    case 'tool-calls':
      return 'a calls file has no such field, so it is ignored';
    case 'mcp-servers':
      return 'the client does not read it, so the setting has no effect';
    default:
      return 'it is not part of the format, so it has no effect';
  }
}

function missingEffect(kind: DocumentKind, inFace: boolean): string {
  if (inFace) return 'without it the runtime cannot apply the face';
  switch (kind) {
    case 'vmcp-config':
      return 'without it ToolHive refuses to load the configuration';
    case 'vmcp-server':
    case 'vmcp-composite':
      return 'without it the ToolHive operator (or Kubernetes) rejects the resource';
    case 'tool-catalog':
      return 'without it Tool Lens cannot read this part of the catalog';
    case 'tool-calls':
      return 'without it the entry describes no call Tool Lens can check';
    case 'mcp-servers':
      return 'without it the client cannot use this entry';
    default:
      return 'it is required here';
  }
}

function wrongTypeEffect(kind: DocumentKind, inFace: boolean): string {
  if (inFace) return 'the runtime cannot read the face as written';
  switch (kind) {
    case 'vmcp-config':
      return "ToolHive's loader cannot decode it and refuses the configuration";
    case 'vmcp-server':
    case 'vmcp-composite':
      return 'Kubernetes rejects the resource: the CRD declares another type';
    case 'tool-catalog':
      return 'MCP clients that check the tool list refuse it, and Tool Lens cannot read it';
    case 'tool-calls':
      return 'MCP never sends or returns it in this shape, so the entry does not describe a real call';
    case 'mcp-servers':
      return 'the client cannot read this entry as written';
    default:
      return 'it cannot be read as written';
  }
}

function invalidValueEffect(kind: DocumentKind, inFace: boolean): string {
  if (inFace) return 'the runtime cannot apply the face as written';
  switch (kind) {
    case 'vmcp-config':
      return 'ToolHive refuses the configuration';
    case 'vmcp-server':
    case 'vmcp-composite':
      return 'the resource is rejected (by the CRD validation or by the operator)';
    case 'tool-catalog':
      return 'Tool Lens cannot use it as written';
    case 'tool-calls':
      return 'Tool Lens cannot tell what the entry calls, so it checks nothing in it';
    case 'mcp-servers':
      return 'the client cannot use this entry as written';
    default:
      return 'it cannot be used as written';
  }
}

/** What a missing field costs, by `<schema name>.<field>` (schema names come from `nameSubschemas`). */
const MISSING_EFFECT: Record<string, string> = {
  'vmcp-config/allOf/1/then.name':
    'A file with server settings (`groupRef`, `backends`, auth) is a whole vMCP configuration, and ToolHive refuses to load one without `name`.',
  'vmcp-config/allOf/1/then.groupRef':
    'A file with server settings (`name`, `backends`, auth) is a whole vMCP configuration, and ToolHive refuses to load one ' +
    'without the group whose workloads are its backends.',
  'vmcp-config/allOf/1/then.aggregation':
    'A file with server settings (`name`, `groupRef`, `backends`, auth) is a whole vMCP configuration, and ToolHive refuses to ' +
    'load one without an `aggregation` block (`conflictResolution: prefix` is the usual choice).',
  'CompositeTool.name': 'ToolHive refuses a composite tool without a name: it is the name clients call it by.',
  'CompositeTool.description':
    "ToolHive's validator refuses a composite tool without a description (clients show it to the model to decide when to call the tool).",
  'CompositeTool.steps': 'ToolHive refuses a composite tool without steps.',
  'WorkflowStep.id': 'ToolHive refuses a step without an id: `dependsOn` and `.steps.<id>` templates name steps by it.',
  'ElicitationResponseHandler.action':
    "ToolHive's validator refuses a handler without `action` (`abort`, `continue` or `skip_remaining`).",
  'OutputConfig.properties': 'ToolHive refuses an `output` block without `properties`: they are the fields of the result.',
  'OutputProperty.type': 'ToolHive refuses an output property without a `type`: it converts the rendered value to it.',
  'OutputProperty.description': 'ToolHive refuses to start when an output property has no description (it is advertised in the outputSchema).',
  'WorkloadToolConfig.workload': 'ToolHive refuses the entry: its filter and overrides would apply to no backend.',
  'WorkloadToolConfig/properties/toolConfigRef.name': 'the operator cannot find the MCPToolConfig without its name.',
  'CompositeToolRef.name': 'ToolHive refuses a reference without the name of the VirtualMCPCompositeToolDefinition it points at.',
  'vmcp-server.apiVersion': 'Kubernetes rejects an object without `apiVersion`.',
  'vmcp-server.kind': 'Kubernetes rejects an object without `kind`.',
  'vmcp-server.spec': 'the operator has nothing to run without `spec`.',
  'vmcp-server/properties/spec.groupRef': 'the VirtualMCPServer needs the MCPGroup whose servers are its backends; the operator rejects it without one.',
  'vmcp-server/properties/spec/properties/groupRef.name': 'the operator cannot find the MCPGroup without its name.',
  'vmcp-composite.apiVersion': 'Kubernetes rejects an object without `apiVersion`.',
  'vmcp-composite.kind': 'Kubernetes rejects an object without `kind`.',
  'vmcp-composite.spec': 'the resource defines no composite tool without `spec`.',
  'Snapshot.servers': 'a snapshot without `servers` describes no server, so every reference to its tools stays unknown.',
  'CatalogServer.name':
    'workflows and calls name servers by it, so Tool Lens ignores a server without a name and its tools stay unknown.',
  'Namespace.name': 'calls name the namespace in their envelope, so a namespace without a name cannot be called; Tool Lens ignores it.',
  'Tool.name': 'MCP requires it: clients reject the whole tool list when one tool has no name, and Tool Lens ignores the tool.',
  'Tool.inputSchema':
    'MCP requires it (`{"type": "object"}` for a tool without arguments): clients reject the whole tool list when one tool lacks it.',
  'Tool/properties/icons/items.src': 'an icon without `src` shows nothing; clients may reject it.',
  'ToolList.tools': 'a tools/list result without `tools` lists no tool.',
  'face-overlay.server': 'an overlay applies to the tools of one server, named here; without it the faces apply to nothing.',
  'face-overlay.toolFaces': 'the overlay has no faces to apply.',
  'PathTarget.param': 'the runtime cannot guard a path without knowing which argument holds it, so it refuses to mount the tool.',
  'PathTarget.access': 'the runtime must know whether the tool reads or writes the path; it refuses to mount the tool without `access`.',
  'Server/allOf/0/then.command': 'a stdio server is started from its `command`; without it the client has nothing to run.',
  'Server/allOf/1/then.url': 'an http or sse server is reached at its `url`; without it the client has nowhere to connect.',
  'Input.type': 'VS Code cannot prompt for the value without knowing the kind of input.',
  'Input.id': 'servers read the value as `${input:<id>}`; without an id nothing can use it.',
  'Input.description': 'VS Code shows the description as the prompt; it refuses an input without one.',
  'tool-calls.calls': 'a calls file lists its calls under `calls`.',
  'CallEntry/then/then.params': 'a JSON-RPC tools/call request carries the tool name and its arguments in `params`; the server refuses it without.',
  'CallEntry/then/then/properties/params.name': 'the server cannot tell which tool to call and answers with an error.',
};

/** What a pattern asks for, in words, where the schema's description says something else. */
const PATTERN_EXPECTED: Record<string, string> = {
  'WorkflowStep/properties/tool':
    'a tool reference that starts with a letter or digit and holds only letters, digits, `.`, `_` and `-`, such as `github.create_pr`.',
  'ForEachInnerStep/properties/tool':
    'a tool reference that starts with a letter or digit and holds only letters, digits, `.`, `_` and `-`, such as `github.create_pr`.',
  'WorkflowStep/properties/itemVar': 'a Go identifier (letters, digits and `_`, not starting with a digit) other than `index`, which is taken by the loop index.',
  'ForEachInnerStep/properties/itemVar': 'a Go identifier (letters, digits and `_`, not starting with a digit) other than `index`.',
};

function branchDescription(schema: unknown, name: string | undefined): string | undefined {
  // Only conditional branches explain a requirement; a definition's description says what it is.
  if (!name || !/\/(then|else|anyOf\/\d+|oneOf\/\d+)$/.test(name)) return undefined;
  const description = asRecord(schema)?.['description'];
  return typeof description === 'string' ? ensurePeriod(description) : undefined;
}

// ---- fixes -----------------------------------------------------------------------------------------

/** A quoted number or boolean where one is expected, or a bare one where a string is expected. */
function retypeFix(text: string, node: ScalarNode, expected: unknown): { fix: Fix; hint: string } | undefined {
  const types = Array.isArray(expected) ? expected.map(String) : [String(expected)];
  const raw = text.slice(node.span.start, node.span.end);
  if (typeof node.value === 'string' && (node.style === 'double' || node.style === 'single' || node.style === 'json')) {
    const inner = node.value.trim();
    const wantsNumber = types.includes('number') || types.includes('integer');
    const isNumber = /^-?\d+(\.\d+)?$/.test(inner) && (types.includes('number') || !inner.includes('.'));
    if (wantsNumber && isNumber) {
      return {
        hint: 'Write the number without quotes.',
        fix: { title: `Write ${inner} as a number`, safe: false, edits: [{ span: node.span, newText: inner }] },
      };
    }
    if (types.includes('boolean') && (inner === 'true' || inner === 'false')) {
      return {
        hint: 'Write the boolean without quotes.',
        fix: { title: `Write ${inner} as a boolean`, safe: false, edits: [{ span: node.span, newText: inner }] },
      };
    }
    return undefined;
  }
  if (types.includes('string') && (typeof node.value === 'number' || typeof node.value === 'boolean') && (node.style === 'plain' || node.style === 'json')) {
    return {
      hint: 'Put it in quotes to make it a string.',
      fix: { title: `Quote ${raw}`, safe: false, edits: [{ span: node.span, newText: JSON.stringify(raw) }] },
    };
  }
  return undefined;
}

// ---- small helpers ---------------------------------------------------------------------------------

function decodePointer(pointer: string): Segment[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function scalarText(node: Node | null | undefined): string | undefined {
  return isScalar(node) && typeof node.value === 'string' && node.value ? node.value : undefined;
}

function typeList(type: unknown): string {
  const types = Array.isArray(type) ? type.map(String) : String(type).split(',');
  const words = types.map((t) => TYPE_WORDS[t] ?? t);
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
  null: 'null',
};

function describeValue(node: Node): string {
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  const value = node.value;
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 37) + '...' : value)}`;
  if (typeof value === 'boolean') return `the boolean ${String(value)}`;
  return Number.isInteger(value) ? `the number ${value}` : `the number ${value}`;
}

function lowerFirst(text: string): string {
  return text ? text[0]!.toLowerCase() + text.slice(1) : text;
}

function ensurePeriod(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}
