// `tool-lens catalog fetch --check`: a fetched tool list compared with the snapshot the workspace
// has committed for that server (the one `tool-lens check .` would read), as `catalog diff` compares
// two catalogs (core/catalog/diff.ts). Nothing is written; what differs is printed, so a CI job
// fails when a snapshot no longer tells the truth about its server.
import { diffCatalogs, type ServerChange } from '../core/catalog/diff.js';
import { CatalogIndex } from '../core/catalog/index.js';
import { Workspace } from '../core/workspace.js';
import type { FetchedCatalog } from '../live/fetch.js';
import { renderSnapshot } from '../live/snapshot.js';
import { loadWorkspace } from '../node/loader.js';
import { toolChangeLine } from './catalogDiff.js';
import { palette } from './colors.js';

export interface SnapshotCheck {
  server: string;
  /** matches: nothing differs; differs: `change` says what; missing: the workspace has no snapshot of it. */
  status: 'matches' | 'differs' | 'missing';
  /** The committed snapshot file (relative to the workspace), when there is one. */
  file?: string;
  change?: ServerChange;
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
  return change
    ? { server: fetched.server, status: 'differs', file: committed.origin.file, change }
    : { server: fetched.server, status: 'matches', file: committed.origin.file };
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
      for (const tool of check.change!.tools) lines.push(`  ${toolChangeLine(tool, colors)}`);
      return lines.join('\n') + '\n';
    }
  }
}
