// client/plain-http: a remote server reached over plain `http://` on a host that is not this
// machine. Every request, with its headers and the tool calls' arguments and results, crosses the
// network unencrypted. Loopback (`localhost`, `127.x.x.x`, `::1`) is left alone. Client-neutral:
// every client connects to the URL as written.
import { clientViewOf } from '../../model/clients.js';
import { getNode, isScalar } from '../../parse/nodes.js';
import { valueSpanMapper } from '../../parse/scalarOffsets.js';
import { defineRule } from '../rule.js';

const URL_KEYS = ['url', 'httpUrl', 'serverUrl'];

/** The host of an `http://` URL, or undefined for any other URL. */
function plainHttpHost(url: string): string | undefined {
  const m = /^http:\/\/(?:[^/@]*@)?(\[[^\]]*\]|[^/:?#]*)/i.exec(url);
  return m ? (m[1] ?? '').toLowerCase() : undefined;
}

function loopback(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '[::1]' || host === '';
}

export const rule = defineRule({
  id: 'client/plain-http',
  defaultSeverity: 'warning',
  summary: 'A remote server over plain `http://` on a host other than this machine.',
  kinds: ['mcp-servers'],
  messages: {
    plainHttp: (d: { host: string }) =>
      `The server on ${d.host} is reached over plain http: use https. Its headers and tool calls cross the network unencrypted.`,
  },
  check(ctx) {
    for (const server of clientViewOf(ctx).servers) {
      for (const key of URL_KEYS) {
        const node = getNode(server.entry, key);
        if (!isScalar(node) || typeof node.value !== 'string') continue;
        const host = plainHttpHost(node.value);
        if (host === undefined || loopback(host) || host.includes('$')) continue;
        ctx.report({
          messageId: 'plainHttp',
          data: { host },
          span: valueSpanMapper(ctx.file.source.text, node)(0, 'http'.length),
        });
      }
    }
  },
});
