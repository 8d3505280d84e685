// When ToolHive refuses a workflow, in the words of the document's dialect. The CLI validator and
// the operator run the same checks at load (config.ValidateCompositeToolConfig); the checks made
// when the server starts (ConvertConfigToWorkflowDefinitions, composer.ValidateWorkflow) pass both
// and stop `vmcp serve` or the vMCP pod. Rules of several families say these, so they live here.
import type { DocumentKind } from '../types.js';

/** Refused at load: `thv vmcp validate` and `vmcp serve` for a CLI file, the operator for a resource. */
export function refusedAtLoad(kind: DocumentKind | null): string {
  return kind === 'vmcp-config'
    ? 'ToolHive refuses to load the configuration (`thv vmcp validate` fails too)'
    : 'the operator refuses the resource and says why in its status';
}

/** Refused when the server starts: the load-time checks let it pass. */
export function refusedAtStart(kind: DocumentKind | null): string {
  return kind === 'vmcp-config'
    ? '`thv vmcp validate` lets it pass, but `vmcp serve` refuses to start'
    : 'the operator accepts the resource, but the vMCP server refuses to start';
}
