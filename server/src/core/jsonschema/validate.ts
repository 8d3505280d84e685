// JSON Schema validation of plain values (tool arguments, recorded results) with ajv, in the
// dialect the schema asks for. Tool schemas come from servers we do not control, so nothing here
// throws: a schema that does not compile is reported as such and the caller skips its checks
// (`catalog/invalid-schema` is the rule that reports the schema itself).
import type { default as Ajv, CodeOptions, ErrorObject, ValidateFunction } from 'ajv';
import type Ajv2020 from 'ajv/dist/2020.js';
import type * as AjvChunk from './ajv.chunk.js';
import { LIMITS } from '../limits.js';
import { inPlaceLoop } from './loops.js';
import { compilePattern, decidingPatterns, type PatternBudget } from './patterns.js';
import { isObject } from './properties.js';

type SchemaDialect = 'draft-07' | '2020-12';

/** One validation failure, with the instance path split into keys and indexes. */
export interface SchemaIssue {
  /** JSON pointer into the validated value (`/entities/0/name`); '' for the value itself. */
  instancePath: string;
  /** The same path as segments: array indexes are numbers. */
  path: (string | number)[];
  keyword: string;
  /** Where in the schema the failing keyword sits (`#/properties/a/anyOf/0/type`). */
  schemaPath: string;
  params: Record<string, unknown>;
  /** ajv's short message (`must be string`); callers build their own sentences from keyword/params. */
  message: string;
}

/** A pattern of the schema that is never evaluated (patterns.ts says why). */
export interface UnevaluatedPattern {
  pattern: string;
  limit: 'regexEngine' | 'regexProgram';
  reason: string;
}

/** A string a pattern was not matched against while validating: the value passed that keyword. */
export interface UncheckedString {
  /** The string: a value, or a property name (`patternProperties`, `propertyNames`). */
  text: string;
  pattern: string;
  limit: 'regexEngine' | 'regexProgram' | 'regexWork';
  /** For regexEngine and regexProgram, why the pattern is not evaluated. */
  reason?: string;
  /**
   * The pattern sits where passing it could turn other verdicts around (under not, anyOf, oneOf,
   * if or contains, or as a patternProperties name): the validation then reports no issue at all.
   */
  deciding: boolean;
}

export type CompiledSchema =
  | {
      ok: true;
      dialect: SchemaDialect;
      /** The schema's patterns that are never evaluated, each once. */
      unevaluated: UnevaluatedPattern[];
      validate(value: unknown, budget?: PatternBudget): Validation;
    }
  | { ok: false; dialect: SchemaDialect; error: string };

/** What validating one value found; `tooMuchWork` when it stopped at LIMITS.schemaWork (then no issue is known). */
export interface Validation {
  issues: SchemaIssue[];
  unchecked: UncheckedString[];
  tooMuchWork?: true;
}

export type ValidationResult =
  | ({ compiled: true; dialect: SchemaDialect } & Validation)
  | { compiled: false; dialect: SchemaDialect; error: string };

// Patterns run on RE2 (patterns.ts). ajv asks `regExp` for each pattern of a schema while it
// compiles it (and for its meta-schemas' own), and calls `test` on what it returns while it
// validates. `compiling` and `validating` are set around those two calls, which are synchronous.
let compiling: Map<string, UnevaluatedPattern> | undefined;
let validating: { budget?: PatternBudget; unchecked: UncheckedString[] } | undefined;

type RegExpEngine = NonNullable<CodeOptions['regExp']>;

const regExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string): { test(text: string): boolean; toString(): string } => {
    // A JSON Schema pattern is an ECMA-262 one: RegExp says whether it is (and throws, failing the
    // compile as ajv always did, when it is not). It compiles the pattern; it never runs it.
    new RegExp(pattern, flags);
    const verdict = compilePattern(pattern);
    if (!verdict.ok) compiling?.set(pattern, { pattern, limit: verdict.limit, reason: verdict.reason });
    return {
      test(text: string): boolean {
        if (!verdict.ok) {
          validating?.unchecked.push({ text, pattern, limit: verdict.limit, reason: verdict.reason, deciding: false });
          return true;
        }
        if (validating?.budget && !validating.budget.take(verdict.program, text)) {
          validating.unchecked.push({ text, pattern, limit: 'regexWork', deciding: false });
          return true;
        }
        return verdict.regex.test(text);
      },
      // ajv keeps one compiled pattern per distinct `toString()`.
      toString: () => `/${pattern}/${flags} (RE2)`,
    };
  },
  // Only standalone code would print this; tool schemas are compiled at run time.
  { code: 'toolLensRE2' },
);

// Two instances, one per dialect. ajv finds the schema a `$ref` of `#` names (the whole schema, as
// in `properties: {child: {$ref: "#"}}`) only in its registry, so a schema is registered while it
// compiles and forgotten right after (`compileAlone`): two servers that reuse one `$id` never meet,
// and the instances keep no tool schema.
//
// `logger: false`: ajv's default logger is the console, where it warns of a format it does not
// know (`format: phone`) and ignores it. That is what JSON Schema asks (an unknown format is an
// annotation, and the clients that check formats skip it too), so it is no finding either.
//
// `inlineRefs: false`: to decide whether a `$ref`'s target can be inlined, ajv walks the target for
// a `$ref` and visits every array twice on the way (once per item, once as an object), so each
// level of arrays nested anywhere in it, in any value, doubles the walk: 30 levels in a 300-byte
// schema took a minute and a half, 200 never ended. Compiled apart, a target is never walked that way.
const OPTIONS = {
  strict: false,
  allErrors: true,
  addUsedSchema: true,
  validateFormats: true,
  logger: false,
  inlineRefs: false,
  code: { regExp, process: countingCalls },
} as const;
// Validation work is counted in calls of generated validators: with references compiled apart, a
// validator's own code is as long as its part of the schema, so the calls bound the whole work.
// References that fan out (`d0: {anyOf: [{$ref: d1}, {$ref: d1}]}`, `d1: ...`) apply 2^levels
// schemas to one value, a few hundred bytes of schema for hours of work: past LIMITS.schemaWork
// calls the validation stops, and the value is declined. Each generated validator starts by
// counting itself on its instance (`self` in ajv's generated code), where `validate` below puts
// the count; outside a validation (the meta-schemas' at compile time) nothing is counted.
interface WorkCount {
  calls: number;
  stop: Error;
}
type Counted = { toolLensWork?: WorkCount };
const TOO_MUCH_WORK = new Error('LIMITS.schemaWork');
const COUNT = `if(self.toolLensWork!==undefined&&++self.toolLensWork.calls>${LIMITS.schemaWork})throw self.toolLensWork.stop;`;

/** ajv's generated source with the count at the start of its validator; unchanged when its head is not found. */
function countingCalls(source: string): string {
  const start = source.indexOf('return function ');
  const head = start < 0 ? -1 : source.indexOf('={}){', start);
  return head < 0 ? source : source.slice(0, head + 5) + COUNT + source.slice(head + 5);
}

let ajvChunk: typeof AjvChunk | undefined;

/**
 * ajv with its formats and our uniqueItems, loaded on the first schema compiled: a lazy chunk
 * beside the bundles (ajv.chunk.ts), which a start that compiles no schema never parses.
 */
function ajvLibrary(): typeof AjvChunk {
  // A literal path in a function: the build keeps it a require of the chunk's file (lazyChunkPlugin).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  ajvChunk ??= require('./ajv.chunk.js') as typeof AjvChunk;
  return ajvChunk;
}

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function instance(dialect: SchemaDialect): Ajv | Ajv2020 {
  const { Ajv, Ajv2020, addFormats, uniqueItems } = ajvLibrary();
  if (dialect === 'draft-07') {
    if (!draft07) {
      draft07 = new Ajv(OPTIONS);
      addFormats(draft07);
      draft07.removeKeyword('uniqueItems').addKeyword(uniqueItems);
    }
    return draft07;
  }
  if (!draft2020) {
    draft2020 = new Ajv2020(OPTIONS);
    addFormats(draft2020);
    draft2020.removeKeyword('uniqueItems').addKeyword(uniqueItems);
  }
  return draft2020;
}

