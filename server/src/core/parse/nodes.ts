// One node tree for YAML and JSON alike, with exact source spans, so that models and rules never
// care which syntax the user wrote.
import type { Span } from '../types.js';

/** A comment as the parser read it: never text inside a string. Never changed once made. */
export interface Comment {
  readonly span: Span;
  /** As written, marker included (`# ...` in YAML; `// ...` or a block comment in JSON); no line break after it. */
  readonly text: string;
}

/**
 * How a scalar is written. TOML's: a bare key, a number or a boolean is `plain`, a basic string
 * `json` (its escapes are JSON's, and more), a literal string `single`; `toml` a multi-line string
 * or a date, whose text no decoder of ours replays (scalarOffsets.ts) and no edit rewrites.
 */
export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal' | 'folded' | 'json' | 'toml';

/**
 * Set on a node other places share (YAML only): `anchor` on an anchored node and everything in it
 * (its text is also what every alias of it stands for, so an edit there changes those places too),
 * `alias` on the nodes an alias stands for (their spans are the alias's `*name`: there is no text
 * of theirs to edit). Absent on every other node. The edit layer gives no edit through either.
 */
export type Shared = 'anchor' | 'alias';

/** An anchored node as written (`&name`): its span (the node's, without `&name`) and the alias tokens that stand for it. */
export interface AnchorUse {
  readonly name: string;
  readonly span: Span;
  readonly aliases: Span[];
}

/**
 * A YAML document's anchors and aliases as written (none in JSON, none in an alias's expansion):
 * every anchored node, outermost first where they nest, with its aliases, and every alias token,
 * resolved or not, in document order. What a fix checks before it edits a shared node (engine.ts).
 */
export interface References {
  readonly anchors: readonly AnchorUse[];
  readonly aliases: readonly Span[];
}
export type ScalarValue = string | number | boolean | null;

export interface ScalarNode {
  type: 'scalar';
  value: ScalarValue;
  /** Span of the whole scalar token, quotes and block header included. */
  span: Span;
  style: ScalarStyle;
  shared?: Shared;
}

export interface Pair {
  key: ScalarNode;
  /** Null only when the syntax gave no value at all (a broken JSON property). */
  value: Node | null;
  /** From the key's start to the value's end. */
  span: Span;
}

export interface MapNode {
  type: 'map';
  pairs: Pair[];
  span: Span;
  flow: boolean;
  shared?: Shared;
}

export interface SeqNode {
  type: 'seq';
  items: Node[];
  span: Span;
  flow: boolean;
  shared?: Shared;
}

export type Node = MapNode | SeqNode | ScalarNode;

export function isMap(node: Node | null | undefined): node is MapNode {
  return node?.type === 'map';
}

export function isSeq(node: Node | null | undefined): node is SeqNode {
  return node?.type === 'seq';
}

export function isScalar(node: Node | null | undefined): node is ScalarNode {
  return node?.type === 'scalar';
}

/** An explicit null: `null`, `~`, or a key with nothing after it. */
export function isNullScalar(node: Node | null | undefined): boolean {
  return isScalar(node) && node.value === null;
}

/** The first pair with this key (duplicates are reported by the parser; the first one wins). */
export function getPair(map: Node | null | undefined, key: string): Pair | undefined {
  if (!isMap(map)) return undefined;
  const pairs = map.pairs;
  if (pairs.length < INDEXED_FROM) {
    for (const pair of pairs) if (pair.key.value === key) return pair;
    return undefined;
  }
  return keyIndexOf(map).get(key);
}

/**
 * Mappings with this many pairs or more are looked up through an index of their keys, built on
 * the first lookup: a rule that looks up every argument of a wide mapping would otherwise cost
 * the square of its width. Smaller ones are scanned, which is as fast and keeps nothing.
 */
const INDEXED_FROM = 16;

/**
 * The first pair of each string key, per mapping, and the `pairs` array it was built from and how
 * many of its pairs it holds. A node's keys never change once parsed, but a node may move into a
 * newer tree (the incremental re-parse consumes the previous one, shifting spans in place), which
 * keeps it and its pairs, so the index stays right; a re-parse that changes a mapping's pairs
 * builds a new node or a new array, and pairs added at the end are read on the next lookup. An
 * index whose array is not the node's any more, or holds more pairs than it, is built again.
 */
