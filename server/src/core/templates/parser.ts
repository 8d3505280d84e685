// Turns the lexer's items into a tree. Each action is parsed on its own into a "directive"
// (print, open a block, else, end...) and an explicit stack builds the nesting, so deeply nested
// blocks cannot overflow the call stack and one broken action does not derail the next.

import type {
  ActionNode,
  BranchNode,
  Command,
  DefineNode,
  ExprNode,
  ParsedTemplate,
  Pipeline,
  Segment,
  Span,
  BareKeyword,
  TemplateError,
  TemplateNode,
  TemplateProblem,
  VariableDecl,
} from './ast.js';
import { isKnownFunction } from './functions.js';
import { itemReader, type LexedAction, type Token } from './lexer.js';

/** Deeper parentheses are refused, which keeps the recursive expression parser safe. */
export const MAX_PAREN_DEPTH = 100;

/**
 * Blocks nested deeper than this are not kept in the tree (their content is not checked), so that
 * consumers can walk the tree recursively.
 */
const MAX_BLOCK_DEPTH = 100;

export function parseTemplate(text: string): ParsedTemplate {
  return new TemplateParser(text).run();
}

export function isTemplate(text: string): boolean {
  return text.includes('{{');
}

/** Thrown to abandon the rest of an action after its first structural error. */
class ActionFailure extends Error {
  constructor(readonly error: TemplateError) {
    super(error.code);
  }
}

type BranchKind = 'if' | 'with' | 'range';

type Directive =
  | { kind: 'print'; pipeline: Pipeline }
  | { kind: 'open'; type: BranchKind; keyword: Span; pipeline: Pipeline | null }
  | { kind: 'else'; keyword: Span; chain: { type: 'if' | 'with'; keyword: Span; pipeline: Pipeline | null } | null }
  | { kind: 'end'; keyword: Span }
  | { kind: 'define' | 'block'; keyword: Span; name: string; nameSpan: Span; pipeline: Pipeline | null }
  | { kind: 'template'; keyword: Span; name: string; nameSpan: Span; pipeline: Pipeline | null }
  | { kind: 'break' | 'continue'; keyword: Span }
  | { kind: 'broken' };

interface Frame {
  node: BranchNode | DefineNode;
  /** Where new children go: the body, or the else body once `{{else}}` is seen. */
  list: TemplateNode[];
  /** Variables in scope before the block opened; restored at its end. */
  varsLen: number;
  /** Opened by `{{else if}}`/`{{else with}}`: closed by its parent's `{{end}}`. */
  chained: boolean;
  /** The opening action had no `}}`; its missing `end` would only repeat that error. */
  openUnclosed: boolean;
  /** define/block bodies are separate templates with their own variables; the outer ones come back at end. */
  savedVars: Variables | null;
  /** Beyond MAX_BLOCK_DEPTH: the node is not in the tree and its content is dropped. */
  dropped: boolean;
}

/** Variables in scope: a stack (blocks pop back to a length) plus counts for quick lookups. */
class Variables {
  private readonly names: string[] = [];
  private readonly counts = new Map<string, number>();

  constructor() {
    this.declare('$');
  }

  get length(): number {
    return this.names.length;
  }

  declare(name: string): void {
    this.names.push(name);
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
  }

  has(name: string): boolean {
    return (this.counts.get(name) ?? 0) > 0;
  }

  truncate(length: number): void {
    while (this.names.length > length) {
      const name = this.names.pop() as string;
      this.counts.set(name, (this.counts.get(name) ?? 1) - 1);
    }
  }
}

class TemplateParser {
  private readonly errors: TemplateError[] = [];
  private readonly root: TemplateNode[] = [];
  private readonly stack: Frame[] = [];
  private vars = new Variables();
  private depthReported = false;

  constructor(private readonly text: string) {}

