// The globs Tool Lens reads from its configuration (`.toollens.yaml`, `--catalog`, the
// `toolLens.catalogs` setting) and matches against file paths: `*`, `**`, `?`, `[...]`, `{a,b}` and
// `\` escapes, nothing else (docs/behaviour.md, "Globs"). A glob is compiled to a small automaton
// and matched by running every state of it at once over the path (a Pike VM), so a match costs at
// most (glob length × path length) steps whatever the glob: a backtracking regular expression, as
// glob libraries build, takes exponential time on `*a*a*a*a*…b` against a long name.
import { LIMITS } from '../limits.js';

// The automaton's instructions. CHAR, ANY (one character but `/`), ALL (any one character), CLASS
// consume a character; SPLIT and JMP move without consuming; MATCH accepts.
const CHAR = 0;
const ANY = 1;
const ALL = 2;
const CLASS = 3;
const SPLIT = 4;
const JMP = 5;
const MATCH = 6;

const SLASH = 0x2f;

type GlobNode =
  | { t: 'char'; code: number }
  | { t: 'any' }
  | { t: 'star' } // any run of characters but `/`
  | { t: 'all' } // any run of characters, `/` included
  | { t: 'dirs' } // `**/`: no folder, or any folders (`(.*/)?`)
  | { t: 'tail' } // `/**` at the end: nothing, or `/` and anything (`(/.*)?`)
  | { t: 'class'; index: number }
  | { t: 'alt'; alternatives: GlobNode[][] };

interface CharClass {
  /** Inclusive ranges, flat: [from, to, from, to, ...]. */
  ranges: number[];
  negated: boolean;
}

