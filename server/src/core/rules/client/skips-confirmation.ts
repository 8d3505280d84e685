// client/skips-confirmation: a setting that lets a server's tools run without the user confirming
// each call. Gemini CLI's `trust: true` skips confirmation for every tool of the server
// (packages/core/src/tools/mcp-tool.ts getConfirmationDetails; packages/core/src/policy/config.ts
// adds an allow rule for the server's tools). Roo Code's `alwaysAllow` runs the listed tools
// without asking, all of them with `"*"` (src/services/mcp/McpHub.ts, where it reads alwaysAllow):
// reported for `"*"`, and for a listed tool the server's catalog marks as writing
// (`destructiveHint: true` or `readOnlyHint: false`); a tool the catalog says reads only is left
// alone. When the server has no catalog Tool Lens cannot tell whether its listed tools write: it
// says so once, at info, on the server's `alwaysAllow` key, with how to add the catalog (not when
// the list holds `"*"`, which is reported already and allows every tool anyway). Kilo Code, Roo
// Code's fork, reads `alwaysAllow` the same way (its McpHub.ts, the same `"*"` test).
import { listedToolOf } from '../../catalog/index.js';
import { clientViewOf } from '../../model/clients.js';
import { getNode, getPair, isScalar, isSeq } from '../../parse/nodes.js';
import { quotedList } from '../../text/words.js';
import { addCatalogAdvice } from '../../wording/catalogAdvice.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  id: 'client/skips-confirmation',
  defaultSeverity: 'warning',
  summary:
    "A setting that runs a server's tools without confirmation (Gemini `trust: true`, Roo and Kilo `alwaysAllow`).",
  kinds: ['mcp-servers'],
  messages: {
    trust: (d: { server: string }) =>
      `Gemini CLI runs every tool of "${d.server}" without asking: remove trust. Keep it for a server you control.`,
    wildcard: (d: { client: string; server: string }) =>
      `${d.client} runs every tool of "${d.server}" without asking: list its read-only tools instead of "*".`,
    writingTool: (d: { client: string; server: string; tool: string }) =>
      `${d.client} runs "${d.tool}" without asking, yet it writes: remove it from alwaysAllow. Its catalog marks it as writing.`,
    /** `tools`: the listed tools, none of them described by a catalog (the server has none). */
    noCatalog: (d: { client: string; server: string; tools: readonly string[] }) =>
      `${d.client} runs tools of "${d.server}" without asking, and no catalog says whether they write: add one. ` +
      `Without the server's catalog Tool Lens cannot tell whether ${quotedList(d.tools)} only read. ` +
      addCatalogAdvice(d.server),
  },
  check(ctx) {
    const view = clientViewOf(ctx);
    const client = view.client?.id;
    if (client !== 'gemini' && client !== 'roo' && client !== 'kilo') return;
    const label = view.client?.label ?? '';
    for (const server of view.servers) {
      if (client === 'gemini') {
        const trust = getNode(server.entry, 'trust');
        if (isScalar(trust) && trust.value === true) {
          ctx.report({ messageId: 'trust', data: { server: server.name }, span: trust.span });
        }
        continue;
      }
      // A disabled server starts no tool.
      const disabled = getNode(server.entry, 'disabled');
      if (isScalar(disabled) && disabled.value === true) continue;
      const allowPair = getPair(server.entry, 'alwaysAllow');
      const allow = allowPair?.value;
      if (!allowPair || !isSeq(allow)) continue;
      const catalog = ctx.workspace.catalog.server(server.name);
      const named = allow.items.flatMap((item) =>
        isScalar(item) && typeof item.value === 'string' ? [item.value] : [],
      );
      // No catalog: one info for the list, unless `"*"` (reported below) allows every tool anyway.
      if (!catalog && !named.includes('*') && named.length > 0) {
        ctx.report({
          messageId: 'noCatalog',
          data: { client: label, server: server.name, tools: [...new Set(named)] },
          span: allowPair.key.span,
          severity: 'info',
        });
      }
      for (const item of allow.items) {
        if (!isScalar(item) || typeof item.value !== 'string') continue;
        if (item.value === '*') {
          ctx.report({ messageId: 'wildcard', data: { client: label, server: server.name }, span: item.span });
          continue;
        }
        const hints = catalog ? listedToolOf(catalog, item.value)?.annotations : undefined;
        if (hints && (hints.destructiveHint === true || hints.readOnlyHint === false)) {
          ctx.report({
            messageId: 'writingTool',
            data: { client: label, server: server.name, tool: item.value },
            span: item.span,
          });
        }
      }
    }
  },
});
