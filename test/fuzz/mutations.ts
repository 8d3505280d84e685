// What the fuzzer does to a text: mutations as plain data (so that fast-check prints and shrinks
// them), and `mutate`, which applies them. Every number in a mutation is interpreted modulo what
// the text has (a character offset, a line, the n-th key), so one mutation fits any text and
// shrinks towards the text's beginning. The shapes are hostile on purpose: damage an editor makes
// (deletions, duplications, stray characters, merge-conflict markers, mixed line breaks, a BOM, NUL,
// tabs), and values no corpus holds (nesting around LIMITS.nesting, thousands of siblings, anchors
// and aliases, huge scalars, astral and right-to-left characters, prototype names as keys).
//
// Sizes are bounded so that a case stays cheap: a hostile value is at most ~85,000 characters
// (nesting past the limit written in block style), most are far smaller, and a mutated text at
// most MAX_TEXT.
import fc from 'fast-check';
import { LIMITS } from '../../server/src/core/limits.js';

export type Language = 'yaml' | 'json' | 'jsonl';

/** A value put where a key's value was, or under a new key. */
export type Value =
  | { v: 'scalar'; text: string }
  | { v: 'string'; text: string; quote: 'double' | 'single' | 'plain' }
  | { v: 'deep'; depth: number; style: 'seq' | 'map' | 'mixed' | 'block' }
  | { v: 'wide'; width: number; style: 'seq' | 'map' | 'block-seq' | 'block-map'; item: string; sameKey: boolean }
  | { v: 'huge'; length: number; unit: string; style: 'plain' | 'double' | 'single' | 'literal' | 'folded' }
  | { v: 'bomb'; levels: number; width: number }
  | { v: 'borrow'; from: number };

export type Mutation =
  | { op: 'delete'; at: number; length: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'deleteLines'; line: number; count: number }
  | { op: 'deleteBlock'; line: number }
  | { op: 'duplicateLines'; line: number; count: number; times: number }
  | { op: 'duplicateBlock'; line: number }
  | { op: 'moveLines'; line: number; count: number; to: number }
  | { op: 'replaceValue'; key: number; value: Value }
  | { op: 'insertEntry'; key: number; name: string; value: Value }
  | { op: 'anchorAlias'; from: number; to: number; merge: boolean; name: string }
  | { op: 'conflict'; line: number; count: number; theirs: 'same' | 'empty' | 'reversed' | 'dropFirst'; diff3: boolean }
  | { op: 'indent'; line: number; count: number; delta: number; tab: boolean }
  | { op: 'lineBreaks'; style: 'crlf' | 'cr' | 'lf' | 'mixed' | 'noFinal' | 'blank'; pattern: number }
  | { op: 'bom'; at: number; start: boolean }
  | { op: 'documents'; how: 'repeat' | 'separator' | 'directive' | 'end'; line: number };

// ---------------------------------------------------------------------------------------------
// Alphabets and vocabularies

/** Characters and tokens that mean something to YAML, JSON or the template language. */
const TOKENS = [
  ':',
  ': ',
  '-',
  '- ',
  '{',
  '}',
  '[',
  ']',
  ',',
  '"',
  "'",
  '#',
  ' # c',
  '&a ',
  '*a',
  '!!str ',
  '!x ',
  '|',
  '|-',
  '>',
  '>+',
  '?',
  '? ',
  '%',
  '@',
  '`',
  '\\',
  '\t',
  '\n',
  '\n  ',
  '\n- ',
  '  ',
  '---',
  '...',
  '{{',
  '}}',
  '{{ .params.x }}',
  '{{ .steps.s.output }}',
  '{{/*',
  '*/}}',
  'null',
  '~',
  'true',
  '0',
  '1e999',
  '__proto__',
  'constructor',
  '<<: *a',
  '// c',
  '/* c',
  '*/',
  '\\u0000',
  '"\\ud800"',
];

