// Can a step `condition` render exactly true/false? ToolHive compares the rendered string, without
// trimming, against true/True/TRUE/false/False/FALSE and fails the step otherwise. This check flags
// only what is certain from the text alone; anything that might hold a bool at run time passes.

import type { Command, ExprNode, ParsedTemplate, Pipeline, TemplateNode, TextNode } from './ast.js';

export type ConditionVerdict = { ok: true } | { ok: false; reason: string; start: number; end: number };

const OK: ConditionVerdict = { ok: true };

const BOOLEAN_TEXTS = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/** Characters that can appear in some spelling of true/false. */
const BOOLEAN_CHARS = new Set('truefalsTRUEFALS');

/** Functions whose result never prints as a bool, whatever their arguments. */
const NEVER_BOOLEAN: Record<string, string> = {
  quote: 'quote wraps its result in double quotes',
  len: 'len returns a number',
  println: 'println adds a newline',
};

/** How deep the branch analysis looks into nested if/with/range; deeper means "not sure". */
const MAX_BRANCH_DEPTH = 32;

function show(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}...` : text);
}

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
      return { ok: false, reason: 'the condition renders an empty string; it must render true or false', start: 0, end: parsed.text.length };
    }
    const first = texts[0] as TextNode;
    const last = texts[texts.length - 1] as TextNode;
    return {
      ok: false,
      reason: parsed.hasActions
        ? `the condition always renders ${show(rendered)}, never true or false`
        : `the condition is plain text ${show(rendered)}, which is never true or false; write a template such as {{eq .params.x "yes"}}`,
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
        reason: `the literal text ${show(text.value)} beside the template is part of the rendered condition, so it cannot be exactly true or false`,
        start: text.valueStart,
        end: text.valueEnd,
      };
    }
  }

  for (const block of blocks) {
    if (alwaysPrintsNonBoolean([block], 0)) {
      return {
        ok: false,
        reason: 'every branch of this block prints text that is not true or false',
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
        if (node.elseBody && alwaysPrintsNonBoolean(node.body, depth + 1) && alwaysPrintsNonBoolean(node.elseBody, depth + 1)) {
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
  const notOk = (reason: string, at: ExprNode): ConditionVerdict => ({ ok: false, reason, start: at.start, end: at.end });
  switch (head.kind) {
    case 'identifier': {
      const why = Object.hasOwn(NEVER_BOOLEAN, head.name) ? NEVER_BOOLEAN[head.name] : undefined;
      if (why) return notOk(`${why}, so the condition can never be exactly true or false`, head);
      if (head.name === 'printf') {
        const format = last.args[1];
        if (format?.kind === 'string' && hasNonBooleanChar(formatLiteralText(format.value))) {
          return notOk(`the printf format ${show(format.value)} adds text, so the condition can never be exactly true or false`, format);
        }
      }
      return null;
    }
    case 'string':
      // A piped value would be an error anyway; only judge a lone constant.
      if (last.args.length === 1 && pipeline.commands.length === 1 && !BOOLEAN_TEXTS.has(head.value)) {
        return notOk(`the condition always renders the string ${show(head.value)}, never true or false`, head);
      }
      return null;
    case 'number':
      if (last.args.length === 1 && pipeline.commands.length === 1) {
        return notOk('the condition always renders a number, never true or false', head);
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
  return format.replace(/%(?:%|[-+# 0]*(?:\[\d+\])?(?:\d+|\*)?(?:\.(?:\d+|\*)?)?(?:\[\d+\])?[a-zA-Z])/g, (m) => (m === '%%' ? '%' : ''));
}
