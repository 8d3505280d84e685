// Can a step `condition` render exactly true/false? ToolHive compares the rendered string, without
// trimming, against true/True/TRUE/false/False/FALSE and fails the step otherwise. This check flags
// only what is certain from the text alone; anything that might hold a bool at run time passes.

import type { Command, ExprNode, ParsedTemplate, Pipeline, TemplateNode, TextNode } from './ast.js';

/**
 * Why a condition never renders true or false, as a code with data and no words (the rule
 * `template/condition-not-boolean` words it). Text and values are given in full, as rendered.
 */
export type ConditionReason =
  | { code: 'rendersEmpty' }
  /** Only text is printed (its actions print nothing): `text` is what it renders. */
  | { code: 'alwaysRendersText'; text: string }
  /** No action at all. */
  | { code: 'plainText'; text: string }
  /** Literal text beside what the template prints. */
  | { code: 'textBeside'; text: string }
  | { code: 'everyBranchPrintsText' }
  | { code: 'neverBooleanFunction'; name: NeverBooleanFunction }
  | { code: 'printfAddsText'; format: string }
  | { code: 'alwaysString'; value: string }
  | { code: 'alwaysNumber' };

export type ConditionVerdict = { ok: true } | { ok: false; reason: ConditionReason; start: number; end: number };

const OK: ConditionVerdict = { ok: true };

const BOOLEAN_TEXTS = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/** Characters that can appear in some spelling of true/false. */
const BOOLEAN_CHARS = new Set('truefalsTRUEFALS');

/** Functions whose result never prints as a bool, whatever their arguments. */
export type NeverBooleanFunction = 'quote' | 'len' | 'println';

const NEVER_BOOLEAN: ReadonlySet<string> = new Set<NeverBooleanFunction>(['quote', 'len', 'println']);

/** How deep the branch analysis looks into nested if/with/range; deeper means "not sure". */
const MAX_BRANCH_DEPTH = 32;

function hasNonBooleanChar(text: string): boolean {
  for (const ch of text) if (!BOOLEAN_CHARS.has(ch)) return true;
  return false;
}

/** Top-level nodes that print something. Comments and `{{$x := ...}}` print nothing. */
function isPrintingAction(node: TemplateNode): node is TemplateNode & { kind: 'action'; pipeline: Pipeline } {
  return node.kind === 'action' && node.pipeline !== null && node.pipeline.decl.length === 0;
}

export function checkConditionRendersBoolean(parsed: ParsedTemplate): ConditionVerdict {
  // Syntax errors are parseTemplate's business; an empty condition means "always run".
  if (parsed.errors.length > 0 || parsed.text === '') return OK;

  const texts: TextNode[] = [];
  const prints: (TemplateNode & { kind: 'action'; pipeline: Pipeline })[] = [];
  const blocks: TemplateNode[] = [];
  for (const node of parsed.nodes) {
    if (node.kind === 'text') {
      if (node.value !== '') texts.push(node);
    } else if (isPrintingAction(node)) {
      prints.push(node);
    } else if (node.kind !== 'comment' && node.kind !== 'action' && node.kind !== 'define') {
      blocks.push(node);
    }
  }

  if (prints.length === 0 && blocks.length === 0) {
    const rendered = texts.map((t) => t.value).join('');
    if (BOOLEAN_TEXTS.has(rendered)) return OK;
    if (rendered === '') {
      return { ok: false, reason: { code: 'rendersEmpty' }, start: 0, end: parsed.text.length };
    }
    const first = texts[0] as TextNode;
    const last = texts[texts.length - 1] as TextNode;
    return {
      ok: false,
      reason: { code: parsed.hasActions ? 'alwaysRendersText' : 'plainText', text: rendered },
      start: first.valueStart,
      end: last.valueEnd,
    };
  }

  for (const text of texts) {
    // Beside a printed value the text always ends up in the result; beside if/with/range only text
    // that no spelling of true/false contains is certain to spoil it.
    if (prints.length > 0 || hasNonBooleanChar(text.value)) {
      return {
        ok: false,
        reason: { code: 'textBeside', text: text.value },
        start: text.valueStart,
        end: text.valueEnd,
      };
    }
  }

  for (const block of blocks) {
    if (alwaysPrintsNonBoolean([block], 0)) {
      return {
        ok: false,
        reason: { code: 'everyBranchPrintsText' },
        start: block.start,
        end: block.end,
      };
    }
  }

  for (const action of prints) {
    const verdict = pipelineVerdict(action.pipeline, 0);
    if (verdict) return verdict;
  }
  return OK;
}

/** True when running `nodes` is certain to print a character that no true/false spelling has. */
function alwaysPrintsNonBoolean(nodes: TemplateNode[], depth: number): boolean {
  if (depth > MAX_BRANCH_DEPTH) return false;
  for (const node of nodes) {
    switch (node.kind) {
      case 'text':
        if (hasNonBooleanChar(node.value)) return true;
        break;
      case 'if':
      case 'with':
      case 'range':
        // Without an else the body may not run at all (a range may also loop zero times).
        if (
          node.elseBody &&
          alwaysPrintsNonBoolean(node.body, depth + 1) &&
          alwaysPrintsNonBoolean(node.elseBody, depth + 1)
        ) {
          return true;
        }
        break;
      default:
        break;
    }
  }
  return false;
}

/** A not-ok verdict when the pipeline's last command certainly does not print a bool. */
function pipelineVerdict(pipeline: Pipeline, depth: number): ConditionVerdict | null {
  const last: Command | undefined = pipeline.commands[pipeline.commands.length - 1];
  const head = last?.args[0];
  if (!last || !head) return null;
  const notOk = (reason: ConditionReason, at: ExprNode): ConditionVerdict => ({
    ok: false,
    reason,
    start: at.start,
    end: at.end,
  });
  switch (head.kind) {
    case 'identifier': {
      if (NEVER_BOOLEAN.has(head.name))
        return notOk({ code: 'neverBooleanFunction', name: head.name as NeverBooleanFunction }, head);
      if (head.name === 'printf') {
        const format = last.args[1];
        if (format?.kind === 'string' && hasNonBooleanChar(formatLiteralText(format.value))) {
          return notOk({ code: 'printfAddsText', format: format.value }, format);
        }
      }
      return null;
    }
    case 'string':
      // A piped value would be an error anyway; only judge a lone constant.
      if (last.args.length === 1 && pipeline.commands.length === 1 && !BOOLEAN_TEXTS.has(head.value)) {
        return notOk({ code: 'alwaysString', value: head.value }, head);
      }
      return null;
    case 'number':
      if (last.args.length === 1 && pipeline.commands.length === 1) {
        return notOk({ code: 'alwaysNumber' }, head);
      }
      return null;
    case 'paren':
      return last.args.length === 1 && depth < MAX_BRANCH_DEPTH ? pipelineVerdict(head.pipeline, depth + 1) : null;
    default:
      return null;
  }
}

/** The literal part of a printf format: verbs removed, `%%` turned into `%`. */
function formatLiteralText(format: string): string {
  return format.replace(/%(?:%|[-+# 0]*(?:\[\d+\])?(?:\d+|\*)?(?:\.(?:\d+|\*)?)?(?:\[\d+\])?[a-zA-Z])/g, (m) =>
    m === '%%' ? '%' : '',
  );
}
