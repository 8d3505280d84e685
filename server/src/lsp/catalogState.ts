// How a session's catalog is told: the state the language status items show (CatalogState), and
// the log's lines for a read of the folder and for the catalog, the latter logged only when they
// change.
import { dirname, isAbsolute, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CatalogIndex } from '../core/catalog/index.js';
import { toPosix } from '../node/paths.js';
import type { LiveFetchState } from './liveState.js';
import { STALE_AFTER_DAYS, type CatalogState } from './protocol.js';

export interface CatalogStateInputs {
  catalog: CatalogIndex;
  live: LiveFetchState;
  trusted: boolean;
  loaded: boolean;
  /** The active configuration file (absolute, native separators). */
  configPath: string | undefined;
}

export function catalogStateOf(
  { catalog, live, trusted, loaded, configPath }: CatalogStateInputs,
  now = Date.now(),
): CatalogState {
  const servers = catalog.serverNames;
  const stale: string[] = [];
  for (const name of servers) {
    const fetchedAt = catalog.server(name)?.fetchedAt;
    if (!fetchedAt) continue;
    const time = Date.parse(fetchedAt);
    if (!Number.isNaN(time) && now - time > STALE_AFTER_DAYS * 24 * 3600 * 1000) stale.push(name);
  }
  const { failed, failures } = live.failed();
  return {
    servers,
    files: catalog.files.length,
    stale,
    pending: live.pendingServers(),
    failed,
    failures,
    trusted,
    loaded,
    configs: configPath ? [pathToFileURL(configPath).href] : [],
  };
}

/** One log line for a read of the folder: what was read, how long it took, the configuration in use. */
export function loadWords(
  root: string | undefined,
  configPath: string | undefined,
  configProblems: number,
  files: number,
  ms: number,
): string {
  const where = root ?? '(no folder)';
  const config = configPath
    ? `configuration ${toPosix(relative(root ?? dirname(configPath), configPath))}${configProblems ? ` (${configProblems} problem${configProblems === 1 ? '' : 's'}, shown in it)` : ''}`
    : 'no .toollens.yaml: the built-in defaults';
  return `read ${where}: ${files} file${files === 1 ? '' : 's'} in ${Math.round(ms)} ms; ${config}`;
}

/** The catalog as the log says it: one line per server (tools, namespaces, file, when fetched). */
export function catalogWords(catalog: CatalogIndex, root: string | undefined): string[] {
  const lines = [
    `catalog of ${root ?? '(no folder)'}: ${catalog.serverNames.length} server${catalog.serverNames.length === 1 ? '' : 's'} from ${catalog.files.length} file${catalog.files.length === 1 ? '' : 's'}`,
  ];
  for (const name of catalog.serverNames) {
    const server = catalog.server(name);
    if (!server) continue;
    const dynamic = server.namespaces.reduce((sum, ns) => sum + ns.tools.length, 0);
    const namespaces = server.namespaces.length
      ? `, ${server.namespaces.length} namespace${server.namespaces.length === 1 ? '' : 's'} (${dynamic} dynamic tool${dynamic === 1 ? '' : 's'})`
      : '';
    const file =
      root && isAbsolute(server.origin.file) ? toPosix(relative(root, server.origin.file)) : server.origin.file;
    lines.push(
      `  catalog "${name}": ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}${namespaces}, from ${file}${server.fetchedAt ? `, fetched ${server.fetchedAt}` : ''}`,
    );
  }
  return lines;
}

/** Logs the catalog's lines when they differ from the ones logged last. */
export class CatalogLog {
  private logged: string | undefined;

  constructor(private readonly log: (message: string) => void) {}

  say(catalog: CatalogIndex, root: string | undefined): void {
    const words = catalogWords(catalog, root).join('\n');
    if (words === this.logged) return;
    this.logged = words;
    this.log(words);
  }
}
