// Typed views over tool faces (docs/faces.md): the server entries of an `mcp-servers` file (VS Code's
// `servers` or the `mcpServers` of Cursor, Claude and `.mcp.json`) and the one server of a
// `face-overlay` file, each with its `toolFaces` and every face's fields with their nodes, so rules
// report on exact ranges. Values of the wrong type are left out of the typed fields (the schema
// rules report those); the pairs stay reachable through `node`.
import { homesOf, listedToolOf } from '../catalog/index.js';
import type { CatalogServer, CatalogTool } from '../catalog/model.js';
import { topLevelProperties, type SchemaProperty, type TopLevelProperties } from '../jsonschema/properties.js';
import { memoKey } from '../memo.js';
import {
  getMap,
  getPair,
  isMap,
  isScalar,
  isSeq,
  keyText,
  type MapNode,
  type Pair,
  type ScalarNode,
  type SeqNode,
} from '../parse/nodes.js';
import type { DocumentContext } from '../context.js';
import { LIMITS } from '../limits.js';
import { listOf } from '../text/words.js';

/** A face field holding a string. */
export interface FaceString {
  value: string;
  node: ScalarNode;
  pair: Pair;
}

interface FaceListEntry {
  value: string;
  node: ScalarNode;
  /** Position in the list, counting entries of any type. */
  index: number;
}

/** A face field holding a list; `entries` are its string entries. */
export interface FaceList {
  node: SeqNode;
  pair: Pair;
  entries: FaceListEntry[];
}

interface PathTargetView {
  node: MapNode;
  pair: Pair;
  param?: FaceString;
  access?: FaceString;
  base?: FaceString;
  absent?: FaceString;
  patternParam?: FaceString;
  aliases?: FaceList;
}

interface RenderHintsView {
  node: MapNode;
  pair: Pair;
  approvalCard?: FaceString;
  userFacingName?: FaceString;
  activity?: FaceString;
  summaryParams?: FaceList;
  resultCards?: FaceList;
}

interface RuleFaceView {
  node: MapNode;
  pair: Pair;
  params?: FaceList;
  primaryParams?: FaceList;
}

export interface Face {
  /** The tool's name as the server lists it (the key, as text). */
  toolName: string;
  key: ScalarNode;
  pair: Pair;
  /** Undefined when the face is not a mapping. */
  node?: MapNode;
  family?: FaceString;
  pathTarget?: PathTargetView;
  renderHints?: RenderHintsView;
  ruleFace?: RuleFaceView;
}

export interface FaceServer {
  /** Where the entry comes from: a client config's server map, or an overlay file. */
  source: 'servers' | 'mcpServers' | 'overlay';
  /** The server name as the config writes it; undefined for an overlay without `server`. */
  name?: string;
  /** The entry's key (mcp-servers) or the `server` value (overlay). */
  nameNode?: ScalarNode;
  /** The server entry (mcp-servers) or the document root (overlay). */
  entry?: MapNode;
  toolFacesPair?: Pair;
  /** Undefined when `toolFaces` is absent or not a mapping. */
  toolFaces?: MapNode;
  faces: Face[];
}

export interface FacesView {
  servers: FaceServer[];
}

const FACES = memoKey<FacesView>('faces');

export function facesOf(ctx: DocumentContext): FacesView {
  return ctx.memo.get(FACES, () => computeFaces(ctx));
}

function computeFaces(ctx: DocumentContext): FacesView {
  const root = ctx.doc.root;
  const servers: FaceServer[] = [];
  if (!isMap(root)) return { servers };
  if (ctx.doc.kind === 'face-overlay') {
    const serverPair = getPair(root, 'server');
    const nameNode = isScalar(serverPair?.value) ? serverPair.value : undefined;
    const name = typeof nameNode?.value === 'string' ? nameNode.value : undefined;
    servers.push(serverFrom('overlay', name, name === undefined ? undefined : nameNode, root));
  } else if (ctx.doc.kind === 'mcp-servers') {
    for (const source of ['servers', 'mcpServers'] as const) {
      for (const pair of getMap(root, source)?.pairs ?? []) {
        servers.push(serverFrom(source, keyText(pair), pair.key, isMap(pair.value) ? pair.value : undefined));
      }
    }
  }
  return { servers };
}

function serverFrom(
  source: FaceServer['source'],
  name: string | undefined,
  nameNode: ScalarNode | undefined,
  entry: MapNode | undefined,
): FaceServer {
  const toolFacesPair = getPair(entry, 'toolFaces');
  const toolFaces = isMap(toolFacesPair?.value) ? toolFacesPair.value : undefined;
  const faces = (toolFaces?.pairs ?? []).map(faceFrom);
  return { source, name, nameNode, entry, toolFacesPair, toolFaces, faces };
}

