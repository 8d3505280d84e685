// operational/passthrough-headers: a VirtualMCPServer's passthrough headers as the vMCP pod checks
// them when it starts. The operator takes `spec.passthroughHeaders` when it lists any and
// `spec.config.passthroughHeaders` otherwise (cmd/thv-operator/pkg/vmcpconfig/converter.go Convert;
// TestConverter_PassthroughHeaders), and the pod's validator (validatePassthroughHeaders in
// pkg/vmcp/config/validator.go) refuses, in the list it got: an empty name, a restricted header
// (middleware.RestrictedHeaders in pkg/transport/middleware/header_forward.go, plus Authorization
// and Cookie for vMCP), and a name that is no HTTP token of at most 256 bytes (toolhive-core's
// validation/http ValidateHeaderName). Neither CRD field has a pattern, so the API server and the
// operator accept them all. A CLI file's list is checked by its schema (schema/invalid-value).
import { getMap, getNode, isScalar, isSeq, type SeqNode } from '../../parse/nodes.js';
import { refusedAtStart } from '../../wording/refusalMoments.js';
import { defineRule } from '../rule.js';

/** The headers ToolHive never forwards, in Go's canonical form. */
const RESTRICTED = new Set([
  'Host',
  'Connection',
  'Keep-Alive',
  'Te',
  'Trailer',
  'Upgrade',
  'Http2-Settings',
  'Proxy-Authorization',
  'Proxy-Authenticate',
  'Proxy-Connection',
  'Transfer-Encoding',
  'Content-Length',
  'Forwarded',
  'X-Forwarded-For',
  'X-Forwarded-Host',
  'X-Forwarded-Proto',
  'X-Real-Ip',
  'Authorization',
  'Cookie',
]);

/** An RFC 7230 token (httpguts.ValidHeaderFieldName). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MAX_NAME_BYTES = 256;

const messages = {
  /** `list`: the field the pod gets its list from; `moment`: when ToolHive refuses it. */
  empty: ({ list, moment }: { list: string; moment: string }) =>
    `An empty header name in \`${list}\`: write the header's name, or remove the entry. ` +
    `ToolHive refuses an empty passthrough header name (validatePassthroughHeaders): ${moment}.`,
  /** `name`: in Go's canonical form. */
  restricted: ({ name, list, moment }: { name: string; list: string; moment: string }) =>
    `\`${name}\` cannot be passed through to backends: remove it from \`${list}\`. ` +
    'ToolHive never forwards credentials (`Authorization`, `Cookie`), `Host`, hop-by-hop and framing headers, or the ' +
    `forwarding headers (\`X-Forwarded-*\`, \`Forwarded\`, \`X-Real-Ip\`), and refuses a list that names one ` +
    `(validatePassthroughHeaders): ${moment}. For backend credentials use \`outgoingAuth\`.`,
  invalidName: ({ list, moment }: { list: string; moment: string }) =>
    `This is no HTTP header name: use letters, digits and \`-\` (no spaces or \`:\`). ` +
    `A header name is an HTTP token of at most ${MAX_NAME_BYTES} bytes: letters, digits and \`!#$%&'*+-.^_\`|~\`. ` +
    `ToolHive refuses any other name in \`${list}\` (validatePassthroughHeaders): ${moment}.`,
  overridden: () =>
    '`spec.passthroughHeaders` replaces this list: move its names there, or remove one of the two lists. ' +
    'When `spec.passthroughHeaders` lists any header, the operator passes it on instead of ' +
    '`spec.config.passthroughHeaders`, so none of these names is forwarded.',
};

export const rule = defineRule({
  id: 'operational/passthrough-headers',
  defaultSeverity: 'error',
  summary: "A VirtualMCPServer's passthrough header the vMCP pod refuses, or a config list the spec's replaces.",
  kinds: ['vmcp-server'],
  messages,
  check(ctx) {
    const spec = getMap(ctx.doc.root, 'spec');
    const specList = seqOf(getNode(spec, 'passthroughHeaders'));
    const configPair = getMap(spec, 'config')?.pairs.find((p) => p.key.value === 'passthroughHeaders');
    const configList = seqOf(configPair?.value ?? undefined);
    const specWins = specList !== undefined && specList.items.length > 0;
    if (specWins && configPair && configList && configList.items.length > 0) {
      ctx.report({
        messageId: 'overridden',
        span: configPair.key.span,
        severity: 'warning',
      });
    }
    const effective = specWins ? specList : configList;
    const list = specWins ? 'spec.passthroughHeaders' : 'spec.config.passthroughHeaders';
    const moment = refusedAtStart(ctx.doc.kind);
    for (const item of effective?.items ?? []) {
      if (!isScalar(item) || typeof item.value !== 'string') continue; // not a string: schema/wrong-type
      const name = item.value;
      if (name === '') {
        ctx.report({ messageId: 'empty', data: { list, moment }, span: item.span });
        continue;
      }
      const canonical = canonicalHeaderKey(name);
      if (RESTRICTED.has(canonical)) {
        ctx.report({ messageId: 'restricted', data: { name: canonical, list, moment }, span: item.span });
      } else if (!TOKEN.test(name) || name.length > MAX_NAME_BYTES) {
        // A token is ASCII, so its length is its size in bytes.
        ctx.report({ messageId: 'invalidName', data: { list, moment }, span: item.span });
      }
    }
  },
});

function seqOf(node: ReturnType<typeof getNode>): SeqNode | undefined {
  return isSeq(node) ? node : undefined;
}

/**
 * Go's http.CanonicalHeaderKey: for a valid token, the first letter and each letter after `-` upper
 * case, the rest lower case; any other string is returned unchanged.
 */
function canonicalHeaderKey(name: string): string {
  if (!TOKEN.test(name)) return name;
  let upper = true;
  let out = '';
  for (const ch of name) {
    out += upper ? ch.toUpperCase() : ch.toLowerCase();
    upper = ch === '-';
  }
  return out;
}
