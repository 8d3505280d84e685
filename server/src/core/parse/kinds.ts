// Which of our document kinds a parsed document is: content first, file name second. Anything
// else is left alone: silence on unrelated YAML/JSON is a feature (docs/behaviour.md#recognising-files).
import { bomLength } from '../text/source.js';
import { clientOfPath } from './clients.js';
import type { DocumentKind } from '../types.js';
import { getNode, getScalar, getString, isMap, isScalar, isSeq, type MapNode, type Node } from './nodes.js';

export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? path;
}

/** The kind a file's name alone implies, if any. */
export function kindFromName(path: string): DocumentKind | null {
  const normalized = path.replace(/\\/g, '/');
  const name = baseName(normalized).toLowerCase();
  if (/\.calls\.(ya?ml|jsonl?)$/.test(name)) return 'tool-calls';
  if (/\.faces\.(ya?ml|jsonc?)$/.test(name)) return 'face-overlay';
  if (/\.tools\.jsonc?$/.test(name) || /\.catalog\.(ya?ml|jsonc?)$/.test(name)) return 'tool-catalog';
  if (clientOfPath(normalized)) return 'mcp-servers';
  return null;
}

export function kindFromContent(root: Node | null): DocumentKind | null {
  if (!isMap(root)) return null;
  const kind = getString(root, 'kind');
  const apiVersion = getString(root, 'apiVersion');
  const toolhiveApi = apiVersion === undefined || apiVersion.startsWith('toolhive.stacklok.dev/');
  if (kind === 'VirtualMCPServer' && toolhiveApi) return 'vmcp-server';
  if (kind === 'VirtualMCPCompositeToolDefinition' && toolhiveApi) return 'vmcp-composite';
  if (getNode(root, 'compositeTools') !== undefined) return 'vmcp-config';
  if (isCliConfig(root)) return 'vmcp-config';
  if (getScalar(root, 'catalog')?.value === 1) return 'tool-catalog';
  if (isToolsListResult(getNode(root, 'tools'))) return 'tool-catalog';
  if (getNode(root, 'toolFaces') !== undefined && getString(root, 'server') !== undefined) return 'face-overlay';
  if (isSeq(getNode(root, 'calls'))) return 'tool-calls';
  const mcpServers = getNode(root, 'mcpServers');
  if (
    isMap(mcpServers) &&
    mcpServers.pairs.every((p) => isMap(p.value) && SERVER_STARTS.some((k) => getNode(p.value, k)))
  ) {
    return mcpServers.pairs.length > 0 ? 'mcp-servers' : null;
  }
  return null;
}

/** The keys that say how a server entry starts: a command, or a URL (Gemini CLI's `httpUrl`, Windsurf's `serverUrl`). */
const SERVER_STARTS = ['command', 'url', 'httpUrl', 'serverUrl'];

/**
 * The root keys of ToolHive's vMCP CLI config (pkg/vmcp/config/config.go `Config`; the loader
 * refuses any other, so a real config is made of these).
 */
const CLI_CONFIG_KEYS = new Set([
  'name',
  'groupRef',
  'backends',
  'incomingAuth',
  'outgoingAuth',
  'aggregation',
  'compositeTools',
  'compositeToolRefs',
  'operational',
  'metadata',
  'telemetry',
  'audit',
  'optimizer',
  'codeMode',
  'sessionStorage',
  'rateLimiting',
  'passthroughHeaders',
]);

/**
 * A vMCP CLI config without composite tools, by its server settings. Each setting counts only in
 * ToolHive's own shape: `groupRef` a string, `incomingAuth` a mapping with a `type`, `outgoingAuth`
 * a mapping with `source`, `default` or `backends`, `aggregation` a mapping with one of its keys
 * (tools entries carry a `workload`), `backends` a list of mappings each with a `name` and a `url`.
 * Two of them must be there, the document must not be a Kubernetes object (no `apiVersion` or
 * `kind`: the config has neither), and at least half its root keys must be the config's. One
 * setting alone (a `name` with `backends`, a `groupRef`, an `aggregation` of metrics) is what
 * other YAML says too; two in ToolHive's shapes under ToolHive's keys is not
 * (docs/behaviour.md#the-cli-config-without-composite-tools).
 */
function isCliConfig(root: MapNode): boolean {
  if (getNode(root, 'apiVersion') !== undefined || getNode(root, 'kind') !== undefined) return false;
  let settings = 0;
  if (getString(root, 'groupRef') !== undefined) settings++;
  const incoming = getNode(root, 'incomingAuth');
  if (isMap(incoming) && isScalar(getNode(incoming, 'type'))) settings++;
  const outgoing = getNode(root, 'outgoingAuth');
  if (isMap(outgoing) && ['source', 'default', 'backends'].some((k) => getNode(outgoing, k) !== undefined)) settings++;
  if (isAggregation(getNode(root, 'aggregation'))) settings++;
  const backends = getNode(root, 'backends');
  if (
    isSeq(backends) &&
    backends.items.length > 0 &&
    backends.items.every((b) => isMap(b) && isScalar(getNode(b, 'name')) && isScalar(getNode(b, 'url')))
  )
    settings++;
  if (settings < 2) return false;
  const known = root.pairs.filter((p) => CLI_CONFIG_KEYS.has(String(p.key.value))).length;
  return known * 2 >= root.pairs.length;
}