/**
 * The dialect a schema declares: draft-04/06/07 run on the draft-07 instance (close enough for
 * argument checks), 2019-09 and 2020-12 on the 2020 one; undefined when `$schema` is absent or unknown.
 */
function declaredDialect(schema: unknown): SchemaDialect | undefined {
  if (!isObject(schema) || typeof schema.$schema !== 'string') return undefined;
  const uri = schema.$schema;
  if (/draft-0[467]\/schema/.test(uri)) return 'draft-07';
  if (/draft\/(2019-09|2020-12)\/schema/.test(uri)) return '2020-12';
  return undefined;
}

const cache = new WeakMap<object, CompiledSchema>();

/**
 * Compiles a schema for its dialect, once per schema object. Without a known `$schema` MCP says
 * 2020-12; a schema written for draft-07 (tuple `items`, ...) that fails there is tried as draft-07.
 */
export function compileSchema(schema: unknown): CompiledSchema {
  if (typeof schema === 'boolean') return compileFor(schema, '2020-12');
  if (!isObject(schema)) return { ok: false, dialect: '2020-12', error: 'the schema is not an object' };
  const cached = cache.get(schema);
  if (cached) return cached;
  // The same schema often comes as two objects (catalog/invalid-schema reads the catalog's tree,
  // the argument checks its loaded tools): compiling is the slow part, so equal texts share it.
  const text = jsonText(schema);
  const same = text === undefined ? undefined : byText.get(text);
  if (same) {
    cache.set(schema, same);
    return same;
  }
  const declared = declaredDialect(schema);
  let result: CompiledSchema;
  if (declared) result = compileFor(schema, declared);
  else {
    // An unknown `$schema` URI would make ajv look for a meta-schema it does not have.
    const body = typeof schema.$schema === 'string' ? withoutKey(schema, '$schema') : schema;
    result = compileFor(body, '2020-12');
    if (!result.ok) {
      const fallback = compileFor(body, 'draft-07');
      if (fallback.ok) result = fallback;
    }
  }
  cache.set(schema, result);
  if (text !== undefined) {
    if (byText.size >= MAX_BY_TEXT) byText.delete(byText.keys().next().value!);
    byText.set(text, result);
  }
  return result;
}

const byText = new Map<string, CompiledSchema>();
const MAX_BY_TEXT = 2000;

/**
 * The schema's JSON text, when the text tells it exactly: undefined for anything JSON would blur
 * (a number that is not finite, or -0; a value that is not plain data), which then compiles alone.
 */
function jsonText(schema: object): string | undefined {
  let exact = true;
  const note = (own: unknown): void => {
    if (typeof own === 'number') {
      if (!Number.isFinite(own) || Object.is(own, -0)) exact = false;
    } else if (typeof own === 'object' && own !== null) {
      const prototype: unknown = Object.getPrototypeOf(own);
      if (!Array.isArray(own) && prototype !== Object.prototype && prototype !== null) exact = false;
    } else if (typeof own !== 'string' && typeof own !== 'boolean' && own !== null) exact = false;
  };
  let text: string;
  try {
    text = JSON.stringify(schema, function (this: Record<string, unknown>, key: string, value: unknown): unknown {
      // What the holder has, before any toJSON (a Date's) made it something else.
      note(key === '' ? schema : this[key]);
      return value;
    });
  } catch {
    return undefined; // a value JSON cannot write (a BigInt)
  }
  return exact ? text : undefined;
}

/**
 * Validates a value; never throws. Pattern work is taken from `budget` (one per document); without
 * one, patterns run unbounded (each still in linear time).
 */
