// schema/missing-field: a required field is absent. The validation (schema/validate.ts) says which
// field, of which object and which subschema requires it; the words here say what its absence
// costs at run time: per field where we know (MISSING_EFFECT), else by who reads the document.
import { headlineFits } from '../../wording/headlines.js';
import { defineRule, reportShare } from '../rule.js';
import { ensurePeriod } from '../../text/words.js';
import { capitalize } from '../../text/words.js';
import { DOCUMENT_KINDS, type DocumentKind } from '../../types.js';
import { schemaProblemsOf } from '../../structure/validate.js';
import { clientViewOf, rejectedTransportOf } from '../../model/clients.js';
import type { DocumentContext } from '../../context.js';
import type { MissingFieldProblem } from '../../structure/problems.js';

const messages = {
  /** The validation's problem is the data: which field, of which object, and what its absence costs. */
  missing: (problem: MissingFieldProblem) => messageOf(problem),
};

export const rule = defineRule({
  id: 'schema/missing-field',
  defaultSeverity: 'error',
  summary: 'A required field is absent.',
  kinds: DOCUMENT_KINDS,
  messages,
  check(ctx) {
    const explained = transportExplained(ctx);
    const problems = schemaProblemsOf(ctx).filter(
      (p) => !(p.rule === 'schema/missing-field' && explained.has(`${p.span.start}\0${p.field}`)),
    );
    reportShare(ctx, messages, 'schema/missing-field', problems, (problem) => ({
      messageId: 'missing',
      data: problem,
      span: problem.span,
    }));
  },
});

/**
 * The `url` or `command` that a client-configuration entry lacks only because its `type` is one its
 * client does not accept: client/invalid-transport reports that `type`, and says how the client
 * reads the entry (VS Code runs `"type": "streamable-http"` with a `command` as stdio), so the
 * field's absence is the same mistake, not a second one. Keys: the entry key's start and the field.
 */
function transportExplained(ctx: DocumentContext): Set<string> {
  const explained = new Set<string>();
  if (ctx.doc.kind !== 'mcp-servers') return explained;
  const view = clientViewOf(ctx);
  for (const server of view.servers) {
    if (rejectedTransportOf(view, server) === undefined) continue;
    for (const field of ['url', 'command']) explained.add(`${server.pair.key.span.start}\0${field}`);
  }
  return explained;
}

function messageOf(problem: MissingFieldProblem): string {
  const { field, schemaName } = problem;
  const known =
    schemaName !== undefined && Object.hasOwn(MISSING_EFFECT, `${schemaName}.${field}`)
      ? MISSING_EFFECT[`${schemaName}.${field}`]
      : undefined;
  const branch = problem.branchDescription !== undefined ? ensurePeriod(problem.branchDescription) : undefined;
  const why =
    (known !== undefined ? capitalize(known) : undefined) ??
    `${branch ? `${branch} ` : ''}${capitalize(problem.byCrd ? CRD_REQUIRES : effectOf(problem.kind, problem.inFace))}.`;
  // What to do on the row: rename the key probably meant, else add the field; a deep place moves to the why.
  const todo = problem.misspeltAs !== undefined ? `rename \`${problem.misspeltAs}\` to it` : 'add it';
  const placed = `${capitalize(subjectOf(problem))} has no \`${field}\`: ${todo}.`;
  if (headlineFits(placed)) return `${placed} ${why}`;
  return `This mapping has no \`${field}\`: ${todo}. It is ${subjectOf(problem)}. ${why}`;
}

/** The object: its place, or the document (a JSONL line is one call). */
function subjectOf(problem: MissingFieldProblem): string {
  if (problem.place !== undefined) return `\`${problem.place}\``;
  return problem.callLine ? 'this call' : 'the document';
}

/** A field only the CRD's schema requires (MissingFieldProblem.byCrd). */
const CRD_REQUIRES = 'the CRD requires it, so the API server refuses the resource when it is applied';

/** What a missing field costs, by who reads the document, where MISSING_EFFECT does not know better. */
function effectOf(kind: DocumentKind, inFace: boolean): string {
  if (inFace) return 'without it the runtime cannot apply the face';
  switch (kind) {
    case 'vmcp-config':
      return 'without it ToolHive refuses to load the configuration';
    case 'vmcp-server':
    case 'vmcp-composite':
      return 'without it the ToolHive operator (or Kubernetes) rejects the resource';
    case 'tool-catalog':
      return 'without it Tool Lens cannot read this part of the catalog';
    case 'tool-calls':
      return 'without it the entry describes no call Tool Lens can check';
    case 'mcp-servers':
      return 'without it the client cannot use this entry';
    default:
      return 'it is required here';
  }
}

