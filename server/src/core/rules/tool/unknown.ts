// tool/unknown: a tool the gateway or the catalog cannot route. In a workflow, a step's `tool`:
// ToolHive says nothing at load time; when a session lists tools it silently leaves the whole
// composite tool out. A reference to a workload without a catalog is unknown, not wrong: reported at
// info with how to add the catalog. In a calls document: a called name the catalog does not have
// (`callToolFindings` in model/calls.ts, which also says once when the named server has no catalog).
import { addCatalogAdviceFor } from '../../wording/catalogAdvice.js';
import { serverNote, type ToolRefResolution } from '../../gateway/gateway.js';
import { toolStepsOf } from '../../gateway/steps.js';
import { CALL_KINDS, callToolFindings } from '../../calls/calls.js';
import type { ScalarNode } from '../../parse/nodes.js';
import { editContextOf, replaceScalarFixes, type EditContext } from '../../edit/mappingEdits.js';
import { listWords, quotedAlternatives } from '../../text/words.js';
import type { Fix } from '../../types.js';
import type { Rule } from '../rule.js';

export const rule: Rule = {
  id: 'tool/unknown',
  defaultSeverity: 'warning',
  summary: 'A step or call names a tool the gateway or catalog cannot route (info when its server has no catalog).',
  kinds: CALL_KINDS,
  check(ctx) {
    if (ctx.doc.kind === 'tool-calls') {
      for (const report of callToolFindings(ctx)) ctx.report(report);
      return;
    }
    const edit = editContextOf(ctx.file);
    for (const { workflow, step: resolved } of toolStepsOf(ctx)) {
      const { resolution, step, stepId } = resolved;
      const scalar = step.tool;
      if (!resolution || !scalar) continue;
      if (resolution.kind === 'unresolved') {
        ctx.report({
          message: unresolvedMessage(stepId, resolution, workflow.nameText),
          span: scalar.span,
          fixes: didYouMean(edit, scalar, resolution.suggestions),
        });
      } else if (resolution.kind === 'no-catalog') {
        ctx.report({
          message: noCatalogMessage(stepId, resolution),
          span: scalar.span,
          severity: 'info',
          fixes: didYouMean(edit, scalar, resolution.suggestions),
        });
      }
      // `dynamic` belongs to the envelope rules; `resolved` is fine.
    }
  },
};

function unresolvedMessage(stepId: string, resolution: Extract<ToolRefResolution, { kind: 'unresolved' }>, workflowName: string | undefined): string {
  const subject = `Step "${stepId}": tool "${resolution.ref}" does not resolve: ${resolution.detail}.`;
  const consequence =
    resolution.problem === 'conflict'
      ? ''
      : ` ToolHive cannot route this step, so it leaves the composite tool${workflowName ? ` "${workflowName}"` : ''} out of every session's tool list, and only its log says why.`;
  return subject + consequence + suggestionSentence(resolution.suggestions);
}

function noCatalogMessage(stepId: string, resolution: Extract<ToolRefResolution, { kind: 'no-catalog' }>): string {
  const ref = `Step "${stepId}": tool "${resolution.ref}"`;
  const opaque = resolution.workloads.filter((w) => w.reason === 'opaque');
  const missing = resolution.workloads.filter((w) => w.reason === 'no-catalog');
  if (missing.length === 0 && opaque.length > 0) {
    return (
      `${ref} matches no tool Tool Lens knows, but it may be the name that a Kubernetes MCPToolConfig gives a tool of ` +
      `${listWords(opaque.map((w) => `"${w.name}"`))}; Tool Lens cannot read that resource, so it cannot check this reference.` +
      suggestionSentence(resolution.suggestions)
    );
  }
  let who: string;
  if (missing.length === 0) who = 'is in no catalog; it may belong to a backend that Tool Lens has no catalog for';
  else if (missing.length === 1) who = `belongs to workload "${missing[0]!.name}"${serverNote(missing[0]!)}, which has no catalog`;
  else who = `may belong to ${listWords(missing.map((w) => `"${w.name}"`))}, which have no catalog`;
  return (
    `${ref} ${who}, so Tool Lens cannot check the name, its arguments or its annotations. ` +
    addCatalogAdviceFor(missing) +
    suggestionSentence(resolution.suggestions)
  );
}

function suggestionSentence(suggestions: readonly string[]): string {
  return suggestions.length ? ` Did you mean ${quotedAlternatives(suggestions.slice(0, 3))}?` : '';
}

function didYouMean(edit: EditContext, scalar: ScalarNode, suggestions: readonly string[]): Fix[] {
  return replaceScalarFixes(edit, scalar, suggestions.slice(0, 4), (s) => `Change the tool to "${s}"`);
}
