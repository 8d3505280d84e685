// How a finding's message is read: its first sentence is the headline, what a list of problems
// shows on one line (VS Code's Problems panel cuts the message at the panel's width), so it says
// what is wrong and what to do; the sentences after it say why (what ToolHive, the runtime or a
// client will do), which the hover and the CLI show in full. Every rule writes its messages so.

/** About what a Problems panel row shows of a message before it cuts it off. */
export const HEADLINE_LENGTH = 100;

/** A quoted name or value counts as at most this many characters in a headline: the user chose its length. */
export const QUOTED_LENGTH = 24;

/** A headline's length as a reader meets it: our words in full, each quoted name or value (double quotes or backticks) up to QUOTED_LENGTH. */
export function headlineLength(sentence: string): number {
  return sentence.replace(/"(?:[^"\\]|\\.)*"|`[^`]*`/g, (quoted) => 'x'.repeat(Math.min(quoted.length, QUOTED_LENGTH)))
    .length;
}

/** The sentence fits on a row as a headline (for words of variable length, such as a validator's, that a rule may put first). */
export function headlineFits(sentence: string): boolean {
  return headlineLength(sentence) <= HEADLINE_LENGTH;
}

/**
 * The first sentence of a message: up to the first `.`, `!` or `?` followed by white space or the
 * end. Text inside double quotes or backticks (a name, a value, a path) never ends a sentence.
 */
export function firstSentence(message: string): string {
  for (let i = 0; i < message.length; i++) {
    const c = message[i]!;
    if (c === '"' || c === '`') {
      const close = closingQuote(message, i);
      if (close > 0) {
        i = close;
        continue;
      }
    }
    if ((c === '.' || c === '!' || c === '?') && (i + 1 === message.length || /\s/.test(message[i + 1]!)))
      return message.slice(0, i + 1);
  }
  return message;
}

/** Where the quote opened at `open` closes (a double quote may be escaped with `\`), or -1. */
function closingQuote(message: string, open: number): number {
  const quote = message[open]!;
  for (let i = open + 1; i < message.length; i++) {
    const c = message[i]!;
    if (quote === '"' && c === '\\') i++;
    else if (c === quote) return i;
  }
  return -1;
}
