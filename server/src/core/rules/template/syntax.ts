import { templatesOf, type TemplateString } from '../../model/templates.js';
import { defineRule } from '../rule.js';
import { delimiterProblem } from '../../templates/delimiters.js';
import { WORKFLOW_KINDS } from '../../types.js';
import { headlineFits } from '../../wording/headlines.js';

export const rule = defineRule({
  id: 'template/syntax',
  defaultSeverity: 'error',
  summary: 'A `{{ }}` template that does not parse.',
  kinds: WORKFLOW_KINDS,
  messages: {
    /** `error`: the template parser's words; `template`: the string, whose place says when the error bites. */
    syntax: ({ error, template }: { error: string; template: TemplateString }) => `${headline(capitalize(error))} ${consequence(template)}`,
  },
  check(ctx) {
    for (const template of templatesOf(ctx).strings) {
      for (const error of template.errors) {
        ctx.report({ messageId: 'syntax', data: { error: error.message, template }, span: error.span });
      }
    }
  },
});

/**
 * The parser's words, with what to do first: a list of known names goes after the headline, and a
 * long sentence is split at its first `;` (what is wrong and what to do come before it).
 */
function headline(words: string): string {
  const unknown = /^(Function "[^"]*" is not defined); known functions: (.*)$/.exec(words);
  if (unknown) return `${unknown[1]}: use a known one. Known functions: ${unknown[2]}.`;
  const split = words.indexOf('; ');
  if (!headlineFits(`${words}.`) && split > 0) return `${words.slice(0, split)}. ${capitalize(words.slice(split + 2))}.`;
  return `${words}.`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1).replace(/\.$/, '');
}

/** When the error bites depends on where the string is. */
function consequence(template: TemplateString): string {
  if (template.checkedAtLoad) return 'ToolHive parses this template when it loads the workflow and refuses the configuration.';
  if (template.field === 'output') {
    if (delimiterProblem(template.text) !== undefined) return 'ToolHive checks that the braces of output values pair up when the server starts, and refuses to start.';
    return 'ToolHive does not parse output values when it loads the workflow; rendering this one fails after every step has run, so the property falls back to its `default` or the call fails.';
  }
  return 'ToolHive only parses nested argument strings when the step runs, so the workflow loads and then this step fails on every call.';
}