function faceFrom(pair: Pair): Face {
  const node = isMap(pair.value) ? pair.value : undefined;
  const face: Face = { toolName: keyText(pair), key: pair.key, pair, node };
  if (!node) return face;
  face.family = stringField(node, 'family');
  const pathTarget = mapField(node, 'pathTarget');
  if (pathTarget) {
    face.pathTarget = {
      ...pathTarget,
      param: stringField(pathTarget.node, 'param'),
      access: stringField(pathTarget.node, 'access'),
      base: stringField(pathTarget.node, 'base'),
      absent: stringField(pathTarget.node, 'absent'),
      patternParam: stringField(pathTarget.node, 'patternParam'),
      aliases: listField(pathTarget.node, 'aliases'),
    };
  }
  const renderHints = mapField(node, 'renderHints');
  if (renderHints) {
    face.renderHints = {
      ...renderHints,
      approvalCard: stringField(renderHints.node, 'approvalCard'),
      userFacingName: stringField(renderHints.node, 'userFacingName'),
      activity: stringField(renderHints.node, 'activity'),
      summaryParams: listField(renderHints.node, 'summaryParams'),
      resultCards: listField(renderHints.node, 'resultCards'),
    };
  }
  const ruleFace = mapField(node, 'ruleFace');
  if (ruleFace) {
    face.ruleFace = {
      ...ruleFace,
      params: listField(ruleFace.node, 'params'),
      primaryParams: listField(ruleFace.node, 'primaryParams'),
    };
  }
  return face;
}

function stringField(map: MapNode, key: string): FaceString | undefined {
  const pair = getPair(map, key);
  const node = pair?.value;
  if (!pair || !isScalar(node) || typeof node.value !== 'string') return undefined;
  return { value: node.value, node, pair };
}

function mapField(map: MapNode, key: string): { node: MapNode; pair: Pair } | undefined {
  const pair = getPair(map, key);
  return pair && isMap(pair.value) ? { node: pair.value, pair } : undefined;
}

function listField(map: MapNode, key: string): FaceList | undefined {
  const pair = getPair(map, key);
  const node = pair?.value;
  if (!pair || !isSeq(node)) return undefined;
  const entries: FaceListEntry[] = [];
  node.items.forEach((item, index) => {
    if (isScalar(item) && typeof item.value === 'string') entries.push({ value: item.value, node: item, index });
  });
  return { node, pair, entries };
}

/** Every parameter name a face lists, with where it is listed (for bounds and property checks). */
export interface NamedParam {
  value: string;
  node: ScalarNode;
  /** Field path as users read it: `pathTarget.param`, `ruleFace.params`... */
  field: string;
}

export function namedParams(face: Face): NamedParam[] {
  const out: NamedParam[] = [];
  const one = (field: string, s: FaceString | undefined) => {
    if (s) out.push({ value: s.value, node: s.node, field });
  };
  const many = (field: string, list: FaceList | undefined) => {
    for (const entry of list?.entries ?? []) out.push({ value: entry.value, node: entry.node, field });
  };
  one('pathTarget.param', face.pathTarget?.param);
  one('pathTarget.patternParam', face.pathTarget?.patternParam);
  many('pathTarget.aliases', face.pathTarget?.aliases);
  many('renderHints.summaryParams', face.renderHints?.summaryParams);
  many('ruleFace.params', face.ruleFace?.params);
  many('ruleFace.primaryParams', face.ruleFace?.primaryParams);
  return out;
}

/** The names the path may come under: `pathTarget.param` and its aliases. */
export function pathTargetNames(face: Face): Set<string> {
  const names = new Set<string>();
  if (face.pathTarget?.param) names.add(face.pathTarget.param.value);
  for (const alias of face.pathTarget?.aliases?.entries ?? []) names.add(alias.value);
  return names;
}

// ------------------------------------------------------------------------------------------------
// What the catalog says about the tool a face is for.

export type FaceTarget =
  /** An overlay that names no server: nothing to look up. */
  | { state: 'no-server' }
  | { state: 'no-catalog'; serverName: string }
  /** The server is catalogued but does not list the tool; `dynamicIn` are namespaces that serve it. */
  | { state: 'undeclared'; serverName: string; server: CatalogServer; dynamicIn: string[] }
  | { state: 'listed'; serverName: string; server: CatalogServer; tool: CatalogTool; properties: TopLevelProperties };

const TARGETS = memoKey<Map<Face, FaceTarget>>('faceTargets');

export function faceTargetOf(ctx: DocumentContext, server: FaceServer, face: Face): FaceTarget {
  const cache = ctx.memo.get(TARGETS, () => new Map<Face, FaceTarget>());
  let target = cache.get(face);
  if (!target) {
    target = computeTarget(ctx, server, face);
    cache.set(face, target);
  }
  return target;
}