/** Characters that are hostile to offsets and line counting. */
const HOSTILE_CHARS = [
  '\uFEFF',
  '\0',
  '\r',
  '\r\n',
  '\n\r',
  '\u2028',
  '\u2029',
  '\u0085',
  '\v',
  '\f',
  '\u00A0',
  '\u3000',
  '\u200B',
  '\u200D',
  '\u202E',
  '\u202D',
  '\u2066',
  '\u200F',
  '\u061C',
  'שָׁלוֹם',
  'مرحبا',
  '😀',
  '👩‍👩‍👧‍👦',
  '𝕏',
  '\u{10FFFF}',
  '\u{1F1FA}\u{1F1F8}',
  '\uD800',
  '\uDC00',
  '\uDBFF\uDFFF',
  'é',
  'e\u0301',
  'ǅ',
  'ß',
  'İ',
  '\uFFFD',
  '\uFFFE',
  '\u{E0001}',
];

/** Scalars, written as they would be in the file, that parse to odd values or odd types. */
const SCALARS = [
  'null',
  '~',
  '',
  'true',
  'false',
  'yes',
  'no',
  'on',
  'off',
  '0',
  '-0',
  '-1',
  '1.5',
  '1e309',
  '-1e309',
  '1e-400',
  '.nan',
  '.inf',
  '-.inf',
  '0x1F',
  '0o17',
  '0b101',
  '0777',
  '+1',
  '.5',
  '1_000',
  '123456789012345678901234567890',
  '9007199254740993',
  '""',
  "''",
  '" "',
  '[]',
  '{}',
  '[[]]',
  '[{}]',
  '[null]',
  '{a: }',
  '{"": ""}',
  '[1, "a", null, true, {}]',
  '!!binary aGVsbG8=',
  '!!null x',
  '!!str 5',
  '!!int x',
  '!!float',
  '!!map {}',
  '!!seq []',
  '!!set {a, b}',
  '!!omap [a: 1]',
  '!!timestamp 2001-12-14',
  '!custom x',
  '!<tag:yaml.org,2002:str> s',
  '! x',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udc00x"',
  '"\\x00"',
  '"a\\nb"',
  '"\\t"',
  '"\\u202Egnp.exe"',
  '"😀"',
  "'😀'",
  '😀',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '{__proto__: {polluted: 1}}',
  '{"__proto__": {"polluted": 1}}',
  '{constructor: {prototype: {polluted: 1}}}',
  '[__proto__]',
  '{{',
  '}}',
  '"{{ }}"',
  '"{{.}}"',
  '"{{ .params }}"',
  '"{{ .steps }}"',
  '"{{ .params.__proto__ }}"',
  '"{{ .steps.constructor.output }}"',
  '"{{ index .params \\"x\\" }}"',
  '"{{ range .params.x }}{{ end }}"',
  '"{{ if }}{{ end }}"',
  '"{{/* "',
  '"{{ .steps.a.output.b.c.d }}"',
  '"{{ printf \\"%s\\" .params.x }}"',
  '"{{ .params.x | }}"',
  '"{{ ((((( }}"',
  '"{{ $x := 1 }}{{ $x }}"',
  '*undefined_alias',
  '&orphan',
  '&a',
  '? x',
  '- x',
  '@x',
  '`x`',
  '%x',
  '#',
  'a: b: c',
  'a, b',
  '[a, [b, [c]]]',
  '{a: [b, {c: d}]}',
  '{"a": 1, "a": 2}',
  '{a: 1, a: 2}',
  '[*a]',
  '<<<<<<< HEAD',
  '=======',
  '>>>>>>> topic',
  'x'.repeat(300),
];

/** Keys no corpus has, or keys with names that are JavaScript's. */
const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  '',
  ' ',
  '😀',
  '\u202Ekey',
  'ключ',
  'مفتاح',
  'k'.repeat(300),
  '<<',
  'null',
  '~',
  'true',
  '1',
  '-',
  'a.b',
  '$ref',
  '$schema',
  'x:y',
  'a b',
  '#',
  '"',
  "'",
];

// ---------------------------------------------------------------------------------------------
// Arbitraries

/** An offset, a line or a key index: any natural number, read modulo what the text has. */
const index = fc.nat({ max: 1 << 20 });

const N = LIMITS.nesting;
/** Depths mostly small, often at the nesting limit's edge, sometimes anywhere up to past it. */
const depth = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 40 }) },
  { weight: 2, arbitrary: fc.integer({ min: N - 3, max: N + 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: N + 20 }) },
);