  run(): ParsedTemplate {
    const reader = itemReader(this.text);
    let hasActions = false;
    let lastAction: LexedAction | null = null;
    for (let item = reader.next(); item; item = reader.next()) {
      if (item.kind === 'text') {
        const { start, end, valueStart, valueEnd } = item;
        this.current().push({
          kind: 'text',
          start,
          end,
          value: this.text.slice(valueStart, valueEnd),
          valueStart,
          valueEnd,
        });
        continue;
      }
      hasActions = true;
      if (item.comment) this.current().push({ kind: 'comment', start: item.start, end: item.end });
      else {
        this.handleAction(item);
        lastAction = item;
      }
    }
    // When the last action has no `}}`, it may well be the `{{end}}` being typed: blocks still open
    // then are not reported, as their missing end would only echo the unclosed action.
    const lastUnclosed = lastAction !== null && !lastAction.closed && !lastAction.endsAtBrace;
    for (const e of reader.errors) this.errors.push(e); // no spread: there may be more errors than a call takes arguments
    while (this.stack.length > 0) {
      const frame = this.stack.pop() as Frame;
      frame.node.end = this.text.length;
      if (!frame.chained && !frame.openUnclosed && !frame.dropped && !lastUnclosed) {
        this.errors.push({ code: 'unclosedBlock', keyword: frame.node.kind, ...frame.node.keyword });
      }
    }
    this.errors.sort((a, b) => a.start - b.start || a.end - b.end);
    return { text: this.text, nodes: this.root, errors: this.errors, hasActions };
  }

  /** Attaches a block node (to `into`, by default the current list) and opens it, unless that would nest too deeply. */
  private open(
    node: BranchNode | DefineNode,
    frame: Omit<Frame, 'node' | 'list' | 'dropped'>,
    into: TemplateNode[] = this.current(),
  ): void {
    const top = this.stack[this.stack.length - 1];
    const dropped = (top?.dropped ?? false) || this.stack.length >= MAX_BLOCK_DEPTH;
    if (dropped && !top?.dropped && !this.depthReported) {
      this.depthReported = true;
      this.errors.push({ code: 'blocksTooDeep', limit: MAX_BLOCK_DEPTH, ...node.keyword });
    }
    if (!dropped) into.push(node);
    this.stack.push({ ...frame, node, list: node.body, dropped });
  }

  private current(): TemplateNode[] {
    const top = this.stack[this.stack.length - 1];
    return top ? top.list : this.root;
  }

  private handleAction(action: LexedAction): void {
    const varsBefore = this.vars.length;
    const parser = new ActionParser(action, this.vars, this.errors);
    const directive = parser.parse();

    switch (directive.kind) {
      case 'broken':
        this.broken(action);
        return;
      case 'print':
        this.current().push({ kind: 'action', start: action.start, end: action.end, pipeline: directive.pipeline });
        return;
      case 'open': {
        const node: BranchNode = {
          kind: directive.type,
          start: action.start,
          end: action.end,
          keyword: directive.keyword,
          pipeline: directive.pipeline,
          body: [],
          elseBody: null,
        };
        this.open(node, { varsLen: varsBefore, chained: false, openUnclosed: !action.closed, savedVars: null });
        return;
      }
      case 'else': {
        const top = this.stack[this.stack.length - 1];
        if (!top || top.node.kind === 'define' || top.node.kind === 'block') {
          this.error({ code: 'elseWithoutBlock' }, directive.keyword);
          this.broken(action);
          return;
        }
        const node = top.node as BranchNode;
        if (node.elseBody) {
          this.error({ code: 'secondElse', keyword: node.kind }, directive.keyword);
          this.broken(action);
          return;
        }
        node.elseBody = [];
        node.elseKeyword = directive.keyword;
        top.list = node.elseBody;
        const chain = directive.chain;
        if (!chain) return;
        if (chain.type !== node.kind) {
          // Go only chains `else if` after if and `else with` after with; treat it as a plain else.
          this.error({ code: 'elseChainMismatch', chain: chain.type, block: node.kind }, chain.keyword);
          return;
        }
        const inner: BranchNode = {
          kind: chain.type,
          start: action.start,
          end: action.end,
          keyword: chain.keyword,
          pipeline: chain.pipeline,
          body: [],
          elseBody: null,
        };
        this.open(inner, { varsLen: varsBefore, chained: true, openUnclosed: false, savedVars: null }, node.elseBody);
        return;
      }
      case 'end': {
        if (this.stack.length === 0) {
          this.error({ code: 'endWithoutBlock' }, directive.keyword);
          this.broken(action);
          return;
        }
        let frame: Frame;
        do {
          frame = this.stack.pop() as Frame;
          frame.node.end = action.end;
          if (frame.savedVars) this.vars = frame.savedVars;
          this.vars.truncate(frame.varsLen);
        } while (frame.chained && this.stack.length > 0);
        return;
      }
      case 'define':
      case 'block': {
        if (directive.kind === 'define' && this.stack.length > 0) {
          this.error({ code: 'defineNotTopLevel' }, directive.keyword);
        }
        const node: DefineNode = {
          kind: directive.kind,
          start: action.start,
          end: action.end,
          keyword: directive.keyword,
          name: directive.name,
          nameSpan: directive.nameSpan,
          pipeline: directive.pipeline,
          body: [],
        };
        this.open(node, {
          varsLen: varsBefore,
          chained: false,
          openUnclosed: !action.closed,
          savedVars: this.vars,
        });
        this.vars = new Variables();
        return;
      }
      case 'template':
        this.current().push({
          kind: 'template',
          start: action.start,
          end: action.end,
          keyword: directive.keyword,
          name: directive.name,
          nameSpan: directive.nameSpan,
          pipeline: directive.pipeline,
        });
        return;
      case 'break':
      case 'continue': {
        if (!this.insideRange())
          this.error({ code: 'loopControlOutsideRange', keyword: directive.kind }, directive.keyword);
        this.current().push({ kind: directive.kind, start: action.start, end: action.end });
        return;
      }
    }
  }

