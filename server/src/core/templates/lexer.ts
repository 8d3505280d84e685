// Splits a template into literal text and actions, and each action into tokens.
// The lexer never stops at an error: it records it, emits a `bad` token where a word was expected,
// and carries on, so that one mistake does not hide the others.
//
// One slip gives one error. Go stops at its first error; we go on, so we must not report what is
// only an echo of that first error. The slips that swallow text are the ones to watch:
//
// - An action without `}}`. Go reads it on to the end of the text (or until a lexing error), so
//   everything after the `{{` belongs to it. For our own reading we end it earlier, at a single
//   `}` if there is one before the next `{{` (almost always a `}}` missing its second brace), else
//   at the end of its line (actions seldom span lines, and the lines after it are most likely
//   meant as text), else at the next `{{` or the end. What follows becomes text again, so its
//   actions are still read and checked: they are actions whatever the fix turns out to be (add
//   `}}` where the first action should end), and skipping them would hide their own mistakes.
//   Tokens cut off this way report nothing, so words meant as text never show up as unknown
//   functions or bad characters.
// - With a single `}` (`{{ .params.path }`), the one error is at that brace, where the second one
//   is missing (Go's own error is there too: a lone `}` is an unexpected operand to it), and the
//   action before it is read as if it were closed, so its references and its own genuine mistakes
//   are still found (only its missing `{{end}}`, if it opens a block, is left unsaid, as for any
//   unclosed action).
// - Without one, the error is at the `{{`: where the `}}` should go is anyone's guess. When that
//   action is the last one it may be the `{{end}}` being typed, so the parser then leaves the
//   blocks still open unreported; a `{{-` or ` -` that ends the text is a trim marker being typed.
// - A single `}` inside an action that `}}` closes later: reported once; what follows it in the
//   action is uncertain, so nothing else is reported for that action.
// - A string, raw string or quoted character never closed: it stops at the next `}}` or `{{` (or
//   at the end of its line, for quoted ones). When the action then has no `}}` either, the two
//   are one slip and get one error, at the literal, whose code says both (`unclosedStringAndAction`).
//
// Errors are codes with data (TemplateProblem in ast.ts), never sentences: the rule
// `template/syntax` words them.

import type { TemplateError, TemplateProblem } from './ast.js';

type TokenKind =
  | 'field' // .name
  | 'variable' // $ or $name
  | 'identifier' // function name
  | 'keyword' // if else end range with define template block break continue
  | 'bool'
  | 'nil'
  | 'dot'
  | 'number'
  | 'string' // "..."
  | 'rawString' // `...`
  | 'char' // 'a'
  | 'leftParen'
  | 'rightParen'
  | 'pipe'
  | 'declare' // :=
  | 'assign' // =
  | 'comma'
  | 'bad'; // already reported by the lexer

export interface Token {
  kind: TokenKind;
  start: number;
  end: number;
  /** The source text of the token. */
  text: string;
  /** Whether whitespace separates this token from the previous one (it decides `.a.b` vs `.a .b`). */
  spaceBefore: boolean;
  /**
   * field: the name without the dot; variable: the name with the `$`; string/rawString: the decoded
   * value; char: the decoded character; other kinds: the source text.
   */
  value: string;
}

interface LexedText {
  kind: 'text';
  start: number;
  end: number;
  /** The part that renders after `{{-`/`-}}` trimming of the neighbouring actions. */
  valueStart: number;
  valueEnd: number;
}

export interface LexedAction {
  kind: 'action';
  /** At the `{{`. */
  start: number;
  /** After the `}}`, or where the lexer gave up when the action is not closed. */
  end: number;
  trimLeft: boolean;
  trimRight: boolean;
  comment: boolean;
  closed: boolean;
  /** Not closed, but read as if a single `}` (or ` -}`) at its end were `}}`. */
  endsAtBrace: boolean;
  tokens: Token[];
  /**
   * Set when a lexer error may have swallowed or split tokens (unterminated string, missing `}}`,
   * a stray `}` before the `}}`): structural errors the parser would find in such an action are
   * only echoes of the first one.
   */
  unreliable: boolean;
}