/** The catalog server behind a face server entry, if the workspace has one. */
export function catalogServerOf(ctx: DocumentContext, server: FaceServer): CatalogServer | undefined {
  return server.name === undefined ? undefined : ctx.workspace.catalog.server(server.name);
}

function computeTarget(ctx: DocumentContext, server: FaceServer, face: Face): FaceTarget {
  if (server.name === undefined) return { state: 'no-server' };
  const catalogServer = catalogServerOf(ctx, server);
  if (!catalogServer) return { state: 'no-catalog', serverName: server.name };
  const tool = listedToolOf(catalogServer, face.toolName);
  if (!tool) {
    const dynamicIn = homesOf(catalogServer, face.toolName).map((ns) => ns.name);
    return { state: 'undeclared', serverName: server.name, server: catalogServer, dynamicIn };
  }
  return {
    state: 'listed',
    serverName: server.name,
    server: catalogServer,
    tool,
    properties: topLevelProperties(tool.inputSchema),
  };
}

/** The name the runtime mounts an MCP tool under. */
function mountedToolName(serverName: string, toolName: string): string {
  return `mcp__${serverName}__${toolName}`;
}

// ------------------------------------------------------------------------------------------------
// Hover data.

interface FaceHoverProperty {
  name: string;
  typeText: string;
  scalar: boolean;
  required: boolean;
  description?: string;
}

export interface FaceHover {
  toolName: string;
  serverName?: string;
  /** `mcp__<server>__<tool>`; undefined when the overlay names no server. */
  mountedName?: string;
  state: FaceTarget['state'];
  title?: string;
  description?: string;
  /** The tool's top-level input properties; empty unless the tool is listed. */
  properties: FaceHoverProperty[];
  markdown: string;
}

/** What the hover on a face shows: the tool's top-level properties and its mounted name. */
export function faceHoverOf(ctx: DocumentContext, face: Face): FaceHover {
  const server = facesOf(ctx).servers.find((s) => s.faces.includes(face));
  const target: FaceTarget = server ? faceTargetOf(ctx, server, face) : { state: 'no-server' };
  const serverName = server?.name;
  const mountedName = serverName === undefined ? undefined : mountedToolName(serverName, face.toolName);
  const properties: FaceHoverProperty[] =
    target.state === 'listed' ? [...target.properties.properties.values()].map(hoverProperty) : [];
  const hover: FaceHover = {
    toolName: face.toolName,
    serverName,
    mountedName,
    state: target.state,
    properties,
    markdown: '',
  };
  if (target.state === 'listed') {
    hover.title = target.tool.title;
    hover.description = target.tool.description;
  }
  hover.markdown = hoverMarkdown(hover, target);
  return hover;
}

function hoverProperty(p: SchemaProperty): FaceHoverProperty {
  return { name: p.name, typeText: p.typeText, scalar: p.scalar, required: p.required, description: p.description };
}

function hoverMarkdown(hover: FaceHover, target: FaceTarget): string {
  const lines: string[] = [];
  const heading = hover.title ? `**${code(hover.toolName)}**: ${hover.title}` : `**${code(hover.toolName)}**`;
  lines.push(hover.serverName === undefined ? heading : `${heading} on server ${code(hover.serverName)}`);
  if (hover.mountedName) lines.push('', `Mounted as ${code(hover.mountedName)}.`);
  switch (target.state) {
    case 'no-server':
      lines.push('', 'This overlay names no `server`, so the tool cannot be looked up.');
      break;
    case 'no-catalog':
      lines.push('', `No catalog for server ${code(target.serverName)}: its tools' schemas are unknown.`);
      break;
    case 'undeclared':
      lines.push('', `Server ${code(target.serverName)} does not list this tool: the face is inert.`);
      if (target.dynamicIn.length)
        lines.push(
          `It is served only through the dynamic namespace(s) ${listOf(target.dynamicIn.map(code), LIMITS.messageItems)}.`,
        );
      break;
    case 'listed': {
      if (hover.description) lines.push('', hover.description);
      if (hover.properties.length === 0) {
        lines.push('', 'The input schema declares no top-level properties.');
        break;
      }
      lines.push('', '| property | type | scalar | required | description |', '|---|---|---|---|---|');
      for (const p of hover.properties) {
        lines.push(
          `| ${code(p.name)} | ${cell(p.typeText)} | ${p.scalar ? 'yes' : 'no'} | ${p.required ? 'yes' : 'no'} | ${cell(p.description ?? '')} |`,
        );
      }
      if (target.properties.open)
        lines.push(
          '',
          'The schema may accept further properties (anyOf, oneOf or a remote $ref) that are not listed here.',
        );
      break;
    }
  }
  return lines.join('\n');
}

function code(text: string): string {
  // A name holding a backtick needs a longer fence, padded so the backtick is not read as one.
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

/** Table cells: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}
