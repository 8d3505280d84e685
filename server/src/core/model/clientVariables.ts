// The variable references in an MCP client's server entries, read as that client expands them:
// each client has its own syntax (VS Code `${env:X}`, Claude Code and Gemini CLI `${X}`, Roo Code
// `${env:X}`, Continue `${{ secrets.X }}`), and a reference written in another client's syntax is sent as the literal text.
// Only the fields a client expands are read (command, args, env, url, headers, cwd), and only the
// clients whose expansion is known (docs/clients.md#variables).
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
 * A reference the client leaves as written, with its own form for the same variable when it has
 * one, and what to write instead when the client has no variable for it (`form`).
 */
type Verdict = { ok: true } | { ok: false; suggestion: string | undefined; form?: string };
const OK: Verdict = { ok: true };
const wrong = (suggestion: string | undefined, form?: string): Verdict => ({
  ok: false,
  suggestion,
  ...(form ? { form } : {}),
});

/** How one client reads a reference: braced (`${inner}`) or bare (`$name`). */
interface Expansion {
  braced(inner: string): Verdict;
  bare(name: string): Verdict;
  /** How the client writes an environment variable, for a reference with no direct equivalent. */
  form: string;
  source: FactSource;
}

/** `NAME` or `NAME:-default`: the name, when the text is one. */
function plainName(inner: string): string | undefined {
  const name = inner.split(':-')[0] ?? '';
  return NAME.test(name) ? name : undefined;
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
      if (/^(env|input|config|command):/.test(inner) || VSCODE_PREDEFINED.has(inner)) return OK;
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
      if (plainName(inner)) return OK;
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
      if (plainName(inner)) return OK;
      const env = envName(inner) ?? processEnvName(inner);
      if (env) return wrong(`\${${env}}`);
      return /^(input|config|command):/.test(inner) ? wrong(undefined) : OK;
    },
    bare: () => OK,
    form: '$NAME or ${NAME}',
    source: {
      from: 'source',
      where:
        'gemini-cli packages/cli/src/utils/envVarResolver.ts: resolveEnvVarsInString (run over the whole settings file)',
    },
  },
  roo: {
    braced(inner) {
      if (envName(inner) || inner === 'workspaceFolder') return OK;
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
    form: '${{ secrets.NAME }}',
    source: {
      from: 'source',
      where:
        'continue packages/config-yaml/src/load/unroll.ts: TEMPLATE_VAR_REGEX, fillTemplateVariables (an unknown template stays as written)',
    },
  },
};

/** The fields of an entry a client expands variables in. */
const EXPANDED_FIELDS = ['command', 'args', 'env', 'url', 'headers', 'cwd'];

const WRONG = memoKey<WrongReference[]>('client-wrong-references');

/** Every reference in the context's server entries that its client sends as literal text. */
export function wrongReferencesOf(ctx: DocumentContext): WrongReference[] {
  return ctx.memo.get(WRONG, () => {
    const view = clientViewOf(ctx);
    const expansion = view.client ? EXPANSIONS[view.client.id] : undefined;
    if (!expansion) return [];
    const out: WrongReference[] = [];
    for (const server of view.servers) {
      for (const field of EXPANDED_FIELDS) {
        for (const scalar of stringsIn(getNode(server.entry, field))) {
          out.push(...referencesIn(ctx.file.source.text, scalar, expansion));
        }
      }
    }
    return out;
  });
}

/** The string scalars of a field: itself, a list's items, a map's values. */
function stringsIn(node: Node | undefined): ScalarNode[] {
  if (isScalar(node)) return typeof node.value === 'string' ? [node] : [];
  if (isSeq(node)) return node.items.flatMap((item) => (isScalar(item) ? stringsIn(item) : []));
  if (isMap(node)) return node.pairs.flatMap((pair) => (isScalar(pair.value) ? stringsIn(pair.value) : []));
  return [];
}

function referencesIn(text: string, node: ScalarNode, expansion: Expansion): WrongReference[] {
  const value = node.value as string;
  if (!value.includes('$')) return [];
  const out: WrongReference[] = [];
  let mapper: ReturnType<typeof valueSpanMapper> | undefined;
  for (const m of value.matchAll(REFERENCE)) {
    const verdict = m[1] !== undefined ? expansion.braced(m[1]) : expansion.bare(m[2] ?? '');
    if (verdict.ok) continue;
    const start = m.index;
    const end = start + m[0].length;
    mapper ??= valueSpanMapper(text, node);
    out.push({
      form: verdict.form ?? expansion.form,
      written: m[0],
      suggestion: verdict.suggestion,
      span: mapper(start, end),
      node,
      at: { start, end },
    });
  }
  return out;
}