type LexedItem = LexedText | LexedAction;

/** Reads items one at a time, so a large template's tokens never all live at once. */
export interface ItemReader {
  next(): LexedItem | null;
  /** Every lexer error so far, in the order found. */
  readonly errors: TemplateError[];
}

const KEYWORDS = new Set(['if', 'else', 'end', 'range', 'with', 'define', 'template', 'block', 'break', 'continue']);

const CH_TAB = 0x09;
const CH_NL = 0x0a;
const CH_CR = 0x0d;
const CH_SPACE = 0x20;
const CH_DASH = 0x2d;
const CH_BACKSLASH = 0x5c;
const CH_RBRACE = 0x7d;

/** Whitespace as Go's template lexer sees it (also what `{{-`/`-}}` trim). */
function isSpaceCode(c: number): boolean {
  return c === CH_SPACE || c === CH_TAB || c === CH_NL || c === CH_CR;
}

function isDigitCode(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

const WORD_CHAR = /[\p{L}\p{Nd}_]/u;

/** Length in UTF-16 units of the letter/digit/underscore at `i`, or 0 when there is none. */
function wordCharLength(text: string, i: number): number {
  if (i >= text.length) return 0;
  const c = text.charCodeAt(i);
  if (c < 0x80) {
    return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f ? 1 : 0;
  }
  const cp = text.codePointAt(i) ?? 0;
  const s = String.fromCodePoint(cp);
  return WORD_CHAR.test(s) ? s.length : 0;
}

function isWordStart(text: string, i: number): boolean {
  return wordCharLength(text, i) > 0 && !isDigitCode(text.charCodeAt(i));
}

function scanWord(text: string, i: number): number {
  let len: number;
  while ((len = wordCharLength(text, i)) > 0) i += len;
  return i;
}

// Numbers as Go accepts them: decimal (with optional fraction/exponent), hex (with optional
// p-exponent), octal and binary, underscores between digits, optional imaginary suffix.
const DEC_NUMBER = /^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?i?$/;
const HEX_NUMBER =
  /^[+-]?0[xX](?:(?:_?[0-9a-fA-F])+(?:\.(?:[0-9a-fA-F](?:_?[0-9a-fA-F])*)?)?|\.[0-9a-fA-F](?:_?[0-9a-fA-F])*)(?:[pP][+-]?\d(?:_?\d)*)?i?$/;
const OCT_NUMBER = /^[+-]?0[oO](?:_?[0-7])+i?$/;
const BIN_NUMBER = /^[+-]?0[bB](?:_?[01])+i?$/;

function isValidNumber(text: string): boolean {
  return DEC_NUMBER.test(text) || HEX_NUMBER.test(text) || OCT_NUMBER.test(text) || BIN_NUMBER.test(text);
}

interface DecodeResult {
  value: string;
  errors: TemplateError[];
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};

/** Resolves Go escapes in text[start, end) of a literal quoted with `quote` (`"` or `'`). */
function decodeEscapes(text: string, start: number, end: number, quote: string): DecodeResult {
  let value = '';
  const errors: TemplateError[] = [];
  let i = start;
  while (i < end) {
    const c = text[i] as string;
    if (c !== '\\') {
      value += c;
      i++;
      continue;
    }
    const e = text[i + 1] ?? '';
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      value += simple;
      i += 2;
      continue;
    }
    if (e === quote) {
      value += quote;
      i += 2;
      continue;
    }
    if (e === 'x' || e === 'u' || e === 'U') {
      const width = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const digits = text.slice(i + 2, Math.min(i + 2 + width, end));
      if (digits.length !== width || !/^[0-9a-fA-F]+$/.test(digits)) {
        const bad = Math.min(i + 2 + width, end);
        errors.push({
          code: 'badHexEscape',
          escape: `\\${e}`,
          width,
          start: i,
          end: Math.max(bad, i + 2),
        });
        i = Math.max(bad, i + 2);
        continue;
      }
      const cp = parseInt(digits, 16);
      if (e !== 'x' && (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))) {
        errors.push({ code: 'badCodePoint', escape: `\\${e}${digits}`, start: i, end: i + 2 + width });
      } else {
        value += e === 'x' ? String.fromCharCode(cp) : String.fromCodePoint(cp);
      }
      i += 2 + width;
      continue;
    }
    if (e >= '0' && e <= '7') {
      const digits = text.slice(i + 1, Math.min(i + 4, end));
      if (!/^[0-7]{3}$/.test(digits) || parseInt(digits, 8) > 255) {
        const stop = Math.min(i + 4, end);
        errors.push({ code: 'badOctalEscape', start: i, end: stop });
        i = stop;
        continue;
      }
      value += String.fromCharCode(parseInt(digits, 8));
      i += 4;
      continue;
    }
    const len = e === '' ? 1 : 2;
    errors.push({ code: 'badEscape', escape: `\\${e}`, start: i, end: i + len });
    i += len;
  }
  return { value, errors };
}

