// Secrets out of sight, and what runs in plain view: which values of a launch are secret (env and
// header values, URL credentials, token-like arguments and URL parts) in what Tool Lens prints, the
// narrower set that is masked in what the server said (`snapshotSecretsOf`), masking them wherever
// they occur in text, and `describeLaunch`, the one line the user
// agrees to before a start: the executable resolved to its absolute path, and the variables that
// decide what runs shown in clear. The CLI's consent line and the editor's consent dialog both show
// exactly this text. SECURITY.md ("How secrets are masked") says the same in prose.
import { resolveExecutable } from './processes.js';
import type { Launch, StdioLaunch } from './servers.js';

/** What a masked value is shown as. */
export const MASK = '***';

/**
 * Environment variables that change which program runs or what it loads, shown in clear in the
 * consent line (and so not counted as secrets). Exact names, then prefixes (compared ignoring
 * case): the loader (LD_, DYLD_), the runtimes' own search paths and preload options, shell startup
 * files, and the package managers an `npx` / `uvx` / `pipx` launch downloads through.
 */
export const LAUNCH_VARIABLES: readonly string[] = [
  'PATH',
  'HOME',
  'XDG_CONFIG_HOME',
  'NODE_OPTIONS',
  'NODE_PATH',
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONSTARTUP',
  'PYTHONUSERBASE',
  'VIRTUAL_ENV',
  'PERL5LIB',
  'PERL5OPT',
  'PERLLIB',
  'RUBYLIB',
  'RUBYOPT',
  'GEM_HOME',
  'GEM_PATH',
  'BUNDLE_GEMFILE',
  'CLASSPATH',
  'JAVA_HOME',
  'JAVA_TOOL_OPTIONS',
  'JDK_JAVA_OPTIONS',
  '_JAVA_OPTIONS',
  'BASH_ENV',
  'ENV',
  'ZDOTDIR',
  'SHELLOPTS',
  'BASHOPTS',
  'IFS',
  'PIP_INDEX_URL',
  'PIP_EXTRA_INDEX_URL',
  'UV_INDEX_URL',
  'UV_EXTRA_INDEX_URL',
  'UV_DEFAULT_INDEX',
  'UV_INDEX',
  'GOFLAGS',
  'GOPROXY',
  'DENO_DIR',
];
export const LAUNCH_VARIABLE_PREFIXES: readonly string[] = [
  'LD_',
  'DYLD_',
  'NPM_CONFIG_',
  'YARN_',
  'PNPM_',
  'COREPACK_',
  'BUN_',
];

/** A name that says its value is a secret: such a variable, flag or key is masked even when listed above. */
const SECRET_NAME =
  /token|secret|passw(?:or)?d|passphrase|pwd|api[-_.]?key|apikey|access[-_.]?key|private[-_.]?key|auth|credential|cookie|session|bearer|signature|(?:^|[-_.])key$/i;

/**
 * A secret-sounding name that names a setting about the secret, not the secret itself:
 * `AUTH_MODE=oauth`, `SESSION_TIMEOUT=30`, `TOKEN_FILE=/run/token`. In what the server said, such a
 * value is masked only when it looks like a token (what Tool Lens prints masks it anyway).
 */
const SETTING_NAME =
  /[-_.](?:mode|type|method|timeout|ttl|enabled|disabled|level|provider|strategy|scheme|header|url|uri|endpoint|host|port|path|file|dir|expiry|expires|lifetime|name)$/i;

