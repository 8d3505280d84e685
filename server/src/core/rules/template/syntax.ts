// template/syntax: a `{{ }}` template that does not parse. The lexer and parser give each error as a
// code with data (templates/ast.ts, TemplateProblem); this rule has one message per code and is the
// only place that words them. Each message says what is wrong and what to do, then when the error
// bites, which depends on where the string is (consequence).
import { exactSpan, templatesOf, type TemplateString } from '../../model/templates.js';
import { defineRule, type Report } from '../rule.js';
import { delimiterProblem } from '../../templates/delimiters.js';
import {
  knownFunctions,
  type Command,
  type ForeignOperator,
  type Pipeline,
  type TemplateNode,
  type TemplateProblem,
  type TemplateProblemCode,
} from '../../templates/index.js';
import { WORKFLOW_KINDS, type Fix } from '../../types.js';
import { headlineFits } from '../../wording/headlines.js';

/** The data of the message for `code`: the problem's own, and the string it is in. */
type Data<C extends TemplateProblemCode> = Extract<TemplateProblem, { code: C }> & { template: TemplateString };

const messages = {
  // Escapes in a quoted literal.
  badHexEscape: ({ escape, width, template }: Data<'badHexEscape'>) =>
    `"${escape}" must be followed by exactly ${width} hex digits. ${consequence(template)}`,
  badCodePoint: ({ escape, template }: Data<'badCodePoint'>) =>
    `"${escape}" is not a valid Unicode code point. ${consequence(template)}`,
  badOctalEscape: ({ template }: Data<'badOctalEscape'>) =>
    `An octal escape needs exactly three digits from \\000 to \\377. ${consequence(template)}`,
  badEscape: ({ escape, template }: Data<'badEscape'>) =>
    `"${escape}" is not a valid escape sequence. ${consequence(template)}`,

  // Delimiters and comments.
  strayBrace: ({ trim, template }: Data<'strayBrace'>) =>
    `${capitalize(strayBrace(trim))} cannot stand inside an action: remove it, or write ${trim ? '-}}' : '}}'} if the action should end there. ${consequence(template)}`,
  unclosedAtBrace: ({ trim, runsInto, template }: Data<'unclosedAtBrace'>) =>
    `${wrongThenDo(`This action is never closed: ${strayBrace(trim)} does not end it, so ${RUNS_INTO[runsInto]}`, `write ${trim ? '-}}' : '}}'}`)} ${consequence(template)}`,
  unclosedAction: ({ runsInto, template }: Data<'unclosedAction'>) =>
    `${wrongThenDo(`This action is never closed: ${RUNS_INTO[runsInto]}`, 'add }} where it should end')} ${consequence(template)}`,
  unclosedComment: ({ template }: Data<'unclosedComment'>) =>
    `This comment is never closed: end it with */}}. ${consequence(template)}`,
  badCommentEnd: ({ template }: Data<'badCommentEnd'>) =>
    `A comment must end with */ directly followed by }}. ${consequence(template)}`,
  misplacedComment: ({ template }: Data<'misplacedComment'>) => `${MISPLACED_COMMENT}. ${consequence(template)}`,
  /** A misplaced comment that never ends swallows the end of its action too. */
  misplacedCommentAndAction: ({ template }: Data<'misplacedCommentAndAction'>) =>
    `${wrongThenDo(MISPLACED_COMMENT, 'this one never ends, and neither does its action')} ${consequence(template)}`,

  // Literals and characters.
  unclosedString: ({ template }: Data<'unclosedString'>) =>
    `This string is never closed: add the closing double quote. ${consequence(template)}`,
  unclosedStringAndAction: ({ template }: Data<'unclosedStringAndAction'>) =>
    `This string is never closed, and neither is its action: add the closing double quote, then }}. ${consequence(template)}`,
  unclosedRawString: ({ template }: Data<'unclosedRawString'>) =>
    `This raw string is never closed: add the closing backquote. ${consequence(template)}`,
  unclosedRawStringAndAction: ({ template }: Data<'unclosedRawStringAndAction'>) =>
    `This raw string is never closed, and neither is its action: add the closing backquote, then }}. ${consequence(template)}`,
  unclosedSingleQuoted: ({ template }: Data<'unclosedSingleQuoted'>) =>
    `${wrongThenDo('This single-quoted value is never closed', SINGLE_QUOTES)} ${consequence(template)}`,
  unclosedSingleQuotedAndAction: ({ template }: Data<'unclosedSingleQuotedAndAction'>) =>
    `${wrongThenDo('This single-quoted value is never closed, and neither is its action', `${SINGLE_QUOTES}, then end the action with }}`)} ${consequence(template)}`,
  /** A single-quoted value longer than one character: Go reads `'x'` as a number, never as a string. */
  singleQuotedString: ({ template }: Data<'singleQuotedString'>) =>
    `${wrongThenDo('Single-quoted strings are not strings in Go templates', 'use double quotes')} ${consequence(template)}`,
  foreignOperator: ({ operator, template }: Data<'foreignOperator'>) =>
    `${wrongThenDo(`"${operator}" does not work here`, OPERATOR_ADVICE[operator])} ${consequence(template)}`,
  loneColon: ({ template }: Data<'loneColon'>) =>
    `${wrongThenDo('Unexpected ":"', 'declare a variable with $name := value')} ${consequence(template)}`,
  unexpectedCharacter: ({ character, template }: Data<'unexpectedCharacter'>) =>
    `Unexpected character ${JSON.stringify(character)} inside an action. ${consequence(template)}`,
  dashInFieldName: ({ name, chain, template }: Data<'dashInFieldName'>) =>
    `${wrongThenDo(`"${name}" cannot be used as a field name because of the "-"`, `use index with a quoted key instead, e.g. (index ${chain} "${name}")`)} ${consequence(template)}`,
  badNumber: ({ literal, template }: Data<'badNumber'>) =>
    `"${literal}" is not a valid number. ${consequence(template)}`,

  // Blocks.
  unclosedBlock: ({ keyword, template }: Data<'unclosedBlock'>) =>
    `{{${keyword}}} is never closed: add {{end}}. ${consequence(template)}`,
  blocksTooDeep: ({ limit, template }: Data<'blocksTooDeep'>) =>
    `${wrongThenDo(`Blocks are nested more than ${limit} levels deep`, 'the deeper ones are not checked')} ${consequence(template)}`,
  elseWithoutBlock: ({ template }: Data<'elseWithoutBlock'>) =>
    `{{else}} has no {{if}}, {{with}} or {{range}} to belong to. ${consequence(template)}`,
  secondElse: ({ keyword, template }: Data<'secondElse'>) =>
    `${wrongThenDo(`This {{${keyword}}} already has an {{else}}`, 'only one is allowed')} ${consequence(template)}`,
  elseChainMismatch: ({ chain, block, template }: Data<'elseChainMismatch'>) =>
    `{{else ${chain}}} can only follow {{${chain}}}, not {{${block}}}. ${consequence(template)}`,
  endWithoutBlock: ({ template }: Data<'endWithoutBlock'>) =>
    `{{end}} has nothing to close (no open if, with, range, define or block). ${consequence(template)}`,
  defineNotTopLevel: ({ template }: Data<'defineNotTopLevel'>) =>
    `{{define}} is only allowed at the top level, outside other blocks. ${consequence(template)}`,
  loopControlOutsideRange: ({ keyword, template }: Data<'loopControlOutsideRange'>) =>
    `{{${keyword}}} can only be used inside {{range}}. ${consequence(template)}`,
  trailingAfterKeyword: ({ keyword, template }: Data<'trailingAfterKeyword'>) =>
    `{{${keyword}}} takes nothing after it. ${consequence(template)}`,
  trailingAfterDefine: ({ name, template }: Data<'trailingAfterDefine'>) =>
    `{{define "${name}"}} takes nothing after it. ${consequence(template)}`,
  templateNameMissing: ({ keyword, template }: Data<'templateNameMissing'>) =>
    `{{${keyword}}} needs a template name in double quotes. ${consequence(template)}`,
  branchWithoutValue: ({ keyword, template }: Data<'branchWithoutValue'>) =>
    `{{${keyword}}} needs ${BRANCH_NEEDS[keyword]}. ${consequence(template)}`,

  // The words of an action.
  unexpectedEnd: ({ template }: Data<'unexpectedEnd'>) => `Unexpected end of action. ${consequence(template)}`,
  emptyAction: ({ template }: Data<'emptyAction'>) =>
    `Empty action: put a value or a function call between {{ and }}. ${consequence(template)}`,
  unmatchedRightParen: ({ template }: Data<'unmatchedRightParen'>) =>
    `")" has no matching "(". ${consequence(template)}`,
  misplacedDeclaration: ({ operator, template }: Data<'misplacedDeclaration'>) =>
    `"${operator}" can only come right after a $variable at the start of an action. ${consequence(template)}`,
  misplacedComma: ({ template }: Data<'misplacedComma'>) =>
    `"," is only used to declare two range variables, as in range $i, $v := ... ${consequence(template)}`,
  misplacedKeyword: ({ keyword, template }: Data<'misplacedKeyword'>) =>
    `"${keyword}" can only start an action, as in {{${keyword} ...}}. ${consequence(template)}`,
  pipeWithoutValue: ({ template }: Data<'pipeWithoutValue'>) => `"|" needs a value before it. ${consequence(template)}`,
  unexpectedToken: ({ token, template }: Data<'unexpectedToken'>) => `Unexpected "${token}". ${consequence(template)}`,
  twoVariablesOutsideRange: ({ template }: Data<'twoVariablesOutsideRange'>) =>
    `Only {{range}} can declare two variables. ${consequence(template)}`,
  undefinedVariable: ({ name, template }: Data<'undefinedVariable'>) =>
    `Variable "${name}" is not defined. ${consequence(template)}`,
  declarationWithoutValue: ({ operator, template }: Data<'declarationWithoutValue'>) =>
    `Nothing follows "${operator}": give the variable a value. ${consequence(template)}`,
  pipeWithoutFunction: ({ template }: Data<'pipeWithoutFunction'>) =>
    `Nothing follows "|": add the function that should receive the value. ${consequence(template)}`,
  constantReceivesPipe: ({ template }: Data<'constantReceivesPipe'>) =>
    `${wrongThenDo('A constant cannot receive piped input', 'put a function after "|"')} ${consequence(template)}`,
  missingSpace: ({ token, template }: Data<'missingSpace'>) =>
    `Missing space before "${token}". ${consequence(template)}`,
  constantField: ({ template }: Data<'constantField'>) => `A constant has no fields to read. ${consequence(template)}`,
  /** The list of known names comes after the headline, which says what to do. */
  unknownFunction: ({ name, template }: Data<'unknownFunction'>) =>
    `Function "${name}" is not defined: use a known one. Known functions: ${knownFunctions.join(', ')}. ${consequence(template)}`,
  parensTooDeep: ({ limit, template }: Data<'parensTooDeep'>) =>
    `${wrongThenDo(`Parentheses are nested more than ${limit} levels deep`, 'simplify the expression')} ${consequence(template)}`,
  emptyParens: ({ template }: Data<'emptyParens'>) =>
    `Empty parentheses: put a value or a function call inside. ${consequence(template)}`,
  unclosedParen: ({ template }: Data<'unclosedParen'>) => `This "(" is never closed with ")". ${consequence(template)}`,
} satisfies { [C in TemplateProblemCode]: (data: Data<C>) => string };