export function itemReader(text: string): ItemReader {
  return new Lexer(text);
}

/** The state of an action being lexed, so that reading can be rolled back to that point. */
interface Checkpoint {
  /** Where the rolled-back action would end. */
  at: number;
  tokens: number;
  errors: number;
  unreliable: boolean;
}

/** A single `}` (or ` -}`) met inside an action. */
interface StrayBrace {
  start: number;
  end: number;
  /** Written as ` -}`: the user meant to trim. */
  trim: boolean;
  /** The action just before the brace. */
  before: Checkpoint;
}

/** An unterminated literal (or misplaced comment) and the code of its error when its action has no `}}` either. */
const AND_ACTION = {
  unclosedString: 'unclosedStringAndAction',
  unclosedRawString: 'unclosedRawStringAndAction',
  unclosedSingleQuoted: 'unclosedSingleQuotedAndAction',
  misplacedComment: 'misplacedCommentAndAction',
} as const;

type OpenLiteralCode = keyof typeof AND_ACTION;

/** The error of an unterminated literal, which can also say that its action is never closed. */
interface OpenLiteral {
  errorIndex: number;
  /** The error's code when the action has no `}}` either. */
  withUnclosedAction: (typeof AND_ACTION)[OpenLiteralCode];
}

class Lexer implements ItemReader {
  readonly errors: TemplateError[] = [];
  private pos = 0;
  private lastTrimRight = false;
  private pendingAction: LexedAction | null = null;
  /** The unterminated literals of the action being lexed, by their `bad` token. */
  private readonly openLiterals = new Map<Token, OpenLiteral>();
  private readonly lastFind = new Map<string, { from: number; at: number }>();

  constructor(private readonly text: string) {}

  /**
   * `indexOf` that remembers its last answer per needle: a later search starting before that answer
   * gets the same one. Without it, many unclosed comments or strings would rescan to the end each time.
   */
  private find(needle: string, from: number): number {
    const last = this.lastFind.get(needle);
    if (last && last.from <= from && (last.at < 0 || last.at >= from)) return last.at;
    const at = this.text.indexOf(needle, from);
    this.lastFind.set(needle, { from, at });
    return at;
  }

  next(): LexedItem | null {
    const { text } = this;
    const pending = this.pendingAction;
    if (pending) {
      this.pendingAction = null;
      return pending;
    }
    const start = this.pos;
    if (start >= text.length) return null;
    // Leading whitespace of this text is trimmed by a `-}}` on the action before it.
    const trimStart = this.lastTrimRight;
    const open = this.find('{{', start);
    if (open < 0) {
      this.pos = text.length;
      this.lastTrimRight = false;
      return this.textItem(start, text.length, trimStart, false);
    }
    const action = this.lexAction(open);
    this.lastTrimRight = action.trimRight;
    if (open === start) return action;
    this.pendingAction = action;
    return this.textItem(start, open, trimStart, action.trimLeft);
  }