const unicodeString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: fc.constantFrom(...HOSTILE_CHARS, ...TOKENS, 'a', ' '), maxLength: 8 }),
);

function valueArbitrary(vocabulary: readonly string[]): fc.Arbitrary<Value> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({ v: fc.constant('scalar' as const), text: fc.constantFrom(...SCALARS, ...vocabulary) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        v: fc.constant('string' as const),
        text: unicodeString,
        quote: fc.constantFrom('double' as const, 'single' as const, 'plain' as const),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        v: fc.constant('deep' as const),
        depth,
        style: fc.constantFrom('seq' as const, 'map' as const, 'mixed' as const, 'block' as const),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        v: fc.constant('wide' as const),
        width: fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min: 0, max: 20 }) },
          { weight: 1, arbitrary: fc.integer({ min: 0, max: 2000 }) },
        ),
        style: fc.constantFrom('seq' as const, 'map' as const, 'block-seq' as const, 'block-map' as const),
        item: fc.constantFrom(
          '1',
          'x',
          'null',
          '{}',
          '[]',
          '"{{ .params.x }}"',
          '{id: s, tool: t}',
          ...vocabulary.slice(0, 40),
        ),
        sameKey: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        v: fc.constant('huge' as const),
        length: fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min: 100, max: 2000 }) },
          { weight: 1, arbitrary: fc.integer({ min: 2000, max: 40_000 }) },
        ),
        unit: fc.constantFrom(
          'x',
          'ab ',
          '{{',
          '}}',
          '{{ .params.x }}',
          '😀',
          '\u202E',
          '\\',
          '"',
          "'",
          ' ',
          '# ',
          ': ',
          '%',
          'é',
          '\t',
        ),
        style: fc.constantFrom(
          'plain' as const,
          'double' as const,
          'single' as const,
          'literal' as const,
          'folded' as const,
        ),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        v: fc.constant('bomb' as const),
        levels: fc.integer({ min: 1, max: 4 }),
        width: fc.integer({ min: 1, max: 4 }),
      }),
    },
    { weight: 2, arbitrary: fc.record({ v: fc.constant('borrow' as const), from: index }) },
  );
}

/** Mutations that keep the text's structure where they can: new values and entries, whole blocks moved. */
export function structuralMutation(vocabulary: readonly string[]): fc.Arbitrary<Mutation> {
  const value = valueArbitrary(vocabulary);
  const name = fc.oneof(fc.constantFrom(...vocabulary), fc.constantFrom(...HOSTILE_KEYS));
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constant('replaceValue' as const), key: index, value }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('insertEntry' as const), key: index, name, value }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('duplicateBlock' as const), line: index }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('deleteBlock' as const), line: index }) },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('anchorAlias' as const),
        from: index,
        to: index,
        merge: fc.boolean(),
        name: fc.constantFrom('a', 'x1', '__proto__', '😀', 'a'.repeat(100)),
      }),
    },
  );
}

/** Every mutation: the structural ones and raw damage to characters, lines and the whole text. */
export function anyMutation(vocabulary: readonly string[]): fc.Arbitrary<Mutation> {
  const insertText = fc.oneof(fc.constantFrom(...TOKENS), fc.constantFrom(...HOSTILE_CHARS), unicodeString);
  return fc.oneof(
    { weight: 6, arbitrary: structuralMutation(vocabulary) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('insert' as const), at: index, text: insertText }) },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('delete' as const),
        at: index,
        length: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 200 })),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('deleteLines' as const),
        line: index,
        count: fc.integer({ min: 1, max: 5 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('duplicateLines' as const),
        line: index,
        count: fc.integer({ min: 1, max: 6 }),
        times: fc.integer({ min: 1, max: 50 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('moveLines' as const),
        line: index,
        count: fc.integer({ min: 1, max: 6 }),
        to: index,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('conflict' as const),
        line: index,
        count: fc.integer({ min: 0, max: 8 }),
        theirs: fc.constantFrom('same' as const, 'empty' as const, 'reversed' as const, 'dropFirst' as const),
        diff3: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('indent' as const),
        line: index,
        count: fc.integer({ min: 1, max: 10 }),
        delta: fc.integer({ min: -4, max: 4 }),
        tab: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('lineBreaks' as const),
        style: fc.constantFrom(
          'crlf' as const,
          'cr' as const,
          'lf' as const,
          'mixed' as const,
          'noFinal' as const,
          'blank' as const,
        ),
        pattern: index,
      }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('bom' as const), at: index, start: fc.boolean() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('documents' as const),
        how: fc.constantFrom('repeat' as const, 'separator' as const, 'directive' as const, 'end' as const),
        line: index,
      }),
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Reading a text: lines, indentation, blocks and the places keys are

/** The lines of a text, each with its line break (`\r\n`, `\r` or `\n`, as SourceText counts them). */
export function splitLines(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
}

function eolOf(text: string): string {
  return /\r\n|\r|\n/.exec(text)?.[0] ?? '\n';
}

function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)![0].length;
}

