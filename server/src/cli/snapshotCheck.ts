// `tool-lens catalog fetch --check`: a fetched tool list compared with the snapshot the workspace
// has committed for that server (the one `tool-lens check .` would read), as `catalog diff` compares
// two catalogs (core/catalog/diff.ts). Nothing is written; what differs is printed, tool by tool
// with the path of every field that differs and the changed words, so a CI job fails when a
// snapshot no longer tells the truth about its server, and says why; a difference only in text
// that names this machine (its host name, a home or temporary folder, the workspace) is said to be
// one.
import { homedir, hostname, tmpdir, userInfo } from 'node:os';
import { differingPaths, diffCatalogs, type ServerChange, type TextChange } from '../core/catalog/diff.js';
import type { CatalogServer } from '../core/catalog/model.js';
import { CatalogIndex } from '../core/catalog/index.js';
import { Workspace } from '../core/workspace.js';
import type { FetchedCatalog } from '../live/fetch.js';
import { renderSnapshot } from '../live/snapshot.js';
import { loadWorkspace } from '../node/loader.js';
import { textChangeLines, toolChangeLine } from './catalogDiff.js';
import { palette } from './colors.js';

export interface SnapshotCheck {
  server: string;
  /** matches: nothing differs; differs: `change` says what; missing: the workspace has no snapshot of it. */
  status: 'matches' | 'differs' | 'missing';
  /** The committed snapshot file (relative to the workspace), when there is one. */
  file?: string;
  change?: ServerChange;
  /** Names of this machine that the server's changed text holds and the snapshot's does not. */
  machine?: string[];
  /**
   * Where the server's initialize result differs from what the snapshot records, by path
   * (`fetched.capabilities.tasks`, `fetched.serverInfo.version`); a field the snapshot does not
   * record at all (an older or a hand-written snapshot) is not compared.
   */
  facts?: string[];
  /** The server's instructions, when they changed. */
  instructions?: TextChange;
}

/** The catalog the workspace has committed, read once for every server a `--check` compares. */
export function committedCatalog(root: string, log: (line: string) => void): CatalogIndex {
  return loadWorkspace({ paths: ['.'], cwd: root, log }).workspace.catalog;
}

export function compareWithCommitted(root: string, catalog: CatalogIndex, fetched: FetchedCatalog): SnapshotCheck {
  const committed = catalog.server(fetched.server);
  if (!committed) return { server: fetched.server, status: 'missing' };
  // The fetched list read back as the snapshot it would be, so both sides are read the same way.
  const scratch = new Workspace(root);
  const index = new CatalogIndex();
  index.addFile(scratch.parse(`${fetched.server}.fetched.catalog.yaml`, renderSnapshot([fetched], 'yaml')));
  const live = index.server(fetched.server);
  const diff = diffCatalogs([committed], live ? [live] : []);
  const change = diff.servers[0];
  const { facts, instructions } = live ? factChanges(committed, live) : { facts: [], instructions: undefined };
  if (!change && facts.length === 0) return { server: fetched.server, status: 'matches', file: committed.origin.file };
  const texts = [...(change?.tools.flatMap((t) => t.descriptions) ?? []), ...(instructions ? [instructions] : [])];
  const machine = machineNamesIn(texts, root);
  return {
    server: fetched.server,
    status: 'differs',
    file: committed.origin.file,
    ...(change ? { change } : {}),
    ...(facts.length > 0 ? { facts } : {}),
    ...(instructions ? { instructions } : {}),
    ...(machine.length > 0 ? { machine } : {}),
  };
}

/** The initialize facts a snapshot records, compared: the checks read them (revision, task support, icons). */
function factChanges(committed: CatalogServer, live: CatalogServer): { facts: string[]; instructions?: TextChange } {
  const facts: string[] = [];
  for (const field of ['protocolVersion', 'serverInfo', 'capabilities', 'instructions'] as const) {
    const before = committed[field];
    const after = live[field];
    // A field the snapshot does not record (an older or a hand-written one) is not compared.
    if (before !== undefined) facts.push(...differingPaths(before, after, `fetched.${field}`));
  }
  const before = committed.instructions;
  const after = live.instructions;
  return {
    facts,
    ...(before !== after && before !== undefined ? { instructions: { field: 'instructions', before, after } } : {}),
  };
}

/** What names this machine: the workspace, home and temporary folders, its host and user names. */
function machineNames(root: string): { name: string; word: boolean }[] {
  const names = [root, homedir(), tmpdir()].map((name) => ({ name, word: false }));
  names.push({ name: hostname(), word: true });
  try {
    names.push({ name: userInfo().username, word: true });
  } catch {
    // no user name to look for
  }
  // A host name may be short (`vm`); it is matched as a whole word only.
  return names.filter((n) => n.name.length >= (n.word ? 2 : 3));
}

/** The names of this machine that the live side's changed texts hold and the committed side's do not. */
function machineNamesIn(texts: readonly TextChange[], root: string): string[] {
  const found = new Set<string>();
  const names = machineNames(root);
  const holds = (text: string | undefined, { name, word }: { name: string; word: boolean }) =>
    text !== undefined &&
    (word
      ? new RegExp(`(?<![\\p{L}\\p{N}_-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_-])`, 'u').test(
          text,
        )
      : text.includes(name));
  for (const text of texts)
    for (const name of names) if (holds(text.after, name) && !holds(text.before, name)) found.add(name.name);
  // A name inside another one found (the user name in the home folder) says nothing more.
  return [...found].filter((name) => ![...found].some((other) => other !== name && other.includes(name)));
}

export function formatSnapshotCheck(check: SnapshotCheck): string {
  switch (check.status) {
    case 'matches':
      return `${check.server}: ${check.file} matches the server\n`;
    case 'missing':
      return `${check.server}: no snapshot of this server in the workspace (tool-lens catalog fetch ${check.server} writes one)\n`;
    case 'differs': {
      const lines = [`${check.server}: ${check.file} no longer matches the server:`];
      const colors = palette(false);
      if (check.facts) lines.push(`  the server's initialize result differs at: ${check.facts.join(', ')}`);
      if (check.instructions)
        for (const line of textChangeLines([check.instructions], colors)) lines.push(`    ${line}`);
      for (const tool of check.change?.tools ?? []) {
        lines.push(`  ${toolChangeLine(tool, colors)}`);
        if (tool.changedFields.length > 0) lines.push(`    differs at: ${tool.changedFields.join(', ')}`);
        for (const line of textChangeLines(tool.descriptions, colors)) lines.push(`    ${line}`);
      }
      if (check.machine)
        lines.push(
          `  The server's text names this machine (${check.machine.join(', ')}): a snapshot of it differs wherever the server runs elsewhere; check it on the machine that wrote it, or start the server with the same paths there.`,
        );
      return lines.join('\n') + '\n';
    }
  }
}
