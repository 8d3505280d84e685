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

/**
 * Resolves `#` and `#/...` JSON pointers inside the same schema; undefined for anything else (a
 * remote reference, an anchor like `#node`, a pointer to nothing or to a value that is no object).
 */
export function resolveLocalRef(root: JsonObject, ref: string): JsonObject | undefined {
  if (ref !== '#' && !ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref === '#' ? [] : ref.slice(2).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined; // a malformed %-escape names nothing
    }
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(segment) && Number(segment) < node.length)
      node = node[Number(segment)];
    else if (isObject(node) && Object.prototype.hasOwnProperty.call(node, segment)) node = node[segment];
    else return undefined;
  }
  return isObject(node) ? node : undefined;
}

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

function isScalarValue(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/**
 * Where a chain of `$ref`s ends: the first schema on it without a `$ref`; undefined when a reference
 * is not local or names nothing, or when the chain comes back to a schema it passed (a → b → a).
 */
export function followRefs(schema: JsonObject, root: JsonObject): JsonObject | undefined {
  const passed = new Set<JsonObject>();
  let current = schema;
  while (typeof current.$ref === 'string') {
    passed.add(current);
    const target = resolveLocalRef(root, current.$ref);
    if (!target || passed.has(target)) return undefined;
    current = target;
  }
  return current;
}

function isScalarSchema(schema: JsonObject, root: JsonObject): boolean {
  if (typeof schema.$ref === 'string') {
    const target = followRefs(schema, root);
    return target ? isScalarSchema(target, root) : false;
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
 * Each `$ref` is spelled out the first time this type text meets it; after that (a schema that
 * contains itself, or one definition used in many branches) it is said by its name (`node` for
 * `#/$defs/node`) unless its text is one word (`string`), so the text grows with the schema, never
 * with the ways through it.
 */
function typeText(schema: JsonObject, root: JsonObject, met = new Map<string, string | undefined>()): string {
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref;
    const target = followRefs(schema, root);
    if (!target) return 'unknown';
    if (met.has(ref)) {
      const text = met.get(ref); // undefined while it is being spelled out: a schema inside itself
      return text !== undefined && /^[a-z]+$/.test(text) ? text : refName(ref);
    }
    met.set(ref, undefined);
    const text = typeText(target, root, met);
    met.set(ref, text);
    return text;
  }
  if (Array.isArray(schema.enum))
    return `enum (${listOf(
      schema.enum.slice(0, LIMITS.messageItems).map((v) => JSON.stringify(v)),
      LIMITS.messageItems,
      schema.enum.length,
    )})`;
  if ('const' in schema) return `const ${JSON.stringify(schema.const)}`;
  const type = schema.type;
  if (typeof type === 'string') {
    if (type === 'array' && isObject(schema.items)) return `array of ${typeText(schema.items, root, met)}`;
    return type;
  }
  if (Array.isArray(type)) return firstItems(type.map(String)).shown.join(' | ');
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) {
      return firstItems(branches.filter(isObject))
        .shown.map((b) => typeText(b, root, met))
        .join(' | ');
    }
  }
  return 'any';
}

/** `node` for `#/$defs/node`; `the whole schema` for `#`. */
function refName(ref: string): string {
  if (ref === '#') return 'the whole schema';
  const last = ref.slice(ref.lastIndexOf('/') + 1);
  return last.replace(/~1/g, '/').replace(/~0/g, '~') || ref;
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
  // Each schema is read once: a `$ref` or allOf branch back to one already read adds nothing.
  const read = new Set<JsonObject>();
  const visit = (schema: JsonObject): void => {
    if (read.has(schema)) return;
    read.add(schema);
    if (typeof schema.$ref === 'string') {
      const target = resolveLocalRef(root, schema.$ref);
      if (target) visit(target);
      else result.open = true;
    }
    const required = new Set(
      Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
    );
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
    if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) if (isObject(branch)) visit(branch);
    if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf) || isObject(schema.patternProperties))
      result.open = true;
    if (schema === root && schema.additionalProperties === false) result.closed = true;
  };
  visit(root);
  return result;
}
