// Credentials written into an MCP client's configuration, and placeholders left where one goes.
// Read in the places a credential travels: `env` values, `headers` values, the value after a
// credential option in `args` (`--token X`, `--api-key=X`), and a URL's user info or query. A value
// is a credential by its shape (a known token prefix, or a long random-looking string under a
// credential's name), never by its name alone: `DEFAULT_MINIMUM_TOKENS: "6000"` is a number.
// The value itself is never copied into anything a user reads.
import type { DocumentContext } from '../context.js';
import { memoKey } from '../memo.js';
import { getNode, isMap, isScalar, keyText, type Pair, type ScalarNode } from '../parse/nodes.js';
import { valueSpanMapper } from '../parse/scalarOffsets.js';
import type { Span } from '../types.js';
import { launchNodesOf } from '../parse/clients.js';
import { clientViewOf, type ClientServer } from './clients.js';

/** Where the value is: an `env` value, a header, after a credential option, in a URL, or an entry key that holds one (Continue's `apiKey`). */
export type SecretPlace = 'env' | 'header' | 'arg' | 'url' | 'key';

export interface SecretFinding {
  kind: 'secret' | 'placeholder';
  server: ClientServer;
  place: SecretPlace;
  /** The env variable, header or option name the value sits under. */
  name: string;
  /** What the value looks like (`a GitHub token`), never the value. */
  looksLike: string;
  node: ScalarNode;
  /** The value's own span (inside a header's `Bearer ` or a URL, only that part). */
  span: Span;
  /** The same part as offsets in the decoded value (what a hover masks). */
  at: { start: number; end: number };
  /** The env pair, when the value is the whole value of an `env` entry (a fix can replace it). */
  envPair?: Pair;
}

/** Token shapes issued by known services. */
const KNOWN_TOKENS: [RegExp, string][] = [
  [/^(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})$/, 'a GitHub token'],
  [/^glpat-[A-Za-z0-9_-]{20,}$/, 'a GitLab token'],
  [/^sk-ant-[A-Za-z0-9_-]{20,}$/, 'an Anthropic API key'],
  [/^sk-(proj-|svcacct-)?[A-Za-z0-9_-]{20,}$/, 'an OpenAI-style API key'],
  [/^(sk|rk)_live_[A-Za-z0-9]{20,}$/, 'a Stripe secret key'],
  [/^xox[abposr]-[A-Za-z0-9-]{10,}$/, 'a Slack token'],
  [/^AKIA[0-9A-Z]{16}$/, 'an AWS access key id'],
  [/^AIza[0-9A-Za-z_-]{35}$/, 'a Google API key'],
  [/^npm_[A-Za-z0-9]{36}$/, 'an npm token'],
  [/^hf_[A-Za-z0-9]{30,}$/, 'a Hugging Face token'],
  [/^pcsk_[A-Za-z0-9_]{30,}$/, 'a Pinecone API key'],
  [/^eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}$/, 'a JSON Web Token'],
];

/** A name a credential goes under (`GITHUB_TOKEN`, `apiKey`, `X-API-Key`, `password`). */
const CREDENTIAL_NAME =
  /(token|secret|passw(or)?d|api[-_]?key|access[-_]?key|private[-_]?key|auth(?!or)|credential|\bpat\b|_pat$)/i;
/** Names that hold a credential's companion, not the credential (`TOKEN_URL`, `KEY_ID`, `AUTH_TYPE`). */
const NOT_CREDENTIAL =
  /(url|uri|endpoint|host|path|file|dir|type|mode|id$|_id\b|name|header|scheme|method|provider|region|limit|count|size|max|min|tokens$|enabled|disable)/i;

/** Template text left in where a value goes. */
const PLACEHOLDER =
  /^(<[^<>]+>|\{\{[^{}]+\}\}|\[[^[\]]+\]|your[-_ ].*|.*_HERE|xxx+|\*{3,}|\.\.\.|replace[-_ ]?me|change[-_ ]?me|insert[-_ ].*|put[-_ ]your.*|todo)$/i;

