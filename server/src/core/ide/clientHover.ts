// Hover on a server's name in an MCP client configuration: how its client will start it. The
// command line or URL, the environment and headers it gets, each value as the client sends it:
// the variables the client fills in are shown as what fills them (`‹env GITHUB_TOKEN›`, `‹input
// api-key: "GitHub token", password›`, the workspace folder), read with the client's own syntax
// (model/clientVariables.ts); a reference in another client's syntax stays as written, since that
// is what the client sends. No value of an environment variable is ever read or shown: the hover
// says which variable, never what the machine running Tool Lens holds. Values Tool Lens takes for
// a credential (model/clientSecrets.ts, client/secret-in-file's reading) are masked.
import type { DocumentContext } from '../context.js';
import { fetchedBy } from '../model/clientLaunch.js';
import { clientViewOf, type ClientServer } from '../model/clients.js';
import { holdsCredential, secretsOf } from '../model/clientSecrets.js';
import { EXPANDS_NOTHING, partsOf, type Filled } from '../model/clientVariables.js';
import { launchNodesOf, type ClientId, type ClientInfo } from '../parse/clients.js';
import { getMap, getNode, getString, isMap, isScalar, isSeq, keyText, type Node } from '../parse/nodes.js';
import { code } from './tools.js';

/** What a masked value is shown as (the same as `catalog fetch` and `tool-lens servers` show). */
const MASK = '***';
/** An input's description is cut to this many characters in a value. */
const DESCRIPTION_CHARS = 60;

type Range = { start: number; end: number };

/** The hover of a server's name key, or undefined when the key is no server's name. */
export function serverStartHover(ctx: DocumentContext, key: Node): string | undefined {
  const view = clientViewOf(ctx);
  const server = view.servers.find((s) => s.pair.key === key);
  if (!server) return undefined;
  const reader = new ValueReader(ctx, view.client, server);
  const client = view.client?.label;
  const lines = [
    `**${code(server.name)}**${client ? `: started by ${client}` : ' (the client is not known from the path)'}`,
    '',
  ];
  const entry = server.entry;
  const codex = view.client?.id === 'codex';
  const launch = launchNodesOf(entry, view.client?.id);
  const command = reader.show(launch.command, 'command');
  const url = reader.show(getNode(entry, 'url') ?? getNode(entry, 'httpUrl') ?? getNode(entry, 'serverUrl'), 'url');
  if (command !== undefined) {
    const argv = (launch.args ?? []).map((i) => reader.show(i, 'args') ?? '?');
    lines.push('Runs, with no shell:', '', ...fenced([command, ...argv].join(' ')));
    const cwd = reader.show(getNode(entry, 'cwd'), 'cwd');
    if (cwd !== undefined) lines.push('', `In the folder ${code(cwd)}.`);
    const env: [string, string][] = [];
    const envMap = launch.env;
    for (const pair of isMap(envMap) ? envMap.pairs : [])
      env.push([keyText(pair), reader.show(pair.value, 'env') ?? '?']);
    // Codex passes on variables of its own environment by name.
    if (codex) for (const name of codexEnvVars(getNode(entry, 'env_vars'))) env.push([name, reader.env(name)]);
    if (env.length > 0) {
      lines.push('', 'With the environment:', '');
      for (const [name, value] of env) lines.push(`- ${code(name)} = ${code(value)}`);
    }
  } else if (url !== undefined) {
    lines.push(`Connects to ${code(url)}.`);
    const headers: [string, string][] = [];
    const headerMap = codex
      ? getNode(entry, 'http_headers')
      : view.client?.id === 'continue'
        ? getNode(getMap(entry, 'requestOptions'), 'headers')
        : getNode(entry, 'headers');
    for (const pair of isMap(headerMap) ? headerMap.pairs : [])
      headers.push([keyText(pair), reader.show(pair.value, 'headers') ?? '?']);
    // Continue sends `apiKey` as `Authorization: Bearer <apiKey>`, over a header of that name
    // (core/context/mcp/MCPConnection.ts, constructSseTransport and constructHttpTransport).
    const apiKey = view.client?.id === 'continue' ? reader.show(getNode(entry, 'apiKey'), 'apiKey') : undefined;
    if (apiKey !== undefined) {
      const at = headers.findIndex(([name]) => name.toLowerCase() === 'authorization');
      if (at >= 0) headers.splice(at, 1);
      headers.push(['Authorization', `Bearer ${apiKey}`]);
    }
    if (codex) {
      const bearer = getString(entry, 'bearer_token_env_var');
      if (bearer !== undefined) headers.push(['Authorization', `Bearer ${reader.env(bearer)}`]);
      const fromEnv = getNode(entry, 'env_http_headers');
      for (const pair of isMap(fromEnv) ? fromEnv.pairs : [])
        if (isScalar(pair.value) && typeof pair.value.value === 'string')
          headers.push([keyText(pair), reader.env(pair.value.value)]);
    }
    if (headers.length > 0) {
      lines.push('', 'With the headers:', '');
      for (const [name, value] of headers) lines.push(`- ${code(name)}: ${code(value)}`);
    }
  } else {
    return lines.concat('It has neither a command nor a URL: no client can start it.').join('\n');
  }
  const fetched = fetchedBy(entry);
  if (fetched.length > 0) {
    lines.push('');
    for (const f of fetched)
      lines.push(
        `- fetches ${code(f.spec)} with ${f.runner}: ${f.exact ? 'pinned' : f.pinned ? 'pinned to a range' : '**not pinned**'}`,
      );
  }
  const notes = reader.notes();
  if (notes.length > 0) lines.push('', ...notes);
  return lines.join('\n');
}

