// client/secret-in-file: a credential written into a client configuration (a token in `env`, a
// `Bearer` header, `--token X`, a password in a URL). Whoever reads the repository has it. Where
// the client has a reference form the fix moves the value out: VS Code asks for it once and keeps it
// in its secret storage (`inputs` with `password: true`, `${input:ID}`); Claude Code, Gemini CLI and
// Roo Code read it from the environment. The finding never repeats the value.
import { appendItems, editContextOf, insertPairs, renderString } from '../../edit/mappingEdits.js';
import { clientViewOf } from '../../model/clients.js';
import { nameOf, secretsOf, type SecretFinding } from '../../model/clientSecrets.js';
import type { ClientId } from '../../parse/clients.js';
import { getPair, getString, isMap, isSeq } from '../../parse/nodes.js';
import type { Fix } from '../../types.js';
import type { DocumentContext } from '../../context.js';
import { defineRule } from '../rule.js';

/** How each client references a value kept outside the file; `words` may depend on where the value is. */
const REFERENCE: Partial<
  Record<
    ClientId,
    {
      words: string | ((found: SecretFinding) => string);
      env?: (name: string) => string;
      /** Where the fix's reference reads the value from (the environment, unless said). */
      from?: string;
    }
  >
> = {
  vscode: { words: 'a password input (${input:ID})' },
  'claude-code': { words: 'an environment variable (${NAME})', env: (n) => `\${${n}}` },
  gemini: { words: 'an environment variable ($NAME)', env: (n) => `\${${n}}` },
  roo: { words: 'an environment variable (${env:NAME})', env: (n) => `\${env:${n}}` },
  kilo: { words: 'an environment variable (${env:NAME})', env: (n) => `\${env:${n}}` },
  // Codex expands no variable in a value: it forwards variables by name (mcp_types.rs
  // RawMcpServerConfig). A header's value comes from the variable `env_http_headers` names, as is
  // (rmcp-client utils.rs build_default_headers); a bearer token from `bearer_token_env_var`, which
  // adds the `Bearer ` itself.
  codex: { words: codexReference },
  // Continue fills `${{ secrets.NAME }}` from its secrets as it loads the block (config-yaml
  // load/unroll.ts fillTemplateVariables), in any value: env, headers, `apiKey`.
  continue: { words: 'a secret (${{ secrets.NAME }})', env: (n) => `\${{ secrets.${n} }}`, from: "Continue's secrets" },
  // opencode replaces `{env:NAME}` anywhere in its config text as it reads the file (config/variable.ts substitute).
  opencode: { words: 'an environment variable ({env:NAME})', env: (n) => `{env:${n}}` },
};

function codexReference(found: SecretFinding): string {
  if (found.place === 'env') return 'env_vars';
  if (found.place === 'header' && /^authorization$/i.test(found.name) && /^bearer\s/i.test(found.node.value as string))
    return 'bearer_token_env_var';
  if (found.place === 'header') return 'env_http_headers';
  return 'env_vars or env_http_headers';
}

export const rule = defineRule({
  id: 'client/secret-in-file',
  defaultSeverity: 'warning',
  summary: 'A credential written into a client configuration, with a fix that moves it to a reference.',
  kinds: ['mcp-servers'],
  messages: {
    reference: (d: { name: string; looksLike: string; how: string }) =>
      `${d.name} holds ${d.looksLike}: move it to ${d.how}. Written into the file, anyone with the repository can read it: rotate it too.`,
    moveOut: (d: { name: string; looksLike: string }) =>
      `${d.name} holds ${d.looksLike}: keep it out of the committed file. Anyone with the repository can read it: rotate it too.`,
  },
  check(ctx) {
    const client = clientViewOf(ctx).client;
    const reference = client ? REFERENCE[client.id] : undefined;
    for (const found of secretsOf(ctx)) {
      if (found.kind !== 'secret') continue;
      const name = nameOf(found);
      if (!reference) {
        ctx.report({ messageId: 'moveOut', data: { name, looksLike: found.looksLike }, span: found.span });
        continue;
      }
      const fix = client ? fixOf(ctx, client.id, found) : undefined;
      ctx.report({
        messageId: 'reference',
        data: {
          name,
          looksLike: found.looksLike,
          how: typeof reference.words === 'string' ? reference.words : reference.words(found),
        },
        span: found.span,
        ...(fix ? { fixes: [fix] } : {}),
      });
    }
  },
});

/** Moves an `env` value out: to an input (VS Code) or to the environment variable of the same name. */
function fixOf(ctx: DocumentContext, client: ClientId, found: SecretFinding): Fix | undefined {
  if (found.place !== 'env' || !found.envPair) return undefined;
  const edit = editContextOf(ctx.file);
  const name = found.name;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return undefined;
  if (client !== 'vscode') {
    const env = REFERENCE[client]?.env;
    if (!env) return undefined;
    return {
      title: `Read ${name} from ${REFERENCE[client]?.from ?? 'the environment'}`,
      safe: false,
      edits: [{ span: found.node.span, newText: renderString(edit, env(name)) }],
    };
  }
  const id = name.toLowerCase().replace(/_/g, '-');
  const root = ctx.doc.root;
  if (!isMap(root)) return undefined;
  const input = { type: 'promptString', id, description: name, password: true };
  const inputs = getPair(root, 'inputs');
  if (isSeq(inputs?.value) && inputs.value.items.some((i) => isMap(i) && getString(i, 'id') === id)) {
    return undefined;
  }
  const add = isSeq(inputs?.value)
    ? appendItems(edit, inputs.value, [input])
    : inputs
      ? undefined
      : insertPairs(edit, root, [
          { key: 'inputs', value: { inline: `[${JSON.stringify(input).replace(/,/g, ', ').replace(/:/g, ': ')}]` } },
        ]);
  if (!add) return undefined;
  return {
    title: `Ask for ${name} with a password input`,
    safe: false,
    edits: [{ span: found.node.span, newText: renderString(edit, `\${input:${id}}`) }, add].sort(
      (a, b) => a.span.start - b.span.start,
    ),
  };
}
