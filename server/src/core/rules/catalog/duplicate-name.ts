// One name twice where names must be unique: tools of one server's list, tools of one dynamic
// namespace, namespaces of one server, servers of one snapshot. Also a tool named like the meta
// tools a runtime with dynamic namespaces adds to its list (get_dynamic_tools, call_dynamic_tool).
import { META_TOOLS } from '../../catalog/model.js';
import { capitalize } from '../../text/words.js';
import { getPair, isMap, getNode } from '../../parse/nodes.js';
import type { RelatedInfo, Span } from '../../types.js';
import { defineRule } from '../rule.js';
import { catalogDeclarationsOf, describeTool, type ToolDecl } from '../../model/catalogDeclarations.js';

const messages = {
  duplicateServer: ({ name }: { name: string }) =>
    `Server "${name}" appears twice in this snapshot: merge the two entries. Tool Lens reads the first one and ignores this one, so its tools ` +
    'and namespaces are never used.',
  duplicateTool: ({ name, server }: { name: string; server: string }) =>
    `Tool "${name}" is listed twice by server "${server}": remove or rename one. MCP clients keep one tool per name, so one of the two ` +
    'declarations is unreachable (which one depends on the client), and Tool Lens reads only the first.',
  duplicateNamespace: ({ name, server }: { name: string; server: string }) =>
    `Server "${server}" declares namespace "${name}" twice: merge the two namespaces. The runtime refuses to register a namespace name a ` +
    'second time, and Tool Lens reads only the first.',
  duplicateNamespaceTool: ({ name, namespace, server }: { name: string; namespace: string; server: string }) =>
    `Namespace "${namespace}" declares tool "${name}" twice: remove or rename one. The namespace is server "${server}"'s. The runtime refuses ` +
    'to register the second one, and Tool Lens reads only the first.',
  /** A tool named like the meta tool the runtime adds for dynamic namespaces. */
  metaToolName: ({ tool }: { tool: ToolDecl }) =>
    `\`${tool.name ?? ''}\` is the name of a meta tool of the runtime: rename this tool. ` +
    `${capitalize(describeTool(tool))} is named like the meta tool the runtime adds for its dynamic namespaces. ` +
    `Models call \`${tool.name ?? ''}\` to reach dynamic tools, so the two collide: one of them cannot be called.`,
};

export const rule = defineRule({
  id: 'catalog/duplicate-name',
  defaultSeverity: 'error',
  summary: 'One name twice in one server (tools, namespaces), or a tool named like a dynamic-tool meta tool.',
  kinds: ['tool-catalog'],
  messages,
  check(ctx) {
    const { servers } = catalogDeclarationsOf(ctx);
    for (const { item, related } of duplicatesOf(
      servers.filter((s) => s.nameNode).map((s) => ({ name: s.name, span: s.nameNode!.span })),
    )) {
      ctx.report({ messageId: 'duplicateServer', data: { name: item.name }, span: item.span, related });
    }
    for (const server of servers) {
      for (const { item, related } of duplicatesOf(named(server.tools))) {
        ctx.report({
          messageId: 'duplicateTool',
          data: { name: item.name, server: server.name },
          span: item.span,
          related,
        });
      }
      const namespaces = server.namespaces
        .filter((n) => n.name !== undefined && n.nameNode)
        .map((n) => ({ name: n.name!, span: n.nameNode!.span }));
      for (const { item, related } of duplicatesOf(namespaces)) {
        ctx.report({
          messageId: 'duplicateNamespace',
          data: { name: item.name, server: server.name },
          span: item.span,
          related,
        });
      }
      for (const namespace of server.namespaces) {
        for (const { item, related } of duplicatesOf(named(namespace.tools))) {
          const data = { name: item.name, namespace: namespace.name ?? '', server: server.name };
          ctx.report({ messageId: 'duplicateNamespaceTool', data, span: item.span, related });
        }
      }
      if (server.namespaces.length === 0) continue;
      for (const tool of [...server.tools, ...server.namespaces.flatMap((n) => n.tools)]) {
        if (!tool.nameNode || !isMetaName(tool.name)) continue;
        if (!tool.namespace && looksLikeMetaTool(tool)) continue; // the runtime's own meta tool, as tools/list shows it
        ctx.report({
          messageId: 'metaToolName',
          data: { tool },
          span: tool.nameNode.span,
        });
      }
    }
  },
});

interface Named {
  name: string;
  span: Span;
}

function named(tools: readonly ToolDecl[]): Named[] {
  return tools
    .filter((t) => t.name !== undefined && t.nameNode)
    .map((t) => ({ name: t.name!, span: t.nameNode!.span }));
}

/** Every item whose name an earlier one has, with the first as its related place. */
function duplicatesOf(items: readonly Named[]): { item: Named; related: RelatedInfo[] }[] {
  const first = new Map<string, Named>();
  const out: { item: Named; related: RelatedInfo[] }[] = [];
  for (const item of items) {
    const earlier = first.get(item.name);
    if (!earlier) first.set(item.name, item);
    else out.push({ item, related: [{ span: earlier.span, message: `"${item.name}" is first declared here` }] });
  }
  return out;
}

function isMetaName(name: string | undefined): boolean {
  return name !== undefined && (META_TOOLS as readonly string[]).includes(name);
}

/**
 * A snapshot taken from such a runtime lists the meta tools themselves: their input schemas name
 * the envelope fields (`namespace`, and `toolName` for call_dynamic_tool). Those are no collision.
 */
function looksLikeMetaTool(tool: ToolDecl): boolean {
  const properties = getNode(getNode(tool.node, 'inputSchema'), 'properties');
  if (!isMap(properties) || !getPair(properties, 'namespace')) return false;
  return tool.name === 'get_dynamic_tools' || getPair(properties, 'toolName') !== undefined;
}
