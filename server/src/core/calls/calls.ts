// Typed view of tool calls, wherever they are written: the entries of a `tool-calls` document in
// its four shapes (`{tool, input}`, a tool_use block `{name, input}`, tools/call params
// `{name, arguments}`, a JSON-RPC request whose response may come later in the log), and the tool
// steps of a workflow. For each call: the name and arguments nodes, what the name resolves to in the
// catalog, and for a `call_dynamic_tool` envelope its inner fields (also when written under an alias
// the runtime does not accept) and the dynamic tool they reach. The envelope, result and argument
// rules read this (model/argumentCheck.ts checks the arguments of every call site), and tool/unknown
// reports `callToolFindings` for calls documents.
import { gatewayOf, type Gateway, type ToolRefResolution } from '../gateway/gateway.js';
import {
  homesOf,
  listedToolOf,
  namedNamespacesOf,
  namespaceOf,
  namespaceTool,
  qualifiedDynamicTool,
  type CatalogIndex,
} from '../catalog/index.js';
import {
  CALL_DYNAMIC_TOOL,
  GET_DYNAMIC_TOOLS,
  type CatalogServer,
  type CatalogTool,
  type DynamicNamespace,
} from '../catalog/model.js';
import { toolStepsOf } from '../gateway/steps.js';
import { isTemplateString } from '../jsonschema/arguments.js';
import { memoKey } from '../memo.js';
import type { ParsedFile } from '../parse/file.js';
import {
  getBoolean,
  getNode,
  getPair,
  getSeq,
  getString,
  isMap,
  isScalar,
  keyText,
  type MapNode,
  type Node,
  type Pair,
  type ScalarNode,
} from '../parse/nodes.js';
import { suggestionBudgetOf, type DocumentContext } from '../context.js';
import type { CallSubject } from '../wording/callSubjects.js';
import { closestN, type SuggestionBudget } from '../text/suggest.js';
import { WORKFLOW_KINDS, type DocumentKind, type Span } from '../types.js';

/** What a fix writes where the user must say why an external namespace is called. */
export const MCP_DETAILS_PLACEHOLDER = '<one sentence saying why you are calling this>';

/** The kinds whose calls this module reads. */
export const CALL_KINDS: readonly DocumentKind[] = ['tool-calls', ...WORKFLOW_KINDS];

type EnvelopeFieldName = 'namespace' | 'toolName' | 'arguments' | 'mcpDetails';
const ENVELOPE_FIELDS: readonly EnvelopeFieldName[] = ['namespace', 'toolName', 'arguments', 'mcpDetails'];

/**
 * Keys models and people send instead of the envelope's fields. The runtime reads none of them:
 * the field counts as missing; the runtime names them in its refusal message
 * (docs/mcp.md#field-aliases).
 */
const ENVELOPE_ALIASES: Readonly<Record<string, EnvelopeFieldName>> = {
  tool: 'toolName',
  name: 'toolName',
  tool_name: 'toolName',
  function: 'toolName',
  toolname: 'toolName',
  args: 'arguments',
  input: 'arguments',
  params: 'arguments',
  parameters: 'arguments',
  arguments_: 'arguments',
  ns: 'namespace',
  package: 'namespace',
  package_id: 'namespace',
  packageId: 'namespace',
};

function aliasTarget(key: string): EnvelopeFieldName | undefined {
  return Object.hasOwn(ENVELOPE_ALIASES, key) ? ENVELOPE_ALIASES[key] : undefined;
}

// ---------------------------------------------------------------------------------------------
// The model

/** How an entry is written: `{tool, input}`, a tool_use block, tools/call params, JSON-RPC, or a workflow step. */
type CallShape = 'tool-input' | 'tool-use' | 'tools-call' | 'jsonrpc' | 'step';

