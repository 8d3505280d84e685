// The variable references in an MCP client's server entries, read as that client expands them:
// each client has its own syntax (VS Code `${env:X}`, Claude Code and Gemini CLI `${X}`, Roo Code
// `${env:X}`, Continue `${{ secrets.X }}`, opencode `{env:X}`), and a reference written in another client's syntax is sent as the literal text.
// Only the fields a client expands are read (command, args, env, url, headers, cwd; Amazon Q expands
// `env` and `headers` only, and sends `args` and `url` as written; opencode's own field names), and
// only the clients whose expansion is known (docs/clients.md#variables).
import type { DocumentContext } from '../context.js';
import { memoKey } from '../memo.js';
import type { ClientId } from '../parse/clients.js';
import { getNode, isMap, isScalar, isSeq, type Node, type ScalarNode } from '../parse/nodes.js';
import { valueSpanMapper } from '../parse/scalarOffsets.js';
import type { Span } from '../types.js';
import { clientViewOf, type FactSource } from './clients.js';

/** A reference the client does not expand, with the client's own form when there is one. */
export interface WrongReference {
  /** How the client writes an environment variable. */
  form: string;
  /** The reference as written (`${API_KEY}`, `$API_KEY`, `${env:API_KEY}`): a name, never a value. */
  written: string;
  /** The client's own form for the same variable, when it has one. */
  suggestion: string | undefined;
  span: Span;
  node: ScalarNode;
  /** Where the reference starts and ends in the decoded value. */
  at: { start: number; end: number };
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A bare `$NAME` counts only in capitals, the way environment variables are written (`$1`, `$ref` or `^a$` are not references). */
const BARE_NAME = /^[A-Z_][A-Z0-9_]*$/;
/** `${...}` or `$NAME`. */
const REFERENCE = /\$\{([^{}]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/** VS Code's predefined variables (its configuration resolver), besides the prefixed `env:`, `input:`, `config:`, `command:`. */
const VSCODE_PREDEFINED = new Set([
  'workspaceFolder',
  'workspaceFolderBasename',
  'workspaceRoot',
  'userHome',
  'pathSeparator',
  '/',
  'cwd',
  'execPath',
  'file',
  'fileBasename',
  'fileBasenameNoExtension',
  'fileDirname',
  'fileDirnameBasename',
  'fileExtname',
  'fileWorkspaceFolder',
  'relativeFile',
  'relativeFileDirname',
  'lineNumber',
  'columnNumber',
  'selectedText',
  'defaultBuildTask',
]);

/**
 * What a client puts in place of a reference when it starts the server. Never a value: an
 * environment variable or a secret is named, an input is asked for when the server starts.
 */
export type Filled =
  /** The client's environment variable NAME; with `${NAME:-default}`, the default when it is unset. */
  | { kind: 'env'; name: string; fallback?: string }
  /** VS Code `${input:ID}` (asked when the server starts) or Continue `${{ inputs.NAME }}` (given by the config that uses the block). */
  | { kind: 'input'; id: string }
  /** Continue `${{ secrets.NAME }}`. */
  | { kind: 'secret'; name: string }
  /** The workspace folder (`${workspaceFolder}`), or its last segment (`${workspaceFolderBasename}`). */
  | { kind: 'folder'; basename: boolean }
  /** `${userHome}`. */
  | { kind: 'home' }
  /** `${pathSeparator}`, `${/}`. */
  | { kind: 'separator' }
  /** Another variable the client fills from its own state (VS Code `${config:x}`, `${command:x}`, `${file}`). */
  | { kind: 'client'; written: string };

type Verdict = { ok: true; fills?: Filled } | { ok: false; suggestion: string | undefined; form?: string };
/** Not a reference the client reads: text like any other, sent as written. */
const OK: Verdict = { ok: true };
const fills = (filled: Filled): Verdict => ({ ok: true, fills: filled });
/** A reference the client leaves as written; `form` says what to write when the client has no variable for it. */
const wrong = (suggestion: string | undefined, form?: string): Verdict => ({
  ok: false,
  suggestion,
  ...(form ? { form } : {}),
});

/** How one client reads a reference: braced (`${inner}`) or bare (`$name`). */
interface Expansion {
  braced(inner: string): Verdict;
  bare(name: string): Verdict;
  /** A template form of the client's own besides `${...}` and `$NAME` (Continue's `${{ secrets.X }}`). */
  template?: { pattern: RegExp; read(inner: string): Verdict };
  /** How the client writes an environment variable, for a reference with no direct equivalent. */
  form: string;
  /**
   * Where the client expands, when not in every field it runs with: `expanded` fields are read
   * with `braced`/`bare`; in `literal` ones the client expands nothing, so every reference is sent
   * as written (`literalForm` says where to write it instead); a field missing here is not read.
   */
  fields?: Readonly<Record<string, 'expanded' | 'literal'>>;
  literalForm?: string;
  source: FactSource;
}

/** Cursor's documented variables besides `${env:NAME}` (CURSOR_DOCS in the Cursor row below). */
const CURSOR_PREDEFINED = new Set(['workspaceFolder', 'workspaceFolderBasename', 'userHome', 'pathSeparator']);

/** `NAME` or `NAME:-default`: the name, when the text is one. */
function plainName(inner: string): string | undefined {
  const name = inner.split(':-')[0] ?? '';
  return NAME.test(name) ? name : undefined;
}

/** `NAME` or `NAME:-default` as the environment variable it fills in (the default runs to the `}`). */
function envOrDefault(inner: string): Verdict {
  const name = plainName(inner) ?? '';
  const at = inner.indexOf(':-');
  return fills(at < 0 ? { kind: 'env', name } : { kind: 'env', name, fallback: inner.slice(at + 2) });
}

/** What VS Code's configuration resolver fills in for a prefixed or predefined variable. */
function vscodeVariable(inner: string): Filled {
  const env = envName(inner);
  if (env) return { kind: 'env', name: env };
  if (inner.startsWith('input:')) return { kind: 'input', id: inner.slice('input:'.length) };
  if (inner === 'workspaceFolder' || inner === 'workspaceRoot') return { kind: 'folder', basename: false };
  if (inner === 'workspaceFolderBasename') return { kind: 'folder', basename: true };
  if (inner === 'userHome') return { kind: 'home' };
  if (inner === 'pathSeparator' || inner === '/') return { kind: 'separator' };
  return { kind: 'client', written: `\${${inner}}` };
}

/** `env:NAME`: the name. */
function envName(inner: string): string | undefined {
  const m = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(inner);
  return m?.[1];
}

/**
 * `process.env.NAME`, a JavaScript template written into a config: the name. No client reads it
 * (the dots keep it from being a variable name in any of their syntaxes), so it stays as written.
 */
function processEnvName(inner: string): string | undefined {
  return /^process\.env\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(inner)?.[1];
}

export const EXPANSIONS: Partial<Record<ClientId, Expansion>> = {
  vscode: {
    braced(inner) {
      if (/^(env|input|config|command):/.test(inner) || VSCODE_PREDEFINED.has(inner))
        return fills(vscodeVariable(inner));
      const name = plainName(inner) ?? processEnvName(inner);
      if (name) return wrong(inner.includes(':-') ? undefined : `\${env:${name}}`);
      return OK;
    },
    bare: (name) => (BARE_NAME.test(name) ? wrong(`\${env:${name}}`) : OK),
    form: '${env:NAME} or ${input:ID}',
    source: {
      from: 'documentation',
      where:
        'code.visualstudio.com/docs/copilot/reference/mcp-configuration (predefined variables, ${env:}, ${input:}); vscode src/vs/platform/mcp/common/envVarResolution.ts (the ${VAR} grammar is the portable .mcp.json one, not this file)',
    },
  },
  'claude-code': {
    braced(inner) {
      if (plainName(inner)) return envOrDefault(inner);
      const env = envName(inner) ?? processEnvName(inner);
      if (env) return wrong(`\${${env}}`);
      return /^(input|config|command):/.test(inner) ? wrong(undefined) : OK;
    },
    bare: (name) => (BARE_NAME.test(name) ? wrong(`\${${name}}`) : OK),
    form: '${NAME}',
    source: {
      from: 'documentation',
      where: 'code.claude.com/docs/en/mcp (environment variable expansion in .mcp.json: ${VAR} and ${VAR:-default})',
    },
  },
  gemini: {
    braced(inner) {
      if (plainName(inner)) return envOrDefault(inner);
      const env = envName(inner) ?? processEnvName(inner);
      if (env) return wrong(`\${${env}}`);
      return /^(input|config|command):/.test(inner) ? wrong(undefined) : OK;
    },
    // Any `$NAME` of word characters: an unset one stays as written.
    bare: (name) => fills({ kind: 'env', name }),
    form: '$NAME or ${NAME}',
    source: {
      from: 'source',
      where:
        'gemini-cli packages/cli/src/utils/envVarResolver.ts: resolveEnvVarsInString (run over the whole settings file)',
    },
  },
  roo: {
    braced(inner) {
      const env = envName(inner);
      if (env) return fills({ kind: 'env', name: env });
      if (inner === 'workspaceFolder') return fills({ kind: 'folder', basename: false });
      const name = plainName(inner) ?? processEnvName(inner);
      if (name) return wrong(inner.includes(':-') ? undefined : `\${env:${name}}`);
      return /^(input|config|command):/.test(inner) ? wrong(undefined) : OK;
    },
    bare: (name) => (BARE_NAME.test(name) ? wrong(`\${env:${name}}`) : OK),
    form: '${env:NAME}',
    source: {
      from: 'source',
      where: 'Roo-Code src/utils/config.ts: injectVariables (${env:NAME}, ${workspaceFolder})',
    },
  },
  // Cursor (closed source): its documentation lists `${env:NAME}`, `${userHome}`,
  // `${workspaceFolder}`, `${workspaceFolderBasename}` and `${pathSeparator}` in command, args,
  // env, url and headers. What it does with another form is not documented either way, so another
  // reference is read as text and never reported (client/variable-syntax stays silent on Cursor).
  cursor: {
    braced(inner) {
      const env = envName(inner);
      if (env) return fills({ kind: 'env', name: env });
      if (CURSOR_PREDEFINED.has(inner)) return fills(vscodeVariable(inner));
      return OK;
    },
    bare: () => OK,
    form: '${env:NAME}',
    source: {
      from: 'documentation',
      where:
        'https://cursor.com/docs/mcp (interpolation: ${env:NAME}, ${userHome}, ${workspaceFolder}, ${workspaceFolderBasename}, ${pathSeparator}; read through copies of the page, the page itself was not in the store)',
    },
  },
  // Amazon Q Developer's legacy `.amazonq/mcp.json`: `${env:NAME}` in `env` values and header
  // values only (an unset one becomes `${NAME}`); `args` and `url` are used as written. The
  // `command` goes through a shell-style expansion of its own (`~`, `$NAME`, `${NAME}`), not read here.
  amazonq: {
    braced(inner) {
      const env = envName(inner);
      if (env) return fills({ kind: 'env', name: env });
      const name = plainName(inner) ?? processEnvName(inner);
      if (name) return wrong(inner.includes(':-') ? undefined : `\${env:${name}}`);
      return /^(input|config|command):/.test(inner) ? wrong(undefined) : OK;
    },
    bare: (name) => (BARE_NAME.test(name) ? wrong(`\${env:${name}}`) : OK),
    form: '${env:NAME}',
    fields: { env: 'expanded', headers: 'expanded', args: 'literal', url: 'literal' },
    literalForm: '${env:NAME} in env or headers',
    source: {
      from: 'source',
      where:
        'amazon-q-developer-cli crates/chat-cli/src/mcp_client/client.rs @08497cfd: substitute_env_vars (${env:NAME}), process_env_vars (env), into_service (headers; args and url as written; the command through shellexpand)',
    },
  },
  // Kilo Code forks Roo Code's McpHub and calls the same injectVariables.
  kilo: {
    braced: (inner) => EXPANSIONS.roo!.braced(inner),
    bare: (name) => EXPANSIONS.roo!.bare(name),
    form: '${env:NAME}',
    source: {
      from: 'source',
      where:
        "kilocode src/services/mcp/McpHub.ts: injectVariables from src/utils/config.ts, Roo Code's (${env:NAME}, ${workspaceFolder}; Kilo's copy not read)",
    },
  },
  // Continue fills only `${{ secrets.NAME }}` and `${{ inputs.NAME }}` (REFERENCE never matches
  // them: their inner text has braces), so every `${...}` or `$NAME` this reads is sent as written.
  continue: {
    braced(inner) {
      // An editor's variable (`${workspaceFolder}`) is no secret: Continue has no form for it.
      if (VSCODE_PREDEFINED.has(inner)) return wrong(undefined, 'the value itself');
      const name = plainName(inner) ?? envName(inner) ?? processEnvName(inner);
      if (name) return wrong(inner.includes(':-') ? undefined : `\${{ secrets.${name} }}`);
      return /^(input|config|command):/.test(inner) ? wrong(undefined) : OK;
    },
    bare: (name) => (BARE_NAME.test(name) ? wrong(`\${{ secrets.${name} }}`) : OK),
    // `${{ secrets.NAME }}` and `${{ inputs.NAME }}`; any other template is left as written.
    template: {
      pattern: /\$\{\{\s*([^{}]*?)\s*\}\}/g,
      read(inner) {
        const m = /^(secrets|inputs)\.([A-Za-z0-9_.-]+)$/.exec(inner);
        if (!m) return OK;
        return fills(m[1] === 'secrets' ? { kind: 'secret', name: m[2]! } : { kind: 'input', id: m[2]! });
      },
    },
    form: '${{ secrets.NAME }}',
    source: {
      from: 'source',
      where:
        'continue packages/config-yaml/src/load/unroll.ts: TEMPLATE_VAR_REGEX, fillTemplateVariables (an unknown template stays as written)',
    },
  },
  // opencode replaces `{env:NAME}` and `{file:path}` in the config's text before it parses it; a
  // `${...}` or `$NAME` is left as written. `${env:NAME}` keeps its `$` before the value.
  opencode: {
    braced(inner) {
      const name = envName(inner) ?? plainName(inner) ?? processEnvName(inner);
      if (name) return wrong(inner.includes(':-') ? undefined : `{env:${name}}`);
      if (VSCODE_PREDEFINED.has(inner)) return wrong(undefined, 'the value itself');
      return /^(input|config|command):/.test(inner) ? wrong(undefined) : OK;
    },
    bare: (name) => (BARE_NAME.test(name) ? wrong(`{env:${name}}`) : OK),
    template: {
      pattern: /(?<!\$)\{((?:env|file):[^}]+)\}/g,
      read(inner) {
        if (inner.startsWith('env:')) return fills({ kind: 'env', name: inner.slice('env:'.length) });
        return fills({ kind: 'client', written: `{${inner}}` });
      },
    },
    form: '{env:NAME}',
    source: {
      from: 'source',
      where:
        'opencode packages/opencode/src/config/variable.ts: substitute ({env:NAME}, {file:path}, run over the config text before it is parsed)',
    },
  },
};

/** The fields of an entry a client expands variables in (opencode: `environment`, not `env`). */
const EXPANDED_FIELDS = ['command', 'args', 'env', 'url', 'headers', 'cwd'];
const OPENCODE_FIELDS = ['command', 'environment', 'url', 'headers'];

const WRONG = memoKey<WrongReference[]>('client-wrong-references');

/** Every reference in the context's server entries that its client sends as literal text. */
export function wrongReferencesOf(ctx: DocumentContext): WrongReference[] {
  return ctx.memo.get(WRONG, () => {
    const view = clientViewOf(ctx);
    const expansion = view.client ? EXPANSIONS[view.client.id] : undefined;
    if (!expansion) return [];
    const out: WrongReference[] = [];
    for (const server of view.servers) {
      for (const field of view.client?.id === 'opencode' ? OPENCODE_FIELDS : EXPANDED_FIELDS) {
        const reading = expansionIn(expansion, field);
        if (!reading) continue;
        for (const scalar of stringsIn(getNode(server.entry, field))) {
          out.push(...referencesIn(ctx.file.source.text, scalar, reading));
        }
      }
    }
    return out;
  });
}

/**
 * How a client reads the references of one field: its own expansion, one that sends every
 * reference as written (a field it does not expand), or none (a field not read here).
 */
function expansionIn(expansion: Expansion, field: string | undefined): Expansion | undefined {
  if (!expansion.fields || field === undefined) return expansion;
  const mode = expansion.fields[field];
  if (mode === 'expanded') return expansion;
  if (mode === undefined) return undefined;
  const form = expansion.literalForm ?? expansion.form;
  return {
    braced: (inner) =>
      plainName(inner) || envName(inner) || processEnvName(inner) || /^(input|config|command):/.test(inner)
        ? wrong(undefined, form)
        : OK,
    bare: (name) => (BARE_NAME.test(name) ? wrong(undefined, form) : OK),
    form,
    source: expansion.source,
  };
}

/** The string scalars of a field: itself, a list's items, a map's values. */
function stringsIn(node: Node | undefined): ScalarNode[] {
  if (isScalar(node)) return typeof node.value === 'string' ? [node] : [];
  if (isSeq(node)) return node.items.flatMap((item) => (isScalar(item) ? stringsIn(item) : []));
  if (isMap(node)) return node.pairs.flatMap((pair) => (isScalar(pair.value) ? stringsIn(pair.value) : []));
  return [];
}

/** A reference in a value as the client reads it: where it is, as written, and the verdict. */
interface Reference {
  start: number;
  end: number;
  written: string;
  verdict: Verdict;
}

/** The references of a value in order: the client's template form first, then `${...}` and `$NAME` outside it. */
function scan(value: string, expansion: Expansion): Reference[] {
  const out: Reference[] = [];
  const taken: [number, number][] = [];
  if (expansion.template) {
    for (const m of value.matchAll(expansion.template.pattern)) {
      const end = m.index + m[0].length;
      out.push({ start: m.index, end, written: m[0], verdict: expansion.template.read(m[1] ?? '') });
      taken.push([m.index, end]);
    }
  }
  for (const m of value.matchAll(REFERENCE)) {
    if (taken.some(([start, end]) => m.index < end && m.index + m[0].length > start)) continue;
    const verdict = m[1] !== undefined ? expansion.braced(m[1]) : expansion.bare(m[2] ?? '');
    out.push({ start: m.index, end: m.index + m[0].length, written: m[0], verdict });
  }
  return out.sort((a, b) => a.start - b.start);
}

function referencesIn(text: string, node: ScalarNode, expansion: Expansion): WrongReference[] {
  const value = node.value as string;
  if (!value.includes('$')) return [];
  const out: WrongReference[] = [];
  let mapper: ReturnType<typeof valueSpanMapper> | undefined;
  for (const ref of scan(value, expansion)) {
    if (ref.verdict.ok) continue;
    mapper ??= valueSpanMapper(text, node);
    out.push({
      form: ref.verdict.form ?? expansion.form,
      written: ref.written,
      suggestion: ref.verdict.suggestion,
      span: mapper(ref.start, ref.end),
      node,
      at: { start: ref.start, end: ref.end },
    });
  }
  return out;
}

/**
 * Clients that fill in no variable of a server entry: `${X}`, `$X` and `${env:X}` reach the server
 * as written. (Codex names the variables it passes on in keys of their own: `env_vars`,
 * `bearer_token_env_var`, `env_http_headers`.)
 */
export const EXPANDS_NOTHING: Partial<Record<ClientId, FactSource>> = {
  'claude-desktop': {
    from: 'documentation',
    where: 'https://modelcontextprotocol.io/quickstart/user (env values are literal; no expansion is documented)',
  },
  zed: {
    from: 'source',
    where:
      'zed crates/settings_content/src/project.rs: ContextServerCommand (env and headers as plain maps; no expansion found)',
  },
  codex: {
    from: 'source',
    where:
      'codex codex-rs/config/src/mcp_types.rs: RawMcpServerConfig (no interpolation; env_vars, bearer_token_env_var, env_http_headers)',
  },
};

/** One part of a value as the client sends it; `at` is where it is in the decoded value. */
export type ValuePart = { at: { start: number; end: number } } & (
  | { kind: 'text' }
  | { kind: 'filled'; filled: Filled; written: string }
  /** A reference in another client's syntax: sent as written (client/variable-syntax's finding). */
  | { kind: 'literal'; written: string }
);

/**
 * A value of a server entry in the parts its client sends: text as written and the references it
 * fills in (`field`: the entry's key the value is under, for a client that expands some fields
 * only). Undefined when Tool Lens does not know how the client expands variables (a client
 * without an EXPANSIONS or EXPANDS_NOTHING row, or none known from the path).
 */
export function partsOf(client: ClientId | undefined, value: string, field?: string): ValuePart[] | undefined {
  if (client === undefined) return undefined;
  const whole: ValuePart[] = [{ kind: 'text', at: { start: 0, end: value.length } }];
  if (EXPANDS_NOTHING[client]) return whole;
  const known = EXPANSIONS[client];
  if (!known) return undefined;
  // A field the client's expansion is not read in (Amazon Q's command) is shown as written.
  const expansion = expansionIn(known, field);
  if (!expansion) return whole;
  if (!value.includes('$') && !expansion.template) return whole;
  const out: ValuePart[] = [];
  let at = 0;
  for (const ref of scan(value, expansion)) {
    const { verdict } = ref;
    // Text that only looks like a reference (`${not a name}`) stays part of the text around it.
    if (verdict.ok && !verdict.fills) continue;
    if (ref.start > at) out.push({ kind: 'text', at: { start: at, end: ref.start } });
    const span = { start: ref.start, end: ref.end };
    out.push(
      verdict.ok && verdict.fills
        ? { kind: 'filled', filled: verdict.fills, written: ref.written, at: span }
        : { kind: 'literal', written: ref.written, at: span },
    );
    at = ref.end;
  }
  if (at < value.length) out.push({ kind: 'text', at: { start: at, end: value.length } });
  return out;
}
