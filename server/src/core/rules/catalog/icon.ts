// A tool's icons (since 2025-11-25; MCP basic/index "icons", the Icon type of the schema). `src`
// is a URI that consumers must load safely: the page says to make sure it is HTTPS or `data:`,
// and that clients MUST reject unsafe schemes (`javascript:`, `file:`, `ftp:`, `ws:`, local app
// schemes). So an icon whose `src` is anything else is never shown by a client that follows the
// spec, and a `javascript:` one is an attack on those that do not. `sizes` entries are "WxH" or
// "any". A `theme` outside light/dark is schema/invalid-value's (the SDK client rejects the whole
// list for it), and a missing `src` schema/missing-field's.
import { getPair, getSeq, isMap, isScalar } from '../../parse/nodes.js';
import { defineRule } from '../rule.js';
import { catalogDeclarationsOf, describeTool, type ToolDecl } from '../../model/catalogDeclarations.js';

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const SIZE = /^(?:[1-9][0-9]*[xX][1-9][0-9]*|any)$/;
/** Hosts an `http:` icon may name without leaving the machine. */
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

export const rule = defineRule({
  id: 'catalog/icon',
  defaultSeverity: 'warning',
  summary:
    'A tool icon whose `src` clients must reject (not HTTPS or `data:`, or not a URI), or whose `sizes` is not "WxH".',
  kinds: ['tool-catalog'],
  messages: {
    /** `scheme`: the scheme as written, lower-cased, with its colon. */
    unsafeScheme: ({ scheme, tool }: { scheme: string; tool: ToolDecl }) =>
      `This icon's src uses \`${scheme}\`, which clients must reject: use HTTPS or a \`data:\` URI. ` +
      `MCP asks consumers to load icons only from HTTPS or \`data:\` URIs and requires them to reject unsafe schemes ` +
      `such as \`javascript:\` and \`file:\`, so no client that follows it shows this icon of ${describeTool(tool)}` +
      `${scheme === 'javascript:' || scheme === 'vbscript:' ? ", and one that does not would run the server's script" : ''}.`,
    insecureHttp: ({ tool }: { tool: ToolDecl }) =>
      `This icon's src is plain http: serve it over HTTPS or as a \`data:\` URI. ` +
      `MCP asks consumers to load icons only from HTTPS or \`data:\` URIs, so clients may refuse this icon of ` +
      `${describeTool(tool)}, and one that loads it does so over a connection anyone between can read and change.`,
    notUri: ({ tool }: { tool: ToolDecl }) =>
      `This icon's src is not a URI: give an https: URL or a \`data:\` URI. ` +
      `An icon's \`src\` is a URI with a scheme (\`https://...\`, \`data:image/png;base64,...\`); a client cannot ` +
      `load this icon of ${describeTool(tool)}.`,
    /** `size`: the entry as written. */
    badSize: ({ size, tool }: { size: string; tool: ToolDecl }) =>
      `This icon size "${size}" is neither "WxH" nor "any": write it like "48x48". ` +
      `MCP describes each entry of an icon's \`sizes\` as width x height in pixels, or \`any\` for a scalable image; a ` +
      `client choosing among the icons of ${describeTool(tool)} cannot use this one's size.`,
  },
  check(ctx) {
    for (const tool of catalogDeclarationsOf(ctx).tools) {
      for (const icon of getSeq(tool.node, 'icons')?.items ?? []) {
        if (!isMap(icon)) continue; // schema/wrong-type's
        const src = getPair(icon, 'src')?.value;
        if (isScalar(src) && typeof src.value === 'string') {
          const value = src.value.trim();
          const scheme = SCHEME.exec(value)?.[1]?.toLowerCase();
          if (scheme === undefined) ctx.report({ messageId: 'notUri', data: { tool }, span: src.span });
          else if (scheme === 'http') {
            if (!LOOPBACK.test(hostOf(value) ?? ''))
              ctx.report({ messageId: 'insecureHttp', data: { tool }, span: src.span });
          } else if (scheme !== 'https' && scheme !== 'data')
            ctx.report({ messageId: 'unsafeScheme', data: { scheme: `${scheme}:`, tool }, span: src.span });
          else if (scheme === 'https' && hostOf(value) === undefined)
            ctx.report({ messageId: 'notUri', data: { tool }, span: src.span });
        }
        // Only the advisory SHOULD: lower than the MUSTs above.
        for (const size of getSeq(icon, 'sizes')?.items ?? []) {
          if (!isScalar(size) || typeof size.value !== 'string' || SIZE.test(size.value)) continue;
          ctx.report({ severity: 'info', messageId: 'badSize', data: { size: size.value, tool }, span: size.span });
        }
      }
    }
  },
});

/** The host of an http(s) URL, or undefined when it has none. */
function hostOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const host = new URL(url).hostname;
  return host === '' ? undefined : host;
}
