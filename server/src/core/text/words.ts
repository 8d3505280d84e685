// Words in messages: counts and plurals (`1 tool`, `3 tools`, `is`/`are`), lists (`a, b and c`,
// `"a", "b" and "c"`, `"a" or "b"`, a long list cut short) and a capital at the start of a
// sentence. One place, so that every rule words them the same way.
import { LIMITS } from '../limits.js';

/**
 * The first `max` items (LIMITS.messageItems by default) and how many are left out: a message
 * lists what fits in a sentence, never a whole 200,000-value enum.
 */
export function firstItems<T>(items: readonly T[], max: number = LIMITS.messageItems): { shown: T[]; more: number } {
  return items.length <= max
    ? { shown: [...items], more: 0 }
    : { shown: items.slice(0, max), more: items.length - max };
}

/** One form or the other by a count: `byCount(n, 'is', 'are')`, `byCount(n, 'it', 'them')`. */
export function byCount<T>(count: number, one: T, many: T): T {
  return count === 1 ? one : many;
}

/** A count and its noun: `1 tool`, `3 tools`; `counted(n, 'entry', 'entries')` where the plural is not `+s`. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** `4 more`, `1,234 more`. */
function moreWords(more: number): string {
  return `${more.toLocaleString('en-US')} more`;
}

/** `a`, `a and b`, `a, b and c` (or `a, b or c`): every item, however many (listWords bounds them). */
export function joinWords(items: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

/** `a`, `a and b`, `a, b and c`; past LIMITS.messageItems, `a, b, ... and 12 more`. */
export function listWords(items: readonly string[]): string {
  const { shown, more } = firstItems(items);
  if (more > 0) return `${shown.join(', ')} and ${moreWords(more)}`;
  return joinWords(shown);
}

/** `"a"`, `"a" and "b"`, `"a", "b" and "c"` (bounded like listWords). */
export function quotedList(items: readonly string[]): string {
  const { shown, more } = firstItems(items);
  const quoted = shown.map((i) => `"${i}"`);
  return more > 0 ? `${quoted.join(', ')} and ${moreWords(more)}` : listWords(quoted);
}

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`: for "did you mean" (bounded like listWords). */
export function quotedAlternatives(items: readonly string[]): string {
  const { shown, more } = firstItems(items);
  const quoted = shown.map((i) => `"${i}"`);
  if (more > 0) return `${quoted.join(', ')} or one of ${moreWords(more)}`;
  return joinWords(quoted, 'or');
}

/**
 * `a, b, c`, cut after `max` entries (`… and 4 more`) so a big schema does not flood the message.
 * `total`: how many there are when `values` holds only the first of them (a caller that need not
 * stringify 200,000 values to list 20).
 */
export function listOf(values: readonly string[], max = 12, total = values.length): string {
  const { shown } = firstItems(values, Math.min(max, LIMITS.messageItems));
  const more = total - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${moreWords(more)}` : shown.join(', ');
}

/** The text with its first character upper-cased, to start a sentence. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// Borrowed text (a schema's `description`) made to fit inside a message.

/** The text with its first character lower-cased, to follow `Expected:` and the like. */
export function lowerFirst(text: string): string {
  return text ? text[0]!.toLowerCase() + text.slice(1) : text;
}

/** The text trimmed, with a period at the end unless it already ends a sentence. */
export function ensurePeriod(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}