  private textItem(start: number, end: number, trimStart: boolean, trimEnd: boolean): LexedText {
    const { text } = this;
    let valueStart = start;
    let valueEnd = end;
    if (trimStart) {
      while (valueStart < valueEnd && isSpaceCode(text.charCodeAt(valueStart))) valueStart++;
    }
    if (trimEnd) {
      while (valueEnd > valueStart && isSpaceCode(text.charCodeAt(valueEnd - 1))) valueEnd--;
    }
    return { kind: 'text', start, end, valueStart, valueEnd };
  }

  private error(problem: TemplateProblem, start: number, end: number): void {
    this.errors.push({ ...problem, start, end });
  }

  /** Lexes the action opening at `open`; `pos` moves to where the next item starts. */
  private lexAction(open: number): LexedAction {
    const action = this.readAction(open);
    this.pos = action.end;
    return action;
  }

  private readAction(open: number): LexedAction {
    const { text } = this;
    let p = open + 2;
    let trimLeft = false;
    // `{{-` trims only when a space follows; `{{-3}}` is the number -3. At the very end of the text
    // it is an action being typed: read it as a trim marker rather than report a stray "-" too.
    if (text.charCodeAt(p) === CH_DASH && (isSpaceCode(text.charCodeAt(p + 1)) || p + 1 === text.length)) {
      trimLeft = true;
      p += 2;
    }
    if (text.startsWith('/*', p)) return this.lexComment(open, p, trimLeft);

    const action: LexedAction = {
      kind: 'action',
      start: open,
      end: text.length,
      trimLeft,
      trimRight: false,
      comment: false,
      closed: false,
      endsAtBrace: false,
      tokens: [],
      unreliable: false,
    };
    this.openLiterals.clear();
    // Where this action could end if it turns out to have no `}}` (see the header).
    let stray: StrayBrace | null = null;
    let lineEnd: Checkpoint | null = null;
    for (;;) {
      let space = false;
      while (p < text.length && isSpaceCode(text.charCodeAt(p))) {
        if (text.charCodeAt(p + 1) === CH_DASH && text.startsWith('}}', p + 2)) {
          action.end = p + 4;
          action.trimRight = true;
          return this.closedAction(action, stray);
        }
        if (!lineEnd && text.charCodeAt(p) === CH_NL) lineEnd = this.checkpoint(action, p);
        p++;
        space = true;
      }
      if (p >= text.length) return this.unclosed(action, text.length, stray, lineEnd);
      if (text.startsWith('}}', p)) {
        action.end = p + 2;
        return this.closedAction(action, stray);
      }
      // A new `{{` before any `}}` means the user forgot to close this action.
      if (text.startsWith('{{', p)) return this.unclosed(action, p, stray, lineEnd);
      // A ` -` that ends the text is a `-}}` being typed, like `{{-` above.
      if (space && text.charCodeAt(p) === CH_DASH && p + 1 === text.length) {
        p++;
        continue;
      }
      // A single `}`, or ` -}` (a trim marker missing its second brace).
      const trim = space && text.charCodeAt(p) === CH_DASH && text.charCodeAt(p + 1) === CH_RBRACE;
      if (trim || text.charCodeAt(p) === CH_RBRACE) {
        const end = trim ? p + 2 : p + 1;
        stray ??= { start: p, end, trim, before: this.checkpoint(action, p) };
        // The error is reported once the action's end is known (see closedAction and unclosed).
        this.push(action, 'bad', p, end, space);
        p = end;
        continue;
      }
      p = this.lexToken(action, p, space);
    }
  }

  private checkpoint(action: LexedAction, at: number): Checkpoint {
    return { at, tokens: action.tokens.length, errors: this.errors.length, unreliable: action.unreliable };
  }

