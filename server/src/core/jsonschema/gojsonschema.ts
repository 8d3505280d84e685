// What gojsonschema v1.2.0 refuses when it compiles a schema. ToolHive compiles a composite tool's
// `parameters` and an elicitation step's `schema` with it (pkg/vmcp/config/composite_validation.go
// ValidateJSONSchema, through gojsonschema.Validate), and a schema that does not compile makes the
// whole configuration invalid. gojsonschema has its own opinion of a valid schema, which is not
// ajv's: it knows seven type names, takes a boolean `exclusiveMinimum` in its default mode, accepts
// an empty `anyOf`, refuses a repeated `enum` value, and reads `pattern` as a Go regular
// expression. This module follows its parser (schema.go parseSchema, parseProperties,
// parseDependencies, parseReference; types.go; draft.go parseSchemaURL) keyword by keyword and
// reports only what it refuses, never what it merely ignores (unknown keywords, `default`,
// `examples`, `$defs` nobody points to).
//
// Two things are left out on purpose, so that nothing is claimed that gojsonschema may accept:
// the keywords beside a `$ref` (gojsonschema skips them the first time it meets that reference and
// reads them the next time, in an order Go's map iteration decides), and references that are not
// local (`$ref` to a URL or file is fetched at compile time: the machine decides) or that live in a
// schema with an `id`/`$id` (which moves the base the reference is resolved against).
import type { MapNode, Node, Pair, ScalarNode } from '../parse/nodes.js';
import type { Span } from '../types.js';
import { re2js } from './re2.js';

/** The seven names gojsonschema's jsonSchemaType.Add accepts (types.go JSON_TYPES). */
export const GO_JSON_TYPES: readonly string[] = ['array', 'boolean', 'integer', 'number', 'null', 'object', 'string'];

/** What a keyword's value must be, for the message. */
export type GoExpected =
  | 'string'
  | 'number'
  | 'count'
  | 'boolean'
  | 'list'
  | 'mapping'
  | 'schema'
  | 'schema-or-boolean'
  | 'schema-or-list'
  | 'type'
  | 'boolean-or-number'
  | 'strings'
  | 'dependency';

export type GoSchemaProblem =
  /** A `type` name gojsonschema does not know (`int`, `str`, `bool`). */
  | { code: 'typeName'; span: Span; name: string }
  /** The same name twice in a `type` list. */
  | { code: 'typeTwice'; span: Span; name: string }
  /**
   * A keyword's value of the wrong kind (`entry`: one entry of the keyword's list or mapping is;
   * `keyword` is empty for the root).
   */
  | { code: 'wrongKind'; span: Span; keyword: string; entry: boolean; expected: GoExpected; draft4: boolean }
  /** `multipleOf` of 0 or less. */
  | { code: 'notAboveZero'; span: Span; keyword: string }
  /** `minLength` over `maxLength`, `minProperties` over `maxProperties`. */
  | { code: 'minOverMax'; span: Span; min: string; max: string }
  /** A boolean `exclusiveMinimum`/`exclusiveMaximum` without `minimum`/`maximum`. */
  | { code: 'exclusiveWithout'; span: Span; keyword: string; needs: string }
  /** A value twice in `required` or `enum`. */
  | { code: 'repeated'; span: Span; keyword: string }
  /** A `pattern` or a `patternProperties` key that is no Go regular expression. */
  | { code: 'regex'; span: Span; keyword: string; reason: string }
  /** A local `$ref` whose JSON pointer leads nowhere, or to something that is no schema. */
  | { code: 'ref'; span: Span; ref: string; found: boolean };

export interface GoSchemaOptions {
  /**
   * Report keyword values that are null. Only where the file reaches ToolHive as written (a CLI
   * file); in a resource the API server may have dropped them.
   */
  nulls: boolean;
  /** Leave the root's `type`, and the kinds of its `properties` and `required`, to another check. */
  skipRootShape?: boolean;
}

type Draft = 4 | 6 | 7 | 'hybrid';

const DRAFT_URLS: ReadonlyMap<string, Draft> = new Map([
  ['http://json-schema.org/draft-04/schema', 4],
  ['http://json-schema.org/draft-06/schema', 6],
  ['http://json-schema.org/draft-07/schema', 7],
]);