/** What the called name is, in the catalog. */
type CallTarget =
  /** A listed tool of a server. */
  | { kind: 'tool'; server: CatalogServer; tool: CatalogTool }
  /** `get_dynamic_tools` of a server with namespaces: nothing to check. */
  | { kind: 'meta'; server: CatalogServer }
  /** `call_dynamic_tool`: the servers it may go to (one when the document or step says which). */
  | { kind: 'envelope'; servers: CatalogServer[] }
  /**
   * A dynamic tool called by its bare name. `toolName` is its name in the namespace; `envelopeName`
   * is how to write `call_dynamic_tool` in this place (`agent.call_dynamic_tool` in a workflow), or
   * undefined when no rewrite is certain.
   */
  | { kind: 'dynamic'; server: CatalogServer; toolName: string; namespaces: DynamicNamespace[]; envelopeName?: string }
  /** Several catalogued servers answer this name and the document does not say which it calls. */
  | { kind: 'ambiguous'; servers: CatalogServer[] }
  /** No catalogued server has it. `server` is set when the document names a catalogued server. */
  | { kind: 'unknown'; server?: CatalogServer; suggestions: string[] }
  /** The server is not catalogued (or there is no catalog at all): nothing can be known. */
  | { kind: 'no-catalog'; serverName?: string }
  /** A workflow step whose tool the gateway rules explain (unresolved, hidden...): not ours. */
  | { kind: 'other' }
  | { kind: 'no-name' };

interface EnvelopeField {
  field: EnvelopeFieldName;
  pair: Pair;
  /** The key as written. */
  key: string;
  /** True when `key` is an alias, not the field's own name. */
  alias: boolean;
  value: Node | null;
}

type EnvelopeResolution =
  | { kind: 'ok'; server: CatalogServer; namespace: DynamicNamespace; tool: CatalogTool }
  /** No usable namespace: absent, empty, or not a string. */
  | { kind: 'no-namespace' }
  | { kind: 'unknown-namespace'; servers: CatalogServer[]; suggestions: string[] }
  /** A known namespace but no usable tool name. */
  | { kind: 'no-tool'; server: CatalogServer; namespace: DynamicNamespace }
  | {
      kind: 'unknown-tool';
      server: CatalogServer;
      namespace: DynamicNamespace;
      suggestions: string[];
      /** Other namespaces of the server that hold a tool of this name. */
      elsewhere: DynamicNamespace[];
      /** The name is a listed tool of the server (called directly, not through the envelope). */
      listed: boolean;
    }
  /** Several candidate servers have this namespace. */
  | { kind: 'ambiguous'; servers: CatalogServer[] }
  /** A template fills it at run time, or no catalog says anything. */
  | { kind: 'unknowable' };

export interface Envelope {
  /** The envelope's own mapping: the call's input. */
  map: MapNode;
  /** Each field as the runtime would look for it; an alias stands in when the field itself is absent. */
  fields: Partial<Record<EnvelopeFieldName, EnvelopeField>>;
  /** Aliases of a field that is given anyway: the runtime ignores their values. */
  shadowed: EnvelopeField[];
  namespaceText?: string;
  toolNameText?: string;
  resolution: EnvelopeResolution;
}

interface RecordedResult {
  /** The `result` pair: of the entry itself, or of the JSON-RPC response with the request's id. */
  pair: Pair;
  isError: boolean;
  /** The `structuredContent` pair, when present (its value may be an explicit null). */
  structured?: Pair;
}

export interface CallSite {
  origin: 'calls' | 'step';
  shape: CallShape;
  /** The whole entry (or step). */
  entry: MapNode;
  /** The mapping that holds the name and the arguments: the entry, JSON-RPC `params`, or the step. */
  container: MapNode;
  namePair?: Pair;
  name?: ScalarNode;
  nameText?: string;
  /** The key the arguments go under in this shape. */
  argsKey: 'input' | 'arguments';
  argsPair?: Pair;
  /** The arguments as written, whatever their type. */
  args?: Node;
  /** Who messages about this site are about (wording/callSubjects.ts says it). */
  subject: CallSubject;
  target: CallTarget;
  /** Set when the call is `call_dynamic_tool` and its input is a mapping. */
  envelope?: Envelope;
  /** The tool whose schemas apply: the listed tool, or the dynamic tool an envelope reaches. */
  tool?: CatalogTool;
  result?: RecordedResult;
  /** Workflow steps: strings may hold templates that only run time fills. */
  templated: boolean;
}

