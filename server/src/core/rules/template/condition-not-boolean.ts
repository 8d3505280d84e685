import { exactSpan, templatesOf, type TemplateString } from '../../model/templates.js';
import {
  checkConditionRendersBoolean,
  type Command,
  type ExprNode,
  type NumberNode,
  type Pipeline,
  type TemplateNode,
} from '../../templates/index.js';
import type { Fix } from '../../types.js';
import type { Rule, RuleContext } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';

// Go's comparison functions refuse to compare a float with an integer ("incompatible types for
// comparison"), and every number that came from JSON (step output, call arguments) is a float64.
const COMPARISONS = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge']);

export const rule: Rule = {
  id: 'template/condition-not-boolean',
  defaultSeverity: 'warning',
  summary: 'A condition that cannot render true or false.',
  kinds: WORKFLOW_KINDS,
  check(ctx) {
    for (const template of templatesOf(ctx).strings) {
      if (template.field !== 'condition' || template.parsed.errors.length) continue; // syntax errors: template/syntax
      const verdict = checkConditionRendersBoolean(template.parsed);
      if (!verdict.ok) {
        ctx.report({
          message:
            'This condition never renders exactly true or false: make it a comparison or a boolean. ' +
            `${verdict.reason.charAt(0).toUpperCase()}${verdict.reason.slice(1)}. ToolHive only accepts a condition that renders exactly true or false ` +
            '(`true`, `True` or `TRUE`, and the same for false); anything else fails the step on every run.',
          span: template.map(verdict.start, verdict.end > verdict.start ? verdict.end : Math.min(verdict.start + 1, template.text.length)),
        });
        continue;
      }
      integerComparisons(ctx, template);
    }
  },
};

function integerComparisons(ctx: RuleContext, template: TemplateString): void {
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
        for (const arg of args) if (arg.kind === 'number' && !arg.isFloat && !arg.isChar) report(ctx, template, head.name, arg, jsonNumber);
      }
    }
    for (const arg of command.args) if (arg.kind === 'paren') visitPipeline(arg.pipeline, dotIsRoot);
  };
  visitNodes(template.parsed.nodes, true, 0);
}

/** A chain read from step output or call parameters: JSON data, where numbers are float64. */
function fromJson(expr: ExprNode, dotIsRoot: boolean): boolean {
  const segments = expr.kind === 'field' && dotIsRoot ? expr.segments : expr.kind === 'variable' && expr.name === '$' ? expr.segments : undefined;
  if (!segments?.length) return false;
  if (segments[0]!.name === 'params') return segments.length >= 2;
  return segments[0]!.name === 'steps' && segments.length >= 4 && segments[2]!.name === 'output';
}

function report(ctx: RuleContext, template: TemplateString, fn: string, literal: NumberNode, other: ExprNode): void {
  const asFloat = `${literal.text}.0`;
  const fixes: Fix[] = [];
  const span = /^[0-9]+$/.test(literal.text) ? exactSpan(ctx.file.source.text, template, literal.start, literal.end, literal.text) : undefined;
  if (span) fixes.push({ title: `Write ${asFloat}`, safe: false, edits: [{ span, newText: asFloat }] });
  const read = template.text.slice(other.start, other.end);
  ctx.report({
    message:
      `\`${fn}\` compares a JSON number with the integer ${literal.text}: write ${asFloat}. ` +
      `It compares ${read} with ${literal.text}, but numbers that come from JSON (step output and call ` +
      `parameters) are floats: Go refuses to compare a float with an integer, so the condition fails the step.`,
    span: template.map(literal.start, literal.end),
    fixes,
  });
}