/** `aggregation` in ToolHive's shape (`AggregationConfig`): tools entries that name a workload, or its other keys. */
function isAggregation(node: Node | undefined): boolean {
  if (!isMap(node)) return false;
  const tools = getNode(node, 'tools');
  if (
    isSeq(tools) &&
    tools.items.length > 0 &&
    tools.items.every((t) => isMap(t) && getNode(t, 'workload') !== undefined)
  )
    return true;
  return (
    isScalar(getNode(node, 'conflictResolution')) ||
    isMap(getNode(node, 'conflictResolutionConfig')) ||
    isScalar(getNode(node, 'excludeAllTools')) ||
    isScalar(getNode(node, 'defaultToolVisibility'))
  );
}

/** `{tools: [...]}` where every tool has a name and an inputSchema: a tools/list result. */
function isToolsListResult(tools: Node | undefined): boolean {
  return (
    isSeq(tools) &&
    tools.items.length > 0 &&
    tools.items.every((t) => isMap(t) && getNode(t, 'name') && getNode(t, 'inputSchema'))
  );
}

/**
 * A root key of ours as the text of a document writes it, with what must follow it: in YAML at
 * the start of a line (a root key), in JSON quoted (where nesting cannot be seen without parsing).
 */
const rootKey = (name: string, yamlValue: string, jsonValue: string) =>
  new RegExp(`(?:^${name}\\s*:\\s*${yamlValue})|(?:"${name}"\\s*:\\s*${jsonValue})`, 'm');

/** A root key of ours written with any value. */
const anyRootKey = (name: string) => rootKey(name, '', '');

/** The settings isCliConfig counts. */
const CLI_SETTINGS = ['groupRef', 'incomingAuth', 'outgoingAuth', 'aggregation', 'backends'];
const YAML_ROOT_KEY = /^([A-Za-z_$][\w$.-]*)[ \t]*:(?:[ \t]|$)/gm;

/**
 * The CLI config without composite tools as text (isCliConfig without the shapes, which text
 * does not show): in YAML, two of its settings as root keys and no root key that is not the
 * config's (a Kubernetes object's `apiVersion` and `kind` are not); in JSON, where nesting cannot
 * be seen, `groupRef` with `incomingAuth` or `outgoingAuth`, and neither `apiVersion` nor `kind`.
 */
function cliConfigText(text: string): boolean {
  if (/^\s*[{[]/.test(text)) {
    const has = (key: string) => text.includes(`"${key}"`);
    return has('groupRef') && (has('incomingAuth') || has('outgoingAuth')) && !has('apiVersion') && !has('kind');
  }
  const keys = [...text.matchAll(YAML_ROOT_KEY)].map((m) => m[1] ?? '');
  return keys.every((k) => CLI_CONFIG_KEYS.has(k)) && CLI_SETTINGS.filter((k) => keys.includes(k)).length >= 2;
}

const matches = (pattern: RegExp) => (text: string) => pattern.test(text);

const ANY_API_VERSION = anyRootKey('apiVersion');
const TOOLHIVE_API_VERSION = rootKey('apiVersion', `["']?toolhive\\.stacklok\\.dev/`, '"toolhive\\.stacklok\\.dev/');

/** A ToolHive resource's kind as text, with no `apiVersion` of another API group (as kindFromContent). */
const toolhiveKind = (kind: string) => {
  const pattern = rootKey('kind', `["']?${kind}\\b`, `"${kind}"`);
  return (text: string) => pattern.test(text) && (!ANY_API_VERSION.test(text) || TOOLHIVE_API_VERSION.test(text));
};

/** What the text of a document no parser read says of its kind (in kindFromContent's order). */
const TEXT_MARKERS: [(text: string) => boolean, DocumentKind][] = [
  [toolhiveKind('VirtualMCPServer'), 'vmcp-server'],
  [toolhiveKind('VirtualMCPCompositeToolDefinition'), 'vmcp-composite'],
  [matches(anyRootKey('compositeTools')), 'vmcp-config'],
  [cliConfigText, 'vmcp-config'],
  [matches(rootKey('catalog', '1\\b', '1\\b')), 'tool-catalog'],
  [matches(anyRootKey('toolFaces')), 'face-overlay'],
  [matches(rootKey('calls', '', '\\[')), 'tool-calls'],
  [matches(rootKey('mcpServers', '', '\\{')), 'mcp-servers'],
];

/**
 * The kind the text of a document suggests when it could not be parsed (declined whole, or
 * unreadable): one that writes a root key of ours is taken as ours, so that what was not checked
 * in it is said; anything else stays someone else's file, left alone
 * (docs/behaviour.md#recognising-files).
 */
export function kindFromText(text: string): DocumentKind | null {
  // A BOM is no part of the first line: `compositeTools:` after it is still a root key.
  const content = text.slice(bomLength(text));
  for (const [marks, kind] of TEXT_MARKERS) if (marks(content)) return kind;
  return null;
}

export function detectKind(path: string, root: Node | null, forced?: DocumentKind | null): DocumentKind | null {
  if (forced) return forced;
  return kindFromContent(root) ?? kindFromName(path);
}