const POSIX_CLASSES: Record<string, number[]> = {
  alpha: [0x41, 0x5a, 0x61, 0x7a],
  digit: [0x30, 0x39],
  alnum: [0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a],
  upper: [0x41, 0x5a],
  lower: [0x61, 0x7a],
  xdigit: [0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
  word: [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a],
  space: [0x09, 0x0d, 0x20, 0x20],
  blank: [0x09, 0x09, 0x20, 0x20],
  punct: [0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e],
  cntrl: [0x00, 0x1f, 0x7f, 0x7f],
  print: [0x20, 0x7e],
  graph: [0x21, 0x7e],
};

/** A compiled glob. One that has a problem (see `problem`) matches no path. */
export class Glob {
  /** Why the glob cannot be used; undefined when it can. */
  readonly problem: string | undefined;
  /**
   * The folders the glob starts with that hold no glob character (`catalogs/vendor` of
   * `catalogs/vendor/**\/*.json`), escapes decoded, without a trailing `/`; '' when none.
   */
  readonly prefix: string = '';
  /** The whole glob when it holds no glob character at all (the path of one file), escapes decoded. */
  readonly literal: string | undefined;
  /** The most path segments a match can have below `prefix`; Infinity when `**` lets it have any number. */
  readonly depthBelowPrefix: number = Infinity;
  private readonly ops: Int32Array = new Int32Array([MATCH]);
  private readonly args: Int32Array = new Int32Array(1);
  private readonly args2: Int32Array = new Int32Array(1);
  private readonly classes: CharClass[] = [];
  private marks: Int32Array = new Int32Array(1);
  private current: Int32Array = new Int32Array(1);
  private next: Int32Array = new Int32Array(1);
  private stack: Int32Array = new Int32Array(1);
  private generation = 0;
  private lastPath: string | undefined;
  private lastResult = false;

  constructor(readonly source: string) {
    if (source.length > LIMITS.globLength) {
      this.problem = `This glob is ${source.length} characters long, and Tool Lens reads globs of at most ${LIMITS.globLength}; shorten it or split it into several globs.`;
      return;
    }
    const text = stripDotSlash(source);
    this.problem = syntaxProblem(source, text);
    if (this.problem) return;
    const nodes = new GlobParser(text, this.classes).parse();
    const program = new Program();
    program.sequence(nodes);
    program.emit(MATCH);
    this.ops = Int32Array.from(program.ops);
    this.args = Int32Array.from(program.args);
    this.args2 = Int32Array.from(program.args2);
    this.marks = new Int32Array(this.ops.length);
    this.current = new Int32Array(this.ops.length);
    this.next = new Int32Array(this.ops.length);
    this.stack = new Int32Array(2 * this.ops.length + 2); // each state pushes at most two others
    let literal = '';
    let index = 0;
    for (; index < nodes.length; index++) {
      const node = nodes[index]!;
      if (node.t !== 'char') break;
      literal += String.fromCharCode(node.code);
    }
    if (index === nodes.length) this.literal = literal;
    // `a/**` is `a` and whatever lies below it: the whole run of characters is a folder.
    const cut = nodes[index]?.t === 'tail' ? literal.length : literal.lastIndexOf('/');
    this.prefix = cut > 0 ? literal.slice(0, cut) : literal.startsWith('/') ? '/' : '';
    const slashes = maxSlashes(nodes);
    const prefixSlashes = this.prefix === '' ? 0 : this.prefix === '/' ? 1 : this.prefix.split('/').length;
    this.depthBelowPrefix = slashes === Infinity ? Infinity : slashes - prefixSlashes + 1;
  }

  /** Whether the path (posix separators) matches the whole glob. */
  matches(path: string): boolean {
    if (this.problem !== undefined) return false;
    // The same path is often asked about many times in a row (a severity per finding of a file).
    if (path === this.lastPath) return this.lastResult;
    const result = this.run(path);
    this.lastPath = path;
    this.lastResult = result;
    return result;
  }

  private run(path: string): boolean {
    const { ops, args, classes, stack } = this;
    if (this.generation > 0x3fffffff - path.length) {
      this.marks.fill(0);
      this.generation = 0;
    }
    let current = this.current;
    let next = this.next;
    let currentLength = this.addThreads(current, 0, 0, stack, ++this.generation);
    for (let i = 0; i < path.length && currentLength > 0; i++) {
      const code = path.charCodeAt(i);
      const generation = ++this.generation;
      let nextLength = 0;
      for (let t = 0; t < currentLength; t++) {
        const pc = current[t]!;
        const op = ops[pc]!;
        let ok: boolean;
        if (op === CHAR) ok = code === args[pc];
        else if (op === ANY) ok = code !== SLASH;
        else if (op === ALL) ok = true;
        else if (op === CLASS) ok = code !== SLASH && inClass(classes[args[pc]!]!, code);
        else ok = false; // MATCH before the end of the path
        if (ok) nextLength = this.addThreads(next, nextLength, pc + 1, stack, generation);
      }
      [current, next] = [next, current];
      currentLength = nextLength;
    }
    for (let t = 0; t < currentLength; t++) if (ops[current[t]!] === MATCH) return true;
    return false;
  }

  /** Adds the state `start` and every state reached from it without consuming a character. */
  private addThreads(list: Int32Array, length: number, start: number, stack: Int32Array, generation: number): number {
    const { ops, args, args2, marks } = this;
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const pc = stack[--top]!;
      if (marks[pc] === generation) continue;
      marks[pc] = generation;
      const op = ops[pc]!;
      if (op === JMP) stack[top++] = args[pc]!;
      else if (op === SPLIT) {
        stack[top++] = args2[pc]!;
        stack[top++] = args[pc]!;
      } else list[length++] = pc;
    }
    return length;
  }
}

/** `./a/b` is `a/b`. */
function stripDotSlash(glob: string): string {
  let text = glob;
  while (text.startsWith('./')) text = text.slice(2);
  return text;
}

function inClass(charClass: CharClass, code: number): boolean {
  const { ranges } = charClass;
  let inside = false;
  for (let i = 0; i < ranges.length; i += 2) {
    if (code >= ranges[i]! && code <= ranges[i + 1]!) {
      inside = true;
      break;
    }
  }
  return inside !== charClass.negated;
}

const RANGE = /^(?:-?\d+|[A-Za-z])\.\.(?:-?\d+|[A-Za-z])(?:\.\.-?\d+)?$/;

