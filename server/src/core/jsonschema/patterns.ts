// The regular expressions of tool schemas (`pattern`, `patternProperties`, `propertyNames`), run
// with RE2 (re2js): its time grows with the string and the pattern, never exponentially as a
// backtracking engine's does (`^(a+)+$` against forty `a`s and a `!` would take JavaScript's
// RegExp hours). Patterns come from servers nobody here wrote.
//
// JSON Schema patterns are ECMA-262 regular expressions; ajv reads them with the `u` flag. RE2 has
// another syntax and, for `.` and `\s`, other meanings: a pattern is translated here into an RE2
// pattern that matches exactly the same strings, or refused with the reason (a backreference, a
// lookaround, something RE2 does not have). A refused pattern is not evaluated: the value passes
// that keyword and the caller says so (lens/declined), as it does for a pattern larger than
// LIMITS.regexProgram and for evaluations past a document's LIMITS.regexWork.
import type { RE2JS } from 're2js';
import { re2js } from './re2.js';
import { LIMITS } from '../limits.js';
import { isObject, resolveLocalRef } from './properties.js';

export type PatternVerdict =
  | {
      ok: true;
      regex: RE2JS;
      /** RE2 instructions, estimated from the pattern (what one character of input costs at most). */ program: number;
    }
  | { ok: false; limit: 'regexEngine' | 'regexProgram'; /** Why, in a few words: `a backreference`. */ reason: string };

// JavaScript's `\s`: WhiteSpace and LineTerminator (RE2's is ASCII only, without \v).
const SPACE =
  '\\t\\n\\x{b}\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
// JavaScript's `.`: everything but the line terminators (RE2's: everything but \n).
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';
const ANY = '\\x{0}-\\x{10ffff}';

class Refused extends Error {}

const verdicts = new Map<string, PatternVerdict>();
const MAX_VERDICTS = 5000;

/**
 * The pattern, compiled with RE2, or why it is not. The pattern must already be a valid ECMA-262
 * regular expression with the `u` flag (the caller checks that with RegExp, which compiles it but
 * never runs it).
 */
export function compilePattern(source: string): PatternVerdict {
  const known = verdicts.get(source);
  if (known) return known;
  const verdict = compileFresh(source);
  if (verdicts.size >= MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value!);
  verdicts.set(source, verdict);
  return verdict;
}

function compileFresh(source: string): PatternVerdict {
  let translated: { pattern: string; program: number };
  try {
    translated = translate(source);
  } catch (error) {
    if (error instanceof Refused) return { ok: false, limit: 'regexEngine', reason: error.message };
    throw error;
  }
  if (translated.program > LIMITS.regexProgram) {
    return {
      ok: false,
      limit: 'regexProgram',
      reason: `about ${translated.program.toLocaleString('en-US')} instructions once compiled`,
    };
  }
  try {
    return { ok: true, regex: re2js().compile(translated.pattern), program: Math.max(1, translated.program) };
  } catch (error) {
    // RE2's own refusals: a repetition count over 1000, an unknown Unicode class name, ...
    const message = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    return { ok: false, limit: 'regexEngine', reason: `RE2 cannot compile it: ${message}` };
  }
}

/** Checks that need a whole document's share of the work (LIMITS.regexWork, or the workspace's): one per document. */
export class PatternBudget {
  constructor(public remaining: number = LIMITS.regexWork) {}
  /** Once one evaluation did not fit, none after it runs: what was skipped is said once. */
  spent = false;
  /** The caller has said that the budget ran out. */
  said = false;

  /** Takes the work of running a pattern over a string; false when it does not fit. */
  take(program: number, input: string): boolean {
    const cost = program * (input.length + 1);
    if (this.spent || cost > this.remaining) {
      this.spent = true;
      return false;
    }
    this.remaining -= cost;
    return true;
  }
}

// ---------------------------------------------------------------------------------------------
// ECMA-262 (`u` flag) to RE2. The input is known to be valid for RegExp, which keeps this simple:
// no lone `{` or `]`, no identity escapes of letters, no nested classes.

interface Frame {
  /** Instructions of the finished alternatives, and how many there are. */
  done: number;
  branches: number;
  /** Instructions of the current alternative, and of its last atom (what a quantifier repeats). */
  seq: number;
  last: number;
}

