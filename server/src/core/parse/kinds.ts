// Which of our document kinds a parsed document is: content first, file name second. Anything
// else is left alone: silence on unrelated YAML/JSON is a feature (docs/behaviour.md#recognising-files).
import type { DocumentKind } from '../types.js';
import { getNode, getScalar, getString, isMap, isSeq, type Node } from './nodes.js';

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
  if (name === '.mcp.json' || name === 'claude_desktop_config.json') return 'mcp-servers';
  if (name === 'mcp.json' && /(^|\/)\.(vscode|cursor)\/mcp\.json$/i.test(normalized)) return 'mcp-servers';
  return null;
}

function kindFromContent(root: Node | null): DocumentKind | null {
  if (!isMap(root)) return null;
  const kind = getString(root, 'kind');
  const apiVersion = getString(root, 'apiVersion');
  const toolhiveApi = apiVersion === undefined || apiVersion.startsWith('toolhive.stacklok.dev/');
  if (kind === 'VirtualMCPServer' && toolhiveApi) return 'vmcp-server';
  if (kind === 'VirtualMCPCompositeToolDefinition' && toolhiveApi) return 'vmcp-composite';
  if (getNode(root, 'compositeTools') !== undefined) return 'vmcp-config';
  if (getScalar(root, 'catalog')?.value === 1) return 'tool-catalog';
  if (isToolsListResult(getNode(root, 'tools'))) return 'tool-catalog';
  if (getNode(root, 'toolFaces') !== undefined && getString(root, 'server') !== undefined) return 'face-overlay';
  if (isSeq(getNode(root, 'calls'))) return 'tool-calls';
  const mcpServers = getNode(root, 'mcpServers');
  if (isMap(mcpServers) && mcpServers.pairs.every((p) => isMap(p.value) && (getNode(p.value, 'command') || getNode(p.value, 'url')))) {
    return mcpServers.pairs.length > 0 ? 'mcp-servers' : null;
  }
  return null;
}

/** `{tools: [...]}` where every tool has a name and an inputSchema: a tools/list result. */
function isToolsListResult(tools: Node | undefined): boolean {
  return isSeq(tools) && tools.items.length > 0 && tools.items.every((t) => isMap(t) && getNode(t, 'name') && getNode(t, 'inputSchema'));
}

/**
 * A root key of ours as the text of a document writes it, with what must follow it: in YAML at
 * the start of a line (a root key), in JSON quoted (where nesting cannot be seen without parsing).
 */
const rootKey = (name: string, yamlValue: string, jsonValue: string) =>
  new RegExp(`(?:^${name}\\s*:\\s*${yamlValue})|(?:"${name}"\\s*:\\s*${jsonValue})`, 'm');

/** What the text of a document no parser read says of its kind (in kindFromContent's order). */
const TEXT_MARKERS: [RegExp, DocumentKind][] = [
  [rootKey('kind', 'VirtualMCPServer\\b', '"VirtualMCPServer"'), 'vmcp-server'],
  [rootKey('kind', 'VirtualMCPCompositeToolDefinition\\b', '"VirtualMCPCompositeToolDefinition"'), 'vmcp-composite'],
  [rootKey('compositeTools', '', ''), 'vmcp-config'],
  [rootKey('catalog', '1\\b', '1\\b'), 'tool-catalog'],
  [rootKey('toolFaces', '', ''), 'face-overlay'],
  [rootKey('calls', '', '\\['), 'tool-calls'],
  [rootKey('mcpServers', '', '\\{'), 'mcp-servers'],
];

/**
 * The kind the text of a document suggests when it could not be parsed (declined whole, or
 * unreadable): one that writes a root key of ours is taken as ours, so that what was not checked
 * in it is said; anything else stays someone else's file, left alone
 * (docs/behaviour.md#recognising-files).
 */
export function kindFromText(text: string): DocumentKind | null {
  for (const [pattern, kind] of TEXT_MARKERS) if (pattern.test(text)) return kind;
  return null;
}

export function detectKind(path: string, root: Node | null, forced?: DocumentKind | null): DocumentKind | null {
  if (forced) return forced;
  return kindFromContent(root) ?? kindFromName(path);
}