export interface CallsDocument {
  calls: CallSite[];
  /** The top-level `server:` of a calls document. */
  serverName?: string;
  serverNode?: ScalarNode;
}

const KEY = memoKey<CallsDocument>('calls');

/** The calls of this document (entries of a calls document, or the tool steps of a workflow). */
export function callsOf(ctx: DocumentContext): CallsDocument {
  return ctx.memo.get(KEY, () => {
    const kind = ctx.doc.kind;
    if (kind === 'tool-calls') return callsDocument(ctx);
    if (kind && WORKFLOW_KINDS.includes(kind)) return { calls: stepCalls(ctx) };
    return { calls: [] };
  });
}

// ---------------------------------------------------------------------------------------------
// Calls documents

/** The entries of one document: its `calls` list, or the line itself in JSONL. */
function entriesOfDocument(file: ParsedFile, root: Node | null): Node[] {
  if (file.language === 'jsonl') return root ? [root] : [];
  return getSeq(root, 'calls')?.items ?? [];
}

type EntryRole = 'call' | 'response' | 'other';

function roleOf(entry: MapNode): EntryRole {
  if (getPair(entry, 'method')) return getString(entry, 'method') === 'tools/call' ? 'call' : 'other';
  // A call names its tool (a tool_use block has an id too, and may carry its result).
  if (getPair(entry, 'name') || getPair(entry, 'tool')) return 'call';
  if (getPair(entry, 'jsonrpc') || getPair(entry, 'id')) {
    if (getPair(entry, 'result') || getPair(entry, 'error')) return 'response';
    if (getPair(entry, 'jsonrpc')) return 'other';
  }
  // Anything else is meant as a call without a name: schema/missing-field says so.
  return 'call';
}

function idKey(entry: MapNode): string | undefined {
  const id = getNode(entry, 'id');
  if (!isScalar(id) || id.value === null) return undefined;
  return `${typeof id.value}:${String(id.value)}`;
}

// Responses pair with requests across the documents of a file (a JSONL line is a document), so the
// pairing is computed once per parsed file.
const responseMaps = new WeakMap<ParsedFile, Map<MapNode, MapNode>>();

/** JSON-RPC request entry → its response entry (first unanswered request with the same id). */
function responsesOf(file: ParsedFile): Map<MapNode, MapNode> {
  let map = responseMaps.get(file);
  if (map) return map;
  map = new Map();
  const lists =
    file.language === 'jsonl'
      ? [file.documents.flatMap((d) => entriesOfDocument(file, d.root))]
      : file.documents.map((d) => entriesOfDocument(file, d.root));
  for (const entries of lists) {
    const pending = new Map<string, MapNode[]>();
    for (const entry of entries) {
      if (!isMap(entry)) continue;
      const id = idKey(entry);
      if (id === undefined) continue;
      const role = roleOf(entry);
      if (role === 'call' && getPair(entry, 'method')) {
        const queue = pending.get(id);
        if (queue) queue.push(entry);
        else pending.set(id, [entry]);
      } else if (role === 'response') {
        const request = pending.get(id)?.shift();
        if (request) map.set(request, entry);
      }
    }
  }
  responseMaps.set(file, map);
  return map;
}

function callsDocument(ctx: DocumentContext): CallsDocument {
  const { file, doc } = ctx;
  const root = doc.root;
  const serverNode = file.language === 'jsonl' ? undefined : getNode(root, 'server');
  const serverScalar = isScalar(serverNode) ? serverNode : undefined;
  const serverName =
    typeof serverScalar?.value === 'string' && serverScalar.value.trim() !== '' ? serverScalar.value : undefined;
  const responses = responsesOf(file);
  const calls: CallSite[] = [];
  const entries = entriesOfDocument(file, root);
  entries.forEach((entry, index) => {
    if (!isMap(entry) || roleOf(entry) !== 'call') return;
    const place =
      file.language === 'jsonl' ? `on line ${file.source.positionAt(entry.span.start).line + 1}` : `#${index + 1}`;
    const site = callEntry(ctx, entry, place, serverName, responses.get(entry));
    if (site) calls.push(site);
  });
  return { calls, serverName, serverNode: serverScalar };
}

