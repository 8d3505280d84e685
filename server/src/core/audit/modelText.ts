// Text a catalog puts in front of the model that is not for the person approving the server:
// characters nobody sees (tag characters, bidirectional controls, zero-width and other invisible
// characters), and sentences in a description that instruct the model rather than describe the
// tool (to ignore its other instructions, to read or send files and secrets, to call tools before
// any other, to keep something from the user). The rules catalog/hidden-characters and
// catalog/hidden-instructions report them; what counts is in their docs pages.
import { getMap, getNode, getPair, isMap, isScalar, isSeq, type Node, type ScalarNode } from '../parse/nodes.js';
import type { ToolDecl } from '../model/catalogDeclarations.js';

// ---- the texts of a tool ------------------------------------------------------------------------

/** A string of a tool that reaches the model, and what it is in words. */
export interface ModelText {
  node: ScalarNode;
  /** `the name`, `the description`, `the description of parameter "path"`, `a key of the input schema`. */
  what: string;
  /** The same in a word or two, for a headline: `name`, `description`, `parameter description`, `schema string`. */
  short: string;
  /** A description or title (prose); false for names, keys and other schema strings. */
  prose: boolean;
}

/**
 * The tool's name, title, description and annotations' title, and every string of its input and
 * output schemas (keys and values: property names, descriptions, enum values, defaults).
 */
export function modelTextsOf(tool: ToolDecl): ModelText[] {
  const out: ModelText[] = [];
  const add = (node: Node | null | undefined, what: string, prose: boolean) => {
    if (isScalar(node) && typeof node.value === 'string') out.push({ node, what, short: shortOf(what), prose });
  };
  add(tool.nameNode, 'the name', false);
  add(getPair(tool.node, 'title')?.value, 'the title', true);
  add(getPair(tool.node, 'description')?.value, 'the description', true);
  add(getPair(getMap(tool.node, 'annotations'), 'title')?.value, 'the annotations title', true);
  for (const [field, label] of [
    ['inputSchema', 'input schema'],
    ['outputSchema', 'output schema'],
  ] as const)
    schemaTexts(getNode(tool.node, field), label, undefined, true, add);
  return out;
}

function shortOf(what: string): string {
  if (what.startsWith('the name')) return 'tool name';
  if (/parameter/.test(what)) return /title/.test(what.split(' of ')[0]!) ? 'parameter title' : 'parameter description';
  if (/schema/.test(what)) return /^a (?:description|title) in/.test(what) ? 'schema description' : 'schema string';
  if (what === 'the annotations title') return 'annotations title';
  return what.replace(/^the /, '');
}

/** Walks a schema: `description`/`title` keyword values are prose; every other string is schema text. */
function schemaTexts(
  node: Node | undefined,
  label: string,
  property: string | undefined,
  keyword: boolean,
  add: (node: Node | null | undefined, what: string, prose: boolean) => void,
): void {
  if (isSeq(node)) {
    for (const item of node.items) schemaTexts(item, label, property, true, add);
    return;
  }
  if (!isMap(node)) {
    add(node, `a string of the ${label}`, false);
    return;
  }
  for (const pair of node.pairs) {
    const key = typeof pair.key.value === 'string' ? pair.key.value : undefined;
    add(pair.key, keyword ? `a key of the ${label}` : `a property name of the ${label}`, false);
    if (keyword && (key === 'description' || key === 'title') && isScalar(pair.value)) {
      add(
        pair.value,
        property !== undefined ? `the ${key} of parameter "${property}"` : `a ${key} in the ${label}`,
        true,
      );
      continue;
    }
    const names =
      keyword && (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions');
    schemaTexts(pair.value ?? undefined, label, names ? property : keyword ? property : key, !names, add);
  }
}

// ---- characters nobody sees -------------------------------------------------------------------

export type HiddenKind = 'tag' | 'bidi' | 'invisible' | 'control' | 'variation';

/** A run of hidden characters: value indexes (UTF-16) and the code points. */
export interface HiddenRun {
  start: number;
  end: number;
  codePoints: number[];
  kind: HiddenKind;
}

const BIDI = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);
/** Characters with no glyph and no other job in prose: zero-width space, word joiner, invisible operators, BOM, Mongolian vowel separator, Hangul fillers. */
const INVISIBLE = new Set([
  0x200b, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff, 0x180e, 0x115f, 0x1160, 0x3164, 0xffa0,
]);
const JOINERS = new Set([0x200c, 0x200d]);
/** Letters written right to left (Hebrew, Arabic, Syriac, Thaana, NKo, ...): where bidi marks have a job. */
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]|\ud802[\udc00-\udfff]|\ud83a[\udc00-\udfff]/;

