// workflow/collection-not-array: a forEach `collection` written without a template that is no JSON
// array. ToolHive renders the collection when the step runs and parses the result as a JSON array
// (resolveForEachCollection in pkg/vmcp/composer/workflow_engine.go); text with no `{{` renders
// as itself, so a literal that does not parse as an array (`abc`, `a, b`, `{"a": 1}`) fails the
// step every time it runs. `null` parses (as no items) and passes. A collection with a template
// depends on the data of the run and is not judged.
import { allSteps, workflowsOf } from '../../model/workflow.js';
import { WORKFLOW_KINDS } from '../../types.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  id: 'workflow/collection-not-array',
  defaultSeverity: 'error',
  summary: 'A literal forEach `collection` that is no JSON array: the step fails every time it runs.',
  kinds: WORKFLOW_KINDS,
  messages: {
    /** `what`: what the text is instead, in words. */
    notArray: ({ what }: { what: string }) =>
      `This collection is ${what}, not a JSON array: write one, such as \`["a", "b"]\`. ` +
      'Or write a template that renders one. ' +
      'ToolHive parses the rendered collection as a JSON array when the step runs (resolveForEachCollection), ' +
      'and text without `{{` renders as itself, so the step fails every time it runs.',
  },
  check(ctx) {
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const step of allSteps(workflow)) {
        const collection = step.type === 'forEach' ? step.collection : undefined;
        if (!collection || typeof collection.value !== 'string' || collection.value.includes('{{')) continue;
        const what = notArray(collection.value);
        if (what) ctx.report({ messageId: 'notArray', data: { what }, span: collection.span });
      }
    }
  },
});

/** What the text parses as when it is no array (or null), in words; undefined when Go would take it. */
function notArray(text: string): string | undefined {
  if (text.trim() === '') return undefined; // an empty collection is schema/invalid-value's (refused at load)
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'plain text';
  }
  if (value === null || Array.isArray(value)) return undefined;
  if (typeof value === 'object') return 'a JSON object';
  return `a JSON ${typeof value === 'string' ? 'string' : typeof value === 'number' ? 'number' : 'boolean'}`;
}
