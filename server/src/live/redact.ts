// Secrets out of sight: which values of a launch are secret, masking them in messages, and the masked command line or URL shown before a start.
import type { Launch } from './servers.js';

/** Values that must never be shown: env values, header values, URL passwords and query values. */
export function secretsOf(launch: Launch): string[] {
  const values: string[] = [];
  if (launch.type === 'stdio') values.push(...Object.values(launch.env));
  else {
    values.push(...Object.values(launch.headers));
    for (const value of Object.values(launch.headers)) {
      // "Bearer abc": the token alone may show up in a message too.
      const token = /^\S+\s+(\S.*)$/.exec(value)?.[1];
      if (token) values.push(token);
    }
    try {
      const url = new URL(launch.url);
      if (url.password) values.push(url.password, decodeURIComponent(url.password));
      for (const value of url.searchParams.values()) values.push(value, encodeURIComponent(value));
    } catch (error) {
      void error; // servers.ts only builds launches with valid URLs
    }
  }
  // Very short values (a "1", a "on") would blank out ordinary text and hide nothing worth hiding.
  return [...new Set(values.filter((v) => v.length >= 3))].sort((a, b) => b.length - a.length);
}

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('***');
  return out;
}

/** The command line or URL to show the user before starting, with every secret value masked. */
export function describeLaunch(launch: Launch): string {
  const secrets = secretsOf(launch);
  if (launch.type === 'stdio') {
    const env = Object.keys(launch.env).map((key) => `${key}=***`);
    const words = [...env, launch.command, ...launch.args].map((word, i) => (i < env.length ? word : quoteForDisplay(redact(word, secrets))));
    return `${words.join(' ')}  (in ${launch.cwd})`;
  }
  const headers = Object.keys(launch.headers);
  const how = launch.type === 'sse' ? 'SSE' : 'Streamable HTTP, falling back to SSE';
  return `${displayUrl(launch.url)} (${how}${headers.length ? `; headers ${headers.map((h) => `${h}: ***`).join(', ')}` : ''})`;
}

/** A URL with its password and query values masked. */
export function displayUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    const keys = [...new Set(url.searchParams.keys())];
    for (const key of keys) url.searchParams.set(key, '***');
    return url.toString().replace(/%2A%2A%2A/g, '***');
  } catch (error) {
    void error;
    return '<invalid url>';
  }
}

function quoteForDisplay(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./*-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
