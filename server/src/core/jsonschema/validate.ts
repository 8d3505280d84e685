// JSON Schema validation of plain values (tool arguments, recorded results) with ajv, in the
// dialect the schema asks for. Tool schemas come from servers we do not control, so nothing here
// throws: a schema that does not compile is reported as such and the caller skips its checks
// (`catalog/invalid-schema` is the rule that reports the schema itself).
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
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

export type CompiledSchema =
  | { ok: true; dialect: SchemaDialect; validate(value: unknown): SchemaIssue[] }
  | { ok: false; dialect: SchemaDialect; error: string };

export type ValidationResult =
  | { compiled: true; dialect: SchemaDialect; issues: SchemaIssue[] }
  | { compiled: false; dialect: SchemaDialect; error: string };

// Two instances, one per dialect. `addUsedSchema: false` keeps a schema's `$id` out of the
// instance's registry, so two servers that reuse one `$id` do not clash.
const OPTIONS = { strict: false, allErrors: true, addUsedSchema: false, validateFormats: true } as const;
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function instance(dialect: SchemaDialect): Ajv | Ajv2020 {
  if (dialect === 'draft-07') {
    if (!draft07) {
      draft07 = new Ajv(OPTIONS);
      addFormats(draft07);
    }
    return draft07;
  }
  if (!draft2020) {
    draft2020 = new Ajv2020(OPTIONS);
    addFormats(draft2020);
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
  return result;
}

/** Validates a value; never throws. */
export function validateAgainstSchema(schema: unknown, value: unknown): ValidationResult {
  const compiled = compileSchema(schema);
  if (!compiled.ok) return { compiled: false, dialect: compiled.dialect, error: compiled.error };
  return { compiled: true, dialect: compiled.dialect, issues: compiled.validate(value) };
}

function compileFor(schema: object | boolean, dialect: SchemaDialect): CompiledSchema {
  let fn: ValidateFunction;
  try {
    fn = instance(dialect).compile(schema);
  } catch (error) {
    return { ok: false, dialect, error: error instanceof Error ? error.message : String(error) };
  }
  return {
    ok: true,
    dialect,
    validate(value: unknown): SchemaIssue[] {
      try {
        if (fn(value)) return [];
      } catch (error) {
        // A schema can still fail while validating (a recursive $ref on cyclic data): say so as an issue.
        return [{ instancePath: '', path: [], keyword: 'error', schemaPath: '#', params: {}, message: `the schema could not be applied (${String(error)})` }];
      }
      return (fn.errors ?? []).map(toIssue);
    },
  };
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
const KNOWN_FORMATS = new Set(['date', 'time', 'date-time', 'duration', 'uri', 'uri-reference', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
const COUNTS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties']);
const BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);
const TEXTS = new Set(['title', 'description', '$comment']);
const ANY_VALUE = new Set(['default', 'const']);

function isScalarJson(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
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
      } else if (!Array.isArray(value) || value.length === 0 || new Set(value).size !== value.length || !value.every((t) => typeof t === 'string' && SIMPLE_TYPES.has(t))) return false;
    } else if (key === 'enum') {
      // draft-07 wants the values unique: told here for scalars only (objects would need deep equality).
      if (!Array.isArray(value) || value.length === 0 || !value.every(isScalarJson)) return false;
      if (new Set(value.map((v) => `${typeof v}:${String(v)}`)).size !== value.length) return false;
    } else if (key === 'examples') {
      if (!Array.isArray(value)) return false;
    } else if (key === 'required') {
      if (!Array.isArray(value) || !value.every((r) => typeof r === 'string') || new Set(value).size !== value.length) return false;
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
