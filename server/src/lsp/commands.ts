// Server-side commands the client calls through `workspace/executeCommand`: the derived floor,
// reloading catalogs from disk, the dynamic tools for "Insert call envelope" and the envelope text
// itself, the workflow graph (nodes, `dependsOn` edges, each step's annotation class), and the MCP
// servers a live catalog can be fetched from (liveFetch.ts; the fetch itself is a request of its own).
import { stringify } from 'yaml';
import type { ExecuteCommandParams } from 'vscode-languageserver';
import { CALL_DYNAMIC_TOOL, type CatalogTool, type DynamicNamespace } from '../core/catalog/model.js';
import { documentContext } from '../core/context.js';
import { floorMarkdown, floorOf } from '../core/floor/workflowFloor.js';
import { stepIdOf, type ResolvedStep } from '../core/gateway/steps.js';
import { effectiveAnnotations, type StepEntry } from '../core/floor/floor.js';
import { placeholderFor } from '../core/jsonschema/arguments.js';
import { isObject, topLevelProperties } from '../core/jsonschema/properties.js';
import { MCP_DETAILS_PLACEHOLDER } from '../core/calls/calls.js';
import { workflowsOf, type StepModel, type WorkflowModel } from '../core/model/workflow.js';
import type { ParsedFile } from '../core/parse/file.js';
import { WORKFLOW_KINDS } from '../core/types.js';
import {
  SERVER_COMMANDS,
  type AnnotationClass,
  type CallEnvelopeParams,
  type CallEnvelopeResult,
  type CatalogState,
  type DocumentPositionArgs,
  type DynamicToolItem,
  type FloorReport,
  type WorkflowGraph,
  type WorkflowGraphNode,
} from './protocol.js';
import { advertisedTools } from './advertisedTools.js';
import { liveServers } from './liveFetch.js';
import type { Folders } from './folders.js';
import type { Session } from './session.js';

export const SERVER_COMMAND_IDS: string[] = Object.values(SERVER_COMMANDS);


/**
 * Runs a server command. A command about a document runs in the workspace folder that holds it;
 * `refreshCatalogs` reads every folder again and answers their catalog state as one; the others
 * (dynamic tools, live servers) are the first folder's, as live fetches are.
 */
export async function executeCommand(folders: Folders, params: ExecuteCommandParams): Promise<unknown> {
  await folders.ready();
  const arg: unknown = params.arguments?.[0];
  const session = isPositionArgs(arg) ? folders.ofUri(arg.uri) : folders.primary;
  switch (params.command) {
    case SERVER_COMMANDS.floor:
      return isPositionArgs(arg) ? floorReports(session, arg) : [];
    case SERVER_COMMANDS.refreshCatalogs:
      return refreshCatalogs(folders);
    case SERVER_COMMANDS.dynamicTools:
      return dynamicTools(session);
    case SERVER_COMMANDS.callEnvelope:
      return isEnvelopeParams(arg) ? callEnvelope(session, arg) : null;
    case SERVER_COMMANDS.workflowGraph:
      return isPositionArgs(arg) ? workflowGraphs(session, arg) : [];
    case SERVER_COMMANDS.liveServers:
      return liveServers(session);
    case SERVER_COMMANDS.advertisedTools:
      return isPositionArgs(arg) ? advertisedTools(session, arg) : [];
    case SERVER_COMMANDS.acceptCatalog:
      for (const accepting of isPositionArgs(arg) ? [session] : folders.all()) accepting.acceptBaseline();
      return null;
    default:
      session.log(`unknown command ${params.command}`);
      return null;
  }
}

function isPositionArgs(value: unknown): value is DocumentPositionArgs {
  return typeof value === 'object' && value !== null && typeof (value as { uri?: unknown }).uri === 'string';
}

function isEnvelopeParams(value: unknown): value is CallEnvelopeParams {
  if (!isPositionArgs(value)) return false;
  const v = value as unknown as Record<string, unknown>;
  return typeof v.server === 'string' && typeof v.namespace === 'string' && typeof v.tool === 'string' && typeof v.position === 'object';
}

/** The workflows of a document, or only the one around a position. */
function workflowsAt(session: Session, args: DocumentPositionArgs): { file: ParsedFile; ctx: ReturnType<typeof documentContext>; workflow: WorkflowModel }[] {
  const file = session.fileOfUri(args.uri);
  if (!file?.kind) return [];
  const offset = args.position ? file.source.offsetAt(args.position) : undefined;
  const out: { file: ParsedFile; ctx: ReturnType<typeof documentContext>; workflow: WorkflowModel }[] = [];
  for (const doc of file.documents) {
    if (!doc.kind || !WORKFLOW_KINDS.includes(doc.kind)) continue;
    const ctx = documentContext(file, doc, session.workspace);
    for (const workflow of workflowsOf(ctx).workflows) out.push({ file, ctx, workflow });
  }
  if (offset === undefined) return out;
  const around = out.filter(({ workflow }) => offset >= workflow.node.span.start && offset <= workflow.node.span.end);
  return around.length ? around.slice(-1) : out;
}

function floorReports(session: Session, args: DocumentPositionArgs): FloorReport[] {
  return workflowsAt(session, args).map(({ file, ctx, workflow }) => ({
    workflow: workflow.nameText ?? '(unnamed composite tool)',
    line: file.source.positionAt((workflow.name ?? workflow.node).span.start).line,
    markdown: floorMarkdown(floorOf(ctx, workflow)),
  }));
}

