// When ToolHive refuses a workflow, in the words of the document's dialect. The CLI validator and
// the operator run the same checks at load (config.ValidateCompositeToolConfig); the checks made
// when the server starts (ConvertConfigToWorkflowDefinitions, composer.ValidateWorkflow) pass both
// and stop `vmcp serve` or the vMCP pod. Rules of several families say these, so they live here.
import type { DocumentKind } from '../types.js';

/**
 * Refused at load: `thv vmcp validate` and `vmcp serve` for a CLI file, the operator for a
 * VirtualMCPServer (VirtualMCPServer.Validate when it reconciles). Nothing checks a
 * VirtualMCPCompositeToolDefinition when it is applied (its Validate has no caller, and the
 * controller reads a `status.validationStatus` nothing sets): the operator copies it into the
 * configuration of each VirtualMCPServer that references it, and that server's vMCP pod refuses to
 * load the configuration when it starts.
 */
export function refusedAtLoad(kind: DocumentKind | null): string {
  if (kind === 'vmcp-config') return 'ToolHive refuses to load the configuration (`thv vmcp validate` fails too)';
  if (kind === 'vmcp-composite')
    return 'the definition is accepted as it is, but a vMCP server that references it refuses to start';
  return 'the operator refuses the resource and says why in its status';
}

/** Refused when the server starts: the load-time checks let it pass. */
export function refusedAtStart(kind: DocumentKind | null): string {
  return kind === 'vmcp-config'
    ? '`thv vmcp validate` lets it pass, but `vmcp serve` refuses to start'
    : 'the operator accepts the resource, but the vMCP server refuses to start';
}
