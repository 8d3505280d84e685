// MCP tool names (SEP-986, 2025-11-25 onwards): 1 to 128 of A-Z a-z 0-9 _ - . The SDKs only warn
// when a server registers another name, so such names reach clients, and whatever enforces the
// rule downstream (gateways, model APIs) refuses or renames the tool. A dynamic namespace with a
// blank name is reported here too: the runtime refuses to register it.
import { defineRule } from '../rule.js';
import { catalogDeclarationsOf, describeTool, type ToolDecl } from '../../model/catalogDeclarations.js';
import { hiddenCharacters } from '../../audit/modelText.js';

const TOOL_NAME = /^[A-Za-z0-9._-]{1,128}$/;

export const rule = defineRule({
  id: 'catalog/invalid-name',
  defaultSeverity: 'warning',
  summary: 'A tool name outside the MCP rule `^[A-Za-z0-9._-]{1,128}$`, or a namespace with an empty name.',
  kinds: ['tool-catalog'],
  messages: {
    /** `wrong`: what is wrong with the name, in words (`is empty`, `contains a space`). */
    invalidName: ({ wrong, tool }: { wrong: string; tool: ToolDecl }) =>
      `This tool name ${wrong}: rename the tool in the server. ` +
      `It is the name of ${describeTool(tool)}. MCP tool names are 1 to 128 characters from ` +
      'A-Z, a-z, 0-9, `_`, `-` and `.`; the server may list it anyway, but gateways, clients and model APIs that ' +
      'enforce the rule refuse or rename the tool, and references to it break.',
    emptyNamespace: ({ server }: { server: string }) =>
      `A dynamic namespace of server "${server}" has an empty name: give it a name. The runtime refuses to register a namespace ` +
      'without a name, so none of its tools can be called (calls name the namespace in their envelope).',
  },
  check(ctx) {
    const declarations = catalogDeclarationsOf(ctx);
    for (const tool of declarations.tools) {
      if (tool.name === undefined || !tool.nameNode || TOOL_NAME.test(tool.name)) continue;
      // Hidden characters are catalog/hidden-characters' finding (an error); this one is for the rest.
      if (TOOL_NAME.test(withoutHidden(tool.name))) continue;
      ctx.report({
        messageId: 'invalidName',
        data: { wrong: whatIsWrong(tool.name), tool },
        span: tool.nameNode.span,
      });
    }
    for (const server of declarations.servers) {
      for (const namespace of server.namespaces) {
        if (namespace.name === undefined || namespace.name.trim() !== '' || !namespace.nameNode) continue;
        ctx.report({
          messageId: 'emptyNamespace',
          data: { server: server.name },
          span: namespace.nameNode.span,
        });
      }
    }
  },
});

function withoutHidden(name: string): string {
  let out = name;
  for (const run of hiddenCharacters(name).reverse()) out = out.slice(0, run.start) + out.slice(run.end);
  return out;
}

function whatIsWrong(name: string): string {
  if (name.length === 0) return 'is empty';
  const length = name.length > 128 ? `is ${name.length} characters long (at most 128)` : undefined;
  const bad = [...new Set([...name].filter((ch) => !/[A-Za-z0-9._-]/.test(ch)))];
  const chars = bad.length
    ? `contains ${bad.slice(0, 5).map(describeChar).join(', ')}${bad.length > 5 ? ' and more' : ''}`
    : undefined;
  return [length, chars].filter(Boolean).join(' and ');
}

function describeChar(ch: string): string {
  if (ch === ' ') return 'a space';
  if (/\s/.test(ch)) return `whitespace (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;
  return ch === '`' ? 'a backtick' : `\`${ch}\``;
}
