// Words in messages: lists (`a, b and c`, `"a", "b" and "c"`, `"a" or "b"`, a long list cut short)
// and a capital at the start of a sentence. One place, so that every rule words them the same way.

/** `a`, `a and b`, `a, b and c`. */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** `"a"`, `"a" and "b"`, `"a", "b" and "c"`. */
export function quotedList(items: readonly string[]): string {
  return listWords(items.map((i) => `"${i}"`));
}

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`: for "did you mean". */
export function quotedAlternatives(items: readonly string[]): string {
  const quoted = items.map((i) => `"${i}"`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/** `a, b, c`, cut after `max` entries (`… and 4 more`) so a big schema does not flood the message. */
export function listOf(values: readonly string[], max = 12): string {
  if (values.length <= max) return values.join(', ');
  return `${values.slice(0, max).join(', ')} and ${values.length - max} more`;
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
