// What the CLI prints for a person, from text it did not write (keys, values and paths of the
// checked files, quoted in messages and source lines): every character a terminal would act on
// rather than show, written as a visible escape, so a file cannot move the cursor, recolour or
// clear the screen, ring the bell, set the window title, forge a line of output or reorder what
// is shown (docs/behaviour.md#text-as-editors-count-it). The machine formats (JSON, SARIF) keep
// the text exact: JSON escapes control characters itself.

/**
 * The characters escaped: C0 controls but the tab (which only moves to the next tab stop, and
 * which the snippet needs to line its caret up), DEL, C1 controls (U+0080..U+009F: 0x9B is a
 * one-character CSI on many terminals), the Unicode bidirectional controls (U+061C, U+200E,
 * U+200F, U+202A..U+202E, U+2066..U+2069: "Trojan Source" reordering) and the Unicode line and
 * paragraph separators (U+2028, U+2029).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- as above
const ANY_UNSAFE = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\0': '\\0' };

/** One unsafe character as its escape: `\n`, `\r`, `\0`, `\x1b`, `\u202e`. */
export function escapeCharacter(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Whether a character is one `visible` escapes. */
export function isUnsafe(ch: string): boolean {
  return ch.length === 1 && ANY_UNSAFE.test(ch);
}

/** The text with every character a terminal would act on written as its escape; the same string when there is none. */
export function visible(text: string): string {
  return ANY_UNSAFE.test(text) ? text.replace(UNSAFE, escapeCharacter) : text;
}

/** `visible` on each line of a text, its line breaks kept (a stack trace on stderr). */
export function visibleLines(text: string): string {
  return text.split(/\r?\n/).map(visible).join('\n');
}
