// Hover on a server's name in an MCP client configuration: how its client will start it. The
// command line or URL as written, the environment it gets, the variables the client fills in and
// whether what it fetches is pinned; every value Tool Lens takes for a credential is masked.
import type { DocumentContext } from '../context.js';
import { fetchedBy } from '../model/clientLaunch.js';
import { clientViewOf } from '../model/clients.js';
import { secretsOf } from '../model/clientSecrets.js';
import { getNode, isMap, isScalar, isSeq, keyText, type Node } from '../parse/nodes.js';
import { code } from './tools.js';

const MASK = '***';

/** The hover of a server's name key, or undefined when the key is no server's name. */
export function serverStartHover(ctx: DocumentContext, key: Node): string | undefined {
  const view = clientViewOf(ctx);
  const server = view.servers.find((s) => s.pair.key === key);
  if (!server) return undefined;
  const masked = new Set<Node>(
    secretsOf(ctx)
      .filter((s) => s.server === server)
      .map((s) => s.node),
  );
  const show = (node: Node | undefined): string | undefined =>
    isScalar(node) && node.value !== null ? (masked.has(node) ? MASK : String(node.value)) : undefined;
  const client = view.client?.label;
  const lines = [
    `**${code(server.name)}**${client ? `: started by ${client}` : ' (the client is not known from the path)'}`,
    '',
  ];
  const command = show(getNode(server.entry, 'command'));
  const url = show(
    getNode(server.entry, 'url') ?? getNode(server.entry, 'httpUrl') ?? getNode(server.entry, 'serverUrl'),
  );
  if (command !== undefined) {
    const args = getNode(server.entry, 'args');
    const argv = isSeq(args) ? args.items.map((i) => show(i) ?? '?') : [];
    lines.push('Runs, with no shell:', '', '```', [command, ...argv].join(' '), '```');
    const env = getNode(server.entry, 'env');
    if (isMap(env) && env.pairs.length > 0) {
      lines.push('', 'With the environment:', '');
      for (const pair of env.pairs)
        lines.push(`- ${code(keyText(pair))} = ${code(show(pair.value ?? undefined) ?? '?')}`);
    }
  } else if (url !== undefined) {
    lines.push(`Connects to ${code(url)}.`);
    const headers = getNode(server.entry, 'headers');
    if (isMap(headers) && headers.pairs.length > 0) {
      // Header values are credentials more often than not: only their names are shown.
      lines.push('', `Sends the headers ${headers.pairs.map((p) => code(keyText(p))).join(', ')}.`);
    }
  } else {
    return lines.concat('It has neither a command nor a URL: no client can start it.').join('\n');
  }
  const fetched = fetchedBy(server.entry);
  if (fetched.length > 0) {
    lines.push('');
    for (const f of fetched)
      lines.push(
        `- fetches ${code(f.spec)} with ${f.runner}: ${f.exact ? 'pinned' : f.pinned ? 'pinned to a range' : '**not pinned**'}`,
      );
  }
  return lines.join('\n');
}