/** Whether a variable changes which program runs or what it loads (and is shown in clear). */
export function decidesWhatRuns(name: string): boolean {
  if (SECRET_NAME.test(name)) return false;
  const upper = name.toUpperCase();
  return LAUNCH_VARIABLES.includes(upper) || LAUNCH_VARIABLE_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

// Prefixes of well-known credentials: GitHub, GitLab, OpenAI/Anthropic/Stripe-style keys, Slack,
// AWS access key ids, Google API keys and OAuth tokens, npm, Hugging Face, PyPI, DigitalOcean,
// Shopify, and JWTs (base64 of `{"`).
const TOKEN_PREFIX =
  /^(?:gh[pousr]_|github_pat_|glpat-|sk-|sk_(?:live|test)_|[rp]k_(?:live|test)_|xox[abposr]-|xapp-|AKIA|ASIA|AIza|ya29\.|npm_|hf_|pypi-|dop_v1_|shp(?:at|ca|pa|ss)_|eyJ)/;

/**
 * Whether a word looks like a credential on its own: a known prefix and 16 characters or more, or
 * 20 characters or more of token alphabet (letters, digits, `-_.+=~`, no `/`, so no path) that mix
 * upper case, lower case and digits, or 32 or more hex digits. Ordinary words, paths, package
 * names and versions do not.
 */
export function looksLikeToken(word: string): boolean {
  if (word.length >= 16 && TOKEN_PREFIX.test(word) && /^[A-Za-z0-9._~+=-]+$/.test(word)) return true;
  if (/^[0-9a-fA-F]{32,}$/.test(word)) return true;
  if (word.length < 20 || !/^[A-Za-z0-9._~+=-]+$/.test(word)) return false;
  return /[a-z]/.test(word) && /[A-Z]/.test(word) && /[0-9]/.test(word);
}

/** `--name=value`, `-name=value`, `NAME=value` or `Name: value`: the name and the value. */
const NAMED_VALUE = /^(-{0,2}[A-Za-z_][\w.-]*)(=|:\s*)([\s\S]*)$/;
/** A flag whose next argument is its value: `--token X`, `--api-key X`. */
const FLAG = /^-{1,2}[A-Za-z][\w.-]*$/;

/** The secret values in a launch's arguments (see SECURITY.md for the heuristic). */
function argumentSecrets(args: readonly string[]): string[] {
  const out: string[] = [];
  args.forEach((word, i) => {
    const previous = i > 0 ? args[i - 1]! : '';
    if (FLAG.test(previous) && SECRET_NAME.test(previous) && !word.startsWith('-')) out.push(word);
    const named = NAMED_VALUE.exec(word);
    if (named && SECRET_NAME.test(named[1]!)) out.push(named[3]!, ...bearerOf(named[3]!));
    out.push(...wordSecrets(named ? named[3]! : word));
  });
  return out;
}

/** Token-like words of a text, and the secret parts of the URLs in it. */
function wordSecrets(text: string): string[] {
  const out: string[] = [];
  for (const url of text.match(/[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]+/gi) ?? []) out.push(...urlSecrets(url));
  for (const word of text.split(/[\s,;"'<>()[\]{}=:]+/)) if (word && looksLikeToken(word)) out.push(word);
  return out;
}

/** "Bearer abc": the token alone may show up in a message too. */
function bearerOf(value: string): string[] {
  const token = /^\S+\s+(\S.*)$/.exec(value)?.[1];
  return token ? [token] : [];
}

/** A URL's user and password, its query values, and the path segments that look like tokens. */
function urlSecrets(raw: string): string[] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const part of [url.username, url.password]) if (part) out.push(part, safeDecode(part));
  // Query values: those under a secret-sounding key, those of 8 characters or more, and tokens
  // (shorter ones, such as `mode=json`, would blank out ordinary words; the line masks them all).
  for (const [key, value] of url.searchParams) {
    if (SECRET_NAME.test(key) || value.length >= 8 || looksLikeToken(value)) out.push(value, encodeURIComponent(value));
  }
  if (url.hash.length > 1) out.push(url.hash.slice(1));
  for (const segment of url.pathname.split('/')) {
    const decoded = safeDecode(segment);
    if (looksLikeToken(decoded)) out.push(segment, decoded);
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Values that must never be shown in what Tool Lens prints (log lines, errors, the server's stderr
 * tail, progress): env values (except the variables that decide what runs, which are shown),
 * header values and their bearer tokens, URL user names, passwords, query values and token-like
 * path segments, and token-like arguments. Broad on purpose: a printed line loses nothing that
 * matters when an ordinary word in it is masked too. Longest first, so a longer secret is masked
 * before a shorter one inside it. `snapshotSecretsOf` is the narrower set for what the server said.
 */
export function secretsOf(launch: Launch): string[] {
  const values: string[] = [];
  if (launch.type === 'stdio') {
    for (const [key, value] of Object.entries(launch.env)) {
      if (!decidesWhatRuns(key)) values.push(value, ...bearerOf(value));
      else values.push(...wordSecrets(value));
    }
    values.push(...argumentSecrets([launch.command, ...launch.args]));
  } else {
    for (const value of Object.values(launch.headers)) values.push(value, ...bearerOf(value));
    values.push(...urlSecrets(launch.url));
  }
  return longestFirst(values);
}

/**
 * The values of a launch that are secret by what they are, masked where the server's own answer
 * (its tool list, its initialize result) repeats them: the value of an env variable or header whose
 * name says it is secret (and its bearer token), token-like words and URL credentials in any env
 * value, header value or argument, and the value of a secret flag or `NAME=value` argument. An
 * ordinary setting (`LOG_LEVEL=debug`, `READ_ONLY=true`, a file path) is not one: the server's
 * words that happen to equal it stay as the server wrote them.
 */
export function snapshotSecretsOf(launch: Launch): string[] {
  const values: string[] = [];
  const named = (pairs: Record<string, string>) => {
    for (const [key, value] of Object.entries(pairs)) {
      if (SECRET_NAME.test(key) && !SETTING_NAME.test(key)) values.push(value, ...bearerOf(value));
      values.push(...wordSecrets(value));
    }
  };
  if (launch.type === 'stdio') {
    named(launch.env);
    values.push(...argumentSecrets([launch.command, ...launch.args]));
  } else {
    named(launch.headers);
    values.push(...urlSecrets(launch.url));
  }
  return longestFirst(values);
}

function longestFirst(values: readonly string[]): string[] {
  // Very short values (a "1", an "on") would blank out ordinary text and hide nothing worth hiding.
  return [...new Set(values.map((v) => v.trim()).filter((v) => v.length >= 3))].sort((a, b) => b.length - a.length);
}

/** Shorter than this, a secret is masked only where it stands alone, not inside a longer word. */
const SHORT_SECRET = 8;

/**
 * Every occurrence of every secret replaced by `***`. A secret of fewer than 8 characters is
 * replaced only where it is not part of a longer word (letters, digits, `_` and `-`), so that an
 * env value such as `read` leaves a tool named `read_file` alone.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret || !out.includes(secret)) continue;
    if (secret.length >= SHORT_SECRET) out = out.split(secret).join(MASK);
    else out = out.replace(new RegExp(`(?<![A-Za-z0-9_-])${escapeRegExp(secret)}(?![A-Za-z0-9_-])`, 'g'), MASK);
  }
  return out;
}

/** A JSON value with every string (keys too) redacted; the shape is kept. */
export function redactValue(value: unknown, clean: (text: string) => string): unknown {
  if (typeof value === 'string') return clean(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, clean));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // Own properties: a key named `__proto__` stays a key.
      Object.defineProperty(out, clean(key), {
        value: redactValue(item, clean),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The command line or URL to show the user before starting. For stdio: the entry's variables
 * (those that decide what runs in clear, the others masked), the executable as the start will find
 * it (absolute; where a link leads, when it is one), the arguments with their secrets masked, and
 * the folder it runs in. For HTTP: the URL with its credentials, query values and token-like path
 * segments masked, and the header names.
 */
export function describeLaunch(launch: Launch): string {
  if (launch.type === 'stdio') return describeStdio(launch);
  const headers = Object.keys(launch.headers);
  const how = launch.type === 'sse' ? 'SSE' : 'Streamable HTTP, falling back to SSE';
  return `${displayUrl(launch.url)} (${how}${headers.length ? `; headers ${headers.map((h) => `${h}: ${MASK}`).join(', ')}` : ''})`;
}

function describeStdio(launch: StdioLaunch): string {
  // What runs is never masked by an env value: an entry could otherwise hide an argument, the
  // program or its folder behind a variable with the same value. Arguments are masked by what
  // they are (secret flags, `name=value`, URL credentials, tokens), the program and folder not at all.
  const argSecrets = [...new Set(argumentSecrets(launch.args).filter((v) => v.length >= 3))].sort(
    (a, b) => b.length - a.length,
  );
  const env = Object.entries(launch.env).map(
    ([key, value]) =>
      `${quoteForDisplay(key)}=${decidesWhatRuns(key) ? quoteForDisplay(maskUrls(redact(value, wordSecrets(value)))) : MASK}`,
  );
  const found = resolveExecutable(launch.command, launch.env, launch.cwd);
  let program: string;
  const notes: string[] = [`in ${launch.cwd}`];
  if (found === undefined) {
    program = quoteForDisplay(launch.command);
    if (process.platform !== 'win32')
      notes.push(`"${launch.command}" is not an executable file on the PATH it gets, so the start will fail`);
  } else {
    program = quoteForDisplay(found.path);
    if (found.real !== found.path) notes.push(`${found.path} is a link to ${found.real}`);
    if (found.path !== launch.command)
      notes.push(`"${launch.command}" found on ${found.viaPath ? 'its PATH' : 'the path from its folder'}`);
  }
  const args = maskArguments(launch.args, argSecrets).map(quoteForDisplay);
  return `${[...env, program, ...args].join(' ')}  (${notes.join('; ')})`;
}

/**
 * A command line as a repository writes it, for a listing (`tool-lens servers`): the program as
 * written (nothing is looked up) and the arguments masked as the consent line masks them (secret
 * flags' values, secret `name=value` values, URL credentials and query values, tokens).
 */
export function maskedCommandLine(
  command: string,
  args: readonly string[],
  keep: Keep = KEEP_NOTHING,
): { command: string; args: string[] } {
  const secrets = longestFirst(argumentSecrets([command, ...args])).filter((s) => !keep(s));
  return { command: maskUrls(redact(command, secrets), keep), args: maskArguments(args, secrets, keep) };
}

/** `maskedCommandLine` as one line, each word quoted where a shell would need it. */
export function displayCommandLine(command: string, args: readonly string[]): string {
  const masked = maskedCommandLine(command, args);
  return [masked.command, ...masked.args].map(quoteForDisplay).join(' ');
}

/**
 * A value that is shown as it is even where a secret would stand: for a listing, a value made of
 * variable references only (a reference names a value, it is none). Masking is the default.
 */
export type Keep = (value: string) => boolean;
const KEEP_NOTHING: Keep = () => false;

/** The arguments as shown: values of secret flags, secret `name=value` values, URL secrets and tokens masked. */
function maskArguments(args: readonly string[], secrets: readonly string[], keep: Keep = KEEP_NOTHING): string[] {
  return args.map((word, i) => {
    const previous = i > 0 ? args[i - 1]! : '';
    if (FLAG.test(previous) && SECRET_NAME.test(previous) && !word.startsWith('-') && !keep(word)) return MASK;
    const named = NAMED_VALUE.exec(word);
    if (named && SECRET_NAME.test(named[1]!) && named[3] !== '' && !keep(named[3]!))
      return `${named[1]}${named[2]}${MASK}`;
    return maskUrls(redact(word, secrets), keep);
  });
}

/** Every URL in a text shown as `displayUrl` shows it. */
function maskUrls(text: string, keep: Keep = KEEP_NOTHING): string {
  return text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]+/gi, (url) =>
    /^https?:/i.test(url) || url.includes('@') ? displayUrl(url, url, keep) : url,
  );
}

/**
 * A URL with its user name, password, query values, fragment and token-like path segments masked
 * (each part `keep` accepts, as it is).
 */
export function displayUrl(raw: string, invalid = '<invalid url>', keep: Keep = KEEP_NOTHING): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return invalid;
  }
  const hide = (part: string) => !keep(safeDecode(part));
  if (url.username && hide(url.username)) url.username = 'MASKEDxMASK';
  if (url.password && hide(url.password)) url.password = 'MASKEDxMASK';
  const keys = [...new Set(url.searchParams.keys())];
  for (const key of keys) {
    const values = url.searchParams.getAll(key);
    if (values.some((value) => !keep(value))) url.searchParams.set(key, 'MASKEDxMASK');
  }
  if (url.hash.length > 1 && hide(url.hash.slice(1))) url.hash = 'MASKEDxMASK';
  url.pathname = url.pathname
    .split('/')
    .map((segment) => (looksLikeToken(safeDecode(segment)) && hide(segment) ? 'MASKEDxMASK' : segment))
    .join('/');
  return url.toString().replace(/MASKEDxMASK/g, MASK);
}

/** A word as a shell would need it written: quoted unless it is plain. */
export function quoteForDisplay(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./*-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