  /** Keeps an action that could not be used in the tree, so every action appears in it. */
  private broken(action: LexedAction): void {
    const node: ActionNode = { kind: 'action', start: action.start, end: action.end, pipeline: null };
    this.current().push(node);
  }

  private error(problem: TemplateProblem, span: Span): void {
    this.errors.push({ ...problem, start: span.start, end: span.end });
  }

  private insideRange(): boolean {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const kind = (this.stack[i] as Frame).node.kind;
      if (kind === 'range') return true;
      // define and block bodies are separate templates: a loop outside them does not count.
      if (kind === 'define' || kind === 'block') return false;
    }
    return false;
  }
}

/** Parses the tokens of one action. Reports at most one structural error per action. */
class ActionParser {
  private pos = 0;
  private depth = 0;
  private readonly tokens: Token[];

  constructor(
    private readonly action: LexedAction,
    /** Shared with the template parser: declarations are added as they are read. */
    private readonly vars: Variables,
    private readonly errors: TemplateError[],
  ) {
    this.tokens = action.tokens;
  }

  parse(): Directive {
    try {
      return this.directive();
    } catch (e) {
      if (!(e instanceof ActionFailure)) throw e;
      this.report(e.error);
      return { kind: 'broken' };
    }
  }

  /** Non-fatal problems; dropped when the lexer already made this action unreliable. */
  private report(error: TemplateError): void {
    if (!this.action.unreliable) this.errors.push(error);
  }

