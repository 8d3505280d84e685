// Borrowed text (a schema's `description`) made to fit inside a message: lower-cased to follow a
// colon, closed with a period to end a sentence.

/** The text with its first character lower-cased, to follow `Expected:` and the like. */
export function lowerFirst(text: string): string {
  return text ? text[0]!.toLowerCase() + text.slice(1) : text;
}

/** The text trimmed, with a period at the end unless it already ends a sentence. */
export function ensurePeriod(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}
