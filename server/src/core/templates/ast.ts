// Syntax tree for the subset of Go text/template that ToolHive workflows use.
// Every offset is a UTF-16 index into the decoded string value (not the YAML/JSON source);
// the caller maps them to document positions. Ranges are half-open.

/** The comparison and logic operators of other languages, which Go templates do not have. */
export type ForeignOperator = '==' | '!=' | '&&' | '||' | '<' | '<=' | '>' | '>=' | '!';

/** A keyword that ends or continues a block and takes nothing after it. */
export type BareKeyword = 'else' | 'end' | 'break' | 'continue';

/** How far an action without `}}` runs: to the end of the text, or into the next `{{`. */
export type RunsInto = 'end' | 'next';

/**
 * What is wrong, as a code with the data that tells this case apart; no words. The rule
 * `template/syntax` words each code (one message per code). The `...AndAction` codes are an
 * unterminated literal or comment that also swallowed the end of its action: one slip, one error.
 */
export type TemplateProblem =
  // Escapes in a quoted literal. `escape` is the backslash with what follows it, as written.
  | { code: 'badHexEscape'; escape: string; width: number }
  | { code: 'badCodePoint'; escape: string }
  | { code: 'badOctalEscape' }
  | { code: 'badEscape'; escape: string }
  // Delimiters and comments. `trim`: the brace was written ` -}`.
  | { code: 'strayBrace'; trim: boolean }
  | { code: 'unclosedAtBrace'; trim: boolean; runsInto: RunsInto }
  | { code: 'unclosedAction'; runsInto: RunsInto }
  | { code: 'unclosedComment' }
  | { code: 'badCommentEnd' }
  | { code: 'misplacedComment' }
  | { code: 'misplacedCommentAndAction' }
  // Literals and characters.
  | { code: 'unclosedString' }
  | { code: 'unclosedStringAndAction' }
  | { code: 'unclosedRawString' }
  | { code: 'unclosedRawStringAndAction' }
  | { code: 'unclosedSingleQuoted' }
  | { code: 'unclosedSingleQuotedAndAction' }
  | { code: 'singleQuotedString' }
  | { code: 'foreignOperator'; operator: ForeignOperator }
  | { code: 'loneColon' }
  | { code: 'unexpectedCharacter'; character: string }
  /** `chain`: the source of the field chain before the name (for the `index` example), or `.`. */
  | { code: 'dashInFieldName'; name: string; chain: string }
  | { code: 'badNumber'; literal: string }
  // Blocks.
  | { code: 'unclosedBlock'; keyword: 'if' | 'with' | 'range' | 'define' | 'block' }
  | { code: 'blocksTooDeep'; limit: number }
  | { code: 'elseWithoutBlock' }
  | { code: 'secondElse'; keyword: 'if' | 'with' | 'range' }
  | { code: 'elseChainMismatch'; chain: 'if' | 'with'; block: 'if' | 'with' | 'range' }
  | { code: 'endWithoutBlock' }
  | { code: 'defineNotTopLevel' }
  | { code: 'loopControlOutsideRange'; keyword: 'break' | 'continue' }
  | { code: 'trailingAfterKeyword'; keyword: BareKeyword }
  | { code: 'trailingAfterDefine'; name: string }
  | { code: 'templateNameMissing'; keyword: 'define' | 'block' | 'template' }
  | { code: 'branchWithoutValue'; keyword: 'if' | 'with' | 'range' }
  // The words of an action. `token`: the source text of the token concerned.
  | { code: 'unexpectedEnd' }
  | { code: 'emptyAction' }
  | { code: 'unmatchedRightParen' }
  | { code: 'misplacedDeclaration'; operator: ':=' | '=' }
  | { code: 'misplacedComma' }
  | { code: 'misplacedKeyword'; keyword: string }
  | { code: 'pipeWithoutValue' }
  | { code: 'unexpectedToken'; token: string }
  | { code: 'twoVariablesOutsideRange' }
  | { code: 'undefinedVariable'; name: string }
  | { code: 'declarationWithoutValue'; operator: ':=' | '=' }
  | { code: 'pipeWithoutFunction' }
  | { code: 'constantReceivesPipe' }
  | { code: 'missingSpace'; token: string }
  | { code: 'constantField' }
  | { code: 'unknownFunction'; name: string }
  | { code: 'parensTooDeep'; limit: number }
  | { code: 'emptyParens' }
  | { code: 'unclosedParen' };

export type TemplateProblemCode = TemplateProblem['code'];

/** A problem found while reading a template, at the exact characters concerned. */
export type TemplateError = TemplateProblem & Span;

export interface Span {
  start: number;
  end: number;
}

/** One name of a field chain (`params` in `.params.x`), without the dot. */
export interface Segment {
  name: string;
  start: number;
  end: number;
}

// ---------------------------------------------------------------------------------------------
// Expressions (the words of a command)