  private fail(problem: TemplateProblem, start: number, end: number): ActionFailure {
    return new ActionFailure({ ...problem, start, end });
  }

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.pos + offset];
  }

  private next(): Token {
    const t = this.tokens[this.pos++];
    if (!t) throw this.fail({ code: 'unexpectedEnd' }, this.action.end, this.action.end);
    return t;
  }

  private atEnd(): boolean {
    return this.pos >= this.tokens.length;
  }

  /** Requires that nothing follows a keyword that takes no arguments (`problem` says which). */
  private expectEnd(problem: TemplateProblem): void {
    if (this.atEnd()) return;
    const first = this.peek() as Token;
    const last = this.tokens[this.tokens.length - 1] as Token;
    throw this.fail(problem, first.start, last.end);
  }

  /** Complains about the first leftover token after a complete pipeline. */
  private expectNoMore(): void {
    const t = this.peek();
    if (t) throw this.unexpected(t);
  }

  private unexpected(t: Token): ActionFailure {
    switch (t.kind) {
      case 'rightParen':
        return this.fail({ code: 'unmatchedRightParen' }, t.start, t.end);
      case 'declare':
      case 'assign':
        return this.fail({ code: 'misplacedDeclaration', operator: declarationOperator(t) }, t.start, t.end);
      case 'comma':
        return this.fail({ code: 'misplacedComma' }, t.start, t.end);
      case 'keyword':
        return this.fail({ code: 'misplacedKeyword', keyword: t.text }, t.start, t.end);
      case 'pipe':
        return this.fail({ code: 'pipeWithoutValue' }, t.start, t.end);
      default:
        return this.fail({ code: 'unexpectedToken', token: t.text }, t.start, t.end);
    }
  }

  private directive(): Directive {
    const first = this.peek();
    if (!first) {
      // Without `}}` the lexer has already reported this action: its emptiness is no news.
      if (this.action.unreliable || !this.action.closed) return { kind: 'broken' };
      throw this.fail({ code: 'emptyAction' }, this.action.start, this.action.end);
    }
    if (first.kind !== 'keyword') {
      const pipeline = this.pipeline(false, 'action');
      this.expectNoMore();
      return { kind: 'print', pipeline };
    }
    this.pos++;
    const keyword: Span = { start: first.start, end: first.end };
    switch (first.text) {
      case 'if':
      case 'with':
      case 'range':
        return { kind: 'open', type: first.text, keyword, pipeline: this.branchPipeline(first.text, keyword) };
      case 'else': {
        const after = this.peek();
        if (after?.kind === 'keyword' && (after.text === 'if' || after.text === 'with')) {
          this.pos++;
          const type = after.text;
          const chainKeyword: Span = { start: after.start, end: after.end };
          return {
            kind: 'else',
            keyword,
            chain: { type, keyword: chainKeyword, pipeline: this.branchPipeline(type, chainKeyword) },
          };
        }
        this.tryOrReport(() => this.expectEnd({ code: 'trailingAfterKeyword', keyword: 'else' }));
        return { kind: 'else', keyword, chain: null };
      }
      case 'end':
        this.tryOrReport(() => this.expectEnd({ code: 'trailingAfterKeyword', keyword: 'end' }));
        return { kind: 'end', keyword };
      case 'break':
      case 'continue':
        this.tryOrReport(() => this.expectEnd({ code: 'trailingAfterKeyword', keyword: first.text as BareKeyword }));
        return { kind: first.text, keyword };
      case 'define':
      case 'block':
      case 'template': {
        const kw = first.text;
        let name = '';
        let nameSpan: Span = keyword;
        let pipeline: Pipeline | null = null;
        this.tryOrReport(() => {
          const t = this.peek();
          if (!t || (t.kind !== 'string' && t.kind !== 'rawString')) {
            const at = t ?? keyword;
            throw this.fail({ code: 'templateNameMissing', keyword: kw }, at.start, at.end);
          }
          this.pos++;
          name = t.value;
          nameSpan = { start: t.start, end: t.end };
          if (kw === 'define') return this.expectEnd({ code: 'trailingAfterDefine', name });
          if (this.atEnd()) return;
          pipeline = this.pipeline(false, kw);
          this.expectNoMore();
        });
        if (kw === 'template') return { kind: 'template', keyword, name, nameSpan, pipeline };
        return { kind: kw, keyword, name, nameSpan, pipeline };
      }
      default:
        throw this.unexpected(first);
    }
  }

  /** Runs `fn`, turning a structural error into a report so the directive itself survives. */
  private tryOrReport(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      if (!(e instanceof ActionFailure)) throw e;
      this.report(e.error);
    }
  }

  /** The pipeline of if/with/range; null (with the error reported) when it cannot be read. */
  private branchPipeline(kind: BranchKind, keyword: Span): Pipeline | null {
    let result: Pipeline | null = null;
    this.tryOrReport(() => {
      if (this.atEnd()) throw this.fail({ code: 'branchWithoutValue', keyword: kind }, keyword.start, keyword.end);
      const pipeline = this.pipeline(false, kind);
      if (pipeline.commands.length === 0)
        throw this.fail({ code: 'branchWithoutValue', keyword: kind }, keyword.start, keyword.end);
      this.expectNoMore();
      result = pipeline;
    });
    return result;
  }

  private isPipelineEnd(t: Token | undefined, inParen: boolean): boolean {
    return !t || (inParen && t.kind === 'rightParen');
  }

  /**
   * `[decl :=] command { | command }`, up to the end of the action (or the closing paren).
   * May return no commands when the action/parens are empty; callers report that error.
   */
  private pipeline(inParen: boolean, context: string): Pipeline {
    const startToken = this.peek();
    const start = startToken ? startToken.start : this.action.end;
    const decl: VariableDecl[] = [];
    let isAssign = false;

    const t0 = this.peek();
    const t1 = this.peek(1);
    let declToken: Token | undefined;
    if (t0?.kind === 'variable' && (t1?.kind === 'declare' || t1?.kind === 'assign')) {
      decl.push({ name: t0.value, start: t0.start, end: t0.end });
      declToken = t1;
      this.pos += 2;
    } else if (t0?.kind === 'variable' && t1?.kind === 'comma') {
      const t2 = this.peek(2);
      const t3 = this.peek(3);
      if (t2?.kind === 'variable' && (t3?.kind === 'declare' || t3?.kind === 'assign')) {
        if (context !== 'range') {
          this.report({ code: 'twoVariablesOutsideRange', start: t0.start, end: t2.end });
        }
        decl.push({ name: t0.value, start: t0.start, end: t0.end }, { name: t2.value, start: t2.start, end: t2.end });
        declToken = t3;
        this.pos += 4;
      }
    }
    if (declToken) {
      isAssign = declToken.kind === 'assign';
      for (const v of decl) {
        if (isAssign) {
          if (!this.vars.has(v.name))
            this.report({ code: 'undefinedVariable', name: v.name, start: v.start, end: v.end });
        } else {
          this.vars.declare(v.name);
        }
      }
      if (this.isPipelineEnd(this.peek(), inParen)) {
        throw this.fail(
          { code: 'declarationWithoutValue', operator: declarationOperator(declToken) },
          declToken.start,
          declToken.end,
        );
      }
    }

    const commands: Command[] = [];
    for (;;) {
      const t = this.peek();
      if (this.isPipelineEnd(t, inParen)) break;
      if (t && (t.kind === 'pipe' || t.kind === 'rightParen')) throw this.unexpected(t);
      commands.push(this.command());
      const after = this.peek();
      if (after?.kind !== 'pipe') break;
      this.pos++;
      const following = this.peek();
      if (this.isPipelineEnd(following, inParen) || following?.kind === 'pipe') {
        throw this.fail({ code: 'pipeWithoutFunction' }, after.start, after.end);
      }
    }

    // A constant cannot take the value piped into it (Go rejects this when parsing).
    for (let i = 1; i < commands.length; i++) {
      const head = (commands[i] as Command).args[0];
      if (
        head &&
        (head.kind === 'string' ||
          head.kind === 'number' ||
          head.kind === 'bool' ||
          head.kind === 'nil' ||
          head.kind === 'dot')
      ) {
        this.report({ code: 'constantReceivesPipe', start: head.start, end: head.end });
      }
    }

    const lastCommand = commands[commands.length - 1];
    const end = lastCommand ? lastCommand.end : declToken ? declToken.end : start;
    return { start: decl[0]?.start ?? start, end, decl, isAssign, commands };
  }

  /** Space-separated operands up to `|`, `)` or the end of the action. */
  private command(): Command {
    const args: ExprNode[] = [];
    for (;;) {
      const t = this.peek();
      if (!t || t.kind === 'pipe' || t.kind === 'rightParen') break;
      const previous = this.tokens[this.pos - 1];
      // Next to a token the lexer already rejected, a missing space is not news.
      if (args.length > 0 && !t.spaceBefore && t.kind !== 'bad' && previous?.kind !== 'bad') {
        this.report({ code: 'missingSpace', token: t.text, start: t.start, end: t.end });
      }
      args.push(this.operand());
    }
    const first = args[0] as ExprNode;
    const last = args[args.length - 1] as ExprNode;
    return { start: first.start, end: last.end, args };
  }

  /** A term followed by any field chain glued to it: `.a.b`, `$x.y`, `(...).z`. */
  private operand(): ExprNode {
    const term = this.term();
    const segments: Segment[] = [];
    for (let t = this.peek(); t && t.kind === 'field' && !t.spaceBefore; t = this.peek()) {
      this.pos++;
      segments.push(segmentOf(t));
    }
    if (segments.length === 0) return term;
    const end = (segments[segments.length - 1] as Segment).end;
    switch (term.kind) {
      case 'field':
      case 'variable':
        for (const segment of segments) term.segments.push(segment);
        term.end = end;
        return term;
      case 'string':
      case 'number':
      case 'bool':
      case 'nil':
      case 'dot': {
        const first = segments[0] as Segment;
        this.report({ code: 'constantField', start: first.start - 1, end });
        break;
      }
      default:
        break;
    }
    return { kind: 'chain', start: term.start, end, node: term, segments };
  }

  private term(): ExprNode {
    const t = this.next();
    const span = { start: t.start, end: t.end };
    switch (t.kind) {
      case 'identifier':
        if (!isKnownFunction(t.text)) {
          this.report({ code: 'unknownFunction', name: t.text, ...span });
        }
        return { kind: 'identifier', name: t.text, ...span };
      case 'dot':
        return { kind: 'dot', ...span };
      case 'nil':
        return { kind: 'nil', ...span };
      case 'bool':
        return { kind: 'bool', value: t.text === 'true', ...span };
      case 'string':
      case 'rawString':
        return { kind: 'string', value: t.value, raw: t.kind === 'rawString', ...span };
      case 'number':
        return {
          kind: 'number',
          text: t.text,
          value: numberValue(t.text),
          isFloat: isFloatLiteral(t.text),
          isChar: false,
          ...span,
        };
      case 'char':
        return {
          kind: 'number',
          text: t.text,
          value: t.value.codePointAt(0) ?? 0,
          isFloat: false,
          isChar: true,
          ...span,
        };
      case 'bad':
        return { kind: 'bad', text: t.text, ...span };
      case 'variable':
        if (!this.vars.has(t.value)) this.report({ code: 'undefinedVariable', name: t.value, ...span });
        return { kind: 'variable', name: t.value, segments: [], ...span };
      case 'field':
        return { kind: 'field', segments: [segmentOf(t)], ...span };
      case 'leftParen': {
        if (this.depth >= MAX_PAREN_DEPTH) {
          throw this.fail({ code: 'parensTooDeep', limit: MAX_PAREN_DEPTH }, t.start, t.end);
        }
        this.depth++;
        const pipeline = this.pipeline(true, 'paren');
        const close = this.peek();
        if (pipeline.commands.length === 0) {
          throw this.fail({ code: 'emptyParens' }, t.start, close ? close.end : t.end);
        }
        if (!close || close.kind !== 'rightParen') throw this.fail({ code: 'unclosedParen' }, t.start, t.end);
        this.pos++;
        this.depth--;
        return { kind: 'paren', pipeline, start: t.start, end: close.end };
      }
      default:
        throw this.unexpected(t);
    }
  }
}