  private rollBack(action: LexedAction, to: Checkpoint): void {
    action.tokens.length = to.tokens;
    this.errors.length = to.errors;
    action.unreliable = to.unreliable;
  }

  /** An action closed by `}}` (action.end is set); a single `}` before it is reported here. */
  private closedAction(action: LexedAction, stray: StrayBrace | null): LexedAction {
    action.closed = true;
    if (stray) {
      // What follows the stray brace is uncertain (text typed into the action? a second action?):
      // its own lexing errors are dropped and the parser reports nothing for this action.
      this.errors.length = stray.before.errors;
      action.unreliable = true;
      this.error({ code: 'strayBrace', trim: stray.trim }, stray.start, stray.end);
    }
    return action;
  }

  /**
   * An action with no `}}` before `stop` (the next `{{` or the end of the text): one error, and
   * the action ends at the stray brace or the line end before `stop`, if any (see the header).
   */
  private unclosed(
    action: LexedAction,
    stop: number,
    stray: StrayBrace | null,
    lineEnd: Checkpoint | null,
  ): LexedAction {
    const runsInto = stop < this.text.length ? 'next' : 'end';
    if (stray) {
      // Read as if the brace were `}}`: the action is sound up to it.
      this.rollBack(action, stray.before);
      action.end = stray.end;
      action.endsAtBrace = true;
      action.trimRight = stray.trim;
      this.error({ code: 'unclosedAtBrace', trim: stray.trim, runsInto }, stray.start, stray.end);
      return action;
    }
    if (lineEnd) {
      this.rollBack(action, lineEnd);
      action.end = lineEnd.at;
    } else {
      action.end = stop;
    }
    action.unreliable = true;
    const last = action.tokens[action.tokens.length - 1];
    const literal = last && this.openLiterals.get(last);
    if (literal) {
      // The literal swallowed the rest of the action: its error becomes the one that says both.
      const { start, end } = this.errors[literal.errorIndex] as TemplateError;
      this.errors[literal.errorIndex] = { code: literal.withUnclosedAction, start, end };
      return action;
    }
    this.error({ code: 'unclosedAction', runsInto }, action.start, action.start + 2);
    return action;
  }

  /** Records the unterminated literal just pushed (with its error, of code `code`), for unclosed(). */
  private literalLeftOpen(action: LexedAction, code: OpenLiteralCode): void {
    const token = action.tokens[action.tokens.length - 1] as Token;
    this.openLiterals.set(token, { errorIndex: this.errors.length - 1, withUnclosedAction: AND_ACTION[code] });
  }

  private lexComment(open: number, p: number, trimLeft: boolean): LexedAction {
    const { text } = this;
    const item: LexedAction = {
      kind: 'action',
      start: open,
      end: text.length,
      trimLeft,
      trimRight: false,
      comment: true,
      closed: false,
      endsAtBrace: false,
      tokens: [],
      unreliable: false,
    };
    const close = this.find('*/', p + 2);
    if (close < 0) {
      this.error({ code: 'unclosedComment' }, open, p + 2);
      const brace = this.find('}}', p + 2);
      item.end = brace < 0 ? text.length : brace + 2;
      return item;
    }
    const q = close + 2;
    if (text.startsWith('}}', q)) {
      item.closed = true;
      item.end = q + 2;
    } else if (isSpaceCode(text.charCodeAt(q)) && text.charCodeAt(q + 1) === CH_DASH && text.startsWith('}}', q + 2)) {
      item.closed = true;
      item.trimRight = true;
      item.end = q + 4;
    } else {
      this.error({ code: 'badCommentEnd' }, close, q);
      // `*/}` (or `*/ -}`) is a `}}` missing a brace: the comment ends there. Otherwise it ends at
      // the next `}}`, but not past the next `{{`, which starts an action of its own.
      const trimmed =
        isSpaceCode(text.charCodeAt(q)) && text.charCodeAt(q + 1) === CH_DASH && text.charCodeAt(q + 2) === CH_RBRACE;
      const brace = this.find('}}', q);
      const open = this.find('{{', q);
      if (trimmed || text.charCodeAt(q) === CH_RBRACE) {
        item.end = q + (trimmed ? 3 : 1);
        item.trimRight = trimmed;
      } else if (open >= 0 && (brace < 0 || open < brace)) {
        item.end = open;
      } else {
        item.end = brace < 0 ? text.length : brace + 2;
        item.closed = brace >= 0;
      }
    }
    return item;
  }