/** What in the glob Tool Lens does not read (negation, extended patterns, ranges), if anything. */
function syntaxProblem(source: string, text: string): string | undefined {
  if (text === '') return 'An empty glob matches no file; remove it, or write the files it should match.';
  if (text.startsWith('!')) {
    return `"${source}" starts with "!", and Tool Lens globs have no negation; list the files to match instead (write "\\!" for a name that starts with "!").`;
  }
  const braces = scanBraces(text);
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\') {
      i++;
      continue;
    }
    if (char === '[') {
      const end = classEnd(text, i);
      if (end > 0) i = end;
      continue;
    }
    if (char === '(' && i > 0 && '?*+@!'.includes(text[i - 1]!) && text[i - 2] !== '\\') {
      return `"${text[i - 1]}(" in "${source}" is a pattern form Tool Lens does not read (its globs have *, **, ?, [...] and {a,b}); write "\\(" to match a parenthesis.`;
    }
    if (char === '{') {
      const group = braces.groupAt.get(i);
      if (group && group.commas.length === 0 && RANGE.test(text.slice(i + 1, group.close))) {
        return `"${text.slice(i, group.close + 1)}" in "${source}" is a range, which Tool Lens globs do not have; list the values instead, as in {1,2,3}.`;
      }
    }
  }
  return undefined;
}

interface BraceGroup {
  open: number;
  close: number;
  /** Indices of the commas that separate its alternatives. */
  commas: number[];
  parent: BraceGroup | undefined;
}

interface Braces {
  /** Groups by the index of their `{`; a `{` without its `}` is no group (a plain character). */
  groupAt: Map<number, BraceGroup>;
  /** The group each of its `,` and `}` belongs to, by index. */
  ownerAt: Map<number, BraceGroup>;
}

function scanBraces(text: string): Braces {
  const groupAt = new Map<number, BraceGroup>();
  const ownerAt = new Map<number, BraceGroup>();
  const open: { index: number; commas: number[] }[] = [];
  const closed: { open: number; close: number; commas: number[] }[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\') i++;
    else if (char === '[') {
      const end = classEnd(text, i);
      if (end > 0) i = end;
    } else if (char === '{') open.push({ index: i, commas: [] });
    else if (char === ',' && open.length > 0) open[open.length - 1]!.commas.push(i);
    else if (char === '}' && open.length > 0) {
      const group = open.pop()!;
      closed.push({ open: group.index, close: i, commas: group.commas });
    }
  }
  // Outer groups close after inner ones; give each group its parent (the nearest enclosing one).
  const groups = closed.sort((a, b) => a.open - b.open).map((g): BraceGroup => ({ ...g, parent: undefined }));
  const chain: BraceGroup[] = [];
  for (const group of groups) {
    while (chain.length > 0 && chain[chain.length - 1]!.close < group.open) chain.pop();
    group.parent = chain[chain.length - 1];
    chain.push(group);
    groupAt.set(group.open, group);
    ownerAt.set(group.close, group);
    for (const comma of group.commas) ownerAt.set(comma, group);
  }
  return { groupAt, ownerAt };
}

/** The index of the `]` that closes the class opened at `start`, or -1 when it is no class. */
function classEnd(text: string, start: number): number {
  let i = start + 1;
  if (text[i] === '!' || text[i] === '^') i++;
  if (text[i] === ']') i++;
  for (; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') i++;
    else if (char === '[' && text[i + 1] === ':') {
      const end = text.indexOf(':]', i + 2);
      if (end > 0 && POSIX_CLASSES[text.slice(i + 2, end)]) i = end + 1;
    } else if (char === ']') return i;
  }
  return -1;
}

class GlobParser {
  private readonly braces: Braces;

  constructor(
    private readonly text: string,
    private readonly classes: CharClass[],
  ) {
    this.braces = scanBraces(text);
  }

  parse(): GlobNode[] {
    return this.sequence(0, this.text.length);
  }

