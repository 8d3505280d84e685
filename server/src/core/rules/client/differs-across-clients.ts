// client/differs-across-clients: one project configures a server of one name for several clients,
// and the definitions start different things (another command, other arguments, another package
// version, another URL or transport). Each client starts its own file's definition as written
// (every client reads only its own file: docs/clients.md), so two agents working in one folder run
// different code under one name. A note, at the name in each file: the author may mean it.
//
// The comparison is `runsDifferently` over `whatRuns` (core/catalog/clientServers.ts), the one
// `tool-lens servers` marks its rows with: each client's variable syntax is one form, and so is a
// path from the project folder, so equivalent definitions in each client's own syntax stay quiet.
// Only files whose client is known by their path take part, and only files of one project folder
// (the folder the clients are opened in to read them) are compared.
import { clientServersIn, type Difference, type OtherDefinition } from '../../catalog/clientServers.js';
import { joinWords } from '../../text/words.js';
import { defineRule } from '../rule.js';

/** At most this many other files are named in the headline; the rest are counted. */
const NAMED_FILES = 2;

export const rule = defineRule({
  id: 'client/differs-across-clients',
  defaultSeverity: 'info',
  summary: 'A server that another client of the same project starts differently under the same name.',
  kinds: ['mcp-servers'],
  messages: {
    differs: (d: { name: string; files: string; what: string; others: string; client: string }) =>
      `"${d.name}" differs in ${d.files} (${d.what}): make them agree or rename one. ` +
      `${d.others} with another ${d.what} than ${d.client} does from this file: two agents working in ` +
      'this folder run different code under one name, and a change to one definition does not reach the other.',
  },
  check(ctx) {
    const index = ctx.workspace.clientServers;
    for (const server of clientServersIn(ctx.file.path, ctx.doc)) {
      const others = index.differing(server);
      if (others.length === 0) continue;
      ctx.report({
        messageId: 'differs',
        data: {
          name: server.name,
          files: filesWords(others),
          what: joinWords(differencesOf(others)),
          others: startedBy(others),
          client: server.clientLabel,
        },
        span: server.span,
        related: others.map((other) => ({
          file: other.server.file,
          span: other.server.span,
          message: `"${other.server.name}" as ${other.server.clientLabel} starts it`,
        })),
      });
    }
  },
});

/** `` `a` ``, `` `a` and `b` ``, `` `a` and 2 more files ``: each file once. */
function filesWords(others: readonly OtherDefinition[]): string {
  const files = [...new Set(others.map((o) => o.server.file))].map((file) => `\`${file}\``);
  if (files.length <= NAMED_FILES) return joinWords(files);
  const more = files.length - 1;
  return `${files[0]} and ${more} more files`;
}

/** Every difference any other definition has, in the order Difference lists them. */
function differencesOf(others: readonly OtherDefinition[]): string[] {
  const order: Difference[] = ['transport', 'command', 'arguments', 'package version', 'URL'];
  const found = new Set(others.flatMap((o) => o.differences));
  return order.filter((d) => found.has(d));
}

/** `Cursor starts it from `.cursor/mcp.json``, `Cursor and Codex start it from ...`. */
function startedBy(others: readonly OtherDefinition[]): string {
  const clients = [...new Set(others.map((o) => o.server.clientLabel))];
  const files = [...new Set(others.map((o) => `\`${o.server.file}\``))];
  return `${joinWords(clients)} ${clients.length === 1 ? 'starts' : 'start'} it from ${joinWords(files)}`;
}
