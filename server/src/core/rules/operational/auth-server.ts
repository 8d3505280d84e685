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
// - validateAuthServerConfig's loop over the upstream providers: an `additionalAuthorizationParams`
//   key the auth server sets itself (pkg/authserver/oauthparams Validate).
//
// And the CRD's CEL rules (x-kubernetes-validations) of the nested types of `authServerConfig`
// (cmd/thv-operator/api/v1beta1/mcpexternalauthconfig_types.go), which the API server checks when
// the resource is applied, and the uniqueness of the upstream providers' names (a list of
// `x-kubernetes-list-type: map` keyed by `name`). The CRD's types, required fields, enums, patterns
// and bounds of the same subtree are the schema's (generated into schemas/toolhive-keys.schema.json).
import { parseGoDuration } from '../../text/durations.js';
import {
  getMap,
  getPair,
  getScalar,
  getSeq,
  getString,
  isMap,
  isScalar,
  type MapNode,
  type Pair,
} from '../../parse/nodes.js';
import type { Span } from '../../types.js';
import { refusedAtLoad } from '../../wording/refusalMoments.js';
import { defineRule } from '../rule.js';

/** The CRD's pattern (and length) of an upstream provider's name and of `primaryUpstreamProvider`. */
const DNS_LABEL = /^(?=.{1,63}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/** The moment a CEL rule of the CRD bites. */
const ADMISSION = "The CRD's validation rule refuses it, so the API server rejects the resource when it is applied.";

/** The parameters the auth server sets on every authorization request (oauthparams.ReservedAuthorizationParams). */
const RESERVED_PARAMS = new Set([
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'nonce',
]);

/** The claims an actor cannot be named by (the CRD's CEL rule on actorClaim). */
const RESERVED_ACTOR_CLAIMS = new Set([
  'sub',
  'iss',
  'aud',
  'exp',
  'iat',
  'nbf',
  'jti',
  'name',
  'email',
  'scope',
  'scp',
  'may_act',
]);

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
  confidentialCel: () =>
    'Confidential client registration cannot go with `insecureAllowHTTP`: serve the issuer over HTTPS. ' +
    `Client secrets would be issued in clear text. ${ADMISSION}`,
  delegateOverHttp: () =>
    '`delegateClients` need an https issuer: use https, or remove the delegate clients. ' +
    `Their secrets would travel in clear text, whatever the insecure settings say. ${ADMISSION}`,
  forceWithoutConfidential: () =>
    '`forceConfidentialRedirectUris` needs `allowConfidentialClientRegistration: true`: set it, or remove the list. ' +
    `The list only says which registrations must be confidential. ${ADMISSION}`,
  /** `field`: `name` or `key`. */
  emptySecretRef: ({ field }: { field: string }) =>
    `A delegate client's \`clientSecretRef.${field}\` must not be empty: name the Secret and its key. ${ADMISSION}`,
  /** `name`: the upstream provider's name. */
  duplicateUpstream: ({ name }: { name: string }) =>
    `Upstream provider "${name}" is declared twice: give each provider its own name. ` +
    `The list is keyed by name. The API server rejects the resource when it is applied.`,
  /** `type`: oidc or oauth2; `block`: its block; `other`: the other block. */
  upstreamBlock: ({ type, block, other }: { type: string; block: string; other: string }) =>
    `An upstream provider of type ${type} needs only \`${block}\`: give it that block, not \`${other}\`. ${ADMISSION}`,
  clientIdOrDcr: () =>
    'An `oauth2Config` needs exactly one of `clientId` and `dcrConfig`: keep one. ' +
    `Without \`clientId\` the client is registered dynamically through \`dcrConfig\`. ${ADMISSION}`,
  secretWithDcr: () =>
    '`clientSecretRef` cannot be combined with `dcrConfig`: remove it. ' +
    `Dynamic client registration obtains the client secret when the server runs. ${ADMISSION}`,
  discoveryOrRegistration: () =>
    'A `dcrConfig` needs exactly one of `discoveryUrl` and `registrationEndpoint`: keep one. ' + ADMISSION,
  /** `key`: the parameter. */
  reservedParam: ({ key }: { key: string }) =>
    `\`additionalAuthorizationParams\` cannot set "${key}": remove it. The auth server sets it on every ` +
    'authorization request itself. ToolHive checks it when the operator reconciles the resource ' +
    '(validateAuthServerConfig): the operator refuses the resource and says why in its status.',
  redisAddrOrSentinel: () => 'Redis storage needs exactly one of `addr` and `sentinelConfig`: keep one. ' + ADMISSION,
  clusterModeWithoutAddr: () => '`clusterMode` needs `addr`: set it, or turn cluster mode off. ' + ADMISSION,
  wildcardWithClients: () =>
    '`allowedDelegateClients` cannot mix `"*"` with client IDs: keep the wildcard alone, or only the IDs. ' + ADMISSION,
  mayActWithWildcard: () =>
    '`allowMayAct` cannot be combined with `allowedDelegateClients: ["*"]`: list the delegate clients. ' + ADMISSION,
  /** `claim`: the claim as written. */
  reservedActorClaim: ({ claim }: { claim: string }) =>
    `\`actorClaim\` cannot be "${claim}": use \`client_id\` or another claim such as \`azp\`, \`appid\` or \`cid\`. ` +
    `The CRD reserves it (\`sub\`, \`iss\`, \`aud\`, \`scope\`, \`may_act\`, ...): it does not name the acting client. ${ADMISSION}`,
  privateIpsWithoutJwks: () =>
    '`allowPrivateIPs` needs `jwksUrl`: set the JWKS URL, or leave private addresses refused. ' + ADMISSION,
  audienceRequired: () =>
    'A trusted issuer needs `expectedAudience`: set it. Only a `jwtBearerGrant` without actor settings ' +
    `(\`actorClaim\`, \`actorMatcher\`, \`allowMayAct\`, \`allowedActors\`) may leave it out. ${ADMISSION}`,
  delegateClientsRequired: () =>
    'This trusted issuer needs `allowedDelegateClients`: list the clients that may act for a user. ' +
    'It sets `expectedAudience`, `actorClaim`, `actorMatcher` or `allowMayAct`, which all need it. ' +
    ADMISSION,
  maxAssertionAge: () => '`maxAssertionAge` must be more than zero: give it a positive duration. ' + ADMISSION,
  /** `subject`: the subject as written. */
  duplicateSubject: ({ subject }: { subject: string }) =>
    `Subject "${subject}" has two bindings: merge them into one. ${ADMISSION}`,
};

