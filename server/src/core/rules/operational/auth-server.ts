// operational/auth-server: a VirtualMCPServer's embedded auth server (`spec.authServerConfig`) and
// its authorization upstream, as the operator checks them when it reconciles the resource, from
// the file alone (cmd/thv-operator/controllers/virtualmcpserver_controller.go):
//
// - validateAuthServerConfig: an `http://` issuer whose host is not a loopback address without
//   `insecureAllowHTTP: true`; and, through EmbeddedAuthServerConfig.ValidateConfidentialClientTransport
//   (pkg/authserver/config.go ValidateConfidentialClientTransport), confidential clients
//   (`allowConfidentialClientRegistration`, or any `delegateClients`) together with
//   `insecureAllowHTTP`, or with a plain-HTTP loopback issuer unless
//   `insecureAllowConfidentialOverLoopbackHTTP` is set;
// - validateAuthzUpstreamAvailable, when `spec.incomingAuth.authzConfig` is set: a
//   `primaryUpstreamProvider` (on `spec.authServerConfig`, or the deprecated one on
//   `authzConfig.inline`) without an embedded auth server, or naming none of its upstream providers
//   (an empty upstream name counts as `default`, authserver.ResolveUpstreamName).
//
// The CRD's own requirements (an issuer matching its pattern, at least one upstream provider) are
// the schema's, at admission (schemas/vmcp-server.schema.json).
import { getBoolean, getMap, getScalar, getSeq, getString, isMap, type Pair } from '../../parse/nodes.js';
import { refusedAtLoad } from '../../wording/refusalMoments.js';
import { defineRule } from '../rule.js';

const messages = {
  /** `why`: the function and the moment, a sentence. */
  httpIssuer: ({ why }: { why: string }) =>
    'A plain-HTTP issuer on a non-loopback host needs `insecureAllowHTTP: true`: use https, or set it. ' +
    `ToolHive allows a plain-HTTP issuer only on a loopback host unless \`insecureAllowHTTP\` says otherwise. ${why}`,
  confidentialOverHttp: ({ why }: { why: string }) =>
    'Confidential clients cannot be combined with `insecureAllowHTTP`: serve the issuer over HTTPS. ' +
    `Their secrets would travel in clear text (\`allowConfidentialClientRegistration\` or \`delegateClients\`). ${why}`,
  confidentialOverLoopback: ({ why }: { why: string }) =>
    'Confidential clients need an HTTPS issuer: use https, or set `insecureAllowConfidentialOverLoopbackHTTP`. ' +
    `The issuer is plain HTTP on a loopback address, and their secrets would travel in clear text. ${why}`,
  /** `name`: the provider as written. */
  providerWithoutServer: ({ name, why }: { name: string; why: string }) =>
    `\`primaryUpstreamProvider\` "${name}" needs \`spec.authServerConfig\`: add one, or remove the provider. ` +
    `It names an upstream identity provider of the embedded auth server, and this resource has none. ${why}`,
  /** `names`: the upstream providers' names, in words. */
  unknownProvider: ({ name, names, why }: { name: string; names: string; why: string }) =>
    `\`primaryUpstreamProvider\` "${name}" names no upstream provider: name one, or leave it out. ` +
    `The upstream providers are ${names}; left out, the first is used. A name that matches none would make Cedar ` +
    `deny every request. ${why}`,
};