  private push(action: LexedAction, kind: TokenKind, start: number, end: number, space: boolean, value?: string): void {
    const tokenText = this.text.slice(start, end);
    action.tokens.push({ kind, start, end, text: tokenText, spaceBefore: space, value: value ?? tokenText });
  }

  private bad(action: LexedAction, start: number, end: number, space: boolean, problem: TemplateProblem): number {
    this.error(problem, start, end);
    this.push(action, 'bad', start, end, space);
    return end;
  }

  /** Lexes one token at `p` (not whitespace, not a delimiter) and returns the position after it. */
  private lexToken(action: LexedAction, p: number, space: boolean): number {
    const { text } = this;
    const c = text[p] as string;
    const next = text[p + 1] ?? '';
    switch (c) {
      case '(':
        this.push(action, 'leftParen', p, p + 1, space);
        return p + 1;
      case ')':
        this.push(action, 'rightParen', p, p + 1, space);
        return p + 1;
      case ',':
        this.push(action, 'comma', p, p + 1, space);
        return p + 1;
      case '|':
        if (next === '|') return this.bad(action, p, p + 2, space, { code: 'foreignOperator', operator: '||' });
        this.push(action, 'pipe', p, p + 1, space);
        return p + 1;
      case ':':
        if (next === '=') {
          this.push(action, 'declare', p, p + 2, space);
          return p + 2;
        }
        return this.bad(action, p, p + 1, space, { code: 'loneColon' });
      case '=':
        if (next === '=') return this.bad(action, p, p + 2, space, { code: 'foreignOperator', operator: '==' });
        this.push(action, 'assign', p, p + 1, space);
        return p + 1;
      case '!':
        if (next === '=') return this.bad(action, p, p + 2, space, { code: 'foreignOperator', operator: '!=' });
        return this.bad(action, p, p + 1, space, { code: 'foreignOperator', operator: '!' });
      case '&':
        if (next === '&') return this.bad(action, p, p + 2, space, { code: 'foreignOperator', operator: '&&' });
        break;
      case '<':
      case '>': {
        const operator = next === '=' ? (`${c}=` as const) : c;
        return this.bad(action, p, p + operator.length, space, { code: 'foreignOperator', operator });
      }
      case '/':
        if (next === '*') return this.misplacedComment(action, p, space);
        break;
      case '"':
        return this.lexQuoted(action, p, space);
      case '`':
        return this.lexRaw(action, p, space);
      case "'":
        return this.lexChar(action, p, space);
      case '$': {
        const end = scanWord(text, p + 1);
        this.push(action, 'variable', p, end, space);
        return end;
      }
      case '.':
        if (isDigitCode(text.charCodeAt(p + 1))) return this.lexNumber(action, p, space);
        if (wordCharLength(text, p + 1) > 0) return this.lexField(action, p, space);
        this.push(action, 'dot', p, p + 1, space);
        return p + 1;
      case '+':
      case '-':
        if (isDigitCode(text.charCodeAt(p + 1)) || (next === '.' && isDigitCode(text.charCodeAt(p + 2)))) {
          return this.lexNumber(action, p, space);
        }
        break;
      default:
        if (isDigitCode(text.charCodeAt(p))) return this.lexNumber(action, p, space);
        if (isWordStart(text, p)) {
          const end = scanWord(text, p);
          const word = text.slice(p, end);
          const kind: TokenKind =
            word === 'true' || word === 'false'
              ? 'bool'
              : word === 'nil'
                ? 'nil'
                : KEYWORDS.has(word)
                  ? 'keyword'
                  : 'identifier';
          this.push(action, kind, p, end, space);
          return end;
        }
    }
    const cp = text.codePointAt(p) ?? 0;
    const ch = String.fromCodePoint(cp);
    return this.bad(action, p, p + ch.length, space, { code: 'unexpectedCharacter', character: ch });
  }

