// The properties a tool's input schema declares at its top level, as faces and argument checks
// see them: the root `properties`, after following a local root `$ref`, plus those of root `allOf`
// branches. "Scalar" means string, number, integer or boolean, or an enum/const of scalars.
import { LIMITS } from '../limits.js';
import { firstItems, listOf } from '../text/words.js';

export interface SchemaProperty {
  name: string;
  schema: Record<string, unknown>;
  scalar: boolean;
  /** Short type text for hovers: `string`, `integer | null`, `enum`, `object`... */
  typeText: string;
  required: boolean;
  description?: string;
}

export interface TopLevelProperties {
  properties: Map<string, SchemaProperty>;
  /** Whether extra properties are forbidden at the root (additionalProperties: false). */
  closed: boolean;
  /** True when the schema declares its properties in a way we cannot list (anyOf, oneOf, remote $ref). */
  open: boolean;
}

type JsonObject = Record<string, unknown>;

/** A JSON object (not null, not an array): what a schema, or a schema keyword's object value, must be. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Resolves `#/...` JSON pointers inside the same schema; undefined for anything else. */
export function resolveLocalRef(root: JsonObject, ref: string): JsonObject | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) || !Object.prototype.hasOwnProperty.call(node, segment)) return undefined;
    node = node[segment];
  }
  return isObject(node) ? node : undefined;
}

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

function isScalarValue(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function isScalarSchema(schema: JsonObject, root: JsonObject, depth = 0): boolean {
  if (depth > 20) return false;
  if (typeof schema.$ref === 'string') {
    const target = resolveLocalRef(root, schema.$ref);
    return target ? isScalarSchema(target, root, depth + 1) : false;
  }
  if (Array.isArray(schema.enum)) return schema.enum.length > 0 && schema.enum.every(isScalarValue);
  if ('const' in schema) return isScalarValue(schema.const);
  const type = schema.type;
  if (typeof type === 'string') return SCALAR_TYPES.has(type);
  if (Array.isArray(type)) {
    const real = type.filter((t) => t !== 'null');
    return real.length > 0 && real.every((t) => typeof t === 'string' && SCALAR_TYPES.has(t));
  }
  return false;
}

/**
 * How many schemas one type text may look at: `anyOf` branches that `$ref` the same definitions
 * make a text that doubles at each level (2^20 schemas for 20 levels), which is no type text.
 */
const TYPE_TEXT_SCHEMAS = 100;

function typeText(schema: JsonObject, root: JsonObject, depth = 0, budget = { left: TYPE_TEXT_SCHEMAS }): string {
  if (depth > 20 || budget.left-- <= 0) return 'unknown';
  if (typeof schema.$ref === 'string') {
    const target = resolveLocalRef(root, schema.$ref);
    return target ? typeText(target, root, depth + 1, budget) : 'unknown';
  }
  if (Array.isArray(schema.enum)) return `enum (${listOf(schema.enum.slice(0, LIMITS.messageItems).map((v) => JSON.stringify(v)), LIMITS.messageItems, schema.enum.length)})`;
  if ('const' in schema) return `const ${JSON.stringify(schema.const)}`;
  const type = schema.type;
  if (typeof type === 'string') {
    if (type === 'array' && isObject(schema.items)) return `array of ${typeText(schema.items, root, depth + 1, budget)}`;
    return type;
  }
  if (Array.isArray(type)) return firstItems(type.map(String)).shown.join(' | ');
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) {
      return firstItems(branches.filter(isObject))
        .shown.map((b) => typeText(b, root, depth + 1, budget))
        .join(' | ');
    }
  }
  return 'any';
}

const propertiesOf = new WeakMap<JsonObject, TopLevelProperties>();

/**
 * The top-level properties of a tool's input schema, read once per schema object (every step and
 * call of the tool asks). Treat the result as read-only.
 */
export function topLevelProperties(inputSchema: unknown): TopLevelProperties {
  if (!isObject(inputSchema)) return { properties: new Map(), closed: false, open: false };
  let result = propertiesOf.get(inputSchema);
  if (!result) propertiesOf.set(inputSchema, (result = readTopLevelProperties(inputSchema)));
  return result;
}

function readTopLevelProperties(inputSchema: JsonObject): TopLevelProperties {
  const result: TopLevelProperties = { properties: new Map(), closed: false, open: false };
  const root = inputSchema;
  // A schema reached twice (two `allOf` branches that `$ref` one definition) adds nothing the
  // first visit did not: visiting it again made `allOf` chains of references cost 2^depth.
  const visited = new Map<JsonObject, number>();
  const visit = (schema: JsonObject, depth: number): void => {
    if (depth > 20 || (visited.get(schema) ?? Infinity) <= depth) return;
    visited.set(schema, depth);
    if (typeof schema.$ref === 'string') {
      const target = resolveLocalRef(root, schema.$ref);
      if (target) visit(target, depth + 1);
      else result.open = true;
    }
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
    if (isObject(schema.properties)) {
      for (const [name, value] of Object.entries(schema.properties)) {
        if (!isObject(value)) continue;
        const existing = result.properties.get(name);
        if (existing) {
          existing.required ||= required.has(name);
          continue;
        }
        result.properties.set(name, {
          name,
          schema: value,
          scalar: isScalarSchema(value, root),
          typeText: typeText(value, root),
          required: required.has(name),
          description: typeof value.description === 'string' ? value.description : undefined,
        });
      }
    }
    for (const name of required) {
      const existing = result.properties.get(name);
      if (existing) existing.required = true;
    }
    if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) if (isObject(branch)) visit(branch, depth + 1);
    if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf) || isObject(schema.patternProperties)) result.open = true;
    if (depth === 0 && schema.additionalProperties === false) result.closed = true;
  };
  visit(root, 0);
  return result;
}