/** A value is random-looking: long, no spaces, letters and digits mixed, not a reference, path or URL. */
function randomLooking(value: string): boolean {
  if (value.length < 20 || /\s/.test(value) || value.includes('$') || /^(https?:|\/|\.|~)/.test(value)) return false;
  if (!/[A-Za-z]/.test(value) || !/\d/.test(value)) return false;
  return /^[A-Za-z0-9_\-+/=.:]+$/.test(value) && new Set(value).size >= 10;
}

/** What a credential-named value looks like, or undefined when it is no credential. */
function credentialShape(value: string, named: boolean): string | undefined {
  for (const [shape, words] of KNOWN_TOKENS) if (shape.test(value)) return words;
  return named && randomLooking(value) ? 'a credential' : undefined;
}

function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name) && !NOT_CREDENTIAL.test(name.replace(CREDENTIAL_NAME, ''));
}

/** Options whose next argument (or `=` value) is a credential. */
const CREDENTIAL_OPTION = /^--?([a-z0-9-]*(token|secret|password|api-key|apikey|access-key|auth)[a-z0-9-]*)(=(.*))?$/i;

const SECRETS = memoKey<SecretFinding[]>('client-secrets');

/** The credentials and placeholders in the context's server entries. */
export function secretsOf(ctx: DocumentContext): SecretFinding[] {
  return ctx.memo.get(SECRETS, () => {
    const text = ctx.file.source.text;
    const out: SecretFinding[] = [];
    const view = clientViewOf(ctx);
    const codex = view.client?.id === 'codex';
    for (const server of view.servers) {
      const launch = launchNodesOf(server.entry, view.client?.id);
      const env = launch.env;
      for (const pair of isMap(env) ? env.pairs : []) {
        const node = pair.value;
        if (!isScalar(node) || typeof node.value !== 'string') continue;
        const name = keyText(pair);
        const found = judge(node.value, isCredentialName(name));
        if (found)
          out.push({
            ...found,
            server,
            place: 'env',
            name,
            node,
            span: node.span,
            at: { start: 0, end: node.value.length },
            envPair: pair,
          });
      }
      // `http_headers`: Codex's name for the headers it sends as written (it ignores `headers`);
      // Continue's headers are `requestOptions.headers` (config-yaml schemas/mcp/index.ts).
      const headers = codex
        ? getNode(server.entry, 'http_headers')
        : view.client?.id === 'continue'
          ? getNode(getNode(server.entry, 'requestOptions'), 'headers')
          : getNode(server.entry, 'headers');
      for (const pair of isMap(headers) ? headers.pairs : []) {
        const node = pair.value;
        if (!isScalar(node) || typeof node.value !== 'string') continue;
        const name = keyText(pair);
        // `Bearer X`, `Basic X`, `token X`: the credential is X.
        const scheme = /^(bearer|basic|token|apikey)\s+/i.exec(node.value);
        const value = scheme ? node.value.slice(scheme[0].length) : node.value;
        const found = judge(value, scheme !== null || isCredentialName(name));
        if (!found) continue;
        const from = scheme ? scheme[0].length : 0;
        const span = valueSpanMapper(text, node)(from, node.value.length);
        out.push({ ...found, server, place: 'header', name, node, span, at: { start: from, end: node.value.length } });
      }
      // Continue sends `apiKey` as the `Authorization: Bearer` header (core/context/mcp/MCPConnection.ts).
      const apiKey = view.client?.id === 'continue' ? getNode(server.entry, 'apiKey') : undefined;
      if (isScalar(apiKey) && typeof apiKey.value === 'string') {
        const found = judge(apiKey.value, true);
        if (found)
          out.push({
            ...found,
            server,
            place: 'key',
            name: 'apiKey',
            node: apiKey,
            span: apiKey.span,
            at: { start: 0, end: apiKey.value.length },
          });
      }
      const items = launch.args ?? [];
      items.forEach((item, i) => {
        if (!isScalar(item) || typeof item.value !== 'string') return;
        const option = CREDENTIAL_OPTION.exec(item.value);
        if (option) {
          const inline = option[4];
          const next = items[i + 1];
          const [value, node, from] =
            inline !== undefined
              ? [inline, item, item.value.length - inline.length]
              : isScalar(next) && typeof next.value === 'string'
                ? [next.value, next, 0]
                : [undefined, undefined, 0];
          if (value === undefined || node === undefined || value.startsWith('-')) return;
          const found = judge(value, true);
          if (found) {
            const span = valueSpanMapper(text, node)(from, from + value.length);
            out.push({
              ...found,
              server,
              place: 'arg',
              name: `--${option[1]}`,
              node,
              span,
              at: { start: from, end: from + value.length },
            });
          }
          return;
        }
        const inUrl = urlSecret(item.value);
        if (inUrl)
          out.push({
            ...inUrl,
            server,
            place: 'url',
            node: item,
            span: valueSpanMapper(text, item)(inUrl.at, inUrl.end),
            at: { start: inUrl.at, end: inUrl.end },
          });
      });
      const url = getNode(server.entry, 'url');
      if (isScalar(url) && typeof url.value === 'string') {
        const inUrl = urlSecret(url.value);
        if (inUrl)
          out.push({
            ...inUrl,
            server,
            place: 'url',
            node: url,
            span: valueSpanMapper(text, url)(inUrl.at, inUrl.end),
            at: { start: inUrl.at, end: inUrl.end },
          });
      }
    }
    return out;
  });
}