export function validateAgainstSchema(schema: unknown, value: unknown, budget?: PatternBudget): ValidationResult {
  const compiled = compileSchema(schema);
  if (!compiled.ok) return { compiled: false, dialect: compiled.dialect, error: compiled.error };
  return { compiled: true, dialect: compiled.dialect, ...compiled.validate(value, budget) };
}

const asDraft07 = new WeakMap<object, CompiledSchema>();

/**
 * Validates a value as the official TypeScript SDK v1 client does whatever the schema's `$schema`
 * says: on a draft-07 validator, so 2020-12-only keywords (`unevaluatedProperties`, `prefixItems`
 * ...) are ignored and `items: false` forbids every item. For telling apart what a dialect-true
 * client and that client do with one result; never throws.
 */
export function validateAsDraft07(schema: unknown, value: unknown, budget?: PatternBudget): ValidationResult {
  if (!isObject(schema)) return { compiled: false, dialect: 'draft-07', error: 'the schema is not an object' };
  let compiled = asDraft07.get(schema);
  if (!compiled) {
    compiled = compileFor(typeof schema.$schema === 'string' ? withoutKey(schema, '$schema') : schema, 'draft-07');
    asDraft07.set(schema, compiled);
  }
  if (!compiled.ok) return { compiled: false, dialect: compiled.dialect, error: compiled.error };
  return { compiled: true, dialect: compiled.dialect, ...compiled.validate(value, budget) };
}

/** The error of a schema that applies itself to the same value without end (jsonschema/loops.ts). */
export const IN_PLACE_LOOP = 'in-place loop: ';

function compileFor(schema: object | boolean, dialect: SchemaDialect): CompiledSchema {
  // Before ajv, which would recurse until the stack runs out, at compile time or on every value.
  const loop = isObject(schema) ? inPlaceLoop(schema) : undefined;
  if (loop) return { ok: false, dialect, error: IN_PLACE_LOOP + loop.join(' -> ') };
  let fn: ValidateFunction;
  const unevaluated = new Map<string, UnevaluatedPattern>();
  const outer = compiling;
  compiling = unevaluated;
  const ajv = instance(dialect);
  try {
    fn = compileAlone(ajv, schema);
  } catch (error) {
    return { ok: false, dialect, error: error instanceof Error ? error.message : String(error) };
  } finally {
    compiling = outer;
  }
  let deciding: Set<string> | undefined | null = null;
  /** Marks the strings whose pattern could decide other verdicts; true when there is one. */
  const decide = (unchecked: UncheckedString[]): boolean => {
    if (unchecked.length === 0) return false;
    if (deciding === null) deciding = isObject(schema) ? decidingPatterns(schema) : new Set<string>();
    for (const item of unchecked) item.deciding = deciding === undefined || deciding.has(item.pattern);
    return unchecked.some((item) => item.deciding);
  };
  return {
    ok: true,
    dialect,
    unevaluated: [...unevaluated.values()],
    validate(value: unknown, budget?: PatternBudget): Validation {
      const outerRun = validating;
      const run = { budget, unchecked: [] as UncheckedString[] };
      validating = run;
      const counted = ajv as unknown as Counted;
      const outerWork = counted.toolLensWork;
      counted.toolLensWork = { calls: 0, stop: TOO_MUCH_WORK };
      let issues: SchemaIssue[];
      try {
        issues = fn(value) ? [] : (fn.errors ?? []).map(toIssue);
      } catch (error) {
        if (error === TOO_MUCH_WORK) return { issues: [], unchecked: [], tooMuchWork: true };
        // A schema can still fail while validating (a recursive $ref on cyclic data): say so as an issue.
        issues = [
          {
            instancePath: '',
            path: [],
            keyword: 'error',
            schemaPath: '#',
            params: {},
            message: `the schema could not be applied (${String(error)})`,
          },
        ];
      } finally {
        validating = outerRun;
        counted.toolLensWork = outerWork;
      }
      return { issues: decide(run.unchecked) ? [] : issues, unchecked: run.unchecked };
    },
  };
}

