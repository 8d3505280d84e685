// client/differs-across-clients: one project configures a server of one name for several clients,
// and the definitions start different things (another command, other arguments, another package
// version, another URL or transport). Each client starts the definition written in its own file
// (docs/clients.md), so two agents working in one folder run different code under one name. A
// note, at the name in each file: the author may mean it.
//
// The comparison is `runsDifferently` over `whatRuns` (core/catalog/clientServers.ts), the one
// `tool-lens servers` marks its rows with: each client's variable syntax is one form, and so is a
// path from the project folder, so equivalent definitions in each client's own syntax stay quiet.
// Only files whose client is known by their path take part, and only files of one project folder
// (the folder the clients are opened in to read them) are compared.
import {
  clientServersIn,
  type Difference,
  type IndexedClientServer,
  type OtherDefinition,
} from '../../catalog/clientServers.js';
import { joinWords } from '../../text/words.js';
import { headlineFits } from '../../wording/headlines.js';
import { defineRule } from '../rule.js';

type Data = { name: string; files: string; what: string; others: string; client: string };

/** The headline: what differs named when it fits on a row (the why always names it). */
const headline = (d: Data, what: boolean) =>
  `"${d.name}" differs in ${d.files}${what ? ` (${d.what})` : ''}: make them agree or rename one.`;

export const rule = defineRule({
  id: 'client/differs-across-clients',
  defaultSeverity: 'info',
  summary: 'A server that another client of the same project starts differently under the same name.',
  kinds: ['mcp-servers'],
  messages: {
    differs: (d: Data) =>
      `${headlineFits(headline(d, true)) ? headline(d, true) : headline(d, false)} ` +
      `${d.others} than ${d.client} does here: two agents working in ` +
      'this folder run different code under one name, and a change to one definition does not reach the other.',
  },
  check(ctx) {
    const index = ctx.workspace.clientServers;
    for (const server of clientServersIn(ctx.file.path, ctx.doc)) {
      const others = index.differing(server);
      if (others.length === 0) continue;
      const files = [...new Set(others.map((o) => `\`${inProject(server, o.server.file)}\``))];
      const named = { name: server.name, what: joinWords(differencesOf(others)) };
      // Both files named when the headline has room for them, else the first and a count.
      const listed =
        files.length <= 2 &&
        headlineFits(headline({ ...named, files: joinWords(files), others: '', client: '' }, false))
          ? joinWords(files)
          : files.length === 1
            ? files[0]!
            : `${files[0]} and ${files.length - 1} more ${files.length === 2 ? 'file' : 'files'}`;
      ctx.report({
        messageId: 'differs',
        data: { ...named, files: listed, others: startedBy(server, others), client: server.clientLabel },
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

/** A file of the server's project, from the project folder (the folders are the same: only the rest says which file). */
function inProject(server: IndexedClientServer, file: string): string {
  return server.project !== '' && file.startsWith(`${server.project}/`) ? file.slice(server.project.length + 1) : file;
}

/** The differences in the order a message names them. */
const DIFFERENCES: readonly Difference[] = ['transport', 'command', 'arguments', 'package version', 'URL'];

/** Every difference any other definition has, in the order Difference lists them. */
function differencesOf(others: readonly OtherDefinition[]): string[] {
  const found = new Set(others.flatMap((o) => o.differences));
  return DIFFERENCES.filter((d) => found.has(d));
}

/**
 * What each other file does: `Cursor (`.cursor/mcp.json`) starts it with another URL`, then
 * `, Codex (`.codex/config.toml`) with another command` for each further file.
 */
function startedBy(server: IndexedClientServer, others: readonly OtherDefinition[]): string {
  const byFile = new Map<string, { client: string; differences: Set<Difference> }>();
  for (const other of others) {
    const held = byFile.get(other.server.file) ?? { client: other.server.clientLabel, differences: new Set() };
    for (const difference of other.differences) held.differences.add(difference);
    byFile.set(other.server.file, held);
  }
  return [...byFile]
    .map(([file, { client, differences }], i) => {
      const what = joinWords(DIFFERENCES.filter((d) => differences.has(d)));
      return `${client} (\`${inProject(server, file)}\`)${i === 0 ? ' starts it' : ''} with another ${what}`;
    })
    .join(', ')
    .concat(byFile.size > 1 ? ',' : '');
}
