import { exactSpan, templatesOf, type TemplateString } from '../../model/templates.js';
import {
  checkConditionRendersBoolean,
  type Command,
  type ConditionReason,
  type ExprNode,
  type NumberNode,
  type Pipeline,
  type TemplateNode,
} from '../../templates/index.js';
import type { Fix } from '../../types.js';
import { defineRule, type RuleContext } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

// Go's comparison functions refuse to compare a float with an integer ("incompatible types for
// comparison"), and every number that came from JSON (step output, call arguments) is a float64.
const COMPARISONS = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge']);

const messages = {
  /** `reason`: why it never renders a boolean (templates/condition.ts). */
  notBoolean: ({ reason }: { reason: ConditionReason }) =>
    'This condition never renders exactly true or false: make it a comparison or a boolean. ' +
    `${reasonWords(reason)}. ToolHive only accepts a condition that renders exactly true or false ` +
    '(`true`, `True` or `TRUE`, and the same for false); anything else fails the step on every run.',
  /** `fn`: the comparison; `literal`: the integer as written; `read`: what it compares, as written. */
  integerComparison: ({ fn, literal, read }: { fn: string; literal: string; read: string }) =>
    `\`${fn}\` compares a JSON number with the integer ${literal}: write ${literal}.0. ` +
    `It compares ${read} with ${literal}, but numbers that come from JSON (step output and call ` +
    `parameters) are floats: Go refuses to compare a float with an integer, so the condition fails the step.`,
};

/** Why the condition never renders a boolean, as one sentence without its full stop. */
function reasonWords(reason: ConditionReason): string {
  switch (reason.code) {
    case 'rendersEmpty':
      return 'The condition renders an empty string; it must render true or false';
    case 'alwaysRendersText':
      return `The condition always renders ${show(reason.text)}, never true or false`;
    case 'plainText':
      return `The condition is plain text ${show(reason.text)}, which is never true or false; write a template such as {{eq .params.x "yes"}}`;
    case 'textBeside':
      return `The literal text ${show(reason.text)} beside the template is part of the rendered condition, so it cannot be exactly true or false`;
    case 'everyBranchPrintsText':
      return 'Every branch of this block prints text that is not true or false';
    case 'neverBooleanFunction':
      return `${NEVER_BOOLEAN[reason.name]}, so the condition can never be exactly true or false`;
    case 'printfAddsText':
      return `The printf format ${show(reason.format)} adds text, so the condition can never be exactly true or false`;
    case 'alwaysString':
      return `The condition always renders the string ${show(reason.value)}, never true or false`;
    case 'alwaysNumber':
      return 'The condition always renders a number, never true or false';
  }
}

/** What each function's result is, that keeps it from printing true or false. */
const NEVER_BOOLEAN = {
  quote: 'Quote wraps its result in double quotes',
  len: 'Len returns a number',
  println: 'Println adds a newline',
} as const;

/** A rendered text or value in quotes, cut to 40 characters. */
function show(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}...` : text);
}

export const rule = defineRule({
  id: 'template/condition-not-boolean',
  defaultSeverity: 'warning',
  summary: 'A condition that cannot render true or false.',
  kinds: WORKFLOW_KINDS,
  messages,
  check(ctx) {
    for (const template of templatesOf(ctx).strings) {
      if (template.field !== 'condition' || template.parsed.errors.length) continue; // syntax errors: template/syntax
      const verdict = checkConditionRendersBoolean(template.parsed);
      if (!verdict.ok) {
        ctx.report({
          messageId: 'notBoolean',
          data: { reason: verdict.reason },
          span: template.map(
            verdict.start,
            verdict.end > verdict.start ? verdict.end : Math.min(verdict.start + 1, template.text.length),
          ),
        });
        continue;
      }
      integerComparisons(ctx, template);
    }
  },
});

function integerComparisons(ctx: RuleContext<typeof messages>, template: TemplateString): void {
  const visitNodes = (nodes: TemplateNode[], dotIsRoot: boolean, depth: number) => {
    if (depth > 200) return;
    for (const node of nodes) {
      switch (node.kind) {
        case 'action':
          if (node.pipeline) visitPipeline(node.pipeline, dotIsRoot);
          break;
        case 'if':
        case 'with':
        case 'range':
          if (node.pipeline) visitPipeline(node.pipeline, dotIsRoot);
          // Inside with/range the dot is the pipeline's value, not the root.
          visitNodes(node.body, node.kind === 'if' ? dotIsRoot : false, depth + 1);
          if (node.elseBody) visitNodes(node.elseBody, dotIsRoot, depth + 1);
          break;
        default:
          break;
      }
    }
  };
  const visitPipeline = (pipeline: Pipeline, dotIsRoot: boolean) => {
    for (const command of pipeline.commands) visitCommand(command, dotIsRoot);
  };
  const visitCommand = (command: Command, dotIsRoot: boolean) => {
    const [head, ...args] = command.args;
    if (head?.kind === 'identifier' && COMPARISONS.has(head.name)) {
      const jsonNumber = args.find((a) => fromJson(a, dotIsRoot));
      if (jsonNumber) {
        for (const arg of args)
          if (arg.kind === 'number' && !arg.isFloat && !arg.isChar) report(ctx, template, head.name, arg, jsonNumber);
      }
    }
    for (const arg of command.args) if (arg.kind === 'paren') visitPipeline(arg.pipeline, dotIsRoot);
  };
  visitNodes(template.parsed.nodes, true, 0);
}

/** A chain read from step output or call parameters: JSON data, where numbers are float64. */
function fromJson(expr: ExprNode, dotIsRoot: boolean): boolean {
  const segments =
    expr.kind === 'field' && dotIsRoot
      ? expr.segments
      : expr.kind === 'variable' && expr.name === '$'
        ? expr.segments
        : undefined;
  if (!segments?.length) return false;
  if (segments[0]!.name === 'params') return segments.length >= 2;
  return segments[0]!.name === 'steps' && segments.length >= 4 && segments[2]!.name === 'output';
}

function report(
  ctx: RuleContext<typeof messages>,
  template: TemplateString,
  fn: string,
  literal: NumberNode,
  other: ExprNode,
): void {
  const asFloat = `${literal.text}.0`;
  const fixes: Fix[] = [];
  const span = /^[0-9]+$/.test(literal.text)
    ? exactSpan(ctx.file.source.text, template, literal.start, literal.end, literal.text)
    : undefined;
  if (span) fixes.push({ title: `Write ${asFloat}`, safe: false, edits: [{ span, newText: asFloat }] });
  const read = template.text.slice(other.start, other.end);
  ctx.report({
    messageId: 'integerComparison',
    data: { fn, literal: literal.text, read },
    span: template.map(literal.start, literal.end),
    fixes,
  });
}