/**
 * Compiles with the schema in the instance's registry, and leaves the registry as it found it. A
 * root `$id` the registry already holds (a meta-schema's) is not the tool's to take: that schema
 * compiles without it, as it did before registration.
 */
function compileAlone(ajv: Ajv | Ajv2020, schema: object | boolean): ValidateFunction {
  const id = isObject(schema) ? schema.$id : undefined;
  if (typeof id === 'string' && isObject(schema) && registered(ajv, id)) schema = withoutKey(schema, '$id');
  const refs = new Set(Object.keys(ajv.refs));
  const schemas = new Set(Object.keys(ajv.schemas));
  const scope = scopeSizes(ajv);
  try {
    return ajv.compile(schema);
  } finally {
    trimScope(ajv, scope);
    // An `$id` that is not a string fails before ajv keeps anything (and removeSchema would throw on it).
    if (isObject(schema) && (id === undefined || typeof id === 'string')) ajv.removeSchema(schema);
    for (const key of Object.keys(ajv.refs)) if (!refs.has(key)) delete ajv.refs[key];
    for (const key of Object.keys(ajv.schemas)) if (!schemas.has(key)) delete ajv.schemas[key];
  }
}

// ajv's code-generation scope keeps every value a validator it generated refers to (the schema
// objects, patterns, formats, the validators of references) for the life of the instance, and the
// catalog is compiled again at every rebuild (every edit of a catalog file in the editor): the
// instance would grow for as long as the editor runs. A generated validator reads those values
// once, when it is made (its code begins by copying each into a local), so what one compile added
// is dropped right after it; a later compile that needs a value again adds it again. The scope's
// fields are ajv's own (8.x): when they are not there, nothing is trimmed.
interface ScopeStore {
  _values?: Record<string, Map<unknown, unknown> | undefined>;
  _scope?: Record<string, unknown[] | undefined>;
}

function scopeOf(ajv: Ajv | Ajv2020): ScopeStore | undefined {
  const scope = (ajv as unknown as { scope?: ScopeStore }).scope;
  return scope && isObject(scope._values) && isObject(scope._scope) ? scope : undefined;
}

/** How many values the scope holds under each prefix. */
function scopeSizes(ajv: Ajv | Ajv2020): Map<string, { values: number; store: number }> {
  const sizes = new Map<string, { values: number; store: number }>();
  const scope = scopeOf(ajv);
  if (!scope) return sizes;
  for (const prefix of Object.keys(scope._values!)) {
    sizes.set(prefix, { values: scope._values![prefix]?.size ?? 0, store: scope._scope![prefix]?.length ?? 0 });
  }
  return sizes;
}

/** Drops what the scope gained since `sizes` (values are only ever appended: the newest are last). */
function trimScope(ajv: Ajv | Ajv2020, sizes: Map<string, { values: number; store: number }>): void {
  const scope = scopeOf(ajv);
  if (!scope) return;
  for (const prefix of Object.keys(scope._values!)) {
    const values = scope._values![prefix];
    const before = sizes.get(prefix) ?? { values: 0, store: 0 };
    if (values instanceof Map && values.size > before.values) {
      let index = 0;
      for (const key of [...values.keys()]) if (index++ >= before.values) values.delete(key);
    }
    const store = scope._scope![prefix];
    if (Array.isArray(store) && store.length > before.store) store.length = before.store;
  }
}

function registered(ajv: Ajv | Ajv2020, id: string): boolean {
  const key = id.replace(/#\/?$/, '');
  return ajv.refs[key] !== undefined || ajv.schemas[key] !== undefined;
}

function toIssue(error: ErrorObject): SchemaIssue {
  return {
    instancePath: error.instancePath,
    path: pointerSegments(error.instancePath),
    keyword: error.keyword,
    schemaPath: error.schemaPath,
    params: { ...(error.params as Record<string, unknown>) },
    message: error.message ?? error.keyword,
  };
}

/** `/a/0/b~1c` → ['a', 0, 'b/c']; an all-digit segment is an array index. */
function pointerSegments(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => {
      const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      return /^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment;
    });
}

