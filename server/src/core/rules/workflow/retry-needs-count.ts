import { getPair, getScalar, type MapNode } from '../../parse/nodes.js';
import { allSteps, workflowsOf, type StepModel } from '../../model/workflow.js';
import { editContextOf, insertPairs, plainEntry } from '../../edit/mappingEdits.js';
import type { Fix } from '../../types.js';
import { defineRule, type RuleContext } from '../rule.js';
import { WORKFLOW_KINDS } from '../../types.js';
import { schemaProblemsOf } from '../../structure/validate.js';

const messages = {
  noCount: () =>
    '`onError.action` is `retry` without a `retryCount`: add one (at least 1). ' +
    'No `retryCount` says how often: ToolHive refuses to load the workflow (the count would be 0).',
  countBelowOne: ({ count }: { count: number }) =>
    `\`retryCount\` is ${count}, but \`retry\` needs at least 1: set how many retries you want. ToolHive refuses to load the workflow.`,
};

export const rule = defineRule({
  id: 'workflow/retry-needs-count',
  defaultSeverity: 'error',
  summary: '`onError.action: retry` without `retryCount` of at least 1.',
  kinds: WORKFLOW_KINDS,
  messages,
  check(ctx) {
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const step of allSteps(workflow)) checkStep(ctx, step);
    }
  },
});

function checkStep(ctx: RuleContext<typeof messages>, step: StepModel): void {
  const onError = step.onError;
  if (!onError || step.onErrorAction !== 'retry') return;
  const target = editContextOf(ctx.file);
  const countPair = getPair(onError, 'retryCount');
  const count = getScalar(onError, 'retryCount');
  // How many retries the user wants is theirs to say: 1 is only the smallest that works.
  if (!countPair || (count && count.value === null)) {
    // A count written under another spelling (`maxRetries`, as some of ToolHive's own examples
    // write it) is one mistake: schema/unknown-key's "did you mean `retryCount`" says it.
    if (!countPair && countMisspelt(ctx, onError)) return;
    const action = getPair(onError, 'action')!;
    const edit = countPair ? undefined : insertPairs(target, onError, [plainEntry(target, 'retryCount', 1)], action);
    const fixes: Fix[] = edit ? [{ title: 'Add `retryCount: 1`', safe: false, edits: [edit] }] : [];
    ctx.report({
      messageId: 'noCount',
      span: (action.value ?? action.key).span,
      fixes,
    });
    return;
  }
  if (count && typeof count.value === 'number' && count.value < 1) {
    const fixes: Fix[] = [{ title: 'Set `retryCount: 1`', safe: false, edits: [{ span: count.span, newText: '1' }] }];
    ctx.report({
      messageId: 'countBelowOne',
      data: { count: count.value },
      span: count.span,
      fixes,
    });
  }
}

/** The onError mapping has a key schema/unknown-key takes for a misspelt `retryCount`. */
function countMisspelt(ctx: RuleContext<typeof messages>, onError: MapNode): boolean {
  const keys = new Set(onError.pairs.map((pair) => pair.key.span.start));
  return schemaProblemsOf(ctx).some(
    (p) =>
      p.rule === 'schema/unknown-key' &&
      p.reason === 'misspelt' &&
      p.suggestion === 'retryCount' &&
      keys.has(p.span.start),
  );
}