export const rule = defineRule({
  id: 'template/syntax',
  defaultSeverity: 'error',
  summary: 'A `{{ }}` template that does not parse.',
  kinds: WORKFLOW_KINDS,
  messages,
  check(ctx) {
    const source = ctx.file.source.text;
    for (const template of templatesOf(ctx).strings) {
      template.errors.forEach(({ problem, span }, i) => {
        const fixes =
          problem.code === 'foreignOperator' ? operatorFix(source, template, template.parsed.errors[i]!.start) : [];
        // The message of each code takes that code's problem: the table has one for every code.
        ctx.report({ messageId: problem.code, data: { ...problem, template }, span, fixes } as Report<typeof messages>);
      });
    }
  },
});

/** The function each operator between two operands is written as. */
const OPERATOR_FUNCTION: Partial<Record<ForeignOperator, string>> = {
  '==': 'eq',
  '!=': 'ne',
  '&&': 'and',
  '||': 'or',
  '<': 'lt',
  '<=': 'le',
  '>': 'gt',
  '>=': 'ge',
};

/**
 * `a == b` as `eq a b`, when the operator stands alone between two operands of one command and
 * the text maps exactly onto the source. A suggestion, never applied alone: the comparison
 * functions refuse operands of different kinds (a JSON number against `1`) where the operator in
 * another language would not.
 */