function translate(source: string): { pattern: string; program: number } {
  let out = '';
  const frames: Frame[] = [{ done: 0, branches: 1, seq: 0, last: 0 }];
  const top = (): Frame => frames[frames.length - 1]!;
  const atom = (text: string, size = 1): void => {
    out += text;
    top().seq += size;
    top().last = size;
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      const escape = readEscape(source, i, false);
      atom(escape.text);
      i = escape.end;
    } else if (c === '[') {
      const klass = readClass(source, i);
      atom(klass.text, klass.size);
      i = klass.end;
    } else if (c === '.') {
      atom(DOT);
      i++;
    } else if (c === '(') {
      const open = groupOpening(source, i);
      out += open.text;
      frames.push({ done: 0, branches: 1, seq: 0, last: 0 });
      i = open.end;
    } else if (c === ')') {
      const frame = frames.pop()!;
      out += ')';
      const size = frame.done + frame.seq + frame.branches + 1;
      top().seq += size;
      top().last = size;
      i++;
    } else if (c === '|') {
      const frame = top();
      frame.done += frame.seq;
      frame.seq = 0;
      frame.last = 0;
      frame.branches++;
      out += '|';
      i++;
    } else if (c === '*' || c === '+' || c === '?') {
      let end = i + 1;
      if (source[end] === '?') end++;
      out += source.slice(i, end);
      top().seq += 1;
      top().last += 1;
      i = end;
    } else if (c === '{') {
      const match = /^\{(\d+)(,(\d*))?\}\??/.exec(source.slice(i, i + 40));
      if (!match) throw new Refused('a repetition RE2 does not read');
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[3] ? Number(match[3]) : min + 1;
      out += match[0];
      const frame = top();
      const grown = frame.last * Math.max(1, max) + Math.max(1, max - min);
      frame.seq += grown - frame.last;
      frame.last = grown;
      i += match[0].length;
    } else if (c === '^' || c === '$') {
      atom(c);
      i++;
    } else {
      const code = source.codePointAt(i)!;
      atom(literal(code));
      i += code > 0xffff ? 2 : 1;
    }
  }
  const root = frames[0]!;
  return { pattern: out, program: root.done + root.seq + root.branches + 2 };
}

/** `(`, `(?:`, `(?<name>`; lookarounds and anything else RE2 does not have are refused. */
function groupOpening(source: string, i: number): { text: string; end: number } {
  if (source[i + 1] !== '?') return { text: '(', end: i + 1 };
  if (source[i + 2] === ':') return { text: '(?:', end: i + 3 };
  if (source[i + 2] === '=' || source[i + 2] === '!') throw new Refused('a lookahead');
  if (source[i + 2] === '<' && (source[i + 3] === '=' || source[i + 3] === '!')) throw new Refused('a lookbehind');
  if (source[i + 2] === '<') {
    // A named group: the name does not change what matches, and RE2's names are narrower.
    const close = source.indexOf('>', i + 3);
    return { text: '(', end: close + 1 };
  }
  throw new Refused(`the group syntax "${source.slice(i, i + 3)}"`);
}

/** A character class; `\S` in a class that is not negated becomes an alternative beside it. */
function readClass(source: string, start: number): { text: string; size: number; end: number } {
  let i = start + 1;
  const negated = source[i] === '^';
  if (negated) i++;
  let body = '';
  let notSpace = false;
  while (source[i] !== ']') {
    const c = source[i]!;
    if (c === '\\') {
      if (source[i + 1] === 'S') {
        if (negated) throw new Refused('`\\S` in a negated class');
        notSpace = true;
        i += 2;
        continue;
      }
      const escape = readEscape(source, i, true);
      body += escape.text;
      i = escape.end;
    } else if (c === '-') {
      body += '-';
      i++;
    } else {
      const code = source.codePointAt(i)!;
      body += literal(code);
      i += code > 0xffff ? 2 : 1;
    }
  }
  const end = i + 1;
  if (notSpace) {
    const rest = body ? `[${body}]|` : '';
    return { text: `(?:${rest}[^${SPACE}])`, size: 3, end };
  }
  // `[]` matches nothing and `[^]` anything; RE2 reads `[]...]` as a class holding `]`.
  if (!body) return { text: negated ? `[${ANY}]` : `[^${ANY}]`, size: 1, end };
  return { text: `[${negated ? '^' : ''}${body}]`, size: 1, end };
}

/** One escape, in or out of a class. */
function readEscape(source: string, i: number, inClass: boolean): { text: string; end: number } {
  const c = source[i + 1]!;
  switch (c) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 't':
    case 'n':
    case 'f':
    case 'r':
      return { text: `\\${c}`, end: i + 2 };
    case 'v':
      return { text: '\\x{b}', end: i + 2 };
    case 'b':
    case 'B':
      // In a class, `\b` is the backspace character.
      return { text: inClass ? '\\x{8}' : `\\${c}`, end: i + 2 };
    case 's':
      return { text: inClass ? SPACE : `[${SPACE}]`, end: i + 2 };
    case 'S':
      return { text: `[^${SPACE}]`, end: i + 2 };
    case '0':
      return { text: '\\x{0}', end: i + 2 };
    case 'k':
      throw new Refused('a backreference');
    case 'c':
      return { text: hex(source.charCodeAt(i + 2) % 32), end: i + 3 };
    case 'x':
      return { text: hex(parseInt(source.slice(i + 2, i + 4), 16)), end: i + 4 };
    case 'u':
      return unicodeEscape(source, i);
    case 'p':
    case 'P':
      return propertyEscape(source, i);
    default:
      if (c >= '1' && c <= '9') throw new Refused('a backreference');
      // What is left are escaped syntax characters (`\.`, `\/`, `\-`), which RE2 reads alike.
      return { text: literal(c.codePointAt(0)!), end: i + 2 };
  }
}

