// What the two builders of our YAML node tree share (yaml.ts through the library's Composer,
// blockYaml.ts straight from the text): the document they give, how a scalar's value is told, and
// how a mapping's pairs are made and a key written twice is found.
import type { Span } from '../types.js';
import type { Node, Pair, References, ScalarNode, ScalarValue } from './nodes.js';
import type { ParseProblem } from './problems.js';

/** One document of a YAML stream, as either build gives it. */
export interface ParsedYamlDocument {
  root: Node | null;
  span: Span;
  problems: ParseProblem[];
  /**
   * No anchor, alias or explicit tag anywhere: each part of the document means the same read
   * alone, so an edit inside one part may re-parse just that part (see incremental.ts).
   */
  selfContained: boolean;
  /** The document's anchors and aliases, where it has any (see `References`). */
  references?: References;
}

/** A scalar's value as the library resolved it, in our terms. */
export function scalarValue(raw: unknown): ScalarValue {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'string' || typeof raw === 'boolean' || typeof raw === 'number') return raw;
  if (typeof raw === 'bigint') return Number(raw);
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- only yaml's own YAML 1.1 values are left here, a Date (!!timestamp), a Buffer (!!binary) or the merge key's symbol, each with its own string form; TypeScript calls them {}
  return String(raw);
}

/** A key written twice in one mapping (`earlier` is its first writing). Own copies of the spans: a re-parse may move node spans in place (incremental.ts). */
export function duplicateKey(name: string, span: Span, earlier: Span): ParseProblem {
  return {
    rule: 'yaml/duplicate-key',
    code: 'duplicateKey',
    data: { key: name, json: false },
    span: { ...span },
    related: [{ span: { ...earlier } }],
  };
}

/** What tells one problem from another, so that an anchor's problems are not reported again for each alias. */
export function problemKey(problem: ParseProblem): string {
  return `${problem.rule}\0${problem.span.start}\0${problem.span.end}\0${problem.code}\0${JSON.stringify(problem.data)}`;
}

/** Mappings with this many pairs or more find a key written twice through an index rather than a scan. */
const INDEXED_FROM = 12;

function keyName(key: ScalarNode): string {
  const value = key.value;
  return typeof value === 'string' ? value : String(value);
}

/**
 * The pair of `key` and `value` in a mapping whose pairs so far are `pairs`, after telling a key
 * written twice (the first writing is the one named, through `report`). Small mappings are
 * scanned; from INDEXED_FROM pairs on, `index.keys` is built on demand and kept up to date.
 */
export function mappingPair(
  pairs: readonly Pair[],
  index: { keys?: Map<string, ScalarNode> },
  key: ScalarNode,
  value: Node,
  report: (problem: ParseProblem) => void,
): Pair {
  const name = keyName(key);
  let earlier: ScalarNode | undefined;
  if (index.keys) earlier = index.keys.get(name);
  else if (pairs.length < INDEXED_FROM) {
    for (const other of pairs) {
      if (keyName(other.key) === name) {
        earlier = other.key;
        break;
      }
    }
  } else {
    const keys = new Map<string, ScalarNode>();
    for (const other of pairs) {
      const otherName = keyName(other.key);
      if (!keys.has(otherName)) keys.set(otherName, other.key);
    }
    index.keys = keys;
    earlier = keys.get(name);
  }
  if (earlier) report(duplicateKey(name, key.span, earlier.span));
  else index.keys?.set(name, key);
  return { key, value, span: { start: key.span.start, end: Math.max(value.span.end, key.span.end) } };
}