interface KeyIndex {
  pairs: Pair[];
  read: number;
  byKey: Map<string, Pair>;
}

const keyIndexes = new WeakMap<MapNode, KeyIndex>();

function keyIndexOf(map: MapNode): Map<string, Pair> {
  let index = keyIndexes.get(map);
  if (!index || index.pairs !== map.pairs || index.read > map.pairs.length) {
    index = { pairs: map.pairs, read: 0, byKey: new Map() };
    keyIndexes.set(map, index);
  }
  const { pairs, byKey } = index;
  for (; index.read < pairs.length; index.read++) {
    const pair = pairs[index.read]!;
    const key = pair.key.value;
    // Only string keys: `getPair(map, '1')` does not find the number key `1:`, as the scan does not.
    if (typeof key === 'string' && !byKey.has(key)) byKey.set(key, pair);
  }
  return byKey;
}

export function getNode(map: Node | null | undefined, key: string): Node | undefined {
  return getPair(map, key)?.value ?? undefined;
}

export function getMap(map: Node | null | undefined, key: string): MapNode | undefined {
  const node = getNode(map, key);
  return isMap(node) ? node : undefined;
}

export function getSeq(map: Node | null | undefined, key: string): SeqNode | undefined {
  const node = getNode(map, key);
  return isSeq(node) ? node : undefined;
}

export function getScalar(map: Node | null | undefined, key: string): ScalarNode | undefined {
  const node = getNode(map, key);
  return isScalar(node) ? node : undefined;
}

export function getString(map: Node | null | undefined, key: string): string | undefined {
  const value = getScalar(map, key)?.value;
  return typeof value === 'string' ? value : undefined;
}

export function getBoolean(map: Node | null | undefined, key: string): boolean | undefined {
  const value = getScalar(map, key)?.value;
  return typeof value === 'boolean' ? value : undefined;
}

export function keyText(pair: Pair): string {
  return String(pair.key.value);
}

/** Follows a JSON-pointer-like path of keys and indexes; undefined when it leaves the tree. */
export function nodeAtPath(root: Node | null | undefined, path: readonly (string | number)[]): Node | undefined {
  let node: Node | null | undefined = root;
  for (const segment of path) {
    if (!node) return undefined;
    if (node.type === 'map') node = getPair(node, String(segment))?.value;
    else if (node.type === 'seq' && typeof segment === 'number') node = node.items[segment];
    else if (node.type === 'seq') node = node.items[Number(segment)];
    else return undefined;
  }
  return node ?? undefined;
}

/** The pair that holds `path`'s last key, for reporting on a key rather than its value. */
export function pairAtPath(root: Node | null | undefined, path: readonly (string | number)[]): Pair | undefined {
  if (path.length === 0) return undefined;
  const parent = nodeAtPath(root, path.slice(0, -1));
  return getPair(parent, String(path[path.length - 1]));
}

/**
 * Plain JS value of a node, for JSON Schema validation. `__proto__` keys become own properties
 * instead of changing the prototype. Depth is bounded by the parser, so recursion is safe here.
 */
export function toValue(node: Node | null | undefined): unknown {
  if (!node) return null;
  switch (node.type) {
    case 'scalar':
      return node.value;
    case 'seq':
      return node.items.map(toValue);
    case 'map': {
      const out: Record<string, unknown> = {};
      for (const pair of node.pairs) {
        const key = String(pair.key.value);
        if (Object.prototype.hasOwnProperty.call(out, key)) continue; // first one wins, like getPair
        // Assigning `__proto__` would change the prototype; define it as an own property instead.
        if (key === '__proto__')
          Object.defineProperty(out, key, {
            value: toValue(pair.value),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else out[key] = toValue(pair.value);
      }
      return out;
    }
  }
}

/** Calls `visit` on every node, depth first, parents before children. */
export function walk(node: Node | null | undefined, visit: (node: Node) => void): void {
  if (!node) return;
  const stack: Node[] = [node];
  while (stack.length) {
    const current = stack.pop()!;
    visit(current);
    if (current.type === 'map') {
      for (let i = current.pairs.length - 1; i >= 0; i--) {
        const value = current.pairs[i]!.value;
        if (value) stack.push(value);
      }
    } else if (current.type === 'seq') {
      for (let i = current.items.length - 1; i >= 0; i--) stack.push(current.items[i]!);
    }
  }
}