function unicodeEscape(source: string, i: number): { text: string; end: number } {
  if (source[i + 2] === '{') {
    const close = source.indexOf('}', i + 3);
    return { text: codePoint(parseInt(source.slice(i + 3, close), 16)), end: close + 1 };
  }
  const unit = parseInt(source.slice(i + 2, i + 6), 16);
  // A surrogate pair written as two escapes is one character with the `u` flag.
  if (unit >= 0xd800 && unit <= 0xdbff && source.startsWith('\\u', i + 6)) {
    const low = parseInt(source.slice(i + 8, i + 12), 16);
    if (low >= 0xdc00 && low <= 0xdfff)
      return { text: codePoint((unit - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000), end: i + 12 };
  }
  return { text: codePoint(unit), end: i + 6 };
}

/** `\p{Lu}`, `\p{Script=Greek}`; RE2 refuses the names it does not know when it compiles. */
function propertyEscape(source: string, i: number): { text: string; end: number } {
  const close = source.indexOf('}', i + 3);
  const body = source.slice(i + 3, close);
  const [key, value] = body.includes('=') ? body.split('=') : [undefined, body];
  if (key === 'Script_Extensions' || key === 'scx') throw new Refused(`the property \\p{${body}}`);
  return { text: `\\${source[i + 1]}{${value}}`, end: close + 1 };
}

function codePoint(code: number): string {
  if (code >= 0xd800 && code <= 0xdfff) throw new Refused('a lone surrogate');
  return hex(code);
}

function hex(code: number): string {
  return `\\x{${code.toString(16)}}`;
}

/** A literal character: ASCII punctuation escaped (RE2 reads `\` before any of it as the character), the rest as a code point. */
function literal(code: number): string {
  const char = String.fromCodePoint(code);
  if (/^[A-Za-z0-9_ ]$/.test(char)) return char;
  if (/^[!-/:-@[-`{-~]$/.test(char)) return `\\${char}`;
  return hex(code);
}

// ---------------------------------------------------------------------------------------------
// Where a pattern that was not run can change a verdict. Passing it is right where the pattern
// only adds a requirement (under properties, items, allOf, then / else, propertyNames and the
// like): the value simply was not held to it. Under not, anyOf, oneOf, if and contains, and as a
// patternProperties name (which decides what applies to a property), passing it may turn any
// other finding on the value around: there, nothing found on the value can be trusted.

const CONJUNCTIVE_ONE = [
  'additionalProperties',
  'additionalItems',
  'items',
  'unevaluatedItems',
  'unevaluatedProperties',
  'propertyNames',
  'then',
  'else',
];
const CONJUNCTIVE_LIST = ['allOf', 'prefixItems', 'items'];
const CONJUNCTIVE_MAP = ['properties', 'patternProperties', 'dependentSchemas', 'dependencies'];
const DECIDING_ONE = ['not', 'if', 'contains'];
const DECIDING_LIST = ['anyOf', 'oneOf'];

/**
 * The patterns of a schema that sit where passing them could change another verdict; undefined
 * when that cannot be told (a `$ref` this walk does not resolve, a nested `$id`): then any may.
 */
export function decidingPatterns(root: Record<string, unknown>): Set<string> | undefined {
  const deciding = new Set<string>();
  const seen = [new Set<object>(), new Set<object>()];
  const pending: { schema: unknown; decides: boolean }[] = [{ schema: root, decides: false }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { schema, decides } = next;
    if (!isObject(schema) || seen[decides ? 1 : 0]!.has(schema)) continue;
    seen[decides ? 1 : 0]!.add(schema);
    // Below a nested `$id`, `#` is that resource, which resolveLocalRef does not know.
    if (schema !== root && typeof schema.$id === 'string') return undefined;
    if (decides && typeof schema.pattern === 'string') deciding.add(schema.pattern);
    if (isObject(schema.patternProperties))
      for (const name of Object.keys(schema.patternProperties)) deciding.add(name);
    for (const key of CONJUNCTIVE_ONE) pending.push({ schema: schema[key], decides });
    for (const key of DECIDING_ONE) pending.push({ schema: schema[key], decides: true });
    for (const key of [...CONJUNCTIVE_LIST, ...DECIDING_LIST]) {
      const list = schema[key];
      if (Array.isArray(list))
        for (const item of list) pending.push({ schema: item, decides: decides || DECIDING_LIST.includes(key) });
    }
    for (const key of CONJUNCTIVE_MAP) {
      const map = schema[key];
      if (isObject(map)) for (const value of Object.values(map)) pending.push({ schema: value, decides });
    }
    for (const key of ['$ref', '$dynamicRef', '$recursiveRef']) {
      const ref = schema[key];
      if (typeof ref !== 'string') continue;
      const target = key === '$ref' ? resolveLocalRef(root, ref) : undefined;
      if (!target) return undefined;
      pending.push({ schema: target, decides });
    }
  }
  return deciding;
}