/** Reads the values of one server's entry as its client sends them, and what to say about it. */
class ValueReader {
  private readonly client: ClientInfo | null;
  private readonly masks = new Map<Node, Range[]>();
  private readonly inputs = new Map<string, { description?: string; password: boolean }>();
  private readonly filled = new Map<Filled['kind'], string[]>();
  private readonly literals = new Set<string>();
  private readonly folder: string | undefined;
  private sawReference = false;
  private fromEnvKeys = false;

  constructor(ctx: DocumentContext, client: ClientInfo | null, server: ClientServer) {
    this.client = client;
    for (const secret of secretsOf(ctx)) {
      if (secret.server !== server || secret.kind !== 'secret') continue;
      this.masks.set(secret.node, [...(this.masks.get(secret.node) ?? []), secret.at]);
    }
    if (client?.id === 'vscode') {
      const inputs = getNode(ctx.doc.root, 'inputs');
      for (const item of isSeq(inputs) ? inputs.items : []) {
        const id = getString(item, 'id');
        if (id === undefined) continue;
        const description = getString(item, 'description');
        const password = getNode(item, 'password');
        this.inputs.set(id, {
          ...(description === undefined ? {} : { description }),
          password: isScalar(password) && password.value === true,
        });
      }
    }
    // Continue's `apiKey`, a credential by its place: masked when it holds one, as client/secret-in-file judges a value.
    const apiKey = client?.id === 'continue' ? getNode(server.entry, 'apiKey') : undefined;
    if (isScalar(apiKey) && typeof apiKey.value === 'string' && holdsCredential(apiKey.value))
      this.masks.set(apiKey, [{ start: 0, end: apiKey.value.length }]);
    this.folder = client ? workspaceFolderOf(ctx, client) : undefined;
  }

  /** A scalar's value as the client sends it (`field`: the entry's key it is under), or undefined for no scalar. */
  show(node: Node | null | undefined, field: string): string | undefined {
    if (!isScalar(node) || node.value === null) return undefined;
    const value = String(node.value);
    const masks = this.masks.get(node) ?? [];
    if (typeof node.value !== 'string') return value;
    if (value.includes('$')) this.sawReference = true;
    const parts = partsOf(this.client?.id, value, field);
    if (!parts) return masked(value, { start: 0, end: value.length }, masks);
    return parts
      .map((part) => {
        if (part.kind === 'text') return masked(value, part.at, masks);
        if (part.kind === 'literal') {
          this.literals.add(part.written);
          return part.written;
        }
        this.filled.set(part.filled.kind, [...(this.filled.get(part.filled.kind) ?? []), part.written]);
        return this.marker(part.filled);
      })
      .join('');
  }

  /** A variable of the client's environment that a key of its own names (Codex). */
  env(name: string): string {
    this.fromEnvKeys = true;
    return `‹env ${name}›`;
  }