function operatorFix(source: string, template: TemplateString, at: number): Fix[] {
  const command = commandsOf(template.parsed.nodes).find(
    (c) => c.args.length === 3 && c.args[1]!.kind === 'bad' && c.args[1].start === at,
  );
  const [left, operator, right] = command?.args ?? [];
  if (!left || operator?.kind !== 'bad' || !right) return [];
  const fn = OPERATOR_FUNCTION[operator.text as ForeignOperator];
  if (!fn || left.kind === 'bad' || right.kind === 'bad') return [];
  const between = template.text.slice(left.end, right.start);
  const before = exactSpan(source, template, left.start, left.start, '');
  const gap = exactSpan(source, template, left.end, right.start, between);
  if (!before || !gap) return [];
  return [
    {
      title: `Write ${fn} instead of ${operator.text}`,
      safe: false,
      edits: [
        { span: before, newText: `${fn} ` },
        { span: gap, newText: ' ' },
      ],
    },
  ];
}

/** Every command of a parsed template, in blocks and parentheses too. */
function commandsOf(nodes: readonly TemplateNode[]): Command[] {
  const out: Command[] = [];
  const pipeline = (p: Pipeline | null): void => {
    for (const command of p?.commands ?? []) {
      out.push(command);
      for (const arg of command.args) if (arg.kind === 'paren') pipeline(arg.pipeline);
    }
  };
  const visit = (list: readonly TemplateNode[]): void => {
    for (const node of list) {
      if ('pipeline' in node) pipeline(node.pipeline);
      if ('body' in node) visit(node.body);
      if ('elseBody' in node && node.elseBody) visit(node.elseBody);
    }
  };
  visit(nodes);
  return out;
}