const blank = (line: string) => /^\s*(#.*)?$/.test(line);

/** The end (exclusive) of the block that starts at line `i`: the lines indented deeper, and a closing bracket at its indent. */
function blockEnd(lines: readonly string[], i: number): number {
  const indent = indentOf(lines[i]!);
  let j = i + 1;
  while (j < lines.length && (blank(lines[j]!) || indentOf(lines[j]!) > indent)) j++;
  if (j < lines.length && indentOf(lines[j]!) === indent && /^\s*[}\]]/.test(lines[j]!)) j++;
  return j;
}

/** A place where a key is written: the key's offset, the value's span, and where a sibling goes. */
interface KeySite {
  /** Offset of the key's first character (a JSON key's opening quote). */
  keyStart: number;
  /** The value as written on the key's line (YAML) or up to its end (JSON): [start, end). */
  valueStart: number;
  valueEnd: number;
  /** Column of the key (a sibling is written there) and the line it is on (YAML only). */
  column: number;
  line: number;
}

const YAML_KEY =
  /^([ \t]*(?:-[ \t]+)*)((?:"(?:[^"\\\r\n]|\\.)*"|'[^'\r\n]*'|[^\s#"'\-?:{}[\],&*!|>%@`][^:#\r\n]*?))[ \t]*:(?=[ \t]|\r|\n|$)/;

function yamlKeySites(lines: readonly string[]): KeySite[] {
  const sites: KeySite[] = [];
  let offset = 0;
  lines.forEach((line, i) => {
    const match = YAML_KEY.exec(line);
    if (match) {
      const content = line.replace(/\r?\n$|\r$/, '');
      let valueStart = match[0].length;
      while (valueStart < content.length && (content[valueStart] === ' ' || content[valueStart] === '\t')) valueStart++;
      sites.push({
        keyStart: offset + match[1]!.length,
        valueStart: offset + valueStart,
        valueEnd: offset + content.length,
        column: match[1]!.length,
        line: i,
      });
    }
    offset += line.length;
  });
  return sites;
}

/** The end of the JSON value that starts at `i` (strings and brackets followed, anything else to the next delimiter). */
function jsonValueEnd(text: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < text.length) {
    const c = text[j]!;
    if (c === '"') {
      j++;
      while (j < text.length && text[j] !== '"' && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      j++;
      if (depth === 0) return Math.min(j, text.length);
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 0) return j;
      depth--;
      if (depth === 0) return j + 1;
    } else if (depth === 0 && (c === ',' || c === '\n' || c === '\r')) return j;
    j++;
  }
  return j;
}

function jsonKeySites(text: string): KeySite[] {
  const sites: KeySite[] = [];
  for (const match of text.matchAll(/"(?:[^"\\\r\n]|\\.)*"[ \t]*:[ \t]*/g)) {
    const valueStart = match.index + match[0].length;
    sites.push({ keyStart: match.index, valueStart, valueEnd: jsonValueEnd(text, valueStart), column: 0, line: -1 });
    if (sites.length >= 5000) break;
  }
  return sites;
}

function keySites(text: string, lines: readonly string[], language: Language): KeySite[] {
  return language === 'yaml' ? yamlKeySites(lines) : jsonKeySites(text);
}

// ---------------------------------------------------------------------------------------------
// Writing values

const plainKey = /^[A-Za-z_$][\w.$-]*$/;