  private marker(filled: Filled): string {
    switch (filled.kind) {
      case 'env':
        return filled.fallback === undefined
          ? `‹env ${filled.name}›`
          : `‹env ${filled.name}, else ${JSON.stringify(filled.fallback)}›`;
      case 'input': {
        if (this.client?.id !== 'vscode') return `‹input ${filled.id}›`;
        const input = this.inputs.get(filled.id);
        if (!input) return `‹input ${filled.id}, not defined in "inputs"›`;
        const words = [
          ...(input.description === undefined ? [] : [JSON.stringify(cut(input.description))]),
          ...(input.password ? ['password'] : []),
        ];
        return `‹input ${filled.id}${words.length ? `: ${words.join(', ')}` : ''}›`;
      }
      case 'secret':
        return `‹secret ${filled.name}›`;
      case 'folder':
        if (this.folder === undefined) return filled.basename ? '‹workspace folder name›' : '‹workspace folder›';
        return filled.basename ? (this.folder.split('/').pop() ?? this.folder) : this.folder;
      case 'home':
        return '‹home folder›';
      case 'separator':
        return '‹path separator›';
      case 'client':
        return `‹${filled.written}›`;
    }
  }

  /** What the hover says of how the values were read: one line per kind of reference met. */
  notes(): string[] {
    const client = this.client;
    if (!client) {
      return this.sawReference ? ['The client is not known from the path, so the values are shown as written.'] : [];
    }
    const out: string[] = [];
    if (EXPANDS_NOTHING[client.id] && client.id !== 'codex') {
      out.push(`${client.label} fills in no variable: it sends every value as written.`);
      return out;
    }
    if (client.id === 'codex') {
      if (this.fromEnvKeys)
        out.push(
          'Codex reads `‹env X›` from its own environment when it starts the server (`env_vars`, `bearer_token_env_var`, `env_http_headers`); it fills in no `${X}` or `$X`.',
        );
      else if (this.sawReference) out.push('Codex fills in no variable: it sends every value as written.');
      return out;
    }
    if (!EXPLAIN[client.id]) {
      return this.sawReference
        ? [`Tool Lens does not know which variables ${client.label} fills in: the values are shown as written.`]
        : [];
    }
    const explain = EXPLAIN[client.id] ?? {};
    const said = new Set<string>();
    for (const kind of this.filled.keys()) {
      let sentence = explain[kind];
      if (sentence === undefined || said.has(sentence)) continue;
      said.add(sentence);
      if (kind === 'folder') sentence += this.folder === undefined ? ' (not known here).' : `: ${code(this.folder)}.`;
      out.push(`- ${sentence}`);
    }
    if (this.literals.size > 0)
      out.push(
        `- Sent as written: ${[...this.literals].map(code).join(', ')}, not ${client.label}'s syntax (client/variable-syntax).`,
      );
    return out.length ? [`How ${client.label} fills in the values:`, '', ...out] : [];
  }
}

/**
 * How each client that fills in variables fills each kind in, as the hover says it. Where it was
 * read (docs/internals/client-facts.md): VS Code src/vs/workbench/contrib/mcp/common/mcpRegistry.ts
 * `_replaceVariablesInLaunch` (inputs asked with interaction, the answers kept in VS Code's input
 * storage; the folder is the one the definition's configuration belongs to) and the configuration
 * resolver's variableResolver (an unset `${env:X}` is empty); Claude Code's documentation (MCP,
 * environment variable expansion); gemini-cli packages/cli/src/utils/envVarResolver.ts; Roo-Code
 * src/utils/config.ts `injectVariables`; continue core/config/yaml/LocalPlatformClient.ts (where
 * local secrets are looked up); Cursor's documentation (cursor.com/docs/mcp); amazon-q-developer-cli
 * crates/chat-cli/src/mcp_client/client.rs `substitute_env_vars` (an unset variable becomes `${X}`).
 */