export const rule = defineRule({
  id: 'operational/auth-server',
  defaultSeverity: 'error',
  summary:
    "A VirtualMCPServer's embedded auth server or authorization upstream ToolHive refuses (the CRD's CEL rules of authServerConfig, http issuer, confidential clients over HTTP, reserved authorization parameters, unknown primaryUpstreamProvider).",
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
      const insecureHttp = kubeBoolean(server, 'insecureAllowHTTP') === true;
      const delegates = getSeq(server, 'delegateClients');
      const insecurePair = server.pairs.find((p) => p.key.value === 'insecureAllowHTTP');
      const allowConfidential = kubeBoolean(server, 'allowConfidentialClientRegistration') === true;
      if (issuerNode && issuer?.startsWith('http://') && delegates && delegates.items.length > 0) {
        // The CRD's rule: refused when applied, before the operator's transport checks.
        ctx.report({ messageId: 'delegateOverHttp', span: issuerNode.span });
      } else if (allowConfidential && insecureHttp && insecurePair) {
        ctx.report({ messageId: 'confidentialCel', span: insecurePair.key.span });
      } else if (issuerNode && host && !isLoopback(host) && !insecureHttp) {
        ctx.report({ messageId: 'httpIssuer', data: { why }, span: issuerNode.span });
      } else {
        const confidential = allowConfidential || (delegates !== undefined && delegates.items.length > 0);
        if (confidential && insecureHttp && insecurePair) {
          ctx.report({ messageId: 'confidentialOverHttp', data: { why }, span: insecurePair.key.span });
        } else if (
          confidential &&
          issuerNode &&
          kubeBoolean(server, 'insecureAllowConfidentialOverLoopbackHTTP') !== true &&
          host &&
          isLoopback(host)
        ) {
          ctx.report({ messageId: 'confidentialOverLoopback', data: { why }, span: issuerNode.span });
        }
      }
      checkNested(server, (messageId, data, span) =>
        ctx.report({ messageId, data, span } as Parameters<typeof ctx.report>[0]),
      );
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
    // Refused for that first: the CRD's pattern on authServerConfig.primaryUpstreamProvider (schema/invalid-value).
    if (explicit.pair === getPair(server, 'primaryUpstreamProvider') && !DNS_LABEL.test(explicit.name)) return;
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

type Report = (messageId: keyof typeof messages, data: Record<string, string>, span: Span) => void;

/** A field CEL's `has()` sees: present and not null (the API server drops a null field first). */
function has(map: MapNode | undefined, key: string): Pair | undefined {
  const pair = getPair(map, key);
  if (!pair?.value) return undefined;
  if (isScalar(pair.value) && pair.value.value === null) return undefined;
  return pair;
}

/** A string field that is set and not empty. */
function nonEmpty(map: MapNode | undefined, key: string): boolean {
  const value = getString(map, key);
  return value !== undefined && value !== '';
}

function items(map: MapNode | undefined, key: string): MapNode[] {
  return getSeq(map, key)?.items.filter(isMap) ?? [];
}

/** The CRD's CEL rules of the nested types, the names' uniqueness, and the reserved parameters. */
function checkNested(server: MapNode, report: Report): void {
  const forced = getSeq(server, 'forceConfidentialRedirectUris');
  const forcedPair = getPair(server, 'forceConfidentialRedirectUris');
  if (
    forced &&
    forced.items.length > 0 &&
    forcedPair &&
    kubeBoolean(server, 'allowConfidentialClientRegistration') !== true
  )
    report('forceWithoutConfidential', {}, forcedPair.key.span);

  for (const client of items(server, 'delegateClients')) {
    const ref = getMap(client, 'clientSecretRef');
    for (const field of ['name', 'key']) {
      const node = getScalar(ref, field);
      if (node && node.value === '') report('emptySecretRef', { field }, getPair(ref, field)!.key.span);
    }
  }

  const seen = new Set<string>();
  for (const provider of items(server, 'upstreamProviders')) {
    const nameNode = getScalar(provider, 'name');
    if (nameNode && typeof nameNode.value === 'string') {
      if (seen.has(nameNode.value)) report('duplicateUpstream', { name: nameNode.value }, nameNode.span);
      seen.add(nameNode.value);
    }
    checkUpstream(provider, report);
  }

  const redisPair = has(getMap(server, 'storage'), 'redis');
  const redis = getMap(getMap(server, 'storage'), 'redis');
  if (redis && redisPair) {
    const addr = nonEmpty(redis, 'addr');
    if (addr === Boolean(has(redis, 'sentinelConfig'))) report('redisAddrOrSentinel', {}, redisPair.key.span);
    const cluster = getPair(redis, 'clusterMode');
    if (cluster && kubeBoolean(redis, 'clusterMode') === true && !addr)
      report('clusterModeWithoutAddr', {}, cluster.key.span);
  }

  for (const issuer of items(server, 'trustedIssuers')) checkTrustedIssuer(issuer, report);
}

function checkUpstream(provider: MapNode, report: Report): void {
  const type = getString(provider, 'type');
  const oidc = has(provider, 'oidcConfig');
  const oauth2 = has(provider, 'oauth2Config');
  // Another type is the enum's to report (schema/invalid-value).
  if (type === 'oidc' || type === 'oauth2') {
    const [own, other] = type === 'oidc' ? [oidc, oauth2] : [oauth2, oidc];
    if (!own || other) {
      const span = (other ?? getPair(provider, 'type')!).key.span;
      const [block, otherBlock] = type === 'oidc' ? ['oidcConfig', 'oauth2Config'] : ['oauth2Config', 'oidcConfig'];
      report('upstreamBlock', { type, block, other: otherBlock }, span);
    }
  }

  const oauth = getMap(provider, 'oauth2Config');
  if (oauth) {
    const dcr = has(oauth, 'dcrConfig');
    const clientId = getPair(oauth, 'clientId');
    // A clientId of another type is the schema's to report (schema/wrong-type).
    const typedClientId =
      !clientId?.value ||
      !isScalar(clientId.value) ||
      typeof clientId.value.value === 'string' ||
      clientId.value.value === null;
    if (typedClientId && nonEmpty(oauth, 'clientId') === Boolean(dcr))
      report('clientIdOrDcr', {}, (dcr ?? clientId ?? getPair(provider, 'oauth2Config')!).key.span);
    const secret = has(oauth, 'clientSecretRef');
    if (dcr && secret) report('secretWithDcr', {}, secret.key.span);
    const dcrMap = getMap(oauth, 'dcrConfig');
    if (dcrMap && dcr && Boolean(has(dcrMap, 'discoveryUrl')) === Boolean(has(dcrMap, 'registrationEndpoint')))
      report('discoveryOrRegistration', {}, dcr.key.span);
  }

  // UpstreamProviderConfig.AdditionalAuthorizationParams: the OIDC block's when there is one.
  const params = getMap(getMap(provider, 'oidcConfig') ?? oauth, 'additionalAuthorizationParams');
  for (const pair of params?.pairs ?? []) {
    const key = pair.key.value;
    if (typeof key === 'string' && RESERVED_PARAMS.has(key)) report('reservedParam', { key }, pair.key.span);
  }
}

function checkTrustedIssuer(issuer: MapNode, report: Report): void {
  const clients = getSeq(issuer, 'allowedDelegateClients');
  const clientIds = clients?.items.filter(isScalar).map((n) => n.value) ?? [];
  const clientsPair = getPair(issuer, 'allowedDelegateClients');
  const wildcard = clientIds.includes('*');
  if (clientsPair && wildcard && (clients?.items.length ?? 0) > 1)
    report('wildcardWithClients', {}, clientsPair.key.span);
  const mayAct = getPair(issuer, 'allowMayAct');
  const allowMayAct = kubeBoolean(issuer, 'allowMayAct') === true;
  if (mayAct && allowMayAct && wildcard) report('mayActWithWildcard', {}, mayAct.key.span);

  const actorClaim = getScalar(issuer, 'actorClaim');
  if (actorClaim && typeof actorClaim.value === 'string' && RESERVED_ACTOR_CLAIMS.has(actorClaim.value))
    report('reservedActorClaim', { claim: actorClaim.value }, actorClaim.span);

  const privateIPs = getPair(issuer, 'allowPrivateIPs');
  if (privateIPs && kubeBoolean(issuer, 'allowPrivateIPs') === true && !nonEmpty(issuer, 'jwksUrl'))
    report('privateIpsWithoutJwks', {}, privateIPs.key.span);

  const anchor = (getPair(issuer, 'issuerUrl') ?? issuer.pairs[0])?.key.span ?? issuer.span;
  const actorSettings =
    nonEmpty(issuer, 'actorClaim') ||
    nonEmpty(issuer, 'actorMatcher') ||
    allowMayAct ||
    (getSeq(issuer, 'allowedActors')?.items.length ?? 0) > 0;
  const grant = has(issuer, 'jwtBearerGrant');
  if (!(grant && !actorSettings) && !nonEmpty(issuer, 'expectedAudience')) report('audienceRequired', {}, anchor);
  const needsClients =
    nonEmpty(issuer, 'expectedAudience') ||
    nonEmpty(issuer, 'actorClaim') ||
    nonEmpty(issuer, 'actorMatcher') ||
    allowMayAct;
  if (needsClients && (clients?.items.length ?? 0) === 0)
    report('delegateClientsRequired', {}, clientsPair?.key.span ?? anchor);

  const grantMap = getMap(issuer, 'jwtBearerGrant');
  if (grantMap) {
    const age = getScalar(grantMap, 'maxAssertionAge');
    const nanos = typeof age?.value === 'string' ? parseGoDuration(age.value) : undefined;
    if (age && nanos !== undefined && nanos <= 0) report('maxAssertionAge', {}, age.span);
    const subjects = new Set<string>();
    for (const binding of items(grantMap, 'subjectBindings')) {
      const subject = getScalar(binding, 'subject');
      if (!subject || typeof subject.value !== 'string') continue;
      if (subjects.has(subject.value)) report('duplicateSubject', { subject: subject.value }, subject.span);
      subjects.add(subject.value);
    }
  }
}

/** YAML 1.1's words for true and false, which kubectl and Helm read as booleans (sigs.k8s.io/yaml decodes with yaml.v2). */
const YAML11_TRUE = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON']);
const YAML11_FALSE = new Set(['n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF']);

/** A boolean field as the API server receives it from kubectl: `yes` is true. */
function kubeBoolean(map: MapNode | undefined, key: string): boolean | undefined {
  const value = getScalar(map, key)?.value;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && YAML11_TRUE.has(value)) return true;
  if (typeof value === 'string' && YAML11_FALSE.has(value)) return false;
  return undefined;
}