function withoutKey(schema: Record<string, unknown>, key: string): Record<string, unknown> {
  // fromEntries defines own properties: a `__proto__` key stays a key.
  return Object.fromEntries(Object.entries(schema).filter(([k]) => k !== key));
}

// A schema every dialect accepts, told without compiling it. Compiling generates and evaluates
// code, about a millisecond a schema: a catalog of 20,000 tools spent most of its check there. Most
// tool schemas only use the plain keywords below with values of the right shape, and for those
// the compiler has nothing to refuse; anything else (a `$ref`, a `pattern`, a combinator, an
// unknown keyword or format, a value of an odd shape) is left to the compiler.
const SIMPLE_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);
const KNOWN_FORMATS = new Set([
  'date',
  'time',
  'date-time',
  'duration',
  'uri',
  'uri-reference',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
const COUNTS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties']);
const BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);
const TEXTS = new Set(['title', 'description', '$comment']);
const ANY_VALUE = new Set(['default', 'const']);

function isScalarJson(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/**
 * True when `schema` is built only of plain keywords with values of the right shape, so that both
 * dialects' meta-schemas accept it and the compiler has nothing to refuse; false means "compile it
 * to know" (not "invalid"). `$schema` is the caller's business (the root's is read for the dialect).
 */
export function plainlyValid(schema: unknown, root = true): boolean {
  if (typeof schema === 'boolean') return true;
  if (!isObject(schema)) return false;
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' && root && typeof value === 'string') continue;
    if (TEXTS.has(key)) {
      if (typeof value !== 'string') return false;
    } else if (ANY_VALUE.has(key)) continue;
    else if (key === 'type') {
      if (typeof value === 'string') {
        if (!SIMPLE_TYPES.has(value)) return false;
      } else if (
        !Array.isArray(value) ||
        value.length === 0 ||
        new Set(value).size !== value.length ||
        !value.every((t) => typeof t === 'string' && SIMPLE_TYPES.has(t))
      )
        return false;
    } else if (key === 'enum') {
      // draft-07 wants the values unique: told here for scalars only (objects would need deep equality).
      if (!Array.isArray(value) || value.length === 0 || !value.every(isScalarJson)) return false;
      if (new Set(value.map((v) => `${typeof v}:${String(v)}`)).size !== value.length) return false;
    } else if (key === 'examples') {
      if (!Array.isArray(value)) return false;
    } else if (key === 'required') {
      if (!Array.isArray(value) || !value.every((r) => typeof r === 'string') || new Set(value).size !== value.length)
        return false;
    } else if (key === 'properties') {
      if (!isObject(value)) return false;
      for (const property of Object.values(value)) if (!plainlyValid(property, false)) return false;
    } else if (key === 'items' || key === 'additionalProperties') {
      if (!plainlyValid(value, false)) return false;
    } else if (key === 'uniqueItems') {
      if (typeof value !== 'boolean') return false;
    } else if (COUNTS.has(key)) {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return false;
    } else if (BOUNDS.has(key)) {
      if (typeof value !== 'number' || !Number.isFinite(value)) return false;
    } else if (key === 'multipleOf') {
      if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) return false;
    } else if (key === 'format') {
      if (typeof value !== 'string' || !KNOWN_FORMATS.has(value)) return false;
    } else return false;
  }
  return true;
}

/** Branch errors of anyOf/oneOf repeat the summary error; `if` only wraps its branch's errors. */
export function relevantIssue(issue: SchemaIssue): boolean {
  if (issue.keyword === 'if' || issue.keyword === 'error') return false;
  return !/\/(anyOf|oneOf)\/\d+\//.test(issue.schemaPath);
}