/** Whether a value in a credential's place (Continue's `apiKey`) is a credential written into the file. */
export function holdsCredential(value: string): boolean {
  return judge(value, true)?.kind === 'secret';
}

/** A service's token prefix (`ghp_`, `xoxb-`, `sk-`): template text after it is still a template (`xoxb-your-bot-token`). */
const TOKEN_PREFIX =
  /^(gh[pousr]_|github_pat_|glpat-|sk-ant-|sk-(proj-|svcacct-)?|(sk|rk)_live_|xox[abposr]-|npm_|hf_|pcsk_)/;

function judge(value: string, named: boolean): Pick<SecretFinding, 'kind' | 'looksLike'> | undefined {
  const trimmed = value.trim();
  const template = PLACEHOLDER.test(trimmed) || PLACEHOLDER.test(trimmed.replace(TOKEN_PREFIX, ''));
  if (named && (trimmed === '' || template)) {
    return { kind: 'placeholder', looksLike: trimmed === '' ? 'empty' : 'a placeholder' };
  }
  if (template) return undefined;
  const shape = credentialShape(value, named);
  return shape ? { kind: 'secret', looksLike: shape } : undefined;
}

/** A password in a URL's user info, or a credential-named query parameter with a credential's shape. */
function urlSecret(
  value: string,
): { kind: 'secret'; looksLike: string; name: string; at: number; end: number } | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/@\s]*)@/i.exec(value);
  if (m) {
    const info = m[1] ?? '';
    const colon = info.indexOf(':');
    const password = colon >= 0 ? info.slice(colon + 1) : '';
    if (password !== '' && !password.includes('$') && !PLACEHOLDER.test(password)) {
      const at = value.indexOf('://') + 3 + colon + 1;
      return { kind: 'secret', looksLike: 'a password', name: 'the URL', at, end: at + password.length };
    }
  }
  const q = value.indexOf('?');
  if (q < 0) return undefined;
  for (const part of value.slice(q + 1).split('&')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq);
    const secret = part.slice(eq + 1);
    if (!isCredentialName(name) || secret.includes('$')) continue;
    const shape = credentialShape(decodeURIComponentSafe(secret), true);
    if (!shape) continue;
    const at = value.indexOf(part, q) + eq + 1;
    return { kind: 'secret', looksLike: shape, name: `the URL's ${name}`, at, end: at + secret.length };
  }
  return undefined;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // Not percent-encoded as a URL would be: judge it as written.
    return text;
  }
}

/** Where a value sits, as a message starts with it: `"API_KEY"`, `The "Authorization" header`, `The --token value`, `The URL`. */
export function nameOf(found: SecretFinding): string {
  switch (found.place) {
    case 'env':
      return `"${found.name}"`;
    case 'header':
      return `The "${found.name}" header`;
    case 'arg':
      return `The ${found.name} value`;
    case 'url':
      return found.name === 'the URL' ? 'The URL' : `The URL's "${found.name.replace("the URL's ", '')}"`;
    case 'key':
      return `"${found.name}"`;
  }
}
