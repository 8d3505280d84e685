// How a finding's message is read: a rule words it as a headline, one sentence of what is wrong and
// what to do (VS Code's Problems panel shows it on one row, as rust-analyzer and ESLint keep theirs),
// then the why: what ToolHive, the runtime or a client will do. The engine keeps the headline as the
// finding's message and moves the why to the finding's `why` (splitWhy): the editor shows it as the
// diagnostic's related information, the CLI under the line. Every rule writes its messages so.
import type { Finding } from '../types.js';

/** About what a Problems panel row shows of a message before it cuts it off. */
export const HEADLINE_LENGTH = 100;

/** At most this many characters of a headline as written, names included: a row of a common panel width. */
export const MESSAGE_LENGTH = 120;

/** A quoted name or value counts as at most this many characters in a headline: the user chose its length. */
export const QUOTED_LENGTH = 24;

/** A headline's length as a reader meets it: our words in full, each quoted name or value (double quotes or backticks) up to QUOTED_LENGTH. */
export function headlineLength(sentence: string): number {
  return sentence.replace(/"(?:[^"\\]|\\.)*"|`[^`]*`/g, (quoted) => 'x'.repeat(Math.min(quoted.length, QUOTED_LENGTH)))
    .length;
}

/** The sentence fits on a row as a headline (for words of variable length, such as a validator's, that a rule may put first). */
export function headlineFits(sentence: string): boolean {
  return headlineLength(sentence) <= HEADLINE_LENGTH && sentence.length <= MESSAGE_LENGTH;
}

/**
 * The headline that names the choices (`Step "a": no tool "b"; did you mean "c" or "d"?`) when it
 * fits on a row, else the one that says what to do without them; `listed` says which, so the why
 * names the choices only when the headline could not.
 */
export function choiceHeadline(withChoices: string, without: string): { headline: string; listed: boolean } {
  return headlineFits(withChoices) ? { headline: withChoices, listed: true } : { headline: without, listed: false };
}

/**
 * The first sentence of a message: up to the first `.`, `!` or `?` followed by white space or the
 * end. Text inside double quotes or backticks (a name, a value, a path), and the period of "e.g."
 * or "i.e.", never ends a sentence.
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
    if ((c === '.' || c === '!' || c === '?') && (i + 1 === message.length || /\s/.test(message[i + 1]!))) {
      // "e.g." and "i.e." go on with the sentence.
      if (c === '.' && /(?:^|[\s(])(?:e\.g|i\.e)$/.test(message.slice(Math.max(0, i - 4), i))) continue;
      return message.slice(0, i + 1);
    }
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

/**
 * A finding whose message is its headline and whose `why` holds the sentences worded after it:
 * the engine passes every finding here, and the editor the configuration's problems.
 */
export function headlineAndWhy(finding: Finding): Finding {
  if (finding.why !== undefined) return finding;
  const { message, why } = splitWhy(finding.message);
  return why === undefined ? finding : { ...finding, message, why };
}

/** A worded message as a finding carries it: the headline as `message`, the sentences after it as `why` (absent when none). */
export function splitWhy(text: string): { message: string; why?: string } {
  const message = firstSentence(text);
  const why = text.slice(message.length).trim();
  return why ? { message, why } : { message };
}