  /** The nodes of text[from, to): a whole glob or one alternative of a group. */
  private sequence(from: number, to: number): GlobNode[] {
    const { text } = this;
    const nodes: GlobNode[] = [];
    const literal = (char: string) => nodes.push({ t: 'char', code: char.charCodeAt(0) });
    let i = from;
    while (i < to) {
      const char = text[i]!;
      if (char === '\\') {
        literal(i + 1 < to ? text[i + 1]! : '\\');
        i += 2;
      } else if (char === '?') {
        nodes.push({ t: 'any' });
        i++;
      } else if (char === '*') {
        let end = i;
        while (end < to && text[end] === '*') end++;
        i = this.stars(nodes, i, end, to);
      } else if (char === '[') {
        const end = classEnd(text, i);
        if (end < 0 || end >= to) {
          literal('[');
          i++;
        } else {
          nodes.push({ t: 'class', index: this.charClass(i, end) });
          i = end + 1;
        }
      } else if (char === '{' && this.braces.groupAt.has(i)) {
        const group = this.braces.groupAt.get(i)!;
        if (group.commas.length === 0) {
          // `{a}` has nothing to choose between: its braces are plain characters.
          literal('{');
          nodes.push(...this.sequence(i + 1, group.close));
          literal('}');
        } else {
          const bounds = [i, ...group.commas, group.close];
          const alternatives: GlobNode[][] = [];
          for (let k = 0; k + 1 < bounds.length; k++) alternatives.push(this.sequence(bounds[k]! + 1, bounds[k + 1]!));
          nodes.push({ t: 'alt', alternatives });
        }
        i = group.close + 1;
      } else {
        literal(char);
        i++;
      }
    }
    return nodes;
  }

  /** A run of stars text[start, end): `**` where it is a whole path segment, else `*`. */
  private stars(nodes: GlobNode[], start: number, end: number, to: number): number {
    const { text } = this;
    if (end - start !== 2 || !this.startsSegment(start) || !this.endsSegment(end)) {
      nodes.push({ t: 'star' });
      return end;
    }
    if (end < to && text[end] === '/') {
      nodes.push({ t: 'dirs' });
      return end + 1;
    }
    const last = nodes[nodes.length - 1];
    if (end === text.length && last?.t === 'char' && last.code === SLASH) {
      nodes.pop();
      nodes.push({ t: 'tail' });
      return end;
    }
    nodes.push({ t: 'all' });
    return end;
  }

  /** Whether a path segment starts at this index, through the braces around it. */
  private startsSegment(index: number): boolean {
    if (index === 0) return true;
    const before = this.text[index - 1];
    if (before === '/') return true;
    if (before === '{') return this.braces.groupAt.has(index - 1) && this.startsSegment(index - 1);
    if (before === ',') {
      const group = this.braces.ownerAt.get(index - 1);
      return group !== undefined && this.startsSegment(group.open);
    }
    return false;
  }

  /** Whether a path segment ends just before this index, through the braces around it. */
  private endsSegment(index: number): boolean {
    if (index === this.text.length) return true;
    const at = this.text[index];
    if (at === '/') return true;
    if (at === '}' || at === ',') {
      const group = this.braces.ownerAt.get(index);
      return group !== undefined && this.endsSegment(group.close + 1);
    }
    return false;
  }

  private charClass(start: number, end: number): number {
    const { text } = this;
    const ranges: number[] = [];
    let i = start + 1;
    let negated = false;
    if (text[i] === '!' || text[i] === '^') {
      negated = true;
      i++;
    }
    while (i < end) {
      if (text[i] === '[' && text[i + 1] === ':') {
        const close = text.indexOf(':]', i + 2);
        const named = close > 0 ? POSIX_CLASSES[text.slice(i + 2, close)] : undefined;
        if (named) {
          ranges.push(...named);
          i = close + 2;
          continue;
        }
      }
      if (text[i] === '\\' && i + 1 < end) i++;
      const code = text.charCodeAt(i);
      i++;
      if (text[i] === '-' && i + 1 < end) {
        i++;
        if (text[i] === '\\' && i + 1 < end) i++;
        ranges.push(code, text.charCodeAt(i));
        i++;
      } else ranges.push(code, code);
    }
    this.classes.push({ ranges, negated });
    return this.classes.length - 1;
  }
}