function kindOf(cp: number): HiddenKind | undefined {
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag';
  if (BIDI.has(cp)) return 'bidi';
  if (INVISIBLE.has(cp) || JOINERS.has(cp)) return 'invisible';
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)) return 'variation';
  if ((cp < 0x20 && cp !== 0x09 && cp !== 0x0a && cp !== 0x0d) || (cp >= 0x7f && cp <= 0x9f)) return 'control';
  return undefined;
}

/**
 * The hidden characters of a text, in runs, leaving out those with a job in visible text: a
 * zero-width joiner or non-joiner between two letters, marks or emoji (Persian, Indic scripts,
 * emoji sequences); one variation selector after a visible character (an emoji or a CJK variant);
 * bidirectional marks in text that has right-to-left letters; the tag characters of a flag emoji
 * (U+1F3F4, tag letters and digits, U+E007F).
 */
export function hiddenCharacters(text: string): HiddenRun[] {
  const chars = [...text];
  const runs: HiddenRun[] = [];
  const rtl = RTL.test(text);
  let offset = 0;
  const offsets = chars.map((ch) => {
    const at = offset;
    offset += ch.length;
    return at;
  });
  const visibleAt = (i: number) => i >= 0 && i < chars.length && kindOf(chars[i]!.codePointAt(0)!) === undefined;
  const wordLike = (i: number) =>
    visibleAt(i) && /[\p{L}\p{M}\p{N}\p{Extended_Pictographic}\p{Emoji_Modifier}]/u.test(chars[i]!);
  for (let i = 0; i < chars.length; i++) {
    const cp = chars[i]!.codePointAt(0)!;
    const kind = kindOf(cp);
    if (kind === undefined) continue;
    // A flag emoji's tag sequence: black flag, tag letters or digits, cancel tag.
    if (kind === 'tag' && chars[i - 1] === '\u{1f3f4}') {
      let j = i;
      while (j < chars.length && /[\u{e0030}-\u{e0039}\u{e0061}-\u{e007a}]/u.test(chars[j]!)) j++;
      if (j > i && chars[j] === '\u{e007f}') {
        i = j;
        continue;
      }
    }
    if (JOINERS.has(cp) && wordLike(i - 1) && wordLike(i + 1) && !/[ -~]/.test(chars[i - 1]! + chars[i + 1]!)) continue;
    if (
      kind === 'variation' &&
      visibleAt(i - 1) &&
      !/\s/.test(chars[i - 1]!) &&
      kindOf(chars[i + 1]?.codePointAt(0) ?? 0x20) !== 'variation'
    )
      continue;
    if (kind === 'bidi' && rtl) continue;
    const last = runs[runs.length - 1];
    if (last && last.end === offsets[i] && (last.kind === kind || kind === 'tag' || last.kind === 'tag')) {
      last.end += chars[i]!.length;
      last.codePoints.push(cp);
      if (kind === 'tag') last.kind = 'tag';
    } else {
      runs.push({ start: offsets[i]!, end: offsets[i]! + chars[i]!.length, codePoints: [cp], kind });
    }
  }
  return runs;
}

/** What tag characters U+E0020..U+E007E spell: the ASCII character each one mirrors. */
export function tagText(codePoints: readonly number[]): string {
  return codePoints
    .filter((cp) => cp >= 0xe0020 && cp <= 0xe007e)
    .map((cp) => String.fromCharCode(cp - 0xe0000))
    .join('');
}