function renderKey(name: string, language: Language): string {
  if (language !== 'yaml') return JSON.stringify(name);
  if (name === '<<' || plainKey.test(name)) return name;
  return JSON.stringify(name);
}

function repeatTo(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** The text of a value written after `key: ` (YAML) or `"key": ` (JSON); `indent` is the column its block lines take. */
export function renderValue(
  value: Value,
  language: Language,
  indent: number,
  borrow: (n: number) => string,
  eol: string,
): string {
  const yaml = language === 'yaml';
  const pad = (n: number) => ' '.repeat(n);
  switch (value.v) {
    case 'scalar':
      return value.text;
    case 'string':
      if (!yaml || value.quote === 'double') return JSON.stringify(value.text);
      if (value.quote === 'single') return `'${value.text.replace(/'/g, "''")}'`;
      return value.text;
    case 'deep': {
      const d = value.depth;
      if (value.style === 'seq') return '['.repeat(d) + ']'.repeat(d);
      if (value.style === 'map' || (value.style === 'block' && !yaml)) return `${'{"a": '.repeat(d)}1${'}'.repeat(d)}`;
      if (value.style === 'mixed') {
        let open = '';
        let close = '';
        for (let i = 0; i < d; i++) {
          open += i % 2 ? '[' : '{"k": ';
          close = (i % 2 ? ']' : '}') + close;
        }
        return `${open}${close}`;
      }
      // Block style, one column deeper per level: `d` levels take about d²/2 characters.
      let out = '';
      for (let i = 0; i < d; i++) out += `${eol}${pad(indent + i)}k${i}:`;
      return `${out} leaf`;
    }
    case 'wide': {
      const n = value.width;
      const key = (i: number) => (value.sameKey ? 'k' : `k${i}`);
      if (value.style === 'seq' || (value.style === 'block-seq' && !yaml))
        return `[${Array.from({ length: n }, () => value.item).join(', ')}]`;
      if (value.style === 'map' || !yaml)
        return `{${Array.from({ length: n }, (_, i) => `${JSON.stringify(key(i))}: ${value.item}`).join(', ')}}`;
      if (n === 0) return value.style === 'block-seq' ? '[]' : '{}';
      if (value.style === 'block-seq')
        return Array.from({ length: n }, () => `${eol}${pad(indent)}- ${value.item}`).join('');
      return Array.from({ length: n }, (_, i) => `${eol}${pad(indent)}${key(i)}: ${value.item}`).join('');
    }
    case 'huge': {
      const body = repeatTo(value.unit, value.length);
      if (!yaml || value.style === 'double') return JSON.stringify(body);
      if (value.style === 'single') return `'${body.replace(/'/g, "''")}'`;
      if (value.style === 'plain') return body;
      const lines = body.match(/[^]{1,80}/gu) ?? [''];
      return `${value.style === 'literal' ? '|' : '>'}${lines.map((l) => `${eol}${pad(Math.max(1, indent))}${l}`).join('')}`;
    }
    case 'bomb': {
      // Anchors defined inside one flow sequence, each level `width` aliases of the one before.
      const parts = [`&b0 [${Array(value.width).fill('x').join(', ')}]`];
      for (let i = 1; i <= value.levels; i++)
        parts.push(
          `&b${i} [${Array(value.width)
            .fill(`*b${i - 1}`)
            .join(', ')}]`,
        );
      return `[${parts.join(', ')}]`;
    }
    case 'borrow':
      return borrow(value.from);
  }
}

// ---------------------------------------------------------------------------------------------
// Applying mutations

function at(text: string, n: number): number {
  return n % (text.length + 1);
}

function lineAt(lines: readonly string[], n: number): number {
  return lines.length ? n % lines.length : 0;
}

/** Ensures a block of lines ends with a line break, so that what follows it starts a line. */
function terminated(block: string, eol: string): string {
  return block === '' || /[\r\n]$/.test(block) ? block : block + eol;
}

export function mutate(text: string, mutation: Mutation, language: Language): string {
  const lines = splitLines(text);
  const eol = eolOf(text);
  const join = (parts: readonly string[]) => parts.join('');
  switch (mutation.op) {
    case 'delete': {
      const start = at(text, mutation.at);
      return text.slice(0, start) + text.slice(start + mutation.length);
    }
    case 'insert': {
      const start = at(text, mutation.at);
      return text.slice(0, start) + mutation.text + text.slice(start);
    }
    case 'deleteLines': {
      const i = lineAt(lines, mutation.line);
      return join([...lines.slice(0, i), ...lines.slice(i + mutation.count)]);
    }
    case 'deleteBlock': {
      if (!lines.length) return text;
      const i = lineAt(lines, mutation.line);
      return join([...lines.slice(0, i), ...lines.slice(blockEnd(lines, i))]);
    }
    case 'duplicateLines': {
      const i = lineAt(lines, mutation.line);
      const block = terminated(join(lines.slice(i, i + mutation.count)), eol);
      return join(lines.slice(0, i)) + block.repeat(mutation.times + 1) + join(lines.slice(i + mutation.count));
    }
    case 'duplicateBlock': {
      if (!lines.length) return text;
      const i = lineAt(lines, mutation.line);
      const end = blockEnd(lines, i);
      const block = terminated(join(lines.slice(i, end)), eol);
      return join(lines.slice(0, i)) + block + block + join(lines.slice(end));
    }
    case 'moveLines': {
      const i = lineAt(lines, mutation.line);
      const moved = lines.slice(i, i + mutation.count);
      const rest = [...lines.slice(0, i), ...lines.slice(i + mutation.count)];
      const to = rest.length ? mutation.to % (rest.length + 1) : 0;
      if (moved.length) moved[moved.length - 1] = terminated(moved[moved.length - 1]!, eol);
      return join([...rest.slice(0, to), ...moved, ...rest.slice(to)]);
    }
    case 'replaceValue': {
      const sites = keySites(text, lines, language);
      if (!sites.length) return text;
      const site = sites[mutation.key % sites.length]!;
      const value = renderValue(mutation.value, language, site.column + 2, (n) => borrowed(text, sites, n), eol);
      return (
        text.slice(0, site.valueStart) +
        (language === 'yaml' && site.valueStart === site.valueEnd && !/^[\r\n]/.test(value) ? ' ' : '') +
        value +
        text.slice(site.valueEnd)
      );
    }
    case 'insertEntry': {
      const sites = keySites(text, lines, language);
      if (!sites.length) return text;
      const site = sites[mutation.key % sites.length]!;
      const key = renderKey(mutation.name, language);
      if (language !== 'yaml') {
        // Before an existing member of the same object: `"name": value, ` keeps the JSON valid.
        const value = renderValue(mutation.value, language, 0, (n) => borrowed(text, sites, n), eol);
        return `${text.slice(0, site.keyStart)}${key}: ${value}, ${text.slice(site.keyStart)}`;
      }
      // After the key's block, at the key's column: a sibling of the key.
      const end = blockEnd(lines, site.line);
      const value = renderValue(mutation.value, language, site.column + 2, (n) => borrowed(text, sites, n), eol);
      const entry = `${' '.repeat(site.column)}${key}:${/^[\r\n]/.test(value) ? '' : ' '}${value}${eol}`;
      return terminated(join(lines.slice(0, end)), eol) + entry + join(lines.slice(end));
    }
    case 'anchorAlias': {
      if (language !== 'yaml') return text;
      const sites = keySites(text, lines, language);
      if (sites.length < 2) return text;
      let a = mutation.from % sites.length;
      let b = mutation.to % sites.length;
      if (a === b) return text;
      if (a > b) [a, b] = [b, a];
      const anchor = sites[a]!;
      const alias = sites[b]!;
      const name = mutation.name;
      if (mutation.merge) {
        // `<<: *name` as a sibling after the aliasing key's block.
        const end = blockEnd(lines, alias.line);
        const withAnchor = text.slice(0, anchor.valueStart) + `&${name} ` + text.slice(anchor.valueStart);
        const shifted = splitLines(withAnchor);
        return (
          terminated(join(shifted.slice(0, end)), eol) +
          `${' '.repeat(alias.column)}<<: *${name}${eol}` +
          join(shifted.slice(end))
        );
      }
      return (
        text.slice(0, anchor.valueStart) +
        `&${name} ` +
        text.slice(anchor.valueStart, alias.valueStart) +
        `*${name}` +
        text.slice(alias.valueEnd)
      );
    }
    case 'conflict': {
      const i = lineAt(lines, mutation.line);
      const ours = lines.slice(i, i + mutation.count).map((l) => terminated(l, eol));
      const theirs =
        mutation.theirs === 'same'
          ? ours
          : mutation.theirs === 'empty'
            ? []
            : mutation.theirs === 'reversed'
              ? [...ours].reverse()
              : ours.slice(1);
      const base = mutation.diff3 ? [`||||||| base${eol}`, ...ours] : [];
      return join([
        ...lines.slice(0, i),
        `<<<<<<< HEAD${eol}`,
        ...ours,
        ...base,
        `=======${eol}`,
        ...theirs,
        `>>>>>>> topic${eol}`,
        ...lines.slice(i + mutation.count),
      ]);
    }
    case 'indent': {
      const i = lineAt(lines, mutation.line);
      const changed = lines.map((line, n) => {
        if (n < i || n >= i + mutation.count) return line;
        if (mutation.tab) return line.replace(/^ {1,2}/, '\t');
        if (mutation.delta >= 0) return ' '.repeat(mutation.delta) + line;
        return line.replace(new RegExp(`^ {0,${-mutation.delta}}`), '');
      });
      return join(changed);
    }
    case 'lineBreaks': {
      const bare = lines.map((l) => l.replace(/\r\n$|\r$|\n$/, ''));
      const ends = lines.map((l) => /\r\n$|\r$|\n$/.test(l));
      const pick = (n: number) => (((n + 1) * 2654435761 + mutation.pattern) >>> 3) % 3;
      const breakOf = (n: number): string => {
        switch (mutation.style) {
          case 'crlf':
            return '\r\n';
          case 'cr':
            return '\r';
          case 'mixed':
            return ['\n', '\r\n', '\r'][pick(n)]!;
          case 'blank':
            return pick(n) === 0 ? '\n\n' : '\n';
          default:
            return '\n';
        }
      };
      let out = bare.map((l, n) => l + (ends[n] ? breakOf(n) : '')).join('');
      if (mutation.style === 'noFinal') out = out.replace(/(?:\r\n|\r|\n)+$/, '');
      return out;
    }
    case 'bom': {
      if (mutation.start) return '\uFEFF' + text;
      const start = at(text, mutation.at);
      return text.slice(0, start) + '\uFEFF' + text.slice(start);
    }
    case 'documents': {
      const i = lineAt(lines, mutation.line);
      switch (mutation.how) {
        case 'repeat':
          return terminated(text, eol) + `---${eol}` + text;
        case 'separator':
          return join(lines.slice(0, i)) + `---${eol}` + join(lines.slice(i));
        case 'directive':
          return `%YAML 1.2${eol}---${eol}` + text;
        case 'end':
          return join(lines.slice(0, i)) + `...${eol}` + join(lines.slice(i));
      }
    }
  }
}

function borrowed(text: string, sites: readonly KeySite[], n: number): string {
  const site = sites[n % sites.length]!;
  return text.slice(site.valueStart, site.valueEnd) || 'null';
}

/** The longest text a chain of mutations may make: one that would make a longer one is left out. */
export const MAX_TEXT = 120_000;

/** Applies mutations in order, each to the result of the one before, leaving out any that would pass MAX_TEXT. */
export function mutateAll(text: string, mutations: readonly Mutation[], language: Language): string {
  return mutations.reduce((current, mutation) => {
    const next = mutate(current, mutation, language);
    return next.length > MAX_TEXT ? current : next;
  }, text);
}

/** Every key written in block style in the texts: the corpus's own vocabulary, for new entries. */
export function vocabularyOf(texts: Iterable<string>): string[] {
  const keys = new Set<string>();
  for (const text of texts) {
    for (const line of splitLines(text)) {
      const match = YAML_KEY.exec(line);
      if (match) keys.add(match[2]!.replace(/^["']|["']$/g, ''));
    }
    for (const match of text.matchAll(/"([A-Za-z_$][\w.$-]{0,40})"[ \t]*:/g)) keys.add(match[1]!);
  }
  return [...keys].filter((k) => k.length <= 40).sort();
}