function refreshCatalogs(folders: Folders): CatalogState {
  for (const session of folders.all()) session.load();
  return folders.catalogState();
}

function dynamicTools(session: Session): DynamicToolItem[] {
  const catalog = session.workspace.catalog;
  const out: DynamicToolItem[] = [];
  for (const name of catalog.serverNames) {
    for (const namespace of catalog.server(name)?.namespaces ?? []) {
      for (const tool of namespace.tools) {
        out.push({ server: name, namespace: namespace.name, tool: tool.name, description: tool.description, external: namespace.external, status: namespace.status });
      }
    }
  }
  return out;
}

/** The envelope for a dynamic tool, in the document's syntax, indented for the position. */
function callEnvelope(session: Session, params: CallEnvelopeParams): CallEnvelopeResult | null {
  const namespace = session.workspace.catalog.namespace(params.server, params.namespace);
  const tool = namespace?.tools.find((t) => t.name === params.tool);
  if (!namespace || !tool) return null;
  const value = envelopeValue(namespace, tool);
  const file = session.fileOfUri(params.uri);
  const language = file?.language ?? 'yaml';
  if (language === 'jsonl') return { text: JSON.stringify(value) };
  const lineText = file ? file.source.lineText(params.position.line) : '';
  if (language === 'json') {
    const indentation = /^[ \t]*/.exec(lineText)![0];
    return { text: JSON.stringify(value, null, 2).split('\n').join(`\n${indentation}`) };
  }
  // YAML: continuation lines line up with the column the envelope starts at.
  const column = ' '.repeat(Math.min(params.position.character, lineText.length));
  const yaml = stringify(value, { indent: 2, lineWidth: 0 }).replace(/\n$/, '');
  return { text: yaml.split('\n').join(`\n${column}`) };
}

function envelopeValue(namespace: DynamicNamespace, tool: CatalogTool): Record<string, unknown> {
  const root = isObject(tool.inputSchema) ? tool.inputSchema : {};
  // fromEntries defines own properties: an argument named `__proto__` stays an argument.
  const args: Record<string, unknown> = Object.fromEntries(
    [...topLevelProperties(root).properties.values()]
      .filter((property) => property.required)
      // A required property's default is what the user most likely wants; else a value of its type.
      .map((property) => [property.name, 'default' in property.schema ? property.schema.default : placeholderFor(property.schema, root)]),
  );
  const input: Record<string, unknown> = { namespace: namespace.name, toolName: tool.name, arguments: args };
  if (namespace.external) input.mcpDetails = { description: MCP_DETAILS_PLACEHOLDER };
  return { tool: CALL_DYNAMIC_TOOL, input };
}

// ---------------------------------------------------------------------------------------------
// Workflow graph

function workflowGraphs(session: Session, args: DocumentPositionArgs): WorkflowGraph[] {
  return workflowsAt(session, args).map(({ file, ctx, workflow }) => {
    const floor = floorOf(ctx, workflow);
    const entries = new Map<StepModel, StepEntry<ResolvedStep>>(floor.entries.map((e) => [e.step.step, e]));
    const nodes: WorkflowGraphNode[] = workflow.steps.map((step) => {
      const toolStep = step.type === 'forEach' ? step.inner : step.type === 'tool' ? step : undefined;
      const entry = toolStep ? entries.get(toolStep) : undefined;
      const { annotationClass, detail } = classify(step, entry);
      return {
        id: stepIdOf(step),
        tool: toolStep?.toolText,
        type: step.type,
        annotationClass,
        detail,
        line: file.source.positionAt(step.node.span.start).line,
      };
    });
    const known = new Set(nodes.map((n) => n.id));
    const edges = workflow.steps.flatMap((step) =>
      step.dependsOn.map((d) => ({ from: String(d.value), to: stepIdOf(step) })).filter((e) => known.has(e.from)),
    );
    return { workflow: workflow.nameText ?? '(unnamed composite tool)', uri: session.uriOf(file.path), nodes, edges };
  });
}

function classify(step: StepModel, entry: StepEntry<ResolvedStep> | undefined): { annotationClass: AnnotationClass; detail: string } {
  if (!entry) {
    return step.type === 'elicitation'
      ? { annotationClass: 'no-tool', detail: 'elicitation: asks the user, calls no tool' }
      : { annotationClass: 'no-tool', detail: 'calls no tool' };
  }
  if (!entry.known) return { annotationClass: 'unknown', detail: `unknown: ${entry.reason}` };
  const declared = entry.annotations;
  // The MCP defaults for absent hints are the floor's (effectiveAnnotations), not ours to repeat.
  const effective = effectiveAnnotations(declared);
  if (effective.readOnlyHint) return { annotationClass: 'read-only', detail: 'declares readOnlyHint: true' };
  if (effective.destructiveHint === false) return { annotationClass: 'additive', detail: 'declares destructiveHint: false (changes things, destroys nothing)' };
  return {
    annotationClass: 'destructive',
    detail: declared.destructiveHint === true ? 'declares destructiveHint: true' : 'omits destructiveHint, which counts as destructive',
  };
}
