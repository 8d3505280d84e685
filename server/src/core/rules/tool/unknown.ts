// tool/unknown: a step's `tool` that the gateway cannot route. ToolHive says nothing at load time;
// when a session lists tools it silently leaves the whole composite tool out. A reference to a
// workload without a catalog is unknown, not wrong: reported at info with how to add the catalog.
import type { ToolRefResolution, UncataloguedWorkload } from '../../catalog/gateway.js';
import { listWords } from '../../catalog/gateway.js';
import { floorOf } from '../../floor/workflowFloor.js';
import { workflowsOf } from '../../model/workflow.js';
import type { ScalarNode } from '../../parse/nodes.js';
import { replaceScalarText, type EditContext } from '../../text/mappingEdits.js';
import type { Fix } from '../../types.js';
import type { Rule } from '../rule.js';
import { WORKFLOW_KINDS } from '../rule.js';

export const rule: Rule = {
  id: 'tool/unknown',
  defaultSeverity: 'warning',
  summary: 'A step names a tool the gateway cannot route (info when its server has no catalog).',
  kinds: WORKFLOW_KINDS,
  check(ctx) {
    const edit: EditContext = { text: ctx.file.source.text, json: ctx.file.language !== 'yaml' };
    for (const workflow of workflowsOf(ctx).workflows) {
      for (const entry of floorOf(ctx, workflow).entries) {
        const { resolution, step, stepId } = entry.step;
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
    addCatalogAdvice(missing) +
    suggestionSentence(resolution.suggestions)
  );
}

function serverNote(w: UncataloguedWorkload): string {
  return w.serverName !== w.name ? ` (server "${w.serverName}")` : '';
}

/** How to add a catalog, naming the server when there is one to name. */
export function addCatalogAdvice(workloads: readonly UncataloguedWorkload[]): string {
  const server = workloads.length === 1 ? workloads[0]!.serverName : undefined;
  const file = server ? `${server}.tools.json` : '<server>.tools.json';
  const fetch = server ? `tool-lens catalog fetch ${server}` : 'tool-lens catalog fetch';
  return (
    `To add one, save the server's tools/list result as ${file} or in a "catalog: 1" file (\`${fetch}\` writes one), ` +
    `list existing snapshots under catalogs: in .toollens.yaml, or map the workload to a catalogued server under workloads:.`
  );
}

function suggestionSentence(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return '';
  const quoted = suggestions.slice(0, 3).map((s) => `"${s}"`);
  const words = quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
  return ` Did you mean ${words}?`;
}

function didYouMean(edit: EditContext, scalar: ScalarNode, suggestions: readonly string[]): Fix[] {
  const fixes: Fix[] = [];
  for (const suggestion of suggestions.slice(0, 4)) {
    const change = replaceScalarText(edit, scalar, suggestion);
    if (change) fixes.push({ title: `Change the tool to "${suggestion}"`, safe: false, edits: [change] });
  }
  return fixes;
}