/** `.a.b.c`: a field chain on the current dot. */
export interface FieldNode extends Span {
  kind: 'field';
  segments: Segment[];
}

/** `$`, `$x`, `$x.a.b`. `name` includes the `$`. */
export interface VariableNode extends Span {
  kind: 'variable';
  name: string;
  segments: Segment[];
}

/** A bare `.`. */
export interface DotNode extends Span {
  kind: 'dot';
}

/** Fields read from something that is not the dot or a variable: `(fromJson .x).items`. */
export interface ChainNode extends Span {
  kind: 'chain';
  node: ExprNode;
  segments: Segment[];
}

/** A function name such as `eq` or `json`. */
export interface IdentifierNode extends Span {
  kind: 'identifier';
  name: string;
}

export interface StringNode extends Span {
  kind: 'string';
  /** The decoded value (escapes resolved). */
  value: string;
  /** True for a backquoted raw string. */
  raw: boolean;
}

export interface NumberNode extends Span {
  kind: 'number';
  /** The source text, e.g. `0x1F`, `10.0`, `'a'`. */
  text: string;
  /** Best-effort numeric value (NaN for imaginary numbers). */
  value: number;
  /** True for a floating-point constant (has a fraction or exponent). Relevant because JSON numbers are float64. */
  isFloat: boolean;
  /** True for a character constant like `'a'` (a number in Go). */
  isChar: boolean;
}

export interface BoolNode extends Span {
  kind: 'bool';
  value: boolean;
}

export interface NilNode extends Span {
  kind: 'nil';
}

/** `( pipeline )`. */
export interface ParenNode extends Span {
  kind: 'paren';
  pipeline: Pipeline;
}

/** A token the lexer already reported as wrong (`==`, `'abc'`, an unterminated string...). */
export interface BadNode extends Span {
  kind: 'bad';
  text: string;
}

export type ExprNode =
  | FieldNode
  | VariableNode
  | DotNode
  | ChainNode
  | IdentifierNode
  | StringNode
  | NumberNode
  | BoolNode
  | NilNode
  | ParenNode
  | BadNode;

/** A function call or a single value: `index .x 0`. */
export interface Command extends Span {
  args: ExprNode[];
}

export interface VariableDecl extends Span {
  name: string;
}

/** `$x := cmd1 | cmd2 arg`. */
export interface Pipeline extends Span {
  /** Variables declared (`:=`) or assigned (`=`) at the start; empty for most pipelines. */
  decl: VariableDecl[];
  /** True when the variables are assigned with `=` rather than declared with `:=`. */
  isAssign: boolean;
  commands: Command[];
}

// ---------------------------------------------------------------------------------------------
// Template structure

/** Literal text between actions. */
export interface TextNode extends Span {
  kind: 'text';
  /** The text as rendered, after `{{-`/`-}}` trimming. */
  value: string;
  /** Where `value` sits inside [start, end). */
  valueStart: number;
  valueEnd: number;
}

export interface CommentNode extends Span {
  kind: 'comment';
}

/** `{{ pipeline }}`. `pipeline` is null when the action could not be parsed (the error is reported). */
export interface ActionNode extends Span {
  kind: 'action';
  pipeline: Pipeline | null;
}

/**
 * `{{if}}`, `{{with}}`, `{{range}}`. An `{{else if ...}}` chain is stored like Go does it:
 * the else body holds a single nested IfNode (same for `else with`).
 */
export interface BranchNode extends Span {
  kind: 'if' | 'with' | 'range';
  /** The keyword itself (`if`, `with`, `range`); missing-`end` errors point here. */
  keyword: Span;
  pipeline: Pipeline | null;
  body: TemplateNode[];
  elseBody: TemplateNode[] | null;
  elseKeyword?: Span;
}

/** `{{define "name"}} ... {{end}}` and `{{block "name" pipeline}} ... {{end}}`. */
export interface DefineNode extends Span {
  kind: 'define' | 'block';
  keyword: Span;
  name: string;
  nameSpan: Span;
  /** Always null for define. */
  pipeline: Pipeline | null;
  body: TemplateNode[];
}

/** `{{template "name" pipeline}}`. */
export interface TemplateCallNode extends Span {
  kind: 'template';
  keyword: Span;
  name: string;
  nameSpan: Span;
  pipeline: Pipeline | null;
}

/** `{{break}}` / `{{continue}}` inside range. */
export interface LoopControlNode extends Span {
  kind: 'break' | 'continue';
}

export type TemplateNode =
  TextNode | CommentNode | ActionNode | BranchNode | DefineNode | TemplateCallNode | LoopControlNode;

export interface ParsedTemplate {
  text: string;
  /** Top-level text segments and actions in source order; control structures hold their bodies. */
  nodes: TemplateNode[];
  /** Every problem found, sorted by position. */
  errors: TemplateError[];
  /** True when the text holds at least one `{{ }}` (comments included). */
  hasActions: boolean;
}