/** The operator of a `declare` (`:=`) or `assign` (`=`) token. */
function declarationOperator(t: Token): ':=' | '=' {
  return t.kind === 'declare' ? ':=' : '=';
}

function segmentOf(t: Token): Segment {
  return { name: t.value, start: t.start + 1, end: t.end };
}

function isFloatLiteral(text: string): boolean {
  const body = text.replace(/^[+-]/, '');
  if (/^0[xX]/.test(body)) return /[.pP]/.test(body);
  if (/^0[oObB]/.test(body)) return false;
  return /[.eE]/.test(body);
}

function numberValue(text: string): number {
  if (text.endsWith('i')) return NaN; // imaginary
  const negative = text.startsWith('-');
  const body = text.replace(/^[+-]/, '').replace(/_/g, '');
  let value: number;
  if (/^0[0-7]+$/.test(body))
    value = parseInt(body, 8); // Go reads a leading 0 as octal
  else if (/^0[xX].*[.pP]/.test(body)) value = hexFloat(body);
  else value = Number(body);
  return negative ? -value : value;
}

function hexFloat(body: string): number {
  const m = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?\d+))?$/.exec(body);
  if (!m) return NaN;
  const whole = m[1] ? parseInt(m[1], 16) : 0;
  const frac = m[2] ? parseInt(m[2], 16) / 16 ** m[2].length : 0;
  return (whole + frac) * 2 ** Number(m[3] ?? 0);
}