/** `U+200B` */
export function codePointName(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

// ---- instructions to the model ----------------------------------------------------------------

export type InstructionKind = 'ignore' | 'secrets' | 'first' | 'conceal';

export interface Instruction {
  kind: InstructionKind;
  /** Value indexes of the phrase that triggered it. */
  start: number;
  end: number;
  phrase: string;
}

/** Verbs that put something into a call or a message: what a poisoned description asks for. */
const SEND = String.raw`(?:send|upload|post|pass|attach|forward|exfiltrate|include|append|embed|provide|share|leak|transmit|paste|put)`;
/** Verbs that read: only with a sending verb after them (an SSH tool may well read ~/.ssh/config). */
const READ = String.raw`(?:read|cat|open|load|get|fetch)`;
/** Up to five words between a verb and its object, which may sit at the end of a path (`~/.cursor/mcp.json`). */
const OBJECT_GAP = String.raw`(?:\s+[^\s.!?]+){0,5}?\s+[^\s]*?`;
const SENSITIVE = String.raw`(?:~\/\.ssh\b|\.ssh\/|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\/etc\/(?:passwd|shadow)\b|\.aws\/credentials\b|\.netrc\b|\.git-credentials\b|\.pgpass\b|\bmcp\.json\b|\bclaude_desktop_config\.json\b|\b(?:all|every)\s+(?:of\s+the\s+)?(?:(?:user'?s?|your)\s+)?(?:environment\s+variables|api\s+keys|secrets|tokens|credentials|passwords|private\s+keys)\b|\b(?:the\s+)?user'?s\s+(?:password|api\s+key|access\s+token|token|credentials|secrets?|private\s+key|ssh\s+key)s?\b|\b(?:your|the\s+(?:full|entire|complete|whole))\s+(?:system\s+prompt|conversation(?:\s+history)?|chat\s+history)\b)`;

/** Each kind's phrases, read in one sentence at a time, case ignored. */
const PHRASES: readonly [InstructionKind, RegExp][] = [
  [
    'ignore',
    /\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|earlier|above|preceding|other|system|original|existing)\s+(?:instructions?|prompts?|rules|directions|guidelines|directives)\b/i,
  ],
  ['ignore', /\b(?:ignore|disregard)\s+(?:all|any)\s+(?:instructions?|rules|guidelines)\b/i],
  ['secrets', new RegExp(String.raw`\b${SEND}${OBJECT_GAP}${SENSITIVE}`, 'i')],
  ['secrets', new RegExp(String.raw`\b${READ}${OBJECT_GAP}${SENSITIVE}[^.!?\n]{0,80}?\b(?:and|then)\s+${SEND}\b`, 'i')],
  [
    'first',
    /\b(?:before|prior\s+to)\s+(?:using|calling|invoking|running|executing)\s+(?:any|every|all|each)\s+(?:other\s+)?tools?\b/i,
  ],
  [
    'first',
    /\b(?:call|use|invoke|run)\s+(?:this\s+tool|`?[\w.-]+`?)\s+(?:first\s+)?before\s+(?:any|every|all|each)\s+(?:other\s+)?(?:tools?|tool\s+calls?)\b/i,
  ],
  ['first', /\binstead\s+of\s+(?:using|calling)\s+(?:the\s+)?`?[\w.-]+`?\s+tool\b/i],
  [
    'conceal',
    /\b(?:do\s+not|don't|never)\s+(?:tell|inform|notify|alert)\s+the\s+user\b|\b(?:do\s+not|don't|never)\s+(?:mention|reveal|disclose)\s+(?:that|this|it|these)\b|\b(?:do\s+not|don't|never)\s+show\s+(?:this|it|that|these)\s+to\s+the\s+user\b/i,
  ],
  ['conceal', /\bwithout\s+(?:telling|informing|notifying|alerting)\s+the\s+user\b/i],
  ['conceal', /\b(?:hide|conceal|keep)\s+(?:this|it|that|these)(?:\s+\w+){0,3}?\s+(?:secret\s+)?from\s+the\s+user\b/i],
  ['conceal', /\bthe\s+user\s+(?:must|should)\s+(?:not|never)\s+(?:know|see|be\s+told|find\s+out)\b/i],
];

/** The first phrase of each kind in a text that instructs the model instead of describing the tool. */
export function modelInstructions(text: string): Instruction[] {
  const found: Instruction[] = [];
  for (const [kind, pattern] of PHRASES) {
    if (found.some((f) => f.kind === kind)) continue;
    const match = pattern.exec(text);
    if (!match) continue;
    found.push({ kind, start: match.index, end: match.index + match[0].length, phrase: match[0].replace(/\s+/g, ' ') });
  }
  return found.sort((a, b) => a.start - b.start);
}