/** The problems gojsonschema v1.2.0 would refuse `root` for (empty when it compiles). */
export function goSchemaProblems(root: MapNode, options: GoSchemaOptions): GoSchemaProblem[] {
  const walker = new Walker(root, options);
  walker.run();
  return walker.problems;
}

class Walker {
  readonly problems: GoSchemaProblem[] = [];
  private readonly seen = new Set<string>();
  private readonly reported = new Set<number>();
  private draft: Draft = 'hybrid';
  private refsResolvable = true;

  constructor(
    private readonly root: MapNode,
    private readonly options: GoSchemaOptions,
  ) {}

  run(): void {
    // draft.go parseSchemaURL: the root's `$schema` must be a string; the three draft URLs (with or
    // without an empty fragment) choose a draft, anything else keeps the hybrid default.
    const schemaPair = pairOf(this.root, '$schema');
    if (schemaPair && this.present(schemaPair)) {
      const value = scalarValue(schemaPair.value);
      if (typeof value !== 'string') {
        this.kind(schemaPair, 'string');
        return;
      }
      this.draft = DRAFT_URLS.get(value.replace(/#$/, '')) ?? 'hybrid';
    }
    this.refsResolvable = !hasId(this.root);
    this.schema(this.root, '', false, true);
  }

  private get draft6(): boolean {
    return this.draft !== 4;
  }

  private get draft7(): boolean {
    return this.draft === 7 || this.draft === 'hybrid';
  }

  private add(problem: GoSchemaProblem): void {
    if (this.reported.has(problem.span.start)) return;
    this.reported.add(problem.span.start);
    this.problems.push(problem);
  }

  /** A keyword counts when it is there; a null one only where nulls reach ToolHive. */
  private present(pair: Pair): boolean {
    return this.options.nulls || !isNull(pair.value);
  }

  /** parseSchema's entry: a mapping, or (draft 6 and later, and hybrid) a boolean. */
  private schema(node: Node | null, keyword: string, entry: boolean, isRoot = false, span?: Span): void {
    if (node && node.type === 'scalar' && typeof node.value === 'boolean' && this.draft6) return;
    if (!node || node.type !== 'map') {
      if (!node || (isNull(node) && !this.options.nulls)) return;
      this.add({
        code: 'wrongKind',
        span: span ?? node.span,
        keyword,
        entry,
        expected: this.draft6 ? 'schema-or-boolean' : 'schema',
        draft4: this.draft === 4,
      });
      return;
    }
    this.keywords(node, isRoot);
  }

  private keywords(m: MapNode, isRoot: boolean): void {
    const idKey = this.draft === 4 ? 'id' : this.draft === 'hybrid' && pairOf(m, 'id') ? 'id' : '$id';
    this.stringKeyword(m, idKey);

    const definitions = this.pair(m, 'definitions');
    if (definitions) {
      if (definitions.value?.type !== 'map') this.kind(definitions, 'mapping');
      else for (const p of definitions.value.pairs) this.schemaOrBoolean(p, 'definitions', true);
    }
    this.stringKeyword(m, 'title');
    this.stringKeyword(m, 'description');

    const ref = this.pair(m, '$ref');
    if (ref) {
      const value = scalarValue(ref.value);
      if (typeof value !== 'string') this.kind(ref, 'string');
      else this.reference(value, ref);
      // The keywords beside a reference are read only when gojsonschema met it before: see the top.
      return;
    }

    const type = this.pair(m, 'type');
    if (type && !(isRoot && this.options.skipRootShape)) this.type(type);

    const properties = this.pair(m, 'properties');
    if (properties) {
      if (properties.value?.type === 'map') {
        for (const p of properties.value.pairs) this.schema(p.value, 'properties', true, false, valueSpan(p));
      } else if (!(isRoot && this.options.skipRootShape)) this.kind(properties, 'mapping');
    }

    const additionalProperties = this.pair(m, 'additionalProperties');
    if (additionalProperties) this.booleanOrSchema(additionalProperties);

    const patternProperties = this.pair(m, 'patternProperties');
    if (patternProperties) {
      if (patternProperties.value?.type !== 'map') this.kind(patternProperties, 'mapping');
      else
        for (const p of patternProperties.value.pairs) {
          const reason = regexProblem(String(p.key.value));
          if (reason) this.add({ code: 'regex', span: p.key.span, keyword: 'patternProperties', reason });
          else this.schema(p.value, 'patternProperties', true, false, valueSpan(p));
        }
    }

    const propertyNames = this.pair(m, 'propertyNames');
    if (propertyNames && this.draft6) this.schemaOrBoolean(propertyNames, 'propertyNames', false);

    const dependencies = this.pair(m, 'dependencies');
    if (dependencies) {
      if (dependencies.value?.type !== 'map') this.kind(dependencies, 'mapping');
      else
        for (const p of dependencies.value.pairs) {
          const v = p.value;
          if (v?.type === 'seq') {
            for (const item of v.items) if (!isString(item)) this.kind(dependencies, 'dependency', item.span, true);
          } else if (v?.type === 'map' || (v?.type === 'scalar' && typeof v.value === 'boolean')) {
            this.schema(v, 'dependencies', true);
          } else if (this.present(p)) this.kind(dependencies, 'dependency', valueSpan(p), true);
        }
    }

    const items = this.pair(m, 'items');
    if (items) {
      const v = items.value;
      if (v?.type === 'seq') {
        for (const item of v.items) {
          if (item.type === 'map' || (item.type === 'scalar' && typeof item.value === 'boolean'))
            this.schema(item, 'items', true);
          else this.kind(items, 'schema-or-boolean', item.span, true);
        }
      } else if (v?.type === 'map' || (v?.type === 'scalar' && typeof v.value === 'boolean')) {
        this.schema(v, 'items', false);
      } else this.kind(items, 'schema-or-list');
    }

    const additionalItems = this.pair(m, 'additionalItems');
    if (additionalItems) this.booleanOrSchema(additionalItems);

    const multipleOf = this.pair(m, 'multipleOf');
    if (multipleOf) {
      const n = numberOf(multipleOf.value);
      if (n === undefined) this.kind(multipleOf, 'number');
      else if (n <= 0) this.add({ code: 'notAboveZero', span: valueSpan(multipleOf), keyword: 'multipleOf' });
    }
    for (const [bound, exclusive] of [
      ['minimum', 'exclusiveMinimum'],
      ['maximum', 'exclusiveMaximum'],
    ] as const) {
      const boundPair = this.pair(m, bound);
      if (boundPair && numberOf(boundPair.value) === undefined) this.kind(boundPair, 'number');
      const exclusivePair = this.pair(m, exclusive);
      if (!exclusivePair) continue;
      const v = scalarValue(exclusivePair.value);
      const isBool = typeof v === 'boolean';
      const isNumber = numberOf(exclusivePair.value) !== undefined;
      if (this.draft === 4 ? !isBool : this.draft === 'hybrid' ? !isBool && !isNumber : !isNumber) {
        this.kind(
          exclusivePair,
          this.draft === 4 ? 'boolean' : this.draft === 'hybrid' ? 'boolean-or-number' : 'number',
        );
      } else if (isBool && !boundPair) {
        this.add({ code: 'exclusiveWithout', span: valueSpan(exclusivePair), keyword: exclusive, needs: bound });
      }
    }

    const minLength = this.count(m, 'minLength');
    const maxLength = this.count(m, 'maxLength');
    if (minLength && maxLength && minLength.value > maxLength.value)
      this.add({ code: 'minOverMax', span: minLength.span, min: 'minLength', max: 'maxLength' });

    const pattern = this.pair(m, 'pattern');
    if (pattern) {
      const value = scalarValue(pattern.value);
      if (typeof value !== 'string') this.kind(pattern, 'string');
      else {
        const reason = regexProblem(value);
        if (reason) this.add({ code: 'regex', span: valueSpan(pattern), keyword: 'pattern', reason });
      }
    }
    this.stringKeyword(m, 'format');

    const minProperties = this.count(m, 'minProperties');
    const maxProperties = this.count(m, 'maxProperties');
    if (minProperties && maxProperties && minProperties.value > maxProperties.value)
      this.add({ code: 'minOverMax', span: minProperties.span, min: 'minProperties', max: 'maxProperties' });

    const required = this.pair(m, 'required');
    if (required) {
      if (required.value?.type !== 'seq') {
        if (!(isRoot && this.options.skipRootShape)) this.kind(required, 'strings');
      } else {
        const names = new Set<string>();
        for (const item of required.value.items) {
          const value = scalarValue(item);
          if (typeof value !== 'string') this.kind(required, 'string', item.span, true);
          else if (names.has(value)) this.add({ code: 'repeated', span: item.span, keyword: 'required' });
          else names.add(value);
        }
      }
    }

    // minItems and maxItems: no comparison of the two (gojsonschema makes none).
    this.count(m, 'minItems');
    this.count(m, 'maxItems');

    const uniqueItems = this.pair(m, 'uniqueItems');
    if (uniqueItems && typeof scalarValue(uniqueItems.value) !== 'boolean') this.kind(uniqueItems, 'boolean');

    const contains = this.pair(m, 'contains');
    if (contains && this.draft6) this.schema(contains.value, 'contains', false, false, valueSpan(contains));

    const enumPair = this.pair(m, 'enum');
    if (enumPair) {
      if (enumPair.value?.type !== 'seq') this.kind(enumPair, 'list');
      else {
        const values = new Set<string>();
        for (const item of enumPair.value.items) {
          const canonical = canonicalJson(item);
          if (values.has(canonical)) this.add({ code: 'repeated', span: item.span, keyword: 'enum' });
          values.add(canonical);
        }
      }
    }

    for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
      const list = this.pair(m, keyword);
      if (!list) continue;
      if (list.value?.type !== 'seq') this.kind(list, 'list');
      else for (const item of list.value.items) this.schema(item, keyword, true);
    }

    const not = this.pair(m, 'not');
    if (not) this.schemaOrBoolean(not, 'not', false);
    if (this.draft7) {
      for (const keyword of ['if', 'then', 'else']) {
        const pair = this.pair(m, keyword);
        if (pair) this.schemaOrBoolean(pair, keyword, false);
      }
    }
  }

  /** The keyword's pair when it counts (see `present`). */
  private pair(m: MapNode, key: string): Pair | undefined {
    const pair = pairOf(m, key);
    return pair && this.present(pair) ? pair : undefined;
  }

  private kind(pair: Pair, expected: GoExpected, span?: Span, entry = false): void {
    this.add({
      code: 'wrongKind',
      span: span ?? valueSpan(pair),
      keyword: String(pair.key.value),
      entry,
      expected,
      draft4: this.draft === 4,
    });
  }

  private stringKeyword(m: MapNode, key: string): void {
    const pair = this.pair(m, key);
    if (pair && typeof scalarValue(pair.value) !== 'string') this.kind(pair, 'string');
  }

  /** A keyword whose value must be a mapping or a boolean, then read as a schema. */
  private schemaOrBoolean(pair: Pair, keyword: string, entry: boolean): void {
    const v = pair.value;
    if (v?.type === 'map' || (v?.type === 'scalar' && typeof v.value === 'boolean')) this.schema(v, keyword, entry);
    else
      this.add({
        code: 'wrongKind',
        span: valueSpan(pair),
        keyword,
        entry,
        expected: 'schema-or-boolean',
        draft4: this.draft === 4,
      });
  }

  /** additionalProperties, additionalItems: a boolean in every draft, or a schema. */
  private booleanOrSchema(pair: Pair): void {
    const v = pair.value;
    if (v?.type === 'scalar' && typeof v.value === 'boolean') return;
    if (v?.type === 'map') this.schema(v, String(pair.key.value), false);
    else this.kind(pair, 'schema-or-boolean');
  }

  /** A non-negative integer keyword (utils.go mustBeInteger, then the `< 0` test). */
  private count(m: MapNode, key: string): { value: number; span: Span } | undefined {
    const pair = this.pair(m, key);
    if (!pair) return undefined;
    const n = numberOf(pair.value);
    if (n === undefined || !Number.isInteger(n) || Math.abs(n) >= 2 ** 63 || n < 0) {
      this.kind(pair, 'count');
      return undefined;
    }
    return { value: n, span: valueSpan(pair) };
  }

  private type(pair: Pair): void {
    const v = pair.value;
    if (v?.type === 'scalar' && typeof v.value === 'string') {
      if (!GO_JSON_TYPES.includes(v.value)) this.add({ code: 'typeName', span: v.span, name: v.value });
      return;
    }
    if (v?.type !== 'seq') {
      this.kind(pair, 'type');
      return;
    }
    const names = new Set<string>();
    for (const item of v.items) {
      const name = scalarValue(item);
      if (typeof name !== 'string') this.kind(pair, 'string', item.span, true);
      else if (!GO_JSON_TYPES.includes(name)) this.add({ code: 'typeName', span: item.span, name });
      else if (names.has(name)) this.add({ code: 'typeTwice', span: item.span, name });
      else names.add(name);
    }
  }

  /**
   * parseReference for a reference into this same document (`#`, `#/definitions/a`): the pointer
   * must lead to a mapping or a boolean, which is then read as a schema, once per reference.
   */
  private reference(ref: string, pair: Pair): void {
    if (!this.refsResolvable || !/^#(\/|$)/.test(ref)) return;
    let target: Node | null | undefined;
    try {
      target = resolvePointer(this.root, decodeURIComponent(ref.slice(1)));
    } catch {
      return; // a malformed escape: gojsonreference's own parse, not modelled
    }
    if (!target) {
      this.add({ code: 'ref', span: valueSpan(pair), ref, found: false });
      return;
    }
    if (!(target.type === 'map' || (target.type === 'scalar' && typeof target.value === 'boolean'))) {
      this.add({ code: 'ref', span: valueSpan(pair), ref, found: true });
      return;
    }
    if (this.seen.has(ref)) return;
    this.seen.add(ref);
    this.schema(target, '$ref', false);
  }
}

function pairOf(m: MapNode, key: string): Pair | undefined {
  for (const pair of m.pairs) if (pair.key.value === key) return pair;
  return undefined;
}

function isNull(node: Node | null): boolean {
  return !node || (node.type === 'scalar' && node.value === null);
}

function isString(node: Node): boolean {
  return node.type === 'scalar' && typeof node.value === 'string';
}

function scalarValue(node: Node | null): ScalarNode['value'] | undefined {
  return node?.type === 'scalar' ? node.value : undefined;
}

function numberOf(node: Node | null): number | undefined {
  const v = scalarValue(node);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The value, or the key when the value is empty (`minimum:` with nothing after it). */
function valueSpan(pair: Pair): Span {
  return pair.value && pair.value.span.end > pair.value.span.start ? pair.value.span : pair.key.span;
}

/** Does any schema of the document set `id` or `$id` (gojsonschema's parseReferencesRecursive)? */
function hasId(node: Node | null): boolean {
  if (!node || node.type === 'scalar') return false;
  if (node.type === 'seq') return node.items.some(hasId);
  for (const pair of node.pairs) {
    const key = pair.key.value;
    if ((key === 'id' || key === '$id') && pair.value !== null && isString(pair.value)) return true;
    if (key === 'const' || key === 'enum') continue;
    if (key === 'properties' || key === 'dependencies' || key === 'patternProperties') {
      if (pair.value?.type === 'map' && pair.value.pairs.some((p) => hasId(p.value))) return true;
    } else if (hasId(pair.value)) return true;
  }
  return false;
}

function resolvePointer(root: Node, pointer: string): Node | null | undefined {
  if (pointer === '') return root;
  let node: Node | null | undefined = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node) return undefined;
    if (node.type === 'map') node = pairOf(node, token)?.value;
    else if (node.type === 'seq') node = /^(0|[1-9][0-9]*)$/.test(token) ? node.items[Number(token)] : undefined;
    else return undefined;
  }
  return node;
}

/** Why Go's regexp.Compile refuses the pattern (RE2's syntax, as re2js parses it), or undefined. */
function regexProblem(pattern: string): string | undefined {
  try {
    re2js().compile(pattern);
    return undefined;
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return text.replace(/^error parsing regexp: /, '');
  }
}

/** One text for two values gojsonschema takes for the same `enum` value (keys in any order). */
function canonicalJson(node: Node): string {
  const value = (n: Node): unknown => {
    if (n.type === 'scalar') return ['s', n.value];
    if (n.type === 'seq') return ['l', n.items.map(value)];
    const entries = new Map<string, unknown>();
    for (const pair of n.pairs) {
      const key = String(pair.key.value);
      if (!entries.has(key)) entries.set(key, pair.value ? value(pair.value) : null);
    }
    return ['m', [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))];
  };
  return JSON.stringify(value(node));
}