const EXPLAIN: Partial<Record<ClientId, Partial<Record<Filled['kind'], string>>>> = {
  vscode: {
    env: "`‹env X›` (`${env:X}`): from VS Code's own environment when it starts the server; empty when unset.",
    input:
      '`‹input ID›` (`${input:ID}`): asked when the server starts (a password input hides what is typed); VS Code keeps the answer, not this file.',
    folder:
      '`${workspaceFolder}`: the workspace folder this `.vscode/mcp.json` belongs to, the one that holds `.vscode/`',
    home: '`‹home folder›` (`${userHome}`): the home folder of whoever runs VS Code.',
    separator: '`‹path separator›` (`${pathSeparator}`): `/`, or `\\` on Windows.',
    client: "Other `${...}`: filled by VS Code's configuration resolver when the server starts.",
  },
  'claude-code': {
    env: "`‹env X›` (`${X}`): from Claude Code's environment when it reads the file; `${X:-default}` gives the default when X is unset (an unset X with no default is an error by its documentation).",
  },
  gemini: {
    env: "`‹env X›` (`$X`, `${X}`): from Gemini CLI's environment when it loads its settings; an unset one stays as written (`${X:-default}`: the default).",
  },
  roo: {
    env: '`‹env X›` (`${env:X}`): from the environment Roo Code runs in, when it starts the server; an unset one stays as written.',
    folder:
      '`${workspaceFolder}`: the first folder of the VS Code workspace, the one whose `.roo/mcp.json` Roo Code reads',
  },
  cursor: {
    env: '`‹env X›` (`${env:X}`): from the environment Cursor runs in, when it starts the server.',
    folder: '`${workspaceFolder}`: the project folder Cursor has open, the one that holds `.cursor/`',
    home: '`‹home folder›` (`${userHome}`): the home folder of whoever runs Cursor.',
    separator: '`‹path separator›` (`${pathSeparator}`): `/`, or `\\` on Windows.',
  },
  amazonq: {
    env: "`‹env X›` (`${env:X}`): in `env` values and headers only, from Amazon Q's environment when it starts the server; an unset one becomes `${X}`. `args` and the URL are sent as written.",
  },
  kilo: {
    env: '`‹env X›` (`${env:X}`): from the environment Kilo Code runs in, when it starts the server; an unset one stays as written.',
    folder:
      '`${workspaceFolder}`: the first folder of the VS Code workspace, the one whose `.kilocode/mcp.json` Kilo Code reads',
  },
  opencode: {
    env: "`‹env X›` (`{env:X}`): from OpenCode's environment when it reads its config; empty when unset.",
    client:
      "`{file:path}`: the text of that file (from the config's folder, `~/` the home folder), read with the config.",
  },
  continue: {
    secret:
      "`‹secret X›` (`${{ secrets.X }}`): from `~/.continue/.env`, the workspace's `.continue/.env` or `.env`, or Continue's environment.",
    input: '`‹input X›` (`${{ inputs.X }}`): given by the assistant config that uses this block.',
  },
};

/** The folder a client's `${workspaceFolder}` names, from the file's path: the one holding the client's folder (`.vscode/`, `.roo/`). */
function workspaceFolderOf(ctx: DocumentContext, client: ClientInfo): string | undefined {
  const path = ctx.file.path.replace(/\\/g, '/');
  const m = client.path.exec(path);
  if (!m) return undefined;
  const prefix = path.slice(0, m.index);
  const absolute = (p: string) => /^(\/|[A-Za-z]:\/)/.test(p);
  if (absolute(path)) return prefix === '' ? '/' : prefix;
  const root = ctx.workspace.root.replace(/\\/g, '/').replace(/\/$/, '');
  if (!absolute(`${root}/`)) return undefined;
  return prefix === '' ? root || '/' : `${root}/${prefix}`;
}

/** Codex `env_vars`: names, or `{ name, source }` tables. */
function codexEnvVars(node: Node | undefined): string[] {
  if (!isSeq(node)) return [];
  const out: string[] = [];
  for (const item of node.items) {
    const name = isScalar(item) && typeof item.value === 'string' ? item.value : getString(item, 'name');
    if (name !== undefined) out.push(name);
  }
  return out;
}

/** A part of a value with the credentials in it masked. */
function masked(value: string, part: Range, masks: readonly Range[]): string {
  let out = '';
  let at = part.start;
  for (const mask of [...masks].sort((a, b) => a.start - b.start)) {
    const start = Math.max(mask.start, at);
    const end = Math.min(mask.end, part.end);
    if (start >= end) continue;
    out += value.slice(at, start) + MASK;
    at = end;
  }
  return out + value.slice(at, part.end);
}

function cut(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > DESCRIPTION_CHARS ? `${line.slice(0, DESCRIPTION_CHARS - 1)}…` : line;
}

/** A code block whose fence no run of backticks in the text can close. */
function fenced(text: string): string[] {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return [fence, text, fence];
}