function callEntry(
  ctx: DocumentContext,
  entry: MapNode,
  place: string,
  serverName: string | undefined,
  response: MapNode | undefined,
): CallSite | undefined {
  let shape: CallShape;
  let container: MapNode = entry;
  let namePair: Pair | undefined;
  let argsKey: 'input' | 'arguments';
  if (getPair(entry, 'method')) {
    const params = getNode(entry, 'params');
    // A request without params is schema/missing-field's finding.
    if (!isMap(params)) return undefined;
    shape = 'jsonrpc';
    container = params;
    namePair = getPair(params, 'name');
    argsKey = 'arguments';
  } else if (getPair(entry, 'tool')) {
    shape = 'tool-input';
    namePair = getPair(entry, 'tool');
    argsKey = getPair(entry, 'input') || !getPair(entry, 'arguments') ? 'input' : 'arguments';
  } else {
    namePair = getPair(entry, 'name');
    const useBlock =
      getString(entry, 'type') === 'tool_use' ||
      (getPair(entry, 'input') !== undefined && !getPair(entry, 'arguments'));
    shape = useBlock ? 'tool-use' : 'tools-call';
    argsKey = useBlock ? 'input' : 'arguments';
  }
  const name = isScalar(namePair?.value) ? namePair.value : undefined;
  const nameText = typeof name?.value === 'string' && name.value.trim() !== '' ? name.value : undefined;
  const argsPair = getPair(container, argsKey);
  const target: CallTarget =
    nameText === undefined
      ? { kind: 'no-name' }
      : resolveCallName(ctx.workspace.catalog, serverName, nameText, suggestionBudgetOf(ctx));
  const site: CallSite = {
    origin: 'calls',
    shape,
    entry,
    container,
    namePair,
    name,
    nameText,
    argsKey,
    argsPair,
    args: argsPair?.value ?? undefined,
    subject: { kind: 'call', name: nameText, place },
    target,
    templated: false,
    result: resultOf(entry, response),
  };
  finishSite(site, suggestionBudgetOf(ctx));
  return site;
}

