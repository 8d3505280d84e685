// What the argument and result checks need beyond plain validation: the type coercion ToolHive
// applies to a step's arguments before it calls the backend, placeholders of the right type for
// fixes, and words for validation issues in messages (values and types in the words of
// text/jsonWords.ts, which schema/wrong-type shares).
import { LIMITS } from '../limits.js';
import { describeValue, typeWords } from '../text/jsonWords.js';
import { listOf } from '../text/words.js';
import { isObject, resolveLocalRef } from './properties.js';
import type { SchemaIssue } from './validate.js';

type JsonObject = Record<string, unknown>;

/** A string ToolHive expands as a Go template at run time. */
export function isTemplateString(value: unknown): value is string {
  return typeof value === 'string' && value.includes('{{');
}

/**
 * The arguments as the backend receives them. ToolHive expands every string value (a literal
 * string is a template without actions) and then coerces strings to the schema's type: only a
 * single `type` keyword counts, objects by `properties`, arrays by an object `items`, and a string
 * that does not parse stays a string. No `$ref`, no `allOf`: the same walk as ToolHive's.
 */
export function coerceLikeToolHive(schema: unknown, value: unknown): unknown {
  if (!isObject(schema) || hasNoKeys(schema)) return value;
  switch (schema.type) {
    case 'object': {
      if (!isObject(value)) return value;
      const properties = isObject(schema.properties) ? schema.properties : {};
      const out: JsonObject = {};
      for (const [key, item] of Object.entries(value)) {
        const sub = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
        const coerced = isObject(sub) ? coerceLikeToolHive(sub, item) : item;
        // Assigning `__proto__` would change the prototype; any other key is assigned (the faster way).
        if (key === '__proto__')
          Object.defineProperty(out, key, { value: coerced, enumerable: true, writable: true, configurable: true });
        else out[key] = coerced;
      }
      return out;
    }
    case 'array':
      if (!Array.isArray(value)) return value;
      return isObject(schema.items) ? value.map((item) => coerceLikeToolHive(schema.items, item)) : value;
    case 'integer':
      return typeof value === 'string' && /^[+-]?[0-9]+$/.test(value) && Number.isSafeInteger(Number(value))
        ? Number(value)
        : value;
    case 'number':
      return typeof value === 'string' && /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(value)
        ? Number(value)
        : value;
    case 'boolean':
      if (typeof value !== 'string') return value;
      if (GO_TRUE.has(value)) return true;
      if (GO_FALSE.has(value)) return false;
      return value;
    default:
      return value;
  }
}

/** The texts Go's strconv.ParseBool reads as true and as false. */
const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const GO_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** `Object.keys(o).length === 0` without making the list (asked once per argument value). */
function hasNoKeys(o: object): boolean {
  for (const key in o) if (Object.prototype.hasOwnProperty.call(o, key)) return false;
  return true;
}

/**
 * A value of the right type for a fix to insert: the first enum value, the const, or an empty one.
 * Each schema is looked at once, so a `$ref` or first branch that leads back (a → b → a) ends.
 */
export function placeholderFor(schema: JsonObject, root: JsonObject, seen = new Set<JsonObject>()): unknown {
  if (seen.has(schema)) return '';
  seen.add(schema);
  if (typeof schema.$ref === 'string') {
    const target = resolveLocalRef(root, schema.$ref);
    if (target) return placeholderFor(target, root, seen);
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const types =
    typeof schema.type === 'string'
      ? [schema.type]
      : Array.isArray(schema.type)
        ? schema.type.filter((t) => t !== 'null')
        : [];
  switch (types[0]) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
  }
  if (isObject(schema.properties)) return {};
  if (schema.items !== undefined) return [];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) {
      const first = branches.find(isObject);
      if (first) return placeholderFor(first, root, seen);
    }
  }
  return '';
}

/** `entities[0].name` from path segments. */
export function pathText(path: readonly (string | number)[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${segment}` : segment;
  }
  return out;
}

/**
 * What is wrong with a value, in words, from a validation issue: `is the string "x", but the schema
 * wants an integer`. The subject (an argument, a path in structuredContent) is the caller's.
 */
export function issueWords(issue: SchemaIssue, value: unknown): string {
  const p = issue.params;
  switch (issue.keyword) {
    case 'type':
      return `is ${describeValue(value)}, but the schema wants ${typeWords(p.type)}`;
    case 'enum': {
      const allowed = Array.isArray(p.allowedValues)
        ? listOf(
            (p.allowedValues as unknown[]).slice(0, LIMITS.messageItems + 1).map((v) => JSON.stringify(v)),
            LIMITS.messageItems,
            p.allowedValues.length,
          )
        : '';
      return `is ${describeValue(value)}, which is not one of ${allowed}`;
    }
    case 'const':
      return `is ${describeValue(value)}, but must be ${JSON.stringify(p.allowedValue)}`;
    case 'required':
      return `has no "${String(p.missingProperty)}", which the schema requires`;
    case 'additionalProperties':
      return `has a property "${String(p.additionalProperty)}" that the schema does not allow`;
    case 'format':
      return `is ${describeValue(value)}, which is not a valid ${String(p.format)}`;
    case 'anyOf':
    case 'oneOf':
      return Array.isArray(p.passingSchemas)
        ? `is ${describeValue(value)}, which matches more than one of the forms the schema accepts (it must match exactly one)`
        : `is ${describeValue(value)}, which matches none of the forms the schema accepts`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'pattern':
    case 'multipleOf':
      return `is ${describeValue(value)}, but ${issue.message}`;
    default:
      return `fails the schema's "${issue.keyword}" check (${issue.message})`;
  }
}