/** What a missing field costs, by `<schema name>.<field>` (schema names: `nameSubschemas` in schema/validate.ts). */
const MISSING_EFFECT: Record<string, string> = {
  'vmcp-config/allOf/1/then.name':
    'A file with server settings (`groupRef`, `backends`, auth) is a whole vMCP configuration, and ToolHive refuses to load one without `name`.',
  'vmcp-config/allOf/1/then.groupRef':
    'A file with server settings (`name`, `backends`, auth) is a whole vMCP configuration, and ToolHive refuses to load one ' +
    'without the group whose workloads are its backends.',
  'vmcp-config/allOf/1/then.aggregation':
    'A file with server settings (`name`, `groupRef`, `backends`, auth) is a whole vMCP configuration, and ToolHive refuses to ' +
    'load one without an `aggregation` block (`conflictResolution: prefix` is the usual choice).',
  'vmcp-config/allOf/1/then.incomingAuth':
    'A file with server settings is a whole vMCP configuration, and ToolHive refuses to load one without `incomingAuth` ' +
    '(`{type: anonymous}` lets every client in, `oidc` checks their tokens).',
  'vmcp-config/allOf/1/then.outgoingAuth':
    'A file with server settings is a whole vMCP configuration, and ToolHive refuses to load one without `outgoingAuth` ' +
    '(`{source: inline, default: {type: unauthenticated}}` when the backends need no credentials).',
  'CompositeTool.name': 'ToolHive refuses a composite tool without a name: it is the name clients call it by.',
  'CompositeTool.description':
    "ToolHive's validator refuses a composite tool without a description (clients show it to the model to decide when to call the tool).",
  'CompositeTool.steps': 'ToolHive refuses a composite tool without steps.',
  'WorkflowStep.id': 'ToolHive refuses a step without an id: `dependsOn` and `.steps.<id>` templates name steps by it.',
  // ValidateStepType and ValidateForEachStep (config/composite_validation.go), at load in both dialects.
  'WorkflowStep/allOf/0/then.tool':
    'A step is a tool call unless its `type` says otherwise, and ToolHive refuses to load a tool step that names no tool. ' +
    'Add the `tool` to call, or set `type` (`elicitation` to ask the user, `forEach` to loop).',
  'WorkflowStep/allOf/1/then.message':
    'ToolHive refuses to load an elicitation step without the `message` it shows the user.',
  'WorkflowStep/allOf/2/then.collection':
    'ToolHive refuses to load a forEach step without the `collection` it loops over (a template that renders a JSON array).',
  'WorkflowStep/allOf/2/then.step':
    'ToolHive refuses to load a forEach step without the inner `step` it runs for each item (a tool step).',
  'ForEachInnerStep/then.tool':
    'An inner step can only call a tool, and ToolHive refuses to load one that names no `tool`.',
  'CliElicitationResponseHandler/then.action':
    "ToolHive's CLI validator refuses an elicitation step's handler without `action` (`abort`, `continue` or `skip_remaining`): " +
    'nothing fills it in a CLI configuration (only a Kubernetes resource gets `abort` from the CRD).',
  'OutputConfig.properties':
    'ToolHive refuses an `output` block without `properties`: they are the fields of the result.',
  'OutputProperty.type': 'ToolHive refuses an output property without a `type`: it converts the rendered value to it.',
  'OutputProperty.description':
    'ToolHive refuses to start when an output property has no description (it is advertised in the outputSchema).',
  'WorkloadToolConfig.workload': 'ToolHive refuses the entry: its filter and overrides would apply to no backend.',
  'WorkloadToolConfig/properties/toolConfigRef.name': 'the operator cannot find the MCPToolConfig without its name.',
  'CompositeToolRef.name':
    'ToolHive refuses a reference without the name of the VirtualMCPCompositeToolDefinition it points at.',
  'vmcp-server.apiVersion': 'Kubernetes rejects an object without `apiVersion`.',
  'vmcp-server.kind': 'Kubernetes rejects an object without `kind`.',
  'vmcp-server.spec': 'the operator has nothing to run without `spec`.',
  'vmcp-server/properties/spec.groupRef':
    'the VirtualMCPServer needs the MCPGroup whose servers are its backends; the operator rejects it without one.',
  'vmcp-server/properties/spec/properties/groupRef.name': 'the operator cannot find the MCPGroup without its name.',
  'vmcp-server/properties/spec.incomingAuth':
    'The CRD requires it, so the API server refuses the VirtualMCPServer without one: add `incomingAuth: {type: anonymous}` ' +
    'when clients need no authentication (the operator fills no default for it).',
  'vmcp-server/properties/spec/properties/incomingAuth.type':
    'The CRD requires it (`anonymous` or `oidc`), so the API server refuses the VirtualMCPServer.',
  // The CRD's required fields and CEL rules on spec's references: the API server refuses the resource at apply.
  'vmcp-server/properties/spec/properties/incomingAuth/allOf/0/then.oidcConfigRef':
    "The CRD's rule: `type: oidc` needs an `oidcConfigRef` naming the MCPOIDCConfig with the OIDC settings, so the API server refuses the VirtualMCPServer at apply.",
  'vmcp-server/properties/spec/properties/telemetryConfigRef.name':
    'The CRD requires the name of the MCPTelemetryConfig, so the API server refuses the VirtualMCPServer at apply.',
  'vmcp-server/properties/spec/properties/outgoingAuth/properties/backends/additionalProperties.type':
    'The CRD requires the backend auth `type` (`discovered` or `externalAuthConfigRef`), so the API server refuses the VirtualMCPServer at apply.',
  // VirtualMCPServer.validateBackendAuth (cmd/thv-operator/api/v1beta1/virtualmcpserver_types.go), not the CRD.
  'vmcp-server/properties/spec/properties/outgoingAuth/properties/backends/additionalProperties/then.externalAuthConfigRef':
    "The operator's check (VirtualMCPServer.Validate): `type: externalAuthConfigRef` needs the `externalAuthConfigRef` that names the MCPExternalAuthConfig, so the operator refuses the VirtualMCPServer and does not run it.",
  'vmcp-server/properties/spec/properties/outgoingAuth/properties/default/then.externalAuthConfigRef':
    "The operator's check (VirtualMCPServer.Validate): `type: externalAuthConfigRef` needs the `externalAuthConfigRef` that names the MCPExternalAuthConfig, so the operator refuses the VirtualMCPServer and does not run it.",
  'vmcp-composite.apiVersion': 'Kubernetes rejects an object without `apiVersion`.',
  'vmcp-composite.kind': 'Kubernetes rejects an object without `kind`.',
  'vmcp-composite.spec': 'the resource defines no composite tool without `spec`.',
  'Snapshot.servers':
    'a snapshot without `servers` describes no server, so every reference to its tools stays unknown.',
  'CatalogServer.name':
    'workflows and calls name servers by it, so Tool Lens ignores a server without a name and its tools stay unknown.',
  'Namespace.name':
    'calls name the namespace in their envelope, so a namespace without a name cannot be called; Tool Lens ignores it.',
  'Tool.name':
    'MCP requires it: clients reject the whole tool list when one tool has no name, and Tool Lens ignores the tool.',
  'Tool.inputSchema':
    'MCP requires it (`{"type": "object"}` for a tool without arguments): clients reject the whole tool list when one tool lacks it.',
  'Tool/properties/icons/items.src': 'an icon without `src` shows nothing; clients may reject it.',
  'ToolList.tools': 'a tools/list result without `tools` lists no tool.',
  'face-overlay.server':
    'an overlay applies to the tools of one server, named here; without it the faces apply to nothing.',
  'face-overlay.toolFaces': 'the overlay has no faces to apply.',
  'PathTarget.param':
    'the runtime cannot guard a path without knowing which argument holds it, so it refuses to mount the tool.',
  'PathTarget.access':
    'the runtime must know whether the tool reads or writes the path; it refuses to mount the tool without `access`.',
  'Server/allOf/0/then.command':
    'a stdio server is started from its `command`; without it the client has nothing to run.',
  'Server/allOf/1/then.url':
    'an http or sse server is reached at its `url`; without it the client has nowhere to connect.',
  'Input.type': 'VS Code cannot prompt for the value without knowing the kind of input.',
  'Input.id': 'servers read the value as `${input:<id>}`; without an id nothing can use it.',
  'Input.description': 'VS Code shows the description as the prompt; it refuses an input without one.',
  'tool-calls.calls': 'a calls file lists its calls under `calls`.',
  'CallEntry/then/then.params':
    'a JSON-RPC tools/call request carries the tool name and its arguments in `params`; the server refuses it without.',
  'CallEntry/then/then/properties/params.name': 'the server cannot tell which tool to call and answers with an error.',
};