function resultOf(entry: MapNode, response: MapNode | undefined): RecordedResult | undefined {
  const pair = getPair(entry, 'result') ?? getPair(response, 'result');
  if (!pair) return undefined;
  const node = pair.value;
  return {
    pair,
    isError: isMap(node) && getBoolean(node, 'isError') === true,
    structured: isMap(node) ? getPair(node, 'structuredContent') : undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// Resolving a called name against the catalog

/** Namespaces with a usable name (an empty one is catalog/*'s finding and can never be called). */
export function namedNamespaces(server: CatalogServer): readonly DynamicNamespace[] {
  return namedNamespacesOf(server);
}

/** A server that runs call_dynamic_tool: it has namespaces, or lists the meta tool itself. */
function servesEnvelopes(server: CatalogServer): boolean {
  return namedNamespaces(server).length > 0 || listedToolOf(server, CALL_DYNAMIC_TOOL) !== undefined;
}

/**
 * The catalog's servers (each once, by name), and which of them may answer a name: one index per
 * catalog, so a calls document of thousands of entries does not walk every server per entry.
 */
interface CallIndex {
  servers: CatalogServer[];
  /** The servers that run call_dynamic_tool. */
  runtimes: CatalogServer[];
  /** Every name `targetIn` may answer for some server → those servers, in order. */
  byName: Map<string, CatalogServer[]>;
  /** What may be called somewhere, for "did you mean". */
  callable: string[];
}

const CALL_INDEX = {};

function callIndexOf(catalog: CatalogIndex): CallIndex {
  return catalog.derived(CALL_INDEX, () => {
    const servers: CatalogServer[] = [];
    const known = new Set<CatalogServer>();
    for (const name of catalog.serverNames) {
      const server = catalog.server(name);
      if (server && !known.has(server)) {
        known.add(server);
        servers.push(server);
      }
    }
    const byName = new Map<string, CatalogServer[]>();
    const add = (name: string, server: CatalogServer) => {
      const list = byName.get(name);
      if (!list) byName.set(name, [server]);
      else if (list[list.length - 1] !== server) list.push(server);
    };
    for (const server of servers) {
      if (servesEnvelopes(server)) for (const meta of [CALL_DYNAMIC_TOOL, GET_DYNAMIC_TOOLS]) add(meta, server);
      for (const tool of server.tools) add(tool.name, server);
      for (const ns of namedNamespaces(server)) {
        for (const tool of ns.tools) {
          add(tool.name, server);
          add(`${ns.name}/${tool.name}`, server);
          add(`${ns.name}.${tool.name}`, server);
        }
      }
    }
    return { servers, runtimes: servers.filter(servesEnvelopes), byName, callable: servers.flatMap(callableNames) };
  });
}

/** What `name` is in one server, or undefined when the server has nothing of that name. */
function targetIn(server: CatalogServer, name: string): CallTarget | undefined {
  if (name === CALL_DYNAMIC_TOOL && servesEnvelopes(server)) return { kind: 'envelope', servers: [server] };
  if (name === GET_DYNAMIC_TOOLS && servesEnvelopes(server)) return { kind: 'meta', server };
  const tool = listedToolOf(server, name);
  if (tool) return { kind: 'tool', server, tool };
  const homes = homesOf(server, name).filter((ns) => ns.name.trim() !== '');
  if (homes.length > 0)
    return { kind: 'dynamic', server, toolName: name, namespaces: homes, envelopeName: CALL_DYNAMIC_TOOL };
  // `applets/applet_create` (the runtime's own identity of a dynamic tool) or `applets.applet_create`:
  // still a bare name to the dispatcher.
  const qualified = qualifiedDynamicTool(server, name);
  if (qualified)
    return {
      kind: 'dynamic',
      server,
      toolName: qualified.toolName,
      namespaces: [qualified.namespace],
      envelopeName: CALL_DYNAMIC_TOOL,
    };
  return undefined;
}

/**
 * A name called in a calls document: in the named server, or else looked up in every catalogued
 * server (found in several: ambiguous).
 */
function resolveCallName(
  catalog: CatalogIndex,
  serverName: string | undefined,
  name: string,
  budget: SuggestionBudget,
): CallTarget {
  if (serverName !== undefined) {
    const server = catalog.server(serverName);
    if (!server) return { kind: 'no-catalog', serverName };
    return (
      targetIn(server, name) ?? {
        kind: 'unknown',
        server,
        suggestions: closestN(name, callableNames(server), 3, { budget }),
      }
    );
  }
  const index = callIndexOf(catalog);
  const servers = index.servers;
  if (servers.length === 0) return { kind: 'no-catalog' };
  if (name === CALL_DYNAMIC_TOOL) {
    const runtimes = index.runtimes;
    return runtimes.length > 0 ? { kind: 'envelope', servers: runtimes } : { kind: 'unknown', suggestions: [] };
  }
  const hits: CallTarget[] = [];
  for (const server of index.byName.get(name) ?? []) {
    const hit = targetIn(server, name);
    if (hit) hits.push(hit);
  }
  if (hits.length === 1) return hits[0]!;
  if (hits.length > 1) {
    if (hits.every((h) => h.kind === 'meta')) return hits[0]!;
    return { kind: 'ambiguous', servers: hits.map(serverOfTarget).filter((s): s is CatalogServer => s !== undefined) };
  }
  return { kind: 'unknown', suggestions: closestN(name, index.callable, 3, { budget }) };
}

const callable = new WeakMap<CatalogServer, string[]>();

function callableNames(server: CatalogServer): string[] {
  let names = callable.get(server);
  if (!names) {
    const all = server.tools.map((t) => t.name);
    if (servesEnvelopes(server)) all.push(CALL_DYNAMIC_TOOL, GET_DYNAMIC_TOOLS);
    callable.set(server, (names = [...new Set(all)]));
  }
  return names;
}

function serverOfTarget(target: CallTarget): CatalogServer | undefined {
  switch (target.kind) {
    case 'tool':
    case 'meta':
    case 'dynamic':
      return target.server;
    case 'envelope':
      return target.servers[0];
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Workflow steps

function stepCalls(ctx: DocumentContext): CallSite[] {
  const gateway = gatewayOf(ctx);
  const calls: CallSite[] = [];
  for (const { step: resolved } of toolStepsOf(ctx)) {
    const { step, resolution, stepId } = resolved;
    if (!step.tool || !resolution || step.toolText === undefined) continue;
    const namePair = getPair(step.node, 'tool');
    const argsPair = getPair(step.node, 'arguments');
    const site: CallSite = {
      origin: 'step',
      shape: 'step',
      entry: step.node,
      container: step.node,
      namePair,
      name: step.tool,
      nameText: step.toolText,
      argsKey: 'arguments',
      argsPair,
      args: argsPair?.value ?? undefined,
      subject: { kind: 'step', stepId },
      target: stepTarget(gateway, resolution),
      templated: true,
    };
    finishSite(site, suggestionBudgetOf(ctx));
    calls.push(site);
  }
  return calls;
}

function stepTarget(gateway: Gateway, resolution: ToolRefResolution): CallTarget {
  const catalog = gateway.catalog;
  switch (resolution.kind) {
    case 'dynamic': {
      const server = catalog.server(resolution.workload);
      if (!server) return { kind: 'other' };
      const namespaces = resolution.namespaces.filter((ns) => ns.name.trim() !== '');
      if (namespaces.length === 0) return { kind: 'other' };
      // `agent.applet_create` → `agent.call_dynamic_tool`; `agent_applet_create` → `agent_call_dynamic_tool`.
      const ref = resolution.ref;
      const envelopeName = ref.endsWith(resolution.toolName)
        ? ref.slice(0, ref.length - resolution.toolName.length) + CALL_DYNAMIC_TOOL
        : undefined;
      return { kind: 'dynamic', server, toolName: resolution.toolName, namespaces, envelopeName };
    }
    case 'resolved': {
      const server = catalog.server(resolution.tool.workload);
      if (!server) return { kind: 'other' };
      if (resolution.tool.originalName === CALL_DYNAMIC_TOOL && servesEnvelopes(server))
        return { kind: 'envelope', servers: [server] };
      if (resolution.tool.originalName === GET_DYNAMIC_TOOLS && servesEnvelopes(server))
        return { kind: 'meta', server };
      return { kind: 'tool', server, tool: resolution.tool.tool };
    }
    default:
      // The gateway resolves a runtime's meta tools even when its snapshot leaves them out, so an
      // unresolved reference is tool/unknown's.
      return { kind: 'other' };
  }
}

// ---------------------------------------------------------------------------------------------
// Envelopes

function finishSite(site: CallSite, budget: SuggestionBudget): void {
  const target = site.target;
  if (target.kind === 'tool') site.tool = target.tool;
  if (target.kind === 'envelope' && isMap(site.args)) {
    site.envelope = envelopeOf(site.args, target.servers, site.templated, budget);
    const inner = site.envelope.toolNameText;
    if (site.origin === 'calls' && inner !== undefined && inner.trim() !== '')
      site.subject = { kind: 'dynamic-call', toolName: inner, through: CALL_DYNAMIC_TOOL };
    if (site.envelope.resolution.kind === 'ok') site.tool = site.envelope.resolution.tool;
  }
}

function envelopeOf(map: MapNode, servers: CatalogServer[], templated: boolean, budget: SuggestionBudget): Envelope {
  const fields: Partial<Record<EnvelopeFieldName, EnvelopeField>> = {};
  const shadowed: EnvelopeField[] = [];
  for (const pair of map.pairs) {
    const key = keyText(pair);
    const field = (ENVELOPE_FIELDS as readonly string[]).includes(key) ? (key as EnvelopeFieldName) : undefined;
    if (field && !fields[field]) fields[field] = { field, pair, key, alias: false, value: pair.value };
  }
  for (const pair of map.pairs) {
    const key = keyText(pair);
    const field = aliasTarget(key);
    if (!field) continue;
    const entry: EnvelopeField = { field, pair, key, alias: true, value: pair.value };
    if (fields[field]) shadowed.push(entry);
    else fields[field] = entry;
  }
  const namespaceText = stringOf(fields.namespace?.value);
  const toolNameText = stringOf(fields.toolName?.value);
  const envelope: Envelope = { map, fields, shadowed, namespaceText, toolNameText, resolution: { kind: 'unknowable' } };
  envelope.resolution = resolveEnvelope(envelope, servers, templated, budget);
  return envelope;
}

function stringOf(node: Node | null | undefined): string | undefined {
  return isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
}

function resolveEnvelope(
  envelope: Envelope,
  servers: CatalogServer[],
  templated: boolean,
  budget: SuggestionBudget,
): EnvelopeResolution {
  const ns = envelope.namespaceText;
  if (templated && (isTemplateString(ns) || isTemplateString(envelope.toolNameText))) return { kind: 'unknowable' };
  if (ns === undefined || ns.trim() === '') return { kind: 'no-namespace' };
  if (servers.length === 0) return { kind: 'unknowable' };
  // `ns` is not blank, so a namespace of that name is a named one.
  const holders = servers.filter((s) => namespaceOf(s, ns) !== undefined);
  if (holders.length === 0)
    return { kind: 'unknown-namespace', servers, suggestions: closestN(ns, namespaceNames(servers), 3, { budget }) };
  if (holders.length > 1) return { kind: 'ambiguous', servers: holders };
  const server = holders[0]!;
  const namespace = namespaceOf(server, ns)!;
  const toolName = envelope.toolNameText;
  if (toolName === undefined || toolName.trim() === '') return { kind: 'no-tool', server, namespace };
  const tool = namespaceTool(namespace, toolName);
  if (tool) return { kind: 'ok', server, namespace, tool };
  return {
    kind: 'unknown-tool',
    server,
    namespace,
    suggestions: closestN(toolName, namespaceToolNames(namespace), 3, { budget }),
    elsewhere: homesOf(server, toolName).filter((n) => n !== namespace && n.name.trim() !== ''),
    listed: listedToolOf(server, toolName) !== undefined,
  };
}

const namesOfServers = new WeakMap<readonly CatalogServer[], string[]>();

/** The names of the named namespaces of these servers, each once (made once per list of servers). */
export function namespaceNames(servers: readonly CatalogServer[]): string[] {
  let names = namesOfServers.get(servers);
  if (!names)
    namesOfServers.set(servers, (names = [...new Set(servers.flatMap((s) => namedNamespaces(s).map((n) => n.name)))]));
  return names;
}

const toolNamesOfNamespace = new WeakMap<DynamicNamespace, string[]>();

/** The names of a namespace's tools, in order (made once per namespace). */
export function namespaceToolNames(namespace: DynamicNamespace): string[] {
  let names = toolNamesOfNamespace.get(namespace);
  if (!names) toolNamesOfNamespace.set(namespace, (names = namespace.tools.map((t) => t.name)));
  return names;
}

/** The namespace an envelope reaches, when it names a known one (whatever its tool). */
export function envelopeNamespace(envelope: Envelope): DynamicNamespace | undefined {
  const r = envelope.resolution;
  return r.kind === 'ok' || r.kind === 'no-tool' || r.kind === 'unknown-tool' ? r.namespace : undefined;
}

// ---------------------------------------------------------------------------------------------
// Helpers the rules share

/** Where to point when something is missing from a call's arguments: their key, else the name. */
export function argumentsAnchor(site: CallSite): Span | undefined {
  return site.argsPair?.key.span ?? site.name?.span ?? site.namePair?.key.span;
}

/** The tool a server lists under this name (the meta tools are often left out of snapshots). */
export function listedTool(server: CatalogServer, name: string): CatalogTool | undefined {
  return listedToolOf(server, name);
}
