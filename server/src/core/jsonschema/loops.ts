// A schema that applies itself to the same value without end: `$defs.a` is `{$ref: "#/$defs/b"}`
// and `$defs.b` is `{allOf: [{$ref: "#/$defs/a"}]}`. Every keyword on such a loop checks the value
// in place (a `$ref`, the branches of allOf / anyOf / oneOf, `not`, if / then / else, the
// dependent schemas), so nothing ever moves on to a part of the value: a validator recurses until
// it runs out of stack (ajv does, once per schema and again on every value, tens of milliseconds
// each), and JSON Schema leaves such a schema's meaning undefined. A loop that goes through
// `properties`, `items` and the like is ordinary recursion (`properties: {child: {$ref: "#"}}`),
// which validates fine and is not reported here.
//
// The walk looks at every subschema and every local `$ref` once (linear in the schema). It follows
// only `#` and `#/...` references, and none in a schema with a nested `$id` (below one, `#` means
// that resource, which this walk does not resolve): what it does not follow, ajv still validates.
import { isObject, resolveLocalRef } from './properties.js';

type JsonObject = Record<string, unknown>;

/** Keywords whose value is one subschema, a list of them, or a map of names to them. */
const ONE = [
  'additionalProperties',
  'additionalItems',
  'items',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];

/** Of those, the ones that check the value itself rather than a part of it. */
const IN_PLACE_ONE = ['not', 'if'];
const IN_PLACE_LIST = ['allOf', 'anyOf', 'oneOf'];
const IN_PLACE_MAP = ['dependentSchemas', 'dependencies'];

interface Place {
  /** Where the subschema was first found, as a JSON pointer fragment (`#/$defs/a`). */
  pointer: string;
  /** The subschemas that check the same value: its in-place branches, and (once the walk is over) what its `$ref` names. */
  inPlace: JsonObject[];
  ref?: JsonObject;
}

/**
 * The first loop of in-place keywords, as the pointers of the subschemas on it, the first repeated
 * at the end (`['#/$defs/a', '#/$defs/b', '#/$defs/a']`); undefined when there is none.
 */
export function inPlaceLoop(root: JsonObject): string[] | undefined {
  const places = new Map<JsonObject, Place>();
  const pending: JsonObject[] = [root];
  const see = (schema: unknown, pointer: string): JsonObject | undefined => {
    if (!isObject(schema)) return undefined;
    if (!places.has(schema)) {
      places.set(schema, { pointer, inPlace: [] });
      pending.push(schema);
    }
    return schema;
  };
  places.set(root, { pointer: '#', inPlace: [] });
  let nestedId = false;
  for (let schema = pending.pop(); schema; schema = pending.pop()) {
    const place = places.get(schema)!;
    if (schema !== root && typeof schema.$id === 'string') nestedId = true;
    const child = (value: unknown, path: string, inPlace: boolean): void => {
      const sub = see(value, `${place.pointer}/${path}`);
      if (sub && inPlace) place.inPlace.push(sub);
    };
    for (const key of ONE) {
      if (!isObject(schema[key])) continue;
      // then / else apply only beside an `if`, as validators read them.
      const inPlace = IN_PLACE_ONE.includes(key) || ((key === 'then' || key === 'else') && 'if' in schema);
      child(schema[key], escape(key), inPlace);
    }
    for (const key of LIST) {
      const list = schema[key];
      if (Array.isArray(list))
        list.forEach((item, index) => child(item, `${escape(key)}/${index}`, IN_PLACE_LIST.includes(key)));
    }
    for (const key of MAP) {
      const map = schema[key];
      if (isObject(map))
        for (const [name, value] of Object.entries(map))
          child(value, `${escape(key)}/${escape(name)}`, IN_PLACE_MAP.includes(key));
    }
    const ref = schema.$ref;
    if (typeof ref === 'string' && (ref === '#' || ref.startsWith('#/')))
      place.ref = see(resolveLocalRef(root, ref), ref);
  }
  if (!nestedId) for (const place of places.values()) if (place.ref) place.inPlace.push(place.ref);
  return firstLoop(root, places);
}

/** Depth-first over the in-place edges, without recursion (a chain of references can be long). */
function firstLoop(root: JsonObject, places: Map<JsonObject, Place>): string[] | undefined {
  const done = new Set<JsonObject>();
  for (const start of [root, ...places.keys()]) {
    if (done.has(start)) continue;
    const path: JsonObject[] = [start];
    const onPath = new Set<JsonObject>([start]);
    const cursor: number[] = [0];
    while (path.length) {
      const top = path[path.length - 1]!;
      const out = places.get(top)!.inPlace;
      const index = cursor[cursor.length - 1]!;
      if (index >= out.length) {
        done.add(top);
        onPath.delete(top);
        path.pop();
        cursor.pop();
        continue;
      }
      cursor[cursor.length - 1] = index + 1;
      const target = out[index]!;
      if (onPath.has(target)) {
        const loop = path.slice(path.indexOf(target));
        return [...loop, target].map((schema) => places.get(schema)!.pointer);
      }
      if (done.has(target)) continue;
      path.push(target);
      onPath.add(target);
      cursor.push(0);
    }
  }
  return undefined;
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
