// Server-side commands the client calls through `workspace/executeCommand`: the derived floor,
// reloading catalogs from disk, the dynamic tools for "Insert call envelope" and the envelope text
// itself, the workflow graph (nodes, `dependsOn` edges, each step's annotation class), and the MCP
// servers a live catalog can be fetched from (liveFetch.ts; the fetch itself is a request of its own).
import { fileURLToPath } from 'node:url';
import { ErrorCodes, ResponseError, type ExecuteCommandParams } from 'vscode-languageserver';
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
import { isWithin } from './paths.js';
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
  // Any extension, keybinding or client can run these with any arguments: each is checked before
  // anything runs, and a wrong one is an InvalidParams error that says what is wrong.
  const command: unknown = params.command;
  if (typeof command !== 'string' || !SERVER_COMMAND_IDS.includes(command))
    throw invalid(
      `unknown command ${typeof command === 'string' ? JSON.stringify(command.slice(0, 100)) : `of type ${typeof command}`}`,
    );
  const args: unknown = params.arguments ?? [];
  if (!Array.isArray(args)) throw invalid(`${command}: the arguments must be a list`);
  await folders.ready();
  switch (command) {
    case SERVER_COMMANDS.floor: {
      const target = documentArgs(folders, command, args, true);
      return target.known ? floorReports(target.session, target.args) : [];
    }
    case SERVER_COMMANDS.refreshCatalogs:
      noArgs(command, args);
      return refreshCatalogs(folders);
    case SERVER_COMMANDS.dynamicTools:
      noArgs(command, args);
      return dynamicTools(folders.primary);
    case SERVER_COMMANDS.callEnvelope: {
      const target = documentArgs(folders, command, args, true);
      const envelope = envelopeArgs(command, args[0] as Record<string, unknown>);
      return callEnvelope(target.session, { ...envelope, uri: target.args.uri }, target.known);
    }
    case SERVER_COMMANDS.workflowGraph: {
      const target = documentArgs(folders, command, args, true);
      return target.known ? workflowGraphs(target.session, target.args, findingsOf) : [];
    }
    case SERVER_COMMANDS.liveServers:
      noArgs(command, args);
      return liveServers(folders.primary);
    case SERVER_COMMANDS.advertisedTools: {
      const target = documentArgs(folders, command, args, false);
      return target.known ? advertisedTools(target.session, target.args) : [];
    }
    case SERVER_COMMANDS.rules:
      noArgs(command, args);
      return ALL_RULES.map((rule): RuleItem => ({
        id: rule.id,
        defaultSeverity: rule.defaultSeverity,
        summary: rule.summary,
      }));
    case SERVER_COMMANDS.documentKind: {
      const target = documentArgs(folders, command, args, false);
      return target.known ? documentKind(target.session, target.args) : { kind: null };
    }
    case SERVER_COMMANDS.acceptCatalog: {
      const sessions = args.length === 0 ? folders.all() : [documentArgs(folders, command, args, false).session];
      for (const accepting of sessions) accepting.acceptBaseline();
      return null;
    }
    default:
      throw invalid(`unknown command ${JSON.stringify(command.slice(0, 100))}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The arguments

/** Bounds on what a command is given: longer than any real URI or name, far shorter than harm. */
const MAX_URI_LENGTH = 8_192;
const MAX_NAME_LENGTH = 4_096;
/** LSP's uinteger. */
const MAX_POSITION = 2 ** 31 - 1;

function invalid(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, message);
}

function noArgs(command: string, args: unknown[]): void {
  if (args.length > 0) throw invalid(`${command} takes no arguments`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positionOf(command: string, value: unknown): { line: number; character: number } {
  if (!isRecord(value)) throw invalid(`${command}: the position must be an object with line and character`);
  const { line, character } = value;
  for (const [name, n] of [
    ['line', line],
    ['character', character],
  ] as const) {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_POSITION)
      throw invalid(`${command}: the position's ${name} must be a whole number from 0 to ${MAX_POSITION}`);
  }
  return { line: line as number, character: character as number };
}

/**
 * The document a command is about (`[{uri, position?}]`), and the folder that holds it. `known`:
 * the server has it (a file of a folder, or one the editor opened); a file URI inside a folder
 * the server does not hold (not one of ours) gets the answer of a file of no kind. A document that
 * is neither in a workspace folder nor open in the editor is refused: nothing is ever read for a
 * command, so a URI is never a way to reach a file.
 */
function documentArgs(
  folders: Folders,
  command: string,
  args: unknown[],
  withPosition: boolean,
): { session: Session; args: DocumentPositionArgs; known: boolean } {
  if (args.length !== 1) throw invalid(`${command} takes one argument, {uri${withPosition ? ', position?' : ''}}`);
  const value = args[0];
  if (!isRecord(value) || typeof value.uri !== 'string')
    throw invalid(`${command}: the argument must be {uri: string}`);
  const uri = value.uri;
  if (uri.length === 0 || uri.length > MAX_URI_LENGTH)
    throw invalid(`${command}: the URI must have 1 to ${MAX_URI_LENGTH} characters`);
  const position =
    withPosition && value.position !== undefined && value.position !== null
      ? positionOf(command, value.position)
      : undefined;
  const session = folders.ofUri(uri);
  const documentArgs: DocumentPositionArgs = position ? { uri, position } : { uri };
  if (session.entryOf(uri)) return { session, args: documentArgs, known: true };
  let absolute: string | undefined;
  if (uri.startsWith('file:')) {
    try {
      absolute = fileURLToPath(uri);
    } catch {
      throw invalid(`${command}: ${JSON.stringify(uri.slice(0, 200))} is not a file URI`);
    }
  }
  if (absolute === undefined || !folders.all().some((s) => s.root !== undefined && isWithin(s.root, absolute)))
    throw invalid(
      `${command}: ${JSON.stringify(uri.slice(0, 200))} is neither in a workspace folder nor open in the editor`,
    );
  return { session, args: documentArgs, known: false };
}

/** The tool of `callEnvelope` (`[{uri, position, server, namespace, tool}]`). */
function envelopeArgs(command: string, value: Record<string, unknown>): Omit<CallEnvelopeParams, 'uri'> {
  const names: Record<'server' | 'namespace' | 'tool', string> = { server: '', namespace: '', tool: '' };
  for (const key of ['server', 'namespace', 'tool'] as const) {
    const name = value[key];
    if (typeof name !== 'string' || name.length === 0 || name.length > MAX_NAME_LENGTH)
      throw invalid(`${command}: ${key} must be a name of 1 to ${MAX_NAME_LENGTH} characters`);
    names[key] = name;
  }
  if (value.position === undefined) throw invalid(`${command}: the position is missing`);
  return { ...names, position: positionOf(command, value.position) };
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
function callEnvelope(session: Session, params: CallEnvelopeParams, known: boolean): CallEnvelopeResult | null {
  const namespace = session.workspace.catalog.namespace(params.server, params.namespace);
  const tool = namespace?.tools.find((t) => t.name === params.tool);
  if (!namespace || !tool) return null;
  const file = known ? session.fileOfUri(params.uri) : undefined;
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
