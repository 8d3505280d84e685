// Server-side commands the client calls through `workspace/executeCommand`: the derived floor,
// reloading catalogs from disk, the dynamic tools for "Insert call envelope" and the envelope text
// itself, the workflow graph (nodes, `dependsOn` edges, each step's annotation class), and the MCP
// servers a live catalog can be fetched from (liveFetch.ts; the fetch itself is a request of its own).
import type { ExecuteCommandParams } from 'vscode-languageserver';
import { documentContext } from '../core/context.js';
import { floorMarkdown, floorOf } from '../core/floor/workflowFloor.js';
import { workflowsOf, type WorkflowModel } from '../core/model/workflow.js';
import { ALL_RULES } from '../core/rules/registry.js';
import type { ParsedFile } from '../core/parse/file.js';
import { WORKFLOW_KINDS, type Finding } from '../core/types.js';
import {
  SERVER_COMMANDS,
  type CallEnvelopeParams,
  type CallEnvelopeResult,
  type CatalogState,
  type DocumentKindResult,
  type DocumentPositionArgs,
  type DynamicToolItem,
  type FloorReport,
  type RuleItem,
  type WorkflowGraph,
} from './protocol.js';
import { workflowGraph } from '../core/ide/graph.js';
import { advertisedTools } from './advertisedTools.js';
import { planEnvelope } from '../core/ide/envelope.js';
import { liveServers } from './liveFetch.js';
import type { Folders } from './folders.js';
import type { Session } from './session.js';

export const SERVER_COMMAND_IDS: string[] = Object.values(SERVER_COMMANDS);

/** The current findings of a document (its diagnostics), when the server has them. */
export type FindingsOf = (uri: string) => readonly Finding[] | undefined;

/**
 * Runs a server command. A command about a document runs in the workspace folder that holds it;
 * `refreshCatalogs` reads every folder again and answers their catalog state as one; the others
 * (dynamic tools, live servers) are the first folder's, as live fetches are. The graph marks the
 * findings of `findingsOf` (the diagnostics' report of the document).
 */
export async function executeCommand(
  folders: Folders,
  params: ExecuteCommandParams,
  findingsOf: FindingsOf = () => undefined,
): Promise<unknown> {
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
      return isPositionArgs(arg) ? workflowGraphs(session, arg, findingsOf) : [];
    case SERVER_COMMANDS.liveServers:
      return liveServers(session);
    case SERVER_COMMANDS.advertisedTools:
      return isPositionArgs(arg) ? advertisedTools(session, arg) : [];
    case SERVER_COMMANDS.rules:
      return ALL_RULES.map((rule): RuleItem => ({
        id: rule.id,
        defaultSeverity: rule.defaultSeverity,
        summary: rule.summary,
      }));
    case SERVER_COMMANDS.documentKind:
      return isPositionArgs(arg) ? documentKind(session, arg) : { kind: null };
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
  return (
    typeof v.server === 'string' &&
    typeof v.namespace === 'string' &&
    typeof v.tool === 'string' &&
    typeof v.position === 'object'
  );
}

/** The workflows of a document, or only the one around a position. */
function workflowsAt(
  session: Session,
  args: DocumentPositionArgs,
): { file: ParsedFile; ctx: ReturnType<typeof documentContext>; workflow: WorkflowModel }[] {
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

/** Whether a document is one Tool Lens checks (the configuration counts): what the language status item is shown for. */
function documentKind(session: Session, args: DocumentPositionArgs): DocumentKindResult {
  const entry = session.entryOf(args.uri);
  if (entry && session.isConfig(entry)) return { kind: 'toollens-config' };
  return { kind: session.fileOfUri(args.uri)?.kind ?? null };
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
        out.push({
          server: name,
          namespace: namespace.name,
          tool: tool.name,
          description: tool.description,
          external: namespace.external,
          status: namespace.status,
        });
      }
    }
  }
  return out;
}

/**
 * The envelope for a dynamic tool, placed by the document's structure (envelope.ts): one replacement
 * as plain text and as a snippet, or why it cannot be inserted there.
 */
function callEnvelope(session: Session, params: CallEnvelopeParams): CallEnvelopeResult | null {
  const namespace = session.workspace.catalog.namespace(params.server, params.namespace);
  const tool = namespace?.tools.find((t) => t.name === params.tool);
  if (!namespace || !tool) return null;
  const file = session.fileOfUri(params.uri);
  const offset = file ? file.source.offsetAt(params.position) : 0;
  const plan = planEnvelope(file, offset, namespace, tool);
  if ('refused' in plan) return { refused: plan.refused };
  const range = file
    ? { start: file.source.positionAt(plan.start), end: file.source.positionAt(plan.end) }
    : { start: params.position, end: params.position };
  return { range, text: plan.text, snippet: plan.snippet };
}

// ---------------------------------------------------------------------------------------------
// Workflow graph (graph.ts)

function workflowGraphs(session: Session, args: DocumentPositionArgs, findingsOf: FindingsOf): WorkflowGraph[] {
  const findings = findingsOf(args.uri) ?? [];
  return workflowsAt(session, args).map(({ file, ctx, workflow }) => ({
    ...workflowGraph(file, ctx, workflow, findings),
    uri: session.uriOf(file.path),
  }));
}