/** Thompson's construction: the instructions of a node sequence, appended. */
class Program {
  readonly ops: number[] = [];
  readonly args: number[] = [];
  readonly args2: number[] = [];

  emit(op: number, arg = 0, arg2 = 0): number {
    this.ops.push(op);
    this.args.push(arg);
    this.args2.push(arg2);
    return this.ops.length - 1;
  }

  private patch(pc: number, arg: number, arg2?: number): void {
    this.args[pc] = arg;
    if (arg2 !== undefined) this.args2[pc] = arg2;
  }

  /** `op*`: any number of characters that `op` consumes. */
  private loop(op: number): void {
    const split = this.emit(SPLIT);
    this.emit(op);
    this.emit(JMP, split);
    this.patch(split, split + 1, this.ops.length);
  }

  /** `(body)?` */
  private optional(body: () => void): void {
    const split = this.emit(SPLIT);
    body();
    this.patch(split, split + 1, this.ops.length);
  }

  sequence(nodes: readonly GlobNode[]): void {
    for (const node of nodes) this.node(node);
  }

  private node(node: GlobNode): void {
    switch (node.t) {
      case 'char':
        this.emit(CHAR, node.code);
        break;
      case 'any':
        this.emit(ANY);
        break;
      case 'class':
        this.emit(CLASS, node.index);
        break;
      case 'star':
        this.loop(ANY);
        break;
      case 'all':
        this.loop(ALL);
        break;
      case 'dirs':
        this.optional(() => {
          this.loop(ALL);
          this.emit(CHAR, SLASH);
        });
        break;
      case 'tail':
        this.optional(() => {
          this.emit(CHAR, SLASH);
          this.loop(ALL);
        });
        break;
      case 'alt': {
        const jumps: number[] = [];
        node.alternatives.forEach((alternative, k) => {
          const last = k === node.alternatives.length - 1;
          const split = last ? -1 : this.emit(SPLIT);
          this.sequence(alternative);
          if (!last) {
            jumps.push(this.emit(JMP));
            this.patch(split, split + 1, this.ops.length);
          }
        });
        for (const jump of jumps) this.patch(jump, this.ops.length);
        break;
      }
    }
  }
}

/** The most `/` a match of the nodes can hold; Infinity when `**` lets it hold any number. */
function maxSlashes(nodes: readonly GlobNode[]): number {
  let count = 0;
  for (const node of nodes) {
    if (node.t === 'all' || node.t === 'dirs' || node.t === 'tail') return Infinity;
    if (node.t === 'char' && node.code === SLASH) count++;
    if (node.t === 'alt') count += Math.max(...node.alternatives.map(maxSlashes));
  }
  return count;
}

const compiled = new Map<string, Glob>();

/** The compiled glob, kept for the next call with the same text. */
export function compileGlob(glob: string): Glob {
  let found = compiled.get(glob);
  if (!found) {
    // Configurations come and go in a long editor session; the cache never holds more than this.
    if (compiled.size >= 4096) compiled.clear();
    found = new Glob(glob);
    compiled.set(glob, found);
  }
  return found;
}

/** Whether the path (posix separators) matches the glob; a glob with a problem matches nothing. */
export function matchesGlob(glob: string, path: string): boolean {
  return compileGlob(glob).matches(path);
}

/**
 * Why a glob written relative to a folder could reach outside it: it is absolute, or it climbs
 * with `..`. `folder` names the folder in the message.
 */
export function leavesFolder(glob: string, folder: string): string | undefined {
  if (glob.startsWith('/') || /^[A-Za-z]:[\\/]/.test(glob)) {
    return `"${glob}" is an absolute path, and globs here are relative to ${folder}, which is as far as Tool Lens reads; write it relative to that folder.`;
  }
  const decoded = glob.replace(/\\(.)/g, '$1');
  if (/(?:^|[/{,])\.\.(?=$|[/},])/.test(decoded)) {
    return `"${glob}" climbs out with "..", and Tool Lens reads only what lies inside ${folder}; write the glob relative to that folder, without "..".`;
  }
  return undefined;
}