const RUNS_INTO = {
  end: 'it runs on to the end of the text',
  next: 'it runs on into the next {{',
} as const;

const MISPLACED_COMMENT = 'A comment must start right after {{ (or {{- ), as in {{/* note */}}';

const SINGLE_QUOTES = 'single-quoted strings are not strings in Go templates; use double quotes';

const COMPARE = 'Go templates compare with functions: use eq/ne/and/or';
const ORDER = 'Go templates compare with functions: use lt/le/gt/ge';

/** What to write instead of each operator. */
const OPERATOR_ADVICE: Record<ForeignOperator, string> = {
  '==': `${COMPARE}, e.g. {{eq .a "b"}}`,
  '!=': `${COMPARE}, e.g. {{ne .a "b"}}`,
  '&&': `${COMPARE}, e.g. {{and .a .b}}`,
  '||': `${COMPARE}, e.g. {{or .a .b}}`,
  '<': `${ORDER}, e.g. {{lt .a 10.0}}`,
  '<=': `${ORDER}, e.g. {{le .a 10.0}}`,
  '>': `${ORDER}, e.g. {{gt .a 10.0}}`,
  '>=': `${ORDER}, e.g. {{ge .a 10.0}}`,
  '!': 'negate with the not function, e.g. {{not .a}}',
};

const BRANCH_NEEDS = {
  if: 'a value to test',
  with: 'a value',
  range: 'a value to loop over',
} as const;

/** The lone brace as written: ` -}` is a trim marker missing its second brace. */
function strayBrace(trim: boolean): string {
  return trim ? '"-}"' : 'a single "}"';
}

/**
 * What is wrong and what to do: one sentence when it fits on a Problems row as a headline, else
 * two, so that the headline still says what is wrong.
 */
function wrongThenDo(wrong: string, todo: string): string {
  const whole = `${wrong}; ${todo}.`;
  return headlineFits(whole) ? whole : `${wrong}. ${capitalize(todo)}.`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** When the error bites depends on where the string is. */
function consequence(template: TemplateString): string {
  if (template.checkedAtLoad)
    return 'ToolHive parses this template when it loads the workflow and refuses the configuration.';
  if (template.field === 'output') {
    if (delimiterProblem(template.text) !== undefined)
      return 'ToolHive checks that the braces of output values pair up when the server starts, and refuses to start.';
    return 'ToolHive does not parse output values when it loads the workflow; rendering this one fails after every step has run, so the property falls back to its `default` or the call fails.';
  }
  return 'ToolHive only parses nested argument strings when the step runs, so the workflow loads and then this step fails on every call.';
}