  // A comment after a space (`{{ /* x *` + `/ }}`) is not a comment to Go, which only looks right
  // after the delimiter. Skip it as one bad token so its words do not cause more errors.
  private misplacedComment(action: LexedAction, p: number, space: boolean): number {
    const { text } = this;
    this.error({ code: 'misplacedComment' }, p, p + 2);
    const close = this.find('*/', p + 2);
    const limit = this.recoveryStop(p + 2, text.length);
    const ended = close >= 0 && close < limit;
    const end = ended ? close + 2 : this.trimEnd(p, limit);
    this.push(action, 'bad', p, end, space);
    if (!ended) {
      this.literalLeftOpen(action, 'misplacedComment');
    }
    return end;
  }

  private lexField(action: LexedAction, p: number, space: boolean): number {
    const { text } = this;
    let end = scanWord(text, p + 1);
    // Step ids often contain '-', which cannot appear in a field name; read the whole name so the
    // error can point at it and its message suggest `index`.
    let dashed = false;
    while (text.charCodeAt(end) === CH_DASH && wordCharLength(text, end + 1) > 0) {
      dashed = true;
      end = scanWord(text, end + 1);
    }
    const name = text.slice(p + 1, end);
    if (dashed) {
      this.error({ code: 'dashInFieldName', name, chain: this.chainBefore(action, p) }, p + 1, end);
    }
    this.push(action, 'field', p, end, space, name);
    return end;
  }

  /** The source of the field chain that ends right before `p` (for suggestions), or `.` when none. */
  private chainBefore(action: LexedAction, p: number): string {
    let start = p;
    // A few segments make a good example; walking a very long chain would make lexing quadratic.
    for (let k = action.tokens.length - 1; k >= Math.max(0, action.tokens.length - 8); k--) {
      const t = action.tokens[k] as Token;
      if (t.end !== start || (t.kind !== 'field' && t.kind !== 'variable')) break;
      start = t.start;
      if (t.kind === 'variable' || t.spaceBefore) break;
    }
    return start === p ? '.' : this.text.slice(start, p);
  }

  private lexNumber(action: LexedAction, p: number, space: boolean): number {
    const { text } = this;
    let q = p;
    if (text[q] === '+' || text[q] === '-') q++;
    let digits = /[0-9_]/;
    let exponent = /[eE]/;
    if (text[q] === '0') {
      const prefix = text[q + 1] ?? '';
      if (prefix === 'x' || prefix === 'X') {
        digits = /[0-9a-fA-F_]/;
        exponent = /[pP]/;
        q += 2;
      } else if (prefix === 'o' || prefix === 'O' || prefix === 'b' || prefix === 'B') {
        digits = /[0-9_]/; // validated below; a wrong digit gives a clear error
        q += 2;
      }
    }
    const run = (): void => {
      while (q < text.length && digits.test(text[q] as string)) q++;
    };
    run();
    if (text[q] === '.') {
      q++;
      run();
    }
    if (exponent.test(text[q] ?? '')) {
      q++;
      if (text[q] === '+' || text[q] === '-') q++;
      while (q < text.length && /[0-9_]/.test(text[q] as string)) q++;
    }
    if (text[q] === 'i') q++;
    // Go rejects a number glued to letters (`10abc`); take the whole run so the error covers it.
    if (wordCharLength(text, q) > 0) q = scanWord(text, q);
    const literal = text.slice(p, q);
    if (!isValidNumber(literal)) return this.bad(action, p, q, space, { code: 'badNumber', literal });
    this.push(action, 'number', p, q, space);
    return q;
  }

