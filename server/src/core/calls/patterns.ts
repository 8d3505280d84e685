// What the argument and result checks say when a tool schema's pattern was not run over a string
// (jsonschema/patterns.ts): a lens/declined info at the string (or the property name) the pattern
// was to check, which is where the user reads that this value was not held to it. Said in the
// document being checked, where the value is, rather than in the catalog, which the user may not
// have open (catalog/invalid-schema says it there too, once per pattern).
import { decline } from '../declined.js';
import type { DocumentContext } from '../context.js';
import { PatternBudget } from '../jsonschema/patterns.js';
import type { UncheckedString } from '../jsonschema/validate.js';
import { memoKey } from '../memo.js';
import { isMap, isScalar, keyText, walk, type Node } from '../parse/nodes.js';
import type { Span } from '../types.js';

const BUDGET = memoKey<PatternBudget>('pattern-budget');

/** The pattern work this document may still do (the workspace's regexWork), shared by every check of it. */
export function patternBudgetOf(ctx: DocumentContext): PatternBudget {
  return ctx.memo.get(BUDGET, () => new PatternBudget(ctx.workspace.limits.regexWork));
}

export interface CheckedValue {
  /** The value as written (the arguments mapping, the structuredContent). */
  node: Node;
  /** The value in words, for a pattern that decides what else applies: `the arguments of step "x"`. */
  words: string;
  /** The schema in words: `the inputSchema of read_file`. */
  schema: string;
  /** Strings the check skips anyway (templates a step fills at run time). */
  skip?: (text: string) => boolean;
}

/** Declines, at their places, the strings of a validated value that a pattern was not run over. */
export function declineUnchecked(
  ctx: DocumentContext,
  value: CheckedValue,
  unchecked: readonly UncheckedString[],
): void {
  if (unchecked.length === 0) return;
  const budget = patternBudgetOf(ctx);
  const deciding = unchecked.find((u) => u.deciding && !value.skip?.(u.text));
  if (deciding) {
    decline(ctx, {
      limit: deciding.limit,
      span: value.node.span,
      what:
        `${value.words} against ${value.schema}, whose pattern ${patternWords(deciding.pattern)}${reasonWords(deciding)} decides which of its ` +
        'other rules apply, so none of them was checked',
    });
  }
  for (const item of unchecked) {
    if (value.skip?.(item.text)) continue;
    if (item.limit === 'regexWork') {
      if (budget.said) continue;
      budget.said = true;
    } else if (item.deciding) continue;
    for (const span of placesOf(value.node, item.text)) {
      decline(ctx, {
        limit: item.limit,
        span,
        what: `${textWords(item.text)} against the pattern ${patternWords(item.pattern)} of ${value.schema}${reasonWords(item)}`,
      });
    }
  }
}

/** The string values and property names under the value that are this text; the value itself when none is. */
function placesOf(root: Node, text: string): Span[] {
  const spans: Span[] = [];
  walk(root, (node) => {
    if (isScalar(node) && node.value === text) spans.push(node.span);
    if (isMap(node)) for (const pair of node.pairs) if (keyText(pair) === text) spans.push(pair.key.span);
  });
  return spans.length ? spans : [root.span];
}

function reasonWords(item: UncheckedString): string {
  return item.reason ? ` (${item.reason})` : '';
}

function patternWords(pattern: string): string {
  return JSON.stringify(pattern.length > 80 ? `${pattern.slice(0, 77)}...` : pattern);
}

function textWords(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}...` : text);
}