export const rule = defineRule({
  id: 'operational/auth-server',
  defaultSeverity: 'error',
  summary:
    "A VirtualMCPServer's embedded auth server or authorization upstream the operator refuses (http issuer, confidential clients over HTTP, unknown primaryUpstreamProvider).",
  kinds: ['vmcp-server'],
  messages,
  check(ctx) {
    const spec = getMap(ctx.doc.root, 'spec');
    const server = getMap(spec, 'authServerConfig');
    const moment = refusedAtLoad(ctx.doc.kind);

    if (server) {
      const why = `ToolHive checks it when the operator reconciles the resource (validateAuthServerConfig): ${moment}.`;
      const issuerNode = getScalar(server, 'issuer');
      const issuer = typeof issuerNode?.value === 'string' ? issuerNode.value : undefined;
      const host = issuer?.startsWith('http://') ? hostOf(issuer) : undefined;
      const insecureHttp = getBoolean(server, 'insecureAllowHTTP') === true;
      if (issuerNode && host && !isLoopback(host) && !insecureHttp) {
        ctx.report({ messageId: 'httpIssuer', data: { why }, span: issuerNode.span });
      } else {
        const delegates = getSeq(server, 'delegateClients');
        const confidential =
          getBoolean(server, 'allowConfidentialClientRegistration') === true ||
          (delegates !== undefined && delegates.items.length > 0);
        const insecurePair = server.pairs.find((p) => p.key.value === 'insecureAllowHTTP');
        if (confidential && insecureHttp && insecurePair) {
          ctx.report({ messageId: 'confidentialOverHttp', data: { why }, span: insecurePair.key.span });
        } else if (
          confidential &&
          issuerNode &&
          getBoolean(server, 'insecureAllowConfidentialOverLoopbackHTTP') !== true &&
          host &&
          isLoopback(host)
        ) {
          ctx.report({ messageId: 'confidentialOverLoopback', data: { why }, span: issuerNode.span });
        }
      }
    }

    // validateAuthzUpstreamAvailable runs only when authorization policies are configured inline.
    const authz = getMap(getMap(spec, 'incomingAuth'), 'authzConfig');
    if (!authz) return;
    const why = `ToolHive checks it when the operator reconciles the resource (validateAuthzUpstreamAvailable): ${moment}.`;
    const explicit = explicitProvider(server, getMap(authz, 'inline'));
    if (!explicit) return;
    if (!server) {
      ctx.report({
        messageId: 'providerWithoutServer',
        data: { name: explicit.name, why },
        span: explicit.pair.value!.span,
      });
      return;
    }
    const upstreams = getSeq(server, 'upstreamProviders')?.items.filter(isMap) ?? [];
    if (upstreams.length === 0) return; // refused for that first: the CRD requires upstream providers
    const names = upstreams.map((u) => resolveUpstreamName(getString(u, 'name') ?? ''));
    if (names.includes(resolveUpstreamName(explicit.name))) return;
    ctx.report({
      messageId: 'unknownProvider',
      data: { name: explicit.name, names: names.map((n) => `"${n}"`).join(', '), why },
      span: explicit.pair.value!.span,
    });
  },
});

/** VirtualMCPServer.ExplicitPrimaryUpstreamProvider: the auth server's field first, then the deprecated inline one. */
function explicitProvider(
  server: ReturnType<typeof getMap>,
  inline: ReturnType<typeof getMap>,
): { name: string; pair: Pair } | undefined {
  for (const map of [server, inline]) {
    const pair = map?.pairs.find((p) => p.key.value === 'primaryUpstreamProvider');
    const value = pair?.value?.type === 'scalar' ? pair.value.value : undefined;
    if (pair && typeof value === 'string' && value !== '') return { name: value, pair };
  }
  return undefined;
}

/** authserver.ResolveUpstreamName: an unnamed upstream is "default". */
function resolveUpstreamName(name: string): string {
  return name === '' ? 'default' : name;
}

/** The host (with its port) of an http URL, as url.Parse gives it; undefined when there is none. */
function hostOf(url: string): string | undefined {
  const rest = url.slice('http://'.length);
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  return host === '' ? undefined : host;
}

/** oauthproto.IsLoopbackHost: `localhost`, 127.x.x.x or ::1, with or without a port. */
function isLoopback(hostPort: string): boolean {
  let host = hostPort;
  const bracket = /^\[([^\]]*)\](?::\d*)?$/.exec(hostPort);
  if (bracket) host = bracket[1]!;
  else if (/^[^:]*:\d*$/.test(hostPort)) host = hostPort.slice(0, hostPort.lastIndexOf(':'));
  if (host.toLowerCase() === 'localhost') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return host.split('.').every((p) => Number(p) <= 255);
  return host === '::1' || /^0*:0*:0*:0*:0*:0*:0*:0*1$/.test(host) || host === '0:0:0:0:0:0:0:1';
}