  /**
   * Where to stop an unterminated literal that started at `from` and ran to `limit` (newline or end):
   * at the first `}}` or `{{`, so that the rest of the template still parses.
   */
  private recoveryStop(from: number, limit: number): number {
    const { text } = this;
    let stop = limit;
    const close = this.find('}}', from);
    if (close >= 0 && close < stop) {
      stop = close;
      // Leave a ` -}}` trim marker to the delimiter.
      if (text.charCodeAt(stop - 1) === CH_DASH && stop - 2 > from && isSpaceCode(text.charCodeAt(stop - 2))) stop -= 2;
    }
    const open = this.find('{{', from);
    if (open >= 0 && open < stop) stop = open;
    return stop;
  }

  /** End of an error range that should not include trailing whitespace. */
  private trimEnd(start: number, end: number): number {
    while (end > start + 1 && isSpaceCode(this.text.charCodeAt(end - 1))) end--;
    return end;
  }

  /** Scans a `"` or `'` literal like Go does: a newline or the end ends it unterminated. */
  private scanQuoted(p: number, quote: string): { closed: boolean; end: number } {
    const { text } = this;
    let q = p + 1;
    while (q < text.length) {
      const c = text.charCodeAt(q);
      if (c === CH_BACKSLASH) {
        if (q + 1 < text.length && text.charCodeAt(q + 1) !== CH_NL) {
          q += 2;
          continue;
        }
        break;
      }
      if (text[q] === quote) return { closed: true, end: q + 1 };
      if (c === CH_NL) break;
      q++;
    }
    return { closed: false, end: q };
  }

  private lexQuoted(action: LexedAction, p: number, space: boolean): number {
    const scan = this.scanQuoted(p, '"');
    if (!scan.closed) {
      const stop = this.recoveryStop(p + 1, scan.end);
      action.unreliable = true;
      this.bad(action, p, this.trimEnd(p, stop), space, { code: 'unclosedString' });
      this.literalLeftOpen(action, 'unclosedString');
      return stop;
    }
    const decoded = decodeEscapes(this.text, p + 1, scan.end - 1, '"');
    if (decoded.errors.length > 0) {
      for (const e of decoded.errors) this.errors.push(e);
      this.push(action, 'bad', p, scan.end, space);
    } else {
      this.push(action, 'string', p, scan.end, space, decoded.value);
    }
    return scan.end;
  }

  private lexRaw(action: LexedAction, p: number, space: boolean): number {
    const { text } = this;
    const close = this.find('`', p + 1);
    if (close < 0) {
      const stop = this.recoveryStop(p + 1, text.length);
      action.unreliable = true;
      this.bad(action, p, this.trimEnd(p, stop), space, { code: 'unclosedRawString' });
      this.literalLeftOpen(action, 'unclosedRawString');
      return stop;
    }
    // Go drops carriage returns from raw strings.
    this.push(action, 'rawString', p, close + 1, space, text.slice(p + 1, close).replace(/\r/g, ''));
    return close + 1;
  }

  private lexChar(action: LexedAction, p: number, space: boolean): number {
    const scan = this.scanQuoted(p, "'");
    if (!scan.closed) {
      const stop = this.recoveryStop(p + 1, scan.end);
      action.unreliable = true;
      this.bad(action, p, this.trimEnd(p, stop), space, { code: 'unclosedSingleQuoted' });
      this.literalLeftOpen(action, 'unclosedSingleQuoted');
      return stop;
    }
    const decoded = decodeEscapes(this.text, p + 1, scan.end - 1, "'");
    if (decoded.errors.length > 0) {
      for (const e of decoded.errors) this.errors.push(e);
      this.push(action, 'bad', p, scan.end, space);
      return scan.end;
    }
    // Exactly one character is a Go rune constant (a number); anything else is a mistaken string.
    if ([...decoded.value].length !== 1) return this.bad(action, p, scan.end, space, { code: 'singleQuotedString' });
    this.push(action, 'char', p, scan.end, space, decoded.value);
    return scan.end;
  }
}
